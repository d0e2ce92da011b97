/**
 * Running a batch of sessions so that a session stopped by a provider fault is continued while
 * the rest of the batch goes on (used by evaluations and by every sweep of an evolution, in the
 * CLI and the page). Every job gets an attempt; when an attempt ends with its session stopped by a
 * transient provider fault, the job gets another attempt — continued from its last finished
 * episode, as a resume does (ttl/session-evaluator.ts) — as soon as the batch has made progress
 * since that attempt began (any job completed or finished an episode; for a job's first attempt,
 * since the batch began): at once, in the slot it holds, when the progress came during the
 * attempt (its own included); else it waits, holding no slot, and is queued again when some job
 * progresses. At most `maxExtraAttempts` more attempts per job. A job is given up — left for
 * Resume — when no job that is still running or queued could bring progress (an outage), so an
 * invocation never spins on a provider that is down. Recovery thus overlaps the other sessions'
 * work instead of waiting for the whole batch to end, and a transient fault that outlived the
 * provider layer's retries costs a retried episode, not a whole invocation. Which attempt a
 * session's episodes come from never changes them: the values are those of a clean run.
 *
 * Not retried: systemic faults (auth, quota, an unreachable URL, a refused request:
 * `SYSTEMIC_KINDS`, which no later call fixes), Stop (the parent signal) and anything a job throws
 * (a cap, Stop): a throw stops every job in flight, as `settleAll` does.
 */
import { SYSTEMIC_KINDS } from '../llm/errors.ts';
import type { LlmErrorKind } from '../llm/interface.ts';
import { abortGroup, settleAll } from './settle.ts';
import type { SessionRecord } from './session-record.ts';

/** Extra attempts a job whose session a transient fault stopped gets at most per invocation. */
export const MAX_EXTRA_ATTEMPTS = 4;

/** A job's attempt whose session a provider fault stopped. */
export interface FaultedOutcome {
  kind: 'faulted';
  /** The provider's message (the run's stop message when it gives up). */
  message: string;
  /** Episodes this attempt finished (> 0 is progress). */
  finishedNow: number;
  /** The fault is one no later call can fix (`SYSTEMIC_KINDS`): no further attempt. */
  systemic: boolean;
}

/** What one attempt of a job came to: its value, or a session stopped by a provider fault. */
export type AttemptOutcome<T> = { kind: 'done'; value: T } | FaultedOutcome;

export interface RetryOptions {
  /** The concurrency limiter every attempt runs through (p-limit's shape). */
  limit: <R>(fn: () => Promise<R>) => Promise<R>;
  /** Stop: once aborted no further attempt starts (`stopped()` is thrown at the end instead). */
  signal?: AbortSignal | undefined;
  /** The error thrown when `signal` aborted while jobs were left faulted. */
  stopped: () => Error;
  /** Default `MAX_EXTRA_ATTEMPTS`; 0 gives one attempt per job. */
  maxExtraAttempts?: number;
}

export interface RetriedResult<T> {
  /** Per job, in job order: its value, or undefined when it was still faulted at the end. */
  values: (T | undefined)[];
  /** The last fault message of the first job (in job order) left faulted, else null. */
  fault: string | null;
  /** The most attempts any job made (1 = no job was retried). */
  attempts: number;
}

/**
 * Run `count` jobs (index 0…count−1) through `attempt`, retrying a job whose session a transient
 * fault stopped as the module header says. `attempt` gets the job's index, a signal that aborts
 * when any attempt throws or `options.signal` aborts (it should throw at once when that signal is
 * already aborted) and the attempt's number for that job (1-based).
 * @throws whatever an attempt threw first (after every attempt in flight settled), or
 *   `options.stopped()` when Stop left jobs faulted
 */
