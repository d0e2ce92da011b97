/**
 * The one retry policy of the LLM layer (the SDK's own retries are off), over p-retry — the only
 * module that imports it. An attempt that fails with a retryable `LlmError` (errors.ts
 * RETRYABLE_KINDS) is repeated; before each retry we wait the provider's Retry-After when it sent
 * one (counted from the refusal), else a backoff counted from when the failed attempt was SENT:
 * retry n is sent no sooner than 500 ms · 2^(n − 1) after attempt n — so an attempt that already
 * waited that long (a hang cut by the request timeout) is retried at once, its wait was the
 * backoff. A reply that arrived but could not be used (`bad_response`: malformed or cut-off body,
 * an error inside a 200) says nothing about load: its first retry is sent at once, later ones back
 * off from 500 ms. Waits are capped to `maxRetryWaitMs`. Stop (the signal) ends a wait at once.
 * A wait holds only its own call: other calls (other sessions of the run) go on meanwhile, and the
 * rate scheduler is not paused by it (only a 429 pauses that (base URL, model)).
 *
 * Two budgets: faults (timeouts, 5xx, unusable replies) get `maxRetries` retries; rate-limit
 * refusals (HTTP 429, `rate_limit`) get their own, `rateLimitRetries(maxRetries)` (at least
 * RATE_LIMIT_RETRIES). A 429 is the provider asking everyone on the key to slow down, not this
 * call failing: the rate scheduler (rate-scheduler.ts) has already paused every call of that
 * (base URL, model) and halved the window, so retrying it costs no flood — while with two runs on
 * one key, three refusals in a row for one call are common and, counted as faults, failed calls
 * (the rate-limit bench: 4 of 300). `maxRetries = 0` still means one attempt of anything. Quota
 * refusals (429 insufficient_quota) are `quota`, never retried.
 */
import pRetry from 'p-retry';
import { LlmError, RETRYABLE_KINDS } from './errors.ts';

export interface RetryPolicy {
  /** Retries after faults other than rate limits (0 = one attempt of anything). */
  maxRetries: number;
  /** Retries after rate-limit refusals, counted apart (default `rateLimitRetries(maxRetries)`). */
  maxRateLimitRetries?: number;
  /** Longest wait before a retry, ms. */
  maxRetryWaitMs: number;
  signal?: AbortSignal;
  /** Told each wait before it starts, ms. */
  onRetryWait?: (waitMs: number) => void;
  /** Monotonic clock, ms (default performance.now): how long the failed attempt took. */
  now?: () => number;
}

/** First backoff step, ms, when the provider gave no Retry-After. */
export const BACKOFF_BASE_MS = 500;

/** Fewest retries a call gets for rate-limit refusals when it may retry at all. */
export const RATE_LIMIT_RETRIES = 6;

/** Retries after 429s for a call allowed `maxRetries` fault retries: 0 when 0, else ≥ RATE_LIMIT_RETRIES. */
export function rateLimitRetries(maxRetries: number): number {
  return maxRetries <= 0 ? 0 : Math.max(maxRetries, RATE_LIMIT_RETRIES);
}

/**
 * The wait before retry number `retry` (1-based within its budget) after `error`, ms: the
 * provider's Retry-After when it sent one; else the backoff 500 ms · 2^(retry − 1) (for
 * `bad_response`: 0 for the first retry, then 500 ms · 2^(retry − 2)) less `elapsedMs`, the time
 * the failed attempt took from send to failure; never below 0 nor above `maxRetryWaitMs`.
 */
export function retryWaitMs(error: LlmError, retry: number, maxRetryWaitMs: number, elapsedMs = 0): number {
  const steps = error.kind === 'bad_response' ? retry - 1 : retry;
  const wanted = error.retryAfterMs ?? (steps <= 0 ? 0 : BACKOFF_BASE_MS * 2 ** (steps - 1) - Math.max(0, elapsedMs));
  return Math.max(0, Math.min(wanted, maxRetryWaitMs));
}

/**
 * Run `attempt` (given the 0-based retry number) until it succeeds, fails with an error that is
 * not worth retrying, or the retries are used up.
 * @throws the last attempt's error (an LlmError when the attempt throws LlmErrors; after more than
 *   one attempt its message ends with "(N attempts)");
 *   LlmError('aborted') when the signal aborts during a wait
 */
export async function withRetries<T>(attempt: (retry: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const worthRetrying = (error: unknown): error is LlmError => error instanceof LlmError && RETRYABLE_KINDS.has(error.kind);
  const budgets = { fault: Math.max(0, policy.maxRetries), rateLimit: Math.max(0, policy.maxRateLimitRetries ?? rateLimitRetries(policy.maxRetries)) };
  const used = { fault: 0, rateLimit: 0 };
  let attempts = 0;
  const now = policy.now ?? (() => performance.now());
  let sentAt = now();
  // Decided once per failed attempt (onFailedAttempt runs before shouldRetry), from its budget.
  let retryNext = false;
  try {
    return await pRetry((attemptNumber) => {
      attempts = attemptNumber;
      sentAt = now();
      return attempt(attemptNumber - 1);
    }, {
      retries: budgets.fault + budgets.rateLimit,
      minTimeout: 0,
      factor: 1,
      shouldRetry: () => retryNext,
      onFailedAttempt: async ({ error }) => {
        retryNext = false;
        if (!worthRetrying(error) || policy.signal?.aborted) return;
        const budget = error.kind === 'rate_limit' ? 'rateLimit' : 'fault';
        if (used[budget] >= budgets[budget]) return;
        used[budget]++;
        retryNext = true;
        // Backoff steps count within the budget: a fault after three 429s waits as a first fault does.
        const waitMs = retryWaitMs(error, used[budget], policy.maxRetryWaitMs, now() - sentAt);
        if (waitMs <= 0) return;
        policy.onRetryWait?.(waitMs);
        await sleep(waitMs, policy.signal);
      },
    });
  } catch (error) {
    if (policy.signal?.aborted) throw new LlmError('aborted', 'The request was stopped.');
    if (attempts > 1 && error instanceof LlmError) {
      throw new LlmError(error.kind, `${error.message} (${attempts} attempts)`, error.status, error.retryAfterMs);
    }
    throw error;
  }
}

/** Wait `ms`, or reject with LlmError('aborted') as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LlmError('aborted', 'The request was stopped.'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmError('aborted', 'The request was stopped.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
