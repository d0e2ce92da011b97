/**
 * The one retry policy of the LLM layer (the SDK's own retries are off), over p-retry — the only
 * module that imports it. An attempt that fails with a retryable `LlmError` (errors.ts
 * RETRYABLE_KINDS) is repeated up to `maxRetries` times; before each retry we wait the provider's
 * Retry-After when it sent one, else 500 ms · 2^(retry − 1), both capped to `maxRetryWaitMs`.
 * Stop (the signal) ends a wait at once.
 */
import pRetry from 'p-retry';
import { LlmError, RETRYABLE_KINDS } from './errors.ts';

export interface RetryPolicy {
  /** Retries after the first attempt (0 = one attempt). */
  maxRetries: number;
  /** Longest wait before a retry, ms. */
  maxRetryWaitMs: number;
  signal?: AbortSignal;
  /** Told each wait before it starts, ms. */
  onRetryWait?: (waitMs: number) => void;
}

/** First backoff step, ms, when the provider gave no Retry-After. */
export const BACKOFF_BASE_MS = 500;

/** The wait before retry number `retry` (1-based) after `error`, ms. */
export function retryWaitMs(error: LlmError, retry: number, maxRetryWaitMs: number): number {
  const wanted = error.retryAfterMs ?? BACKOFF_BASE_MS * 2 ** (retry - 1);
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
  let attempts = 0;
  try {
    return await pRetry((attemptNumber) => {
      attempts = attemptNumber;
      return attempt(attemptNumber - 1);
    }, {
      retries: Math.max(0, policy.maxRetries),
      minTimeout: 0,
      factor: 1,
      shouldRetry: ({ error }) => worthRetrying(error) && !policy.signal?.aborted,
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
        if (retriesLeft <= 0 || !worthRetrying(error) || policy.signal?.aborted) return;
        const waitMs = retryWaitMs(error, attemptNumber, policy.maxRetryWaitMs);
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
