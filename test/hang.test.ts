/**
 * The EngineProxy watchdog on a story that never returns: test/fixtures/hang/hang.z5 (built by
 * scripts/build-test-stories.sh) reads one line, then runs a Z-code infinite loop. The step must
 * end as an `interpreter_hang` fault within the budget while this thread keeps running, and a new
 * proxy must still play advent.z5 (its shipped regtest prologue) afterwards.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineProxy, type WorkerFactory } from '../src/engine/engine-proxy.ts';
import { createNodeWorker } from '../src/engine/node/worker-factory.ts';
import { parseRegtest, runRegtestCase } from './support/regtest.ts';

const hangBytes = new Uint8Array(readFileSync(new URL('./fixtures/hang/hang.z5', import.meta.url)));
const testsDir = join(dirname(createRequire(import.meta.url).resolve('glkote-term/package.json')), 'tests');
const adventBytes = new Uint8Array(readFileSync(join(testsDir, 'advent.z5')));
/** Watchdog budget for one step, ms. */
const STEP_TIMEOUT_MS = 1500;

/** The Node factory, counting the workers it made and the ones terminated. */
function countingFactory(): { factory: WorkerFactory; created: number; terminated: number } {
  const counts = { created: 0, terminated: 0 };
  const factory: WorkerFactory = () => {
    const port = createNodeWorker();
    counts.created++;
    return { ...port, terminate: () => (counts.terminated++, port.terminate()) };
  };
  return Object.assign(counts, { factory });
}

const proxies: EngineProxy[] = [];
afterEach(() => {
  for (const proxy of proxies.splice(0)) proxy.dispose();
});

describe('EngineProxy watchdog', () => {
  it('turns a Z-code infinite loop into an interpreter_hang fault and stays usable', async () => {
    const workers = countingFactory();
    const hang = await EngineProxy.load(workers.factory, hangBytes, { seed: 0 }, { stepTimeoutMs: STEP_TIMEOUT_MS });
    proxies.push(hang);
    expect(hang.start.text).toBe('Hang test story.\nType any command and the story will loop forever.\n\n>');
    expect(hang.start.inputKind).toBe('line');
    expect(hang.start.done).toBe(false);

    // This thread's event loop must keep turning while the worker spins.
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 100);
    const began = performance.now();
    const result = await hang.step('look');
    const elapsedMs = performance.now() - began;
    clearInterval(ticker);

    expect(result.fault?.kind).toBe('interpreter_hang');
    expect(result.fault?.message).toContain(`${STEP_TIMEOUT_MS} ms`);
    expect(result.done).toBe(true);
    expect(result.command).toBe('look');
    expect(result.inputKind).toBeNull();
    expect(elapsedMs).toBeGreaterThanOrEqual(STEP_TIMEOUT_MS - 5);
    // Not a timing test: the watchdog cannot fire before its budget, and this thread's timers ran
    // while the worker spun (they could not if the loop ran on this thread).
    expect(ticks).toBeGreaterThanOrEqual(1);
    expect(workers).toMatchObject({ created: 1, terminated: 1 });
    expect(process.kill(process.pid, 0)).toBe(true);
    await expect(hang.step('look')).rejects.toMatchObject({ name: 'EngineError', code: 'game_over' });

    const advent = await EngineProxy.load(workers.factory, adventBytes, { seed: 0 }, { stepTimeoutMs: STEP_TIMEOUT_MS * 4 });
    proxies.push(advent);
    const [prologue] = parseRegtest(readFileSync(join(testsDir, 'advent.z5.regtest'), 'utf8')).cases;
    expect(await runRegtestCase(advent, prologue!)).toEqual([]);
    const look = await advent.step('look');
    expect(look.fault).toBeNull();
    expect(look.statusLine).toBe('Inside Building  Score: 36  Moves: 14');
    expect(workers.created).toBe(2);
  });
});
