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

/** An attempt that takes `tookMs` of (fake) time per try, failing with each of `faults` in turn, then answers. */
function timed(faults: { kind: LlmErrorKind; tookMs: number; retryAfterMs?: number }[]): { attempt: () => Promise<string>; sent: number[] } {
  const sent: number[] = [];
  return {
    sent,
    attempt: async () => {
      const fault = faults[sent.length];
      sent.push(Date.now());
      if (!fault) return 'ok';
      await new Promise((r) => setTimeout(r, fault.tookMs));
      throw new LlmError(fault.kind, `fault ${fault.kind}`, null, fault.retryAfterMs ?? null);
    },
  };
}

describe('withRetries: recovery overlaps, waits hold only their own call', () => {
  const policy = (waits: number[]): RetryPolicy => ({ maxRetries: 3, maxRetryWaitMs: 60_000, onRetryWait: (ms) => waits.push(ms), now: () => Date.now() });

  it('the backoff counts from when the failed attempt was sent: a hang cut by the timeout is retried at once, a slow 5xx waits the rest', async () => {
    vi.useFakeTimers({ now: 0 });
    const waits: number[] = [];
    const { attempt, sent } = timed([{ kind: 'timeout', tookMs: 1000 }, { kind: 'server', tookMs: 200 }, { kind: 'server', tookMs: 100 }]);
    const outcome = withRetries(attempt, policy(waits));
    await vi.runAllTimersAsync();
    expect(await outcome).toBe('ok');
    // Retry 1 is due 500 ms after attempt 1 was sent (it took 1000: at once); retry 2 1000 ms after
    // attempt 2 (took 200: 800 more); retry 3 2000 ms after attempt 3 (took 100: 1900 more).
    expect(waits).toEqual([800, 1900]);
    expect(sent).toEqual([0, 1000, 2000, 4000]);
  });

  it('an unusable reply (bad_response) is retried at once the first time, then backs off from 500 ms', async () => {
    vi.useFakeTimers({ now: 0 });
    const waits: number[] = [];
    const { attempt } = timed([{ kind: 'bad_response', tookMs: 0 }, { kind: 'bad_response', tookMs: 0 }, { kind: 'bad_response', tookMs: 0 }]);
    const outcome = withRetries(attempt, policy(waits));
    await vi.runAllTimersAsync();
    expect(await outcome).toBe('ok');
    expect(waits).toEqual([500, 1000]);
  });

  it("a provider's Retry-After is counted from the refusal, not credited with the attempt's time", async () => {
    vi.useFakeTimers({ now: 0 });
    const waits: number[] = [];
    const { attempt, sent } = timed([{ kind: 'rate_limit', tookMs: 1500, retryAfterMs: 2000 }]);
    const outcome = withRetries(attempt, policy(waits));
    await vi.runAllTimersAsync();
    expect(await outcome).toBe('ok');
    expect([waits, sent]).toEqual([[2000], [0, 3500]]);
  });

  it('a call waiting out a 429 delays no concurrent call: the other answers at its own time', async () => {
    vi.useFakeTimers({ now: 0 });
    const refused = timed([{ kind: 'rate_limit', tookMs: 10, retryAfterMs: 5000 }]);
    const other = timed([{ kind: 'server', tookMs: 10 }]);
    const done: Record<string, number> = {};
    const a = withRetries(refused.attempt, policy([])).then(() => (done.refused = Date.now()));
    const b = withRetries(other.attempt, policy([])).then(() => (done.other = Date.now()));
    await vi.runAllTimersAsync();
    await Promise.all([a, b]);
    expect(done).toEqual({ other: 500, refused: 5010 });
  });
});
