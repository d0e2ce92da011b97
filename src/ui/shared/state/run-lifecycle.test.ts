/**
 * The run lifecycle every view's run shares: phases from start to idle, Stop aborting the run's
 * signal, a thrown error shown in the error slot with the key scrubbed (then the `failed` hook),
 * the guard's slot, and re-reading a watched run until told to stop. Time is a manual schedule.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { forgetSecrets, KEY_HIDDEN, registerSecret } from '../../../common/secrets.ts';
import { errorText } from './error-text.ts';
import type { Schedule } from './retry-countdown.svelte.ts';
import { RunLifecycle, WATCH_INTERVAL_MS, type LifecycleHooks } from './run-lifecycle.svelte.ts';

const KEY = 'fake-test-key-lifecycle-0123456789abcdef';
afterEach(() => forgetSecrets());

/** A schedule whose callbacks run when the test says so. */
function manualSchedule(): { schedule: Schedule; pending: { delayMs: number; run: () => void }[] } {
  const pending: { delayMs: number; run: () => void }[] = [];
  return {
    pending,
    schedule: (callback, delayMs) => {
      const item = { delayMs, run: callback };
      pending.push(item);
      return () => void pending.splice(pending.indexOf(item), 1);
    },
  };
}

class TestRun extends RunLifecycle {
  protected messageOf(error: unknown): string {
    return errorText(error);
  }
  go<T>(work: (signal: AbortSignal) => Promise<T>, hooks?: LifecycleHooks): Promise<T | undefined> {
    return this.lifecycle(async (signal) => {
      this.started();
      return work(signal);
    }, hooks);
  }
  guarded<T>(task: () => Promise<T>): Promise<T | undefined> {
    return this.errors.run(task);
  }
  watch(reread: () => Promise<boolean>): void {
    this.watchEvery(reread);
  }
  waitFor(ms: number): void {
    this.showWait(ms);
  }
}

describe('the run lifecycle a view shares', () => {
  it('runs from starting through running to idle and returns what the work returned', async () => {
    const run = new TestRun(manualSchedule().schedule);
    const phases: string[] = [];
    const result = await run.go(async () => {
      phases.push(run.phase);
      return 42;
    }, { settle: () => phases.push(`settle:${run.phase}`) });
    expect(result).toBe(42);
    expect(phases).toEqual(['running', 'settle:running']);
    expect(run.phase).toBe('idle');
    expect(run.running).toBe(false);
    expect(run.error).toBeNull();
  });

  it('Stop aborts the run signal, shows stopping and clears a provider wait', async () => {
    const run = new TestRun(manualSchedule().schedule);
    let release: () => void = () => undefined;
    const done = run.go((signal) => new Promise<string>((resolve) => {
      release = () => resolve(signal.aborted ? 'aborted' : 'not aborted');
    }));
    run.waitFor(5_000);
    expect(run.waitingSeconds).toBe(5);
    run.stop();
    expect(run.phase).toBe('stopping');
    expect(run.waitingSeconds).toBeNull();
    release();
    expect(await done).toBe('aborted');
    expect(run.phase).toBe('idle');
    run.stop(); // nothing runs: no effect
    expect(run.phase).toBe('idle');
  });

  it('a thrown error is shown in the error slot with the key scrubbed, then the failed hook runs', async () => {
    registerSecret(KEY);
    const run = new TestRun(manualSchedule().schedule);
    const seen: unknown[] = [];
    const result = await run.go(async () => Promise.reject(new Error(`401 from the proxy: Bearer ${KEY}`)), {
      failed: (error) => {
        seen.push(error);
        run.error += ' More words.';
      },
    });
    expect(result).toBeUndefined();
    expect(run.error).toBe(`401 from the proxy: Bearer ${KEY_HIDDEN} More words.`);
    expect(run.error).not.toContain(KEY);
    expect(seen).toHaveLength(1);
    expect(run.phase).toBe('idle');
    run.dismissError();
    expect(run.error).toBeNull();
  });

  it('the guard returns the task value, or shows its error (key scrubbed) and returns undefined', async () => {
    registerSecret(KEY);
    const run = new TestRun(manualSchedule().schedule);
    expect(await run.guarded(async () => 'record')).toBe('record');
    expect(run.error).toBeNull();
    expect(await run.guarded(async () => Promise.reject(new Error(`no such run; key=${KEY}`)))).toBeUndefined();
    expect(run.error).toBe(`no such run; key=${KEY_HIDDEN}`);
  });

  it('a watched run is re-read every interval until the reread says stop; a new watch replaces the old', async () => {
    const { schedule, pending } = manualSchedule();
    const run = new TestRun(schedule);
    const fire = (): void => pending.shift()!.run();
    let reads = 0;
    run.watch(async () => ++reads < 2);
    expect(pending.map((p) => p.delayMs)).toEqual([WATCH_INTERVAL_MS]);
    fire();
    await expect.poll(() => pending.length).toBe(1);
    fire();
    await expect.poll(() => reads).toBe(2);
    expect(pending).toHaveLength(0);
    let first = 0;
    run.watch(async () => ++first > 0);
    run.watch(async () => false);
    expect(pending).toHaveLength(1);
    fire();
    await Promise.resolve();
    expect(first).toBe(0);
  });
});
