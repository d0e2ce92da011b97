/**
 * The per-step output cap of the headless GlkOte on test/fixtures/flood/flood.z5 (built by
 * scripts/build-test-stories.sh): a step that prints 600,000 characters keeps the first
 * MAX_STEP_OUTPUT_CHARS and says the rest was dropped, and the game goes on; a step that prints
 * forever stays within a small worker heap until the watchdog ends it as `interpreter_hang`
 * (without the cap glkapi accumulates the text and the worker runs out of memory).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeWorkerFactory } from '../src/engine/node/worker-factory.ts';
import { EngineProxy } from '../src/engine/engine-proxy.ts';
import { MAX_STEP_OUTPUT_CHARS, outputCutNote } from '../src/engine/glkote.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';

const floodBytes = new Uint8Array(readFileSync(new URL('./fixtures/flood/flood.z5', import.meta.url)));
/** Engine workers with a 96 MB old-generation heap: an unbounded step would exhaust it. */
const smallHeapWorker = nodeWorkerFactory({ maxOldGenerationSizeMb: 96 });

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
