/**
 * EngineProxy.stepBatch (the `batch` request `metattl replay` sends): on a real story its results
 * equal step() called once per command (and so the replay output built from them), it stops at
 * the first done step, and a runaway story in the middle of a batch ends it with the same
 * `interpreter_hang` result step() gives, at that step (test/fixtures/hang/hang-later.z5: two
 * answers, then a Z-code infinite loop on the third command).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { EngineProxy } from '../src/engine/engine-proxy.ts';
import type { StepResult, StoryRules } from '../src/engine/interface.ts';
import { createNodeWorker } from '../src/engine/node/worker-factory.ts';
import { jerichoGame, readShared, REPO_ROOT } from './support/shared.ts';

const hangLaterBytes = new Uint8Array(readFileSync(new URL('./fixtures/hang/hang-later.z5', import.meta.url)));
/** Watchdog budget for one step, ms: far above a normal step, short enough for a test. */
const STEP_TIMEOUT_MS = 1000;

const proxies: EngineProxy[] = [];
afterEach(() => proxies.splice(0).forEach((p) => p.dispose()));

async function load(bytes: Uint8Array, seed: number, rules?: StoryRules): Promise<EngineProxy> {
  const proxy = await EngineProxy.load(createNodeWorker, bytes, { seed, rules }, { stepTimeoutMs: STEP_TIMEOUT_MS });
  proxies.push(proxy);
  return proxy;
}

/** replay.ts's loop before batches: step() per command, stopping once a result is done. */
async function stepByStep(proxy: EngineProxy, commands: readonly string[]): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const command of commands) {
    if (results.at(-1)?.done) break;
    results.push(await proxy.step(command));
  }
  return results;
}

describe('EngineProxy.stepBatch', () => {
  it('equals step() per command on zork1, streams every result in order and stops at the death', async () => {
    const zork = jerichoGame('zork1');
    const bytes = new Uint8Array(readShared(`stories/${zork.rom}`));
    const entry = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8'))).stories.find((s) => s.id === 'zork1')!;
    // With the catalog rules at seed 0 (as `metattl replay zork1 --seed 0` plays it) the player
    // dies at step 38 of the walkthrough, so the batch must stop there, the rest unplayed.
    const commands = zork.walkthrough.slice(0, 60);
    const expected = await stepByStep(await load(bytes, 0, rulesFor(entry)), commands);
    expect(expected).toHaveLength(38);
    expect(expected.at(-1)).toMatchObject({ done: true, endReason: 'death', fault: null });

    const batch = await load(bytes, 0, rulesFor(entry));
    const streamed: [number, StepResult][] = [];
    const results = await batch.stepBatch(commands, (result, index) => streamed.push([index, result]));
    expect(results).toEqual(expected);
    expect(streamed).toEqual(expected.map((r, i) => [i, r]));
    await expect(batch.stepBatch(['look'])).rejects.toMatchObject({ name: 'EngineError', code: 'game_over' });
    expect(await batch.reset()).toEqual(batch.start);
    expect(await batch.stepBatch([])).toEqual([]);
    expect(await batch.stepBatch(commands.slice(0, 5))).toEqual(expected.slice(0, 5));
  });

  it('ends with interpreter_hang at the step that loops, as step() does, and reset() revives', async () => {
    const commands = ['one', 'two', 'three', 'four', 'five'];
    const expected = await stepByStep(await load(hangLaterBytes, 0), commands);
    expect(expected.map((r) => r.fault?.kind ?? null)).toEqual([null, null, 'interpreter_hang']);

    const batch = await load(hangLaterBytes, 0);
    const results = await batch.stepBatch(commands);
    expect(results).toEqual(expected);
    expect(results.map((r) => r.text)).toEqual(['Turn 1.\n\n>', 'Turn 2.\n\n>', '']);
    expect(results[2]).toMatchObject({ command: 'three', done: true, inputKind: null, fault: { message: expect.stringContaining(`${STEP_TIMEOUT_MS} ms`) } });
    await expect(batch.stepBatch(['look'])).rejects.toMatchObject({ name: 'EngineError', code: 'game_over' });
    await batch.reset();
    expect(await batch.stepBatch(['again'])).toMatchObject([{ text: 'Turn 1.\n\n>', fault: null }]);
  }, 60_000);

  it('an onStep that throws rejects the batch and stops the worker', async () => {
    const batch = await load(hangLaterBytes, 0);
    const failing = batch.stepBatch(['one', 'two'], () => {
      throw new Error('caller failed');
    });
    await expect(failing).rejects.toThrow('caller failed');
    await expect(batch.stepBatch(['look'])).rejects.toMatchObject({ code: 'game_over' });
  });
});
