/**
 * Rate-limit-aware concurrency: one `RateScheduler` per (base URL, model), shared by every run of
 * the process or page (`sharedRateSchedulers`), admits each request attempt of the
 * OpenAI-compatible chat model (every role, retries included) so that together they stay under
 * the provider's limits. DOM-free; the clock is injected.
 *
 * The rule (AIMD on a concurrency window W, plus the provider's own budget):
 * - At most ⌊W⌋ attempts are in flight. W starts unbounded (each run's own `maxConcurrent` still
 *   bounds it), so a provider that never limits us costs nothing.
 * - A 429 for an attempt sent since the last decrease sets W to half of what was in flight (at
 *   most half of W, not below 1) and pauses every
 *   attempt of this (base URL, model) — not only the one refused — until the provider's
 *   `retry-after-ms` / `Retry-After` has passed, else for 500 ms · 2^(n−1) after the n-th
 *   consecutive 429 round (capped at `maxPauseMs`). 429s of attempts already in flight when W was
 *   halved extend the pause but do not halve W again, so one burst costs one halving.
 * - Each success ends the run of consecutive 429 rounds and, while the window is what holds
 *   attempts back (some wait, or it is full), adds 1/W to W (about +1 per window of successes).
 * - `x-ratelimit-remaining-requests` with `x-ratelimit-reset-requests` (and the `-tokens` pair,
 *   against each attempt's token estimate) are a budget until the reset: attempts admitted after
 *   the one that reported it count against it, and none is sent while it is spent, until the reset.
 *   Reset values are OpenAI's durations ("1s", "6m0s", "20ms", "1m30.5s") or seconds.
 * - An attempt in flight longer than the stall time — twice the slowest of the last successes,
 *   at least `minStallMs` (1 s) — is taken as hung and stops counting against the window (it still
 *   counts as in flight), so a hang holds only its own call, never every call behind a small
 *   window; a copy sent beside it (hedge.ts) or its request timeout ends it. Until a success has been timed nothing counts as hung.
 * So a run never floods a provider with retries: while it is paused, every retry waits too. A
 * pause lasts exactly the provider's Retry-After (or the backoff) and only on that (base URL,
 * model): other models and providers, and retries of other faults, are never held by it.
 */
import { LlmError } from './errors.ts';

/** Successes whose durations set the stall time. */
const RECENT_SUCCESSES = 16;

/** The scheduler's clock: monotonic ms and a cancellable timer. */
export interface SchedulerClock {
  now(): number;
  /** Call `fn` after `ms`; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

/** performance.now and setTimeout. */
export const systemClock: SchedulerClock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** How an admitted attempt ended, as far as rate limits go. */
export interface AttemptOutcome {
  /** HTTP status of the response (429 = rate limited), null when none arrived (network, abort). */
  status: number | null;
  /** The response's headers, when one arrived. */
  headers?: Headers | null;
}

/** One admitted attempt; `release` it exactly once when its response (or failure) is known. */
export interface Permit {
  release(outcome: AttemptOutcome): void;
}

export interface RateSchedulerOptions {
  /** Largest window (attempts in flight), default unbounded. */
  ceiling?: number;
  clock?: SchedulerClock;
  /** First pause after a 429 without Retry-After, ms (default 500). */
  backoffBaseMs?: number;
  /** Longest pause, ms (default 60 000). */
  maxPauseMs?: number;
  /** Least time in flight after which an attempt counts as hung, ms (default 1000). */
  minStallMs?: number;
}

/** What the scheduler holds now (for tests, the bench and diagnostics). */
export interface SchedulerState {
  window: number;
  ceiling: number;
  inFlight: number;
  /** Attempts in flight past the stall time (taken as hung: not counted against the window). */
  stalled: number;
  waiting: number;
  /** Clock time until which nothing is sent, ms (≤ now when not paused). */
  pausedUntilMs: number;
  /** Requests / tokens left in the provider's budget, null when it sent none (or it has reset). */
  remainingRequests: number | null;
  remainingTokens: number | null;
  /** 429s seen, and how many of them halved the window. */
  rateLimited: number;
  decreases: number;
}

interface Waiter {
  tokens: number;
  retry: boolean;
  resolve: (permit: Permit) => void;
  reject: (error: LlmError) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Budget {
  remaining: number;
  resetAtMs: number;
}

/** Admission for one (base URL, model); see the module comment for the rule. */
export class RateScheduler {
  private readonly clock: SchedulerClock;
  private readonly backoffBaseMs: number;
  private readonly maxPauseMs: number;
  private readonly ceilingValue: number;
  private windowValue: number;
  private inFlightCount = 0;
  private readonly queue: Waiter[] = [];
  private pausedUntil = -Infinity;
  private consecutive429 = 0;
  /** Admissions so far, and the admission count at the last decrease. */
  private admitted = 0;
  private decreasedAt = -1;
  private requestBudget: Budget | null = null;
  private tokenBudget: Budget | null = null;
  /** Tokens of admissions by admission number, from the newest reporting attempt on. */
  private readonly admittedTokens = new Map<number, number>();
  /** Admission number of the attempt whose headers set the budgets (older ones are stale). */
  private reportedBy = -1;
  private cancelTimer: (() => void) | null = null;
  private timerAtMs = Infinity;
  private rateLimitedCount = 0;
  private decreaseCount = 0;
  private readonly minStallMs: number;
  /** Send time of each attempt in flight, by admission number. */
  private readonly sentAt = new Map<number, number>();
  /** Durations of the last successes, ms (newest last). */
  private readonly recentSuccessMs: number[] = [];

