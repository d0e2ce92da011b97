/**
 * The page's main chunk must not carry ifvms: the Z-machine runs only in the engine Worker, so
 * the page imports the protocol and the proxy (protocol.ts, engine-proxy.ts), never the worker
 * handler (worker-handler.ts) or the engine — nor Chart.js, marked, DOMPurify, the tokenizer, zod,
 * elkjs, wllama or any other view's state, which load with the views that use them. Builds the
 * production bundle into a temporary directory (or reads METATTL_BUNDLE_DIR's) and follows the
 * Vite manifest from index.html through its static imports.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/shared.ts';

/** Strings only ifvms' ZVM holds (src/zvm.js), kept verbatim by the minifier. */
const IFVMS_MARKERS = ['Unsupported Z-Machine version', 'This is not a Z-Code file'];

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

/** A production build of the current sources to read instead of building one (`npm test` builds
 * dist/ once, for this file and the e2e tests, and passes METATTL_BUNDLE_DIR=dist). */
const given = process.env.METATTL_BUNDLE_DIR;
const outDir = given ? resolve(REPO_ROOT, given) : mkdtempSync(join(tmpdir(), 'metattl-bundle-'));
afterAll(() => {
  if (!given) rmSync(outDir, { recursive: true, force: true });
});

/** Files loaded with the page before any user action: the entry, the start-up stages it imports
 * (src/ui/main.ts imports them dynamically, one main-thread task each; index.html preloads them),
 * and their static imports. The views' chunks (App.svelte's dynamic imports) are not among them. */
function mainChunkFiles(manifest: Record<string, ManifestChunk>): string[] {
  const entry = Object.entries(manifest).find(([key, chunk]) => chunk.isEntry && key.endsWith('index.html'));
  if (!entry) throw new Error('the manifest has no index.html entry');
  const files = new Set<string>();
  const visit = (key: string): void => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  visit(entry[0]);
  // The booth's entry (src/ui/kiosk/, ?kiosk=1) and the workshop room's teacher and projector pages
  // (src/ui/room-teacher/, src/ui/projector/) load instead of the stages.
  for (const stage of entry[1].dynamicImports ?? []) if (!/src\/ui\/(kiosk|room-teacher|projector)\//.test(stage)) visit(stage);
  return [...files];
}

describe('production bundle', () => {
  it('keeps ifvms out of the main chunk and in the engine worker', async () => {
    if (!given) {
      await build({
        root: REPO_ROOT,
        configFile: resolve(REPO_ROOT, 'vite.config.ts'),
        logLevel: 'silent',
        build: { outDir, emptyOutDir: true, sourcemap: false },
      });
    }
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const mainFiles = mainChunkFiles(manifest);
    const mainCode = mainFiles.map((file) => readFileSync(join(outDir, file), 'utf8')).join('\n');
    expect(mainCode.includes('metattl-engine'), 'the page starts the engine worker').toBe(true);
    for (const marker of IFVMS_MARKERS) expect(mainCode.includes(marker), `main chunk (${mainFiles.join(', ')}) holds "${marker}"`).toBe(false);

    const assets = readdirSync(join(outDir, 'assets')).filter((file) => file.endsWith('.js'));
    const withIfvms = assets.filter((file) => readFileSync(join(outDir, 'assets', file), 'utf8').includes(IFVMS_MARKERS[0]!));
    expect(withIfvms.length).toBeGreaterThan(0);
    expect(withIfvms.every((file) => file.startsWith('engine-worker'))).toBe(true);
    expect(mainFiles.some((file) => withIfvms.some((w) => file.endsWith(w)))).toBe(false);
  }, 90_000); // a production build: ~30 s on 2 loaded cores

  it('loads Chart.js, marked + DOMPurify, papaparse and the tokenizer only with the views that use them', () => {
    // Runs after the build above (same outDir); the strings are kept verbatim by the minifier.
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const mainFiles = mainChunkFiles(manifest);
    const mainCode = mainFiles.map((file) => readFileSync(join(outDir, file), 'utf8')).join('\n');
    const LAZY = { 'Chart.js': "can't acquire context", marked: 'marked(): input parameter', DOMPurify: 'DOMPurify', papaparse: 'Unable to serialize unrecognized input' };
    for (const [lib, marker] of Object.entries(LAZY)) {
      expect(mainCode.includes(marker), `${lib} is in the main chunk (${mainFiles.join(', ')})`).toBe(false);
      const assets = readdirSync(join(outDir, 'assets')).filter((file) => file.endsWith('.js'));
      expect(assets.some((file) => readFileSync(join(outDir, 'assets', file), 'utf8').includes(marker)), `${lib} is in no chunk at all`).toBe(true);
    }
    expect(mainFiles.some((file) => file.includes('cl100k_base'))).toBe(false);
    expect(mainFiles.some((file) => /LearnView|EvolveView|EvaluateView/.test(file))).toBe(false);
    // Nor is the booth preloaded by index.html (vite.config.ts, preloadStages).
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(html).toContain('rel="modulepreload"');
    expect(html.includes('kiosk')).toBe(false);
    // Nor the workshop room's teacher and projector pages (Chart.js and the room client are theirs).
    expect(html.includes('teacher-main')).toBe(false);
    expect(html.includes('projector-main')).toBe(false);
  });

  it('keeps zod, the map\'s layout (elkjs), the in-page model (wllama) and the other views\' states out of the first load', () => {
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const mainFiles = mainChunkFiles(manifest);
    const mainCode = mainFiles.map((file) => readFileSync(join(outDir, file), 'utf8')).join('\n');
    const assets = readdirSync(join(outDir, 'assets')).filter((file) => file.endsWith('.js'));
    // Strings the minifier keeps verbatim: zod's, elkjs', wllama's, and the Evolve view state's own.
    const LAZY = { zod: 'Invalid input to extend', elkjs: 'org.eclipse.elk', wllama: 'wllamaStart', 'the Evolve state': 'This run is running: stop it before deleting it.' };
    for (const [what, marker] of Object.entries(LAZY)) {
      expect(mainCode.includes(marker), `${what} is in the first load (${mainFiles.join(', ')})`).toBe(false);
      expect(assets.some((file) => readFileSync(join(outDir, 'assets', file), 'utf8').includes(marker)), `${what} is in no chunk at all`).toBe(true);
    }
  });

  it('loads the web task catalog and sites only with the first web task (not with the page)', () => {
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const mainCode = mainChunkFiles(manifest).map((file) => readFileSync(join(outDir, file), 'utf8')).join('\n');
    const marker = 'is not a web task id (expected web:'; // src/web/tasks/catalog.ts
    expect(mainCode.includes(marker), 'the web task catalog is in the main chunk').toBe(false);
    const assets = readdirSync(join(outDir, 'assets')).filter((file) => file.endsWith('.js'));
    expect(assets.some((file) => readFileSync(join(outDir, 'assets', file), 'utf8').includes(marker)), 'the catalog is in no chunk at all').toBe(true);
  });
});
