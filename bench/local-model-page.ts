/**
 * The Chromium half of bench/local-model-bench.ts: bundles bench/local-model-page-entry.ts with
 * esbuild, serves it with wllama's wasm file and the model on 127.0.0.1 with the COOP/COEP
 * headers (as e2e/serve-dist.ts, so the page is cross-origin isolated and wllama can run
 * multi-threaded), opens it in Debian's Chromium and runs the page's measurement once per thread
 * count, each in a fresh page. Needs no build of the app (dist/).
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import type { PageBenchConfig, PageBenchResult } from './local-model-page-entry.ts';

const repoRoot = resolve(import.meta.dirname, '..');
const WASM = resolve(repoRoot, 'node_modules/@wllama/wllama/esm/wasm/wllama.wasm');
const ISOLATION = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const PAGE = '<!doctype html><meta charset="utf-8"><title>local model bench</title><script type="module" src="/entry.js"></script>';

/**
 * Measure `modelFile` in Chromium with each of `threads`.
 * @throws Error when Chromium or the bundle fails, or the page's measurement throws
 */
export async function benchInChromium(modelFile: string, threads: number[], config: Pick<PageBenchConfig, 'genTokens' | 'actorSteps' | 'promptRepeats'>): Promise<PageBenchResult[]> {
  const bundle = await build({ entryPoints: [resolve(import.meta.dirname, 'local-model-page-entry.ts')], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
  const files: Record<string, { type: string; body: () => Promise<Buffer | string> }> = {
    '/': { type: 'text/html', body: async () => PAGE },
    '/entry.js': { type: 'text/javascript', body: async () => Buffer.from(bundle.outputFiles[0]!.contents) },
    '/wllama.wasm': { type: 'application/wasm', body: () => readFile(WASM) },
    '/model.gguf': { type: 'application/octet-stream', body: () => readFile(modelFile) },
  };
  const server = createServer((req, res) => {
    const file = files[(req.url ?? '/').split('?')[0]!];
    if (!file) return void res.writeHead(404, ISOLATION).end('not found');
    void file.body().then((body) => res.writeHead(200, { ...ISOLATION, 'content-type': file.type }).end(body), () => res.writeHead(500, ISOLATION).end());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const results: PageBenchResult[] = [];
    for (const n of threads) {
      const page = await browser.newPage();
      await page.goto(`${base}/`);
      await page.waitForFunction(() => 'localModelBench' in window);
      const asked: PageBenchConfig = { modelUrl: `${base}/model.gguf`, wasmUrl: `${base}/wllama.wasm`, threads: n, ...config };
      results.push(await page.evaluate((c) => (window as unknown as { localModelBench: (c: PageBenchConfig) => Promise<PageBenchResult> }).localModelBench(c), asked));
      await page.close();
    }
    return results;
  } finally {
    await browser.close();
    await new Promise((done) => server.close(done));
  }
}
