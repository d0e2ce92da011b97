import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { faultOutcome, MAX_EXTRA_PASSES, runInPasses, type PassOutcome } from './session-passes.ts';
import type { SessionRecord } from './session-record.ts';

/** A scripted job: one outcome per attempt, in order (the last one repeats). */
type Script = PassOutcome<string>[];
const done = (value: string): PassOutcome<string> => ({ kind: 'done', value });
const faulted = (finishedNow: number, systemic = false, message = 'HTTP 500'): PassOutcome<string> => ({ kind: 'faulted', message, finishedNow, systemic });

/** Run scripted jobs; returns the result and, per pass, the job indices attempted. */
async function run(scripts: Script[], options: { signal?: AbortSignal; maxExtraPasses?: number; onAttempt?: (index: number, pass: number) => void } = {}) {
  const attempts = scripts.map(() => 0);
  const passes: number[][] = [];
  const result = await runInPasses(scripts.length, async (index, signal, pass) => {
    if (signal.aborted) throw new Error('stopped');
    (passes[pass - 1] ??= []).push(index);
    options.onAttempt?.(index, pass);
    const script = scripts[index]!;
    const attempt = attempts[index] ?? 0;
    attempts[index] = attempt + 1;
    return script[Math.min(attempt, script.length - 1)]!;
  }, { limit: pLimit(2), signal: options.signal, stopped: () => new Error('stopped between passes'), ...(options.maxExtraPasses !== undefined ? { maxExtraPasses: options.maxExtraPasses } : {}) });
  return { ...result, attempted: passes.map((p) => [...p].sort()) };
}

describe('runInPasses', () => {
  it('a pass that made progress is followed by a pass over just the faulted jobs, until all are done', async () => {
    const r = await run([[done('a')], [faulted(1), faulted(2), done('b')], [faulted(0), done('c')]]);
    expect(r).toEqual({ values: ['a', 'b', 'c'], fault: null, passes: 3, attempted: [[0, 1, 2], [1, 2], [1]] });
  });

  it('a pass in which no faulted job finished an episode (and none completed) ends the invocation, leaving them for Resume', async () => {
    // Pass 1 completed job 0 (progress); pass 2 finished nothing: stop after it.
    const r = await run([[done('a')], [faulted(0, false, 'first')], [faulted(0, false, 'second')]]);
    expect(r).toEqual({ values: ['a', undefined, undefined], fault: 'first', passes: 2, attempted: [[0, 1, 2], [1, 2]] });
    // A single job that faults without finishing an episode gets no second pass.
    expect(await run([[faulted(0), done('x')]])).toEqual({ values: [undefined], fault: 'HTTP 500', passes: 1, attempted: [[0]] });
  });

  it('a systemic fault (auth, unreachable URL …) gets no further pass, even when the pass progressed', async () => {
    const r = await run([[done('a')], [faulted(3, true, '401 bad key'), done('b')]]);
    expect(r).toEqual({ values: ['a', undefined], fault: '401 bad key', passes: 1, attempted: [[0, 1]] });
  });

  it('Stop during a pass: no further pass starts, the stop is thrown', async () => {
    const controller = new AbortController();
    await expect(run([[faulted(1), done('a')], [faulted(1), done('b')]], {
      signal: controller.signal,
      onAttempt: (index) => index === 1 && controller.abort(),
    })).rejects.toThrow('stopped between passes');
  });

  it('a job that throws (a cap, Stop) stops the pass and is rethrown; no further pass', async () => {
    const passesSeen: number[] = [];
    await expect(runInPasses(2, async (index, _signal, pass) => {
      passesSeen.push(pass);
      if (index === 0) throw new Error('USD cap reached');
      return faulted(1);
    }, { limit: pLimit(1), stopped: () => new Error('stopped') })).rejects.toThrow('USD cap reached');
    expect(passesSeen).toEqual([1, 1]);
  });

  it(`is bounded: at most MAX_EXTRA_PASSES (${MAX_EXTRA_PASSES}) extra passes, or the option's number`, async () => {
    const always: Script = [faulted(1)];
    expect((await run([always])).passes).toBe(1 + MAX_EXTRA_PASSES);
    expect((await run([always], { maxExtraPasses: 1 })).attempted).toEqual([[0], [0]]);
    expect((await run([always], { maxExtraPasses: 0 })).passes).toBe(1);
  });
});

describe('faultOutcome', () => {
  const stopped = (kind: string | null): SessionRecord => ({
    stopMessage: `${kind} fault`, faults: kind === null ? [] : [{ phase: 'episode', episodeIndex: 1, kind, message: '', steps: [], exchanges: [], at: '' }],
  }) as unknown as SessionRecord;

  it('is systemic for auth, quota, an unreachable URL, a refused request and an abort; transient kinds are not', () => {
    for (const kind of ['auth', 'quota', 'network_or_cors', 'bad_request', 'aborted']) expect(faultOutcome(stopped(kind), 0).systemic).toBe(true);
    for (const kind of ['timeout', 'rate_limit', 'server', 'bad_response', null]) expect(faultOutcome(stopped(kind), 2)).toEqual({ kind: 'faulted', message: `${kind} fault`, finishedNow: 2, systemic: false });
  });
});