  constructor(options: RateSchedulerOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.maxPauseMs = options.maxPauseMs ?? 60_000;
    this.ceilingValue = Math.max(1, options.ceiling ?? Infinity);
    this.minStallMs = options.minStallMs ?? 1000;
    this.windowValue = this.ceilingValue;
  }

  /**
   * Wait for a permit to send one attempt estimated at `tokens` tokens (prompt + max tokens).
   * A `retry` waits ahead of every first attempt (in order among retries), so a call refused once
   * is not refused again behind newer calls until its retries run out.
   * @throws LlmError('aborted') when `signal` aborts before it is admitted
   */
  acquire(signal?: AbortSignal, tokens = 0, retry = false): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(new LlmError('aborted', 'The request was stopped before it was sent.'));
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = { tokens, retry, resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const at = this.queue.indexOf(waiter);
          if (at >= 0) this.queue.splice(at, 1);
          reject(new LlmError('aborted', 'The request was stopped before it was sent.'));
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      const firstNew = retry ? this.queue.findIndex((w) => !w.retry) : -1;
      if (firstNew >= 0) this.queue.splice(firstNew, 0, waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  state(): SchedulerState {
    const now = this.clock.now();
    const live = (b: Budget | null) => (b && now < b.resetAtMs ? b.remaining : null);
    return {
      window: this.windowValue, ceiling: this.ceilingValue, inFlight: this.inFlightCount, stalled: this.inFlightCount - this.counted(now).count, waiting: this.queue.length,
      pausedUntilMs: this.pausedUntil, remainingRequests: live(this.requestBudget), remainingTokens: live(this.tokenBudget),
      rateLimited: this.rateLimitedCount, decreases: this.decreaseCount,
    };
  }

  /** Admit waiters in order while the window, the pause and the budgets allow; else wake later. */
  private pump(): void {
    const now = this.clock.now();
    let wakeAt = Infinity;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      const { count, nextStallAt } = this.counted(now);
      if (count >= Math.floor(this.windowValue)) {
        wakeAt = nextStallAt; // a release pumps again, and so does an attempt turning hung
        break;
      }
      if (now < this.pausedUntil) {
        wakeAt = this.pausedUntil;
        break;
      }
      const blockedUntil = this.budgetBlock(now, next.tokens);
      if (blockedUntil !== null) {
        wakeAt = blockedUntil;
        break;
      }
      this.queue.shift();
      if (next.signal && next.onAbort) next.signal.removeEventListener('abort', next.onAbort);
      next.resolve(this.admit(next.tokens));
    }
    this.wakeAt(wakeAt);
  }

  /** Stall time, ms: twice the slowest recent success, at least minStallMs; Infinity before any. */
  private stallMs(): number {
    return this.recentSuccessMs.length === 0 ? Infinity : Math.max(this.minStallMs, 2 * Math.max(...this.recentSuccessMs));
  }

  /** Attempts in flight that count against the window (not hung), and when the next turns hung. */
  private counted(now: number): { count: number; nextStallAt: number } {
    const stall = this.stallMs();
    let count = 0;
    let nextStallAt = Infinity;
    for (const at of this.sentAt.values()) {
      if (now - at < stall) {
        count++;
        nextStallAt = Math.min(nextStallAt, at + stall);
      }
    }
    return { count, nextStallAt };
  }

  /** The reset time that holds an attempt of `tokens` back, or null when the budgets allow it. */
  private budgetBlock(now: number, tokens: number): number | null {
    for (const budget of [this.requestBudget, this.tokenBudget]) {
      if (budget && now >= budget.resetAtMs) {
        if (budget === this.requestBudget) this.requestBudget = null;
        else this.tokenBudget = null;
      }
    }
    if (this.requestBudget && this.requestBudget.remaining < 1) return this.requestBudget.resetAtMs;
    if (this.tokenBudget && this.tokenBudget.remaining < Math.max(1, tokens)) return this.tokenBudget.resetAtMs;
    return null;
  }

  private admit(tokens: number): Permit {
    const index = this.admitted++;
    this.admittedTokens.set(index, tokens);
    this.inFlightCount++;
    this.sentAt.set(index, this.clock.now());
    if (this.requestBudget) this.requestBudget.remaining -= 1;
    if (this.tokenBudget) this.tokenBudget.remaining -= tokens;
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        const now = this.clock.now();
        const limited = this.queue.length > 0 || this.counted(now).count >= Math.floor(this.windowValue);
        const tookMs = now - (this.sentAt.get(index) ?? now);
        this.sentAt.delete(index);
        this.inFlightCount--;
        if (outcome.status !== null && outcome.status < 400) {
          this.recentSuccessMs.push(tookMs);
          if (this.recentSuccessMs.length > RECENT_SUCCESSES) this.recentSuccessMs.shift();
        }
        this.settle(index, outcome, limited);
        if (this.reportedBy < 0) this.admittedTokens.delete(index); // no budget to count it against
        this.pump();
      },
    };
  }