export async function runRetryingFaults<T>(
  count: number, attempt: (index: number, signal: AbortSignal, attemptNumber: number) => Promise<AttemptOutcome<T>>, options: RetryOptions,
): Promise<RetriedResult<T>> {
  const values: (T | undefined)[] = new Array(count);
  const left: (FaultedOutcome | undefined)[] = new Array(count);
  const maxExtra = options.maxExtraAttempts ?? MAX_EXTRA_ATTEMPTS;
  const batch = abortGroup(options.signal);
  const progress = new ProgressWatch(count);
  options.signal?.addEventListener('abort', progress.end, { once: true });
  let most = 0;
  const stopAll = () => (batch.abortAll(), progress.end());
  // One job: attempts in its slot while each made or saw progress; a fault that saw none leaves
  // the slot and waits for progress elsewhere (false: none can come, give up).
  const run = async (index: number): Promise<void> => {
    let seen = 0;
    for (let n = 1; ; ) {
      const outcome = await options.limit(async () => {
        for (; ; n++) {
          const since = n === 1 ? 0 : progress.count;
          // A throw stops the batch at once (no job starts another attempt), then is rethrown.
          const outcome = await attempt(index, batch.signal(), n).catch((error: unknown) => {
            stopAll();
            throw error;
          });
          most = Math.max(most, n);
          if (outcome.kind === 'done' || outcome.finishedNow > 0) progress.made();
          if (outcome.kind === 'done') return (values[index] = outcome.value, null);
          if (outcome.systemic || n > maxExtra || batch.aborted || progress.count === since) return (seen = since, outcome);
        }
      });
      if (outcome === null) return progress.leave();
      if (outcome.systemic || n > maxExtra || batch.aborted) return (left[index] = outcome, progress.leave());
      if (!(await progress.after(seen))) return void (left[index] = outcome);
      n++;
    }
  };
  try {
    await settleAll(Array.from({ length: count }, (_, i) => run(i)), stopAll);
  } finally {
    batch.dispose();
    options.signal?.removeEventListener('abort', progress.end);
  }
  const firstLeft = left.findIndex((o) => o !== undefined);
  if (firstLeft >= 0 && options.signal?.aborted) throw options.stopped();
  return { values, fault: firstLeft >= 0 ? left[firstLeft]!.message : null, attempts: most };
}

/**
 * The batch's progress, as a count, and the jobs waiting for it: a job waits (`after`) until the
 * count passes what it saw; it is told false instead once no job is left running or queued (all
 * are done, given up or waiting, so none can progress) or the batch ends (a throw, Stop).
 */
class ProgressWatch {
  count = 0;
  private waiting: ((retry: boolean) => void)[] = [];
  private ended = false;

  /** @param active jobs running or queued */
  constructor(private active: number) {}

  /** Some job completed or finished an episode: every waiting job is queued again. */
  made(): void {
    this.count++;
    const woken = this.waiting;
    this.waiting = [];
    this.active += woken.length;
    for (const wake of woken) wake(true);
  }

  /** Wait for progress past `seen` (true: the job is active again), or until none can come (false:
   * the job has left). Not active meanwhile. */
  after(seen: number): Promise<boolean> {
    if (this.count > seen) return Promise.resolve(true);
    if (this.ended) return (this.leave(), Promise.resolve(false));
    return new Promise<boolean>((resolve) => {
      this.waiting.push(resolve);
      this.leave();
    });
  }

  /** A job is done or given up (or starts waiting). */
  leave = (): void => {
    if (--this.active === 0) this.end();
  };

  /** No progress can come: every waiting job gives up, and so does any that starts waiting. */
  end = (): void => {
    this.ended = true;
    const woken = this.waiting;
    this.waiting = [];
    for (const wake of woken) wake(false);
  };
}

/** The fault outcome of a session stopped with reason `provider` (its last recorded fault decides
 * whether it is systemic); `finishedNow`: episodes it finished in this attempt. */
export function faultOutcome(session: SessionRecord, finishedNow: number): FaultedOutcome {
  const kind = session.faults.at(-1)?.kind as LlmErrorKind | undefined;
  return {
    kind: 'faulted', message: session.stopMessage ?? 'The provider failed.', finishedNow,
    systemic: kind !== undefined && (SYSTEMIC_KINDS.has(kind) || kind === 'aborted'),
  };
}
