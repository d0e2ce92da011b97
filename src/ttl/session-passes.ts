/**
 * Running a batch of sessions in passes (used by evaluations and by every sweep of an evolution,
 * in the CLI and the page): pass 1 runs every job; when a pass leaves sessions stopped by a
 * provider fault, another pass runs just those — each continued from its last finished episode,
 * as a resume does (ttl/session-evaluator.ts) — as long as the pass before made progress (a job
 * completed or finished at least one more episode), for at most `maxExtraPasses` more passes.
 * Only then does the invocation give up and leave them for Resume. A transient fault that
 * outlived the provider layer's retries thus costs a retried episode, not a whole invocation.
 *
 * Not retried by this loop: systemic faults (auth, quota, an unreachable URL, a refused request:
 * `SYSTEMIC_KINDS`, which no later call fixes), Stop (the parent signal) and anything a job throws
 * (a cap, Stop): a throw stops every job in flight, as `settleAll` does.
 */
import { SYSTEMIC_KINDS } from '../llm/errors.ts';
import type { LlmErrorKind } from '../llm/interface.ts';
import { abortGroup, settleAll } from './settle.ts';
import type { SessionRecord } from './session-record.ts';

/** Extra passes over the faulted sessions an invocation makes at most (after the first pass). */
export const MAX_EXTRA_PASSES = 4;

/** A job's attempt whose session a provider fault stopped. */
export interface FaultedOutcome {
  kind: 'faulted';
  /** The provider's message (the run's stop message when it gives up). */
  message: string;
  /** Episodes this attempt finished (> 0 is progress). */
  finishedNow: number;
  /** The fault is one no later call can fix (`SYSTEMIC_KINDS`): no further pass. */
  systemic: boolean;
}

/** What one attempt of a job came to: its value, or a session stopped by a provider fault. */
export type PassOutcome<T> = { kind: 'done'; value: T } | FaultedOutcome;

export interface PassOptions {
  /** The concurrency limiter every attempt runs through (p-limit's shape). */
  limit: <R>(fn: () => Promise<R>) => Promise<R>;
  /** Stop: once aborted no further pass starts (`stopped()` is thrown instead). */
  signal?: AbortSignal | undefined;
  /** The error thrown when `signal` aborted between two passes. */
  stopped: () => Error;
  /** Default `MAX_EXTRA_PASSES`; 0 gives the single pass of earlier versions. */
  maxExtraPasses?: number;
}

export interface PassesResult<T> {
  /** Per job, in job order: its value, or undefined when it was still faulted at the end. */
  values: (T | undefined)[];
  /** The first fault message of the last pass when jobs are left faulted, else null. */
  fault: string | null;
  /** Passes made (1 = no job faulted, or none could be retried). */
  passes: number;
}

/**
 * Run `count` jobs (index 0…count−1) through `attempt`, then re-run the faulted ones in further
 * passes while the previous pass made progress (module header). `attempt` gets a signal that
 * aborts when any attempt throws or `options.signal` aborts; it should throw at once when that
 * signal is already aborted.
 * @throws whatever an attempt threw first (after every attempt of that pass settled), or
 *   `options.stopped()` when Stop came between passes
 */
export async function runInPasses<T>(
  count: number, attempt: (index: number, signal: AbortSignal, pass: number) => Promise<PassOutcome<T>>, options: PassOptions,
): Promise<PassesResult<T>> {
  const values: (T | undefined)[] = new Array(count);
  const maxExtraPasses = options.maxExtraPasses ?? MAX_EXTRA_PASSES;
  let pending = Array.from({ length: count }, (_, i) => i);
  for (let pass = 1; ; pass++) {
    const batch = abortGroup(options.signal);
    const outcomes = await settleAll(pending.map((index) => options.limit(() => attempt(index, batch.signal(), pass))), batch.abortAll).finally(batch.dispose);
    const faulted: number[] = [];
    let progressed = false;
    let systemic = false;
    let fault: string | null = null;
    outcomes.forEach((outcome, i) => {
      const index = pending[i]!;
      if (outcome.kind === 'done') {
        values[index] = outcome.value;
        progressed = true;
        return;
      }
      faulted.push(index);
      fault ??= outcome.message;
      if (outcome.finishedNow > 0) progressed = true;
      if (outcome.systemic) systemic = true;
    });
    if (faulted.length === 0) return { values, fault: null, passes: pass };
    if (options.signal?.aborted) throw options.stopped();
    if (systemic || !progressed || pass > maxExtraPasses) return { values, fault, passes: pass };
    pending = faulted;
  }
}

/** The fault outcome of a session stopped with reason `provider` (its last recorded fault decides
 * whether it is systemic); `finishedNow`: episodes it finished in this attempt. */
export function faultOutcome(session: SessionRecord, finishedNow: number): FaultedOutcome {
  const kind = session.faults?.at(-1)?.kind as LlmErrorKind | undefined;
  return {
    kind: 'faulted', message: session.stopMessage ?? 'The provider failed.', finishedNow,
    systemic: kind !== undefined && (SYSTEMIC_KINDS.has(kind) || kind === 'aborted'),
  };
}
