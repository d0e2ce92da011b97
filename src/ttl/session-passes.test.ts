import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { faultOutcome, MAX_EXTRA_ATTEMPTS, runRetryingFaults, type AttemptOutcome } from './session-passes.ts';
import type { SessionRecord } from './session-record.ts';

/** A scripted job: one step per attempt, in order (the last one repeats); a step is an outcome, or
 * a function giving one (to hold an attempt open, or act when it starts). */
type Step = AttemptOutcome<string> | (() => AttemptOutcome<string> | Promise<AttemptOutcome<string>>);
type Script = Step[];
const done = (value: string): AttemptOutcome<string> => ({ kind: 'done', value });
const faulted = (finishedNow: number, systemic = false, message = 'HTTP 500'): AttemptOutcome<string> => ({ kind: 'faulted', message, finishedNow, systemic });

/** A promise and the function that settles it. */
function gate<T>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** Run scripted jobs through `runRetryingFaults` (at `limit` at once, default 2); returns its
 * result and `log`, every attempt's start and end in order ("start 1#2": job 1's second attempt). */
async function run(scripts: Script[], options: { signal?: AbortSignal; maxExtraAttempts?: number; limit?: number; onAttempt?: (index: number, attempt: number) => void } = {}) {
  const log: string[] = [];
  const result = await runRetryingFaults(scripts.length, async (index, signal, attempt) => {
    if (signal.aborted) throw new Error('stopped');
    log.push(`start ${index}#${attempt}`);
    options.onAttempt?.(index, attempt);
    const script = scripts[index]!;
    const step = script[Math.min(attempt - 1, script.length - 1)]!;
    const outcome = typeof step === 'function' ? await step() : step;
    log.push(`end ${index}#${attempt}`);
    return outcome;
  }, {
    limit: pLimit(options.limit ?? 2), signal: options.signal, stopped: () => new Error('stopped while jobs were left faulted'),
    ...(options.maxExtraAttempts !== undefined ? { maxExtraAttempts: options.maxExtraAttempts } : {}),
  });
  return { ...result, log };
}

/** The attempts each job made, from a run's log. */
const attemptsOf = (log: string[], jobs: number) => Array.from({ length: jobs }, (_, i) => log.filter((l) => l.startsWith(`start ${i}#`)).length);

describe('runRetryingFaults', () => {
  it('continues a faulted job at once, in the slot it holds, while the other jobs still run', async () => {
    const slow = gate<void>();
    const r = await run([
      [async () => (await slow.promise, done('a'))],
      [faulted(1), faulted(2), done('b')],
      [() => (slow.open(), done('c'))],
    ]);
    expect(r.values).toEqual(['a', 'b', 'c']);
    expect(r.fault).toBeNull();
    expect(r.attempts).toBe(3);
    // Job 1's retries run while job 0 is still in flight, and keep job 1's slot (job 2 waits for it).
    expect(r.log).toEqual(['start 0#1', 'start 1#1', 'end 1#1', 'start 1#2', 'end 1#2', 'start 1#3', 'end 1#3', 'start 2#1', 'end 2#1', 'end 0#1']);
  });

  it('a fault that saw no progress waits holding no slot, and is continued once another job progresses', async () => {
    const r = await run([[faulted(0), done('a')], [done('b')]], { limit: 1 });
    expect(r.values).toEqual(['a', 'b']);
    expect(r.log).toEqual(['start 0#1', 'end 0#1', 'start 1#1', 'end 1#1', 'start 0#2', 'end 0#2']);
  });

  it('progress anywhere since the batch began (its first attempt) or since the attempt began keeps a job going', async () => {
    // Job 1 faults without finishing an episode, but job 0 completed meanwhile: continued until done.
    const r = await run([[done('a')], [faulted(0), faulted(0), done('b')], [faulted(2), done('c')]], { limit: 3 });
    expect(r).toMatchObject({ values: ['a', 'b', 'c'], fault: null });
  });

  it('when no job running or queued can progress (an outage), the faulted jobs are given up and left for Resume', async () => {
    // Nothing ever progresses: every job gets its one attempt, as a single pass would.
    const outage = await run([[faulted(0, false, 'first')], [faulted(0, false, 'second')], [faulted(0, false, 'third')]]);
    expect(outage).toMatchObject({ values: [undefined, undefined, undefined], fault: 'first', attempts: 1 });
    expect(attemptsOf(outage.log, 3)).toEqual([1, 1, 1]);
    // Job 0 completes; jobs 1 and 2 keep failing without an episode: each is retried once after
    // that progress, then both wait with no job left to progress, and are given up.
    const r = await run([[done('a')], [faulted(0, false, 'first')], [faulted(0, false, 'second')]]);
    expect(r).toMatchObject({ values: ['a', undefined, undefined], fault: 'first', attempts: 2 });
    expect(attemptsOf(r.log, 3)).toEqual([1, 2, 2]);
    // A single job that faults without finishing an episode gets no second attempt.
    expect(await run([[faulted(0), done('x')]])).toMatchObject({ values: [undefined], fault: 'HTTP 500', attempts: 1 });
  });

  it('a systemic fault (auth, unreachable URL …) gets no further attempt, even when the batch progressed', async () => {
    const r = await run([[done('a')], [faulted(3, true, '401 bad key'), done('b')]]);
    expect(r).toMatchObject({ values: ['a', undefined], fault: '401 bad key', attempts: 1 });
  });

  it('Stop: no further attempt starts, and the stop is thrown when jobs were left faulted', async () => {
    const controller = new AbortController();
    const attempted: string[] = [];
    await expect(run([[faulted(1), done('a')], [faulted(1), done('b')]], {
      signal: controller.signal,
      onAttempt: (index, attempt) => (attempted.push(`${index}#${attempt}`), index === 1 && controller.abort()),
    })).rejects.toThrow('stopped while jobs were left faulted');
    expect(attempted).toEqual(['0#1', '1#1']);
  });

  it('a job that throws (a cap, Stop) stops the batch and is rethrown; no further attempt', async () => {
    const attemptsSeen: number[] = [];
    await expect(runRetryingFaults(2, async (index, _signal, attempt) => {
      attemptsSeen.push(attempt);
      if (index === 0) throw new Error('USD cap reached');
      return faulted(1);
    }, { limit: pLimit(1), stopped: () => new Error('stopped') })).rejects.toThrow('USD cap reached');
    expect(attemptsSeen).toEqual([1, 1]);
  });

  it(`is bounded: at most MAX_EXTRA_ATTEMPTS (${MAX_EXTRA_ATTEMPTS}) extra attempts per job, or the option's number`, async () => {
    const always: Script = [faulted(1)];
    expect((await run([always, always])).log.filter((l) => l.startsWith('start')).length).toBe(2 * (1 + MAX_EXTRA_ATTEMPTS));
    expect((await run([always])).attempts).toBe(1 + MAX_EXTRA_ATTEMPTS);
    expect((await run([always], { maxExtraAttempts: 1 })).log).toEqual(['start 0#1', 'end 0#1', 'start 0#2', 'end 0#2']);
    expect((await run([always], { maxExtraAttempts: 0 })).attempts).toBe(1);
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
