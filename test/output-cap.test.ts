/**
 * The per-step output cap of the headless GlkOte on test/fixtures/flood/flood.z5 (built by
 * scripts/build-test-stories.sh): a step that prints 600,000 characters keeps the first
 * MAX_STEP_OUTPUT_CHARS and says the rest was dropped, and the game goes on; a step that prints
 * forever stays within a small worker heap until the watchdog ends it as `interpreter_hang`
 * (without the cap glkapi accumulates the text and the worker runs out of memory).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineProxy, type WorkerFactory } from '../src/engine/engine-proxy.ts';
import { MAX_STEP_OUTPUT_CHARS, outputCutNote } from '../src/engine/glkote.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';

const floodBytes = new Uint8Array(readFileSync(new URL('./fixtures/flood/flood.z5', import.meta.url)));
const require = createRequire(import.meta.url);
const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
const entry = new URL('../src/engine/node/engine-worker.ts', import.meta.url).href;

/** The Node worker factory with a 96 MB old-generation heap: an unbounded step would exhaust it. */
const smallHeapWorker: WorkerFactory = () => {
  const worker = new Worker(`import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`, {
    eval: true, resourceLimits: { maxOldGenerationSizeMb: 96 },
  });
  worker.unref();
  return {
    postMessage: (message) => worker.postMessage(message),
    listen(onMessage, onError) {
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', (code) => {
        if (code !== 0 && code !== 1) onError(new Error(`worker exited with code ${code}`));
      });
    },
    terminate: () => void worker.terminate(),
  };
};

const proxies: EngineProxy[] = [];
afterEach(() => {
  for (const proxy of proxies.splice(0)) proxy.dispose();
});

describe('per-step output cap', () => {
  it('keeps the first MAX_STEP_OUTPUT_CHARS of a 600,000-character step, says so, and the game goes on', () => {
    const engine = loadStory(floodBytes, { seed: 0 });
    const burst = engine.step('burst');
    expect(burst.fault).toBeNull();
    expect(burst.inputKind).toBe('line');
    expect(burst.text.endsWith(`\n${outputCutNote(MAX_STEP_OUTPUT_CHARS)}\n`)).toBe(true);
    const kept = burst.text.slice(0, -(outputCutNote(MAX_STEP_OUTPUT_CHARS).length + 2));
    expect(kept.startsWith('Flood line xxx')).toBe(true);
    // Whole lines of 101 characters (with their newline) up to the cap; "Burst done." was dropped.
    expect(kept.length).toBeGreaterThan(MAX_STEP_OUTPUT_CHARS - 102);
    expect(kept.length).toBeLessThanOrEqual(MAX_STEP_OUTPUT_CHARS);
    expect(burst.text).not.toContain('Burst done.');
    expect(outputCutNote(MAX_STEP_OUTPUT_CHARS)).toBe('[Output cut: the story printed more than 200,000 characters in this step; the rest was dropped.]');
    // The next step starts counting afresh.
    const again = engine.step('burst');
    expect(again.text.length).toBe(burst.text.length);
  });

  it('a story that prints forever ends as interpreter_hang within a 96 MB worker heap', async () => {
    const flood = await EngineProxy.load(smallHeapWorker, floodBytes, { seed: 0 }, { stepTimeoutMs: 4000 });
    proxies.push(flood);
    const result = await flood.step('flood');
    expect(result.fault?.kind).toBe('interpreter_hang');
    expect(result.done).toBe(true);
  }, 30_000);
});