  private settle(index: number, outcome: AttemptOutcome, limited: boolean): void {
    const now = this.clock.now();
    if (outcome.headers) this.readBudgets(index, outcome.headers, now);
    if (outcome.status === 429) {
      this.rateLimitedCount++;
      if (index > this.decreasedAt) {
        this.decreasedAt = this.admitted - 1;
        this.windowValue = Math.max(1, Math.floor(Math.min(this.windowValue, this.counted(now).count + 1) / 2));
        this.decreaseCount++;
        this.consecutive429++;
      }
      const asked = outcome.headers ? retryAfterHeaderMs(outcome.headers, Date.now()) : null;
      const pause = Math.min(this.maxPauseMs, asked ?? this.backoffBaseMs * 2 ** (Math.max(1, this.consecutive429) - 1));
      this.pausedUntil = Math.max(this.pausedUntil, now + pause);
    } else if (outcome.status !== null && outcome.status < 400) {
      this.consecutive429 = 0;
      if (limited) this.windowValue = Math.min(this.ceilingValue, this.windowValue + 1 / this.windowValue);
    }
  }

  /** Take the provider's remaining budgets, less what was admitted after the reporting attempt. */
  private readBudgets(index: number, headers: Headers, now: number): void {
    const requests = budgetOf(headers, 'requests', now);
    const tokens = budgetOf(headers, 'tokens', now);
    if ((!requests && !tokens) || index < this.reportedBy) return; // an older report than the one in force
    this.reportedBy = index;
    for (const i of this.admittedTokens.keys()) if (i <= index) this.admittedTokens.delete(i);
    if (requests) this.requestBudget = { remaining: requests.remaining - (this.admitted - index - 1), resetAtMs: requests.resetAtMs };
    let later = 0;
    for (const t of this.admittedTokens.values()) later += t;
    if (tokens) this.tokenBudget = { remaining: tokens.remaining - later, resetAtMs: tokens.resetAtMs };
  }

  private wakeAt(at: number): void {
    if (at === Infinity || at >= this.timerAtMs) {
      if (at === Infinity && this.queue.length === 0) this.clearTimer();
      return;
    }
    this.clearTimer();
    this.timerAtMs = at;
    this.cancelTimer = this.clock.setTimer(() => {
      this.cancelTimer = null;
      this.timerAtMs = Infinity;
      this.pump();
    }, Math.max(0, at - this.clock.now()));
  }

  private clearTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.timerAtMs = Infinity;
  }
}

/**
 * A duration as rate-limit headers write it, in ms: OpenAI's "1s", "6m0s", "20ms", "1m30.5s",
 * "1h2m", or bare seconds ("60", "0.5"); null when unreadable.
 */
export function parseResetMs(value: string | null | undefined): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let total = 0;
  let rest = text;
  while (rest.length > 0) {
    const part = /^(\d+(?:\.\d+)?)(ms|h|m|s)/.exec(rest);
    if (!part) return null;
    total += Number(part[1]) * unit[part[2]!]!;
    rest = rest.slice(part[0].length);
  }
  return total;
}

/** `x-ratelimit-remaining-<kind>` with `x-ratelimit-reset-<kind>` as a budget, or null. */
function budgetOf(headers: Headers, kind: 'requests' | 'tokens', now: number): Budget | null {
  const remaining = Number(headers.get(`x-ratelimit-remaining-${kind}`) ?? NaN);
  const resetMs = parseResetMs(headers.get(`x-ratelimit-reset-${kind}`));
  if (!Number.isFinite(remaining) || resetMs === null) return null;
  return { remaining, resetAtMs: now + resetMs };
}

/** `retry-after-ms`, else `Retry-After` (seconds or an HTTP date against `dateNowMs`), in ms; null when absent. */
export function retryAfterHeaderMs(headers: Headers, dateNowMs: number): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - dateNowMs);
}

/** The schedulers of one process or page, one per (base URL, model). */
export class RateSchedulers {
  private readonly byKey = new Map<string, RateScheduler>();

  constructor(private readonly options: RateSchedulerOptions = {}) {}

  /** The scheduler of (baseUrl, model), created on first use. */
  for(baseUrl: string, model: string): RateScheduler {
    const key = `${baseUrl.replace(/\/+$/, '')}\n${model}`;
    let scheduler = this.byKey.get(key);
    if (!scheduler) {
      scheduler = new RateScheduler(this.options);
      this.byKey.set(key, scheduler);
    }
    return scheduler;
  }
}

/** The process's (or page's) schedulers, shared by every run. */
export const sharedRateSchedulers = new RateSchedulers();
