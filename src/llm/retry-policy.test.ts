import { afterEach, describe, expect, it, vi } from 'vitest';
import { LlmError } from './errors.ts';
import type { LlmErrorKind } from './interface.ts';
import { RATE_LIMIT_RETRIES, rateLimitRetries, withRetries, type RetryPolicy } from './retry-policy.ts';

/** An attempt that fails with each kind in turn (no Retry-After), then answers 'ok'; records the kinds it threw. */
function scripted(kinds: LlmErrorKind[]): { attempt: (retry: number) => Promise<string>; retries: number[] } {
  const retries: number[] = [];
  return {
    retries,
    attempt: async (retry) => {
      retries.push(retry);
      const kind = kinds[retries.length - 1];
      if (kind) throw new LlmError(kind, `fault ${kind}`, kind === 'rate_limit' ? 429 : 500);
      return 'ok';
    },
  };
}

/** Run withRetries under fake timers, returning its outcome and the waits it announced (ms). */
async function run(kinds: LlmErrorKind[], policy: Partial<RetryPolicy>): Promise<{ result: string | LlmError; attempts: number; waits: number[] }> {
  vi.useFakeTimers();
  const { attempt, retries } = scripted(kinds);
  const waits: number[] = [];
  const outcome = withRetries(attempt, { maxRetries: 2, maxRetryWaitMs: 60_000, onRetryWait: (ms) => waits.push(ms), ...policy }).catch((e: unknown) => e as LlmError);
  await vi.runAllTimersAsync();
  const result = await outcome;
  expect(retries).toEqual(retries.map((_, i) => i)); // the attempt is told its retry number
  return { result, attempts: retries.length, waits };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('withRetries: a budget for faults and one for rate limits', () => {
  it('rate-limit refusals do not use the fault budget: five 429s then an answer succeed with maxRetries 2', async () => {
    const r = await run(['rate_limit', 'rate_limit', 'rate_limit', 'rate_limit', 'rate_limit'], {});
    expect(r.result).toBe('ok');
    expect(r.attempts).toBe(6);
    expect(r.waits).toEqual([500, 1000, 2000, 4000, 8000]);
  });
  it('429s past their budget fail as rate_limit after 1 + RATE_LIMIT_RETRIES attempts', async () => {
    const r = await run(Array<LlmErrorKind>(20).fill('rate_limit'), {});
    expect(r.result).toBeInstanceOf(LlmError);
    expect((r.result as LlmError).kind).toBe('rate_limit');
    expect((r.result as LlmError).message).toBe(`fault rate_limit (${1 + RATE_LIMIT_RETRIES} attempts)`);
    expect(r.attempts).toBe(1 + RATE_LIMIT_RETRIES);
  });
  it('faults keep maxRetries: three 5xx with maxRetries 2 fail after 3 attempts; backoff counts within each budget', async () => {
    const faults = await run(['server', 'server', 'server', 'server'], {});
    expect((faults.result as LlmError).kind).toBe('server');
    expect(faults.attempts).toBe(3);
    expect(faults.waits).toEqual([500, 1000]);
    const mixed = await run(['rate_limit', 'server', 'rate_limit', 'timeout', 'server'], {});
    expect(mixed.attempts).toBe(5);
    expect((mixed.result as LlmError).kind).toBe('server');
    expect(mixed.waits).toEqual([500, 500, 1000, 1000]);
  });
  it('maxRetries 0 is one attempt of anything; an explicit rate-limit budget wins; non-retryable kinds are never retried', async () => {
    expect((await run(['rate_limit'], { maxRetries: 0 })).attempts).toBe(1);
    expect((await run(['server'], { maxRetries: 0 })).attempts).toBe(1);
    const explicit = await run(['rate_limit', 'rate_limit', 'rate_limit'], { maxRetries: 0, maxRateLimitRetries: 2 });
    expect(explicit.attempts).toBe(3);
    expect((explicit.result as LlmError).kind).toBe('rate_limit');
    for (const kind of ['auth', 'quota', 'bad_request'] as const) expect((await run([kind], {})).attempts).toBe(1);
  });
  it('rateLimitRetries: 0 stays 0, else at least RATE_LIMIT_RETRIES and never below maxRetries', () => {
    expect([0, 1, 2, 6, 10].map(rateLimitRetries)).toEqual([0, 6, 6, 6, 10]);
  });
  it('Stop during a rate-limit wait ends the call at once as aborted', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const { attempt, retries } = scripted(['rate_limit', 'rate_limit']);
    const outcome = withRetries(attempt, { maxRetries: 2, maxRetryWaitMs: 60_000, signal: stop.signal, onRetryWait: () => stop.abort() }).catch((e: unknown) => e as LlmError);
    await vi.runAllTimersAsync();
    expect(await outcome).toMatchObject({ kind: 'aborted' });
    expect(retries).toEqual([0]);
  });
});
