import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { buildCodeVersion } from './scripts/code-version.mjs';

const require = createRequire(import.meta.url);

/** Copies advent.z5 from the glkote-term package into public/stories/ (never committed), in the
 * `config` hook — before the dev server indexes public/, so the first `npm start` serves it too. */
function bundledStories(): Plugin {
  return {
    name: 'metattl-bundled-stories',
    config() {
      const target = resolve(import.meta.dirname, 'public/stories/advent.z5');
      if (!existsSync(target)) {
        mkdirSync(resolve(import.meta.dirname, 'public/stories'), { recursive: true });
        copyFileSync(require.resolve('glkote-term/tests/advent.z5'), target);
      }
    },
  };
}

/** Serves an extra stories directory (STORIES_DIR, e.g. ../shared/stories) at /local-stories/ in dev. */
function localStories(): Plugin {
  const dir = process.env.STORIES_DIR;
  return {
    name: 'metattl-local-stories',
    configureServer(server) {
      if (!dir) return;
      server.middlewares.use('/local-stories/', async (req, res, next) => {
        const { readFile, readdir } = await import('node:fs/promises');
        const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0] ?? '');
        try {
          if (name === '' || name === 'index.json') {
            const files = (await readdir(dir)).filter((f) => /\.(z[1-8]|zblorb|zlb)$/i.test(f));
            res.setHeader('content-type', 'application/json');
            res.end(JSON.stringify(files));
          } else if (/^[\w.-]+$/.test(name)) {
            res.setHeader('content-type', 'application/octet-stream');
            res.end(await readFile(resolve(dir, name)));
          } else next();
        } catch {
          res.statusCode = 404;
          res.end('not found');
        }
      });
    },
  };
}

/**
 * The page starts in stages (src/ui/main.ts: each stage's modules are imported, then evaluated in a
 * main-thread task of its own). So that staging costs no network round trips, index.html preloads
 * every chunk the stages import statically (not the views, which load when first shown, nor the
 * other composition roots main.ts loads instead of the stages: the booth's, src/ui/kiosk/ for
 * ?kiosk=1, and the workshop room's teacher and projector pages, src/ui/room-teacher/ and
 * src/ui/projector/ for ?view=room-teacher / ?view=projector).
 */
/** The composition roots main.ts loads instead of the page's stages (their folders). */
const OTHER_ROOTS = /[\\/]src[\\/]ui[\\/](kiosk|room-teacher|projector)[\\/]/;

function preloadStages(): Plugin {
  return {
    name: 'metattl-preload-stages',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const { bundle, chunk } = ctx;
        if (!bundle || !chunk) return [];
        const files = new Set<string>();
        const visit = (file: string): void => {
          const out = bundle[file];
          if (files.has(file) || out?.type !== 'chunk') return;
          files.add(file);
          out.imports.forEach(visit);
        };
        // The booth and the room's teacher and projector pages are composition roots of their own,
        // loaded instead of the stages: never preloaded.
        const otherRoot = (file: string): boolean => {
          const out = bundle[file];
          return out?.type === 'chunk' && OTHER_ROOTS.test(out.facadeModuleId ?? '');
        };
        chunk.dynamicImports.filter((file) => !otherRoot(file)).forEach(visit);
        chunk.imports.forEach((file) => files.delete(file)); // Vite preloads these already
        return [...files].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

/**
 * Every dependency a lazily loaded view (or the tour) imports, pre-bundled when the dev server
 * starts: otherwise a cold server (no cache) discovers them on first use, re-optimises and reloads
 * the page — which on a first visit lost the tour. ifvms stays out (the engine worker imports its
 * source as is).
 */
const LAZY_VIEW_DEPS = [
  'bits-ui', 'chart.js', 'marked', 'dompurify', 'diff', 'openai', 'gpt-tokenizer/encoding/cl100k_base', 'papaparse', 'p-limit', 'p-retry',
  'fflate', 'eventsource-parser', '@wllama/wllama', 'dom-accessibility-api', 'zod', 'idb', '@noble/hashes/utils.js', '@noble/hashes/sha2.js', '@noble/hashes/legacy.js',
];

/**
 * Cross-origin isolation (COOP + COEP) for the dev server and `vite preview`: with it the page may
 * use SharedArrayBuffer, so the in-page local model (wllama) runs multi-threaded; without it,
 * single-threaded. Same-origin assets and CORS fetches (providers, model downloads) still load.
 */
const ISOLATION_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  base: './',
  // The code version every record carries (src/common/code-version.ts).
  define: { __METATTL_CODE_VERSION__: JSON.stringify(buildCodeVersion(import.meta.dirname)) },
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  // VITE_CACHE_DIR: where the dev server keeps its pre-bundled dependencies (a temp dir gives a cold start).
  cacheDir: process.env.VITE_CACHE_DIR ?? 'node_modules/.vite',
  optimizeDeps: { include: LAZY_VIEW_DEPS },
  plugins: [bundledStories(), localStories(), svelte(), preloadStages()],
  worker: { format: 'es' },
  // The manifest (dist/.vite/manifest.json) is what test/bundle.test.ts follows from index.html.
  build: { target: 'es2022', sourcemap: true, manifest: true },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/build-cli-setup.ts'],
    // A short default, so a test that grows slow shows; each slow test states its own budget.
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
