import { describe, expect, it } from 'vitest';
import { parseResetMs, RateScheduler, RateSchedulers, type Permit, type SchedulerClock } from './rate-scheduler.ts';

/** A clock that moves only when told; timers fire in `advance`. */
class FakeClock implements SchedulerClock {
  t = 0;
  private timers: { at: number; fn: () => void; live: boolean }[] = [];
  now = (): number => this.t;
  setTimer = (fn: () => void, ms: number): (() => void) => {
    const timer = { at: this.t + ms, fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  };
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.live && x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      due.live = false;
      this.t = due.at;
      due.fn();
    }
    this.t = end;
  }
}

/** Ask for `n` permits; `granted` fills as they are admitted. */
function ask(s: RateScheduler, n: number, tokens = 0): { granted: Permit[]; all: Promise<Permit[]> } {
  const granted: Permit[] = [];
  const all = Promise.all(Array.from({ length: n }, () => s.acquire(undefined, tokens).then((p) => (granted.push(p), p))));
  return { granted, all };
}
const flush = () => new Promise<void>((r) => setTimeout(r, 0));
const headers = (h: Record<string, string>) => new Headers(h);

describe('RateScheduler', () => {
  it('admits up to the window at once and the next waiter when one is released', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 3, clock });
    const { granted } = ask(s, 5);
    await flush();
    expect([granted.length, s.state().inFlight, s.state().waiting]).toEqual([3, 3, 2]);
    granted[0]!.release({ status: 200 });
    await flush();
    expect(granted.length).toBe(4);
  });

  it('remaining-requests 0 with reset-requests 2s holds every attempt until the reset, then admits them', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 8, clock });
    const first = await s.acquire();
    first.release({ status: 200, headers: headers({ 'x-ratelimit-remaining-requests': '2', 'x-ratelimit-reset-requests': '2s' }) });
    const { granted } = ask(s, 4);
    await flush();
    expect(granted.length).toBe(2); // the two requests the provider said are left
    expect(s.state().remainingRequests).toBe(0);
    clock.advance(1999);
    await flush();
    expect(granted.length).toBe(2);
    clock.advance(1);
    await flush();
    expect(granted.length).toBe(4);
  });

  it('counts attempts admitted after the reporting one against its remaining budget', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 8, clock });
    const { granted } = ask(s, 3);
    await flush();
    granted[0]!.release({ status: 200, headers: headers({ 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '1m0s' }) });
    // Two more were sent after the reporter: 3 − 2 = 1 left.
    expect(s.state().remainingRequests).toBe(1);
    // An older report (the second attempt's) arriving later does not undo the newer one.
    const later = ask(s, 1);
    await flush();
    expect(later.granted.length).toBe(1);
    expect(s.state().remainingRequests).toBe(0);
  });

  it('a tokens budget holds an attempt whose estimate exceeds what is left', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 8, clock });
    (await s.acquire(undefined, 100)).release({ status: 200, headers: headers({ 'x-ratelimit-remaining-tokens': '1500', 'x-ratelimit-reset-tokens': '500ms' }) });
    const { granted } = ask(s, 3, 1000);
    await flush();
    expect(granted.length).toBe(1);
    clock.advance(500);
    await flush();
    expect(granted.length).toBe(3);
  });

  it('a 429 pauses everyone on the (base URL, model) for its Retry-After and halves the window once per burst', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 8, clock });
    const burst = ask(s, 8);
    await flush();
    // All eight in flight are refused; only the first refusal halves the window.
    burst.granted[0]!.release({ status: 429, headers: headers({ 'retry-after-ms': '1500' }) });
    for (const p of burst.granted.slice(1)) p.release({ status: 429, headers: headers({ 'retry-after': '1' }) });
    expect([s.state().window, s.state().decreases, s.state().rateLimited, s.state().pausedUntilMs]).toEqual([4, 1, 8, 1500]);
    const retries = ask(s, 8);
    await flush();
    expect(retries.granted.length).toBe(0); // nobody is sent during the pause
    clock.advance(1500);
    await flush();
    expect(retries.granted.length).toBe(4); // then only the halved window
  });

  it('a 429 without Retry-After pauses 500 ms · 2^(n−1) for the n-th consecutive round; a success ends the run', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 4, clock });
    (await s.acquire()).release({ status: 429 });
    expect(s.state().pausedUntilMs).toBe(500);
    clock.advance(500);
    (await s.acquire()).release({ status: 429 });
    expect(s.state().pausedUntilMs).toBe(1500);
    clock.advance(1000);
    (await s.acquire()).release({ status: 429 });
    expect([s.state().pausedUntilMs, s.state().window]).toEqual([3500, 1]);
    clock.advance(2000);
    (await s.acquire()).release({ status: 200 });
    clock.advance(10);
    (await s.acquire()).release({ status: 429 });
    expect(s.state().pausedUntilMs).toBe(3510 + 500);
  });

  it('ramps back up by 1/W per success while calls wait, to the ceiling (additive increase); not while the window is idle', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 8, clock });
    const burst = ask(s, 8);
    await flush();
    burst.granted[0]!.release({ status: 429, headers: headers({ 'retry-after-ms': '0' }) });
    for (const p of burst.granted.slice(1)) p.release({ status: null });
    expect(s.state().window).toBe(4);
    const queued = ask(s, 60);
    await flush();
    expect(queued.granted.length).toBe(4);
    for (let i = 0; i < 4; i++) queued.granted[i]!.release({ status: 200 });
    let w = 4;
    for (let i = 0; i < 4; i++) w += 1 / w;
    expect(s.state().window).toBeCloseTo(w, 10); // ≈ 4.91: about +1 per window of successes
    for (let i = 4; i < 60; i++) {
      await flush();
      queued.granted[i]!.release({ status: 200 });
    }
    expect(s.state().window).toBe(8);
    const idle = new RateScheduler({ clock });
    (await idle.acquire()).release({ status: 429, headers: headers({ 'retry-after-ms': '0' }) });
    for (let i = 0; i < 5; i++) (await idle.acquire()).release({ status: 200 });
    expect(idle.state().window).toBe(2); // 1 + 1/1, then one call at a time never fills a window of 2
  });

  it('a failure without a response (network, abort) changes nothing; Stop rejects a waiting acquire', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 1, clock });
    const held = await s.acquire();
    const stop = new AbortController();
    const waiting = s.acquire(stop.signal);
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ kind: 'aborted' });
    held.release({ status: null });
    expect([s.state().window, s.state().waiting, s.state().inFlight]).toEqual([1, 0, 0]);
  });

  it('one scheduler per (base URL, model), unbounded until the provider limits it', () => {
    const all = new RateSchedulers({ clock: new FakeClock() });
    const a = all.for('http://x/v1/', 'm');
    expect(all.for('http://x/v1', 'm')).toBe(a);
    expect(a.state().window).toBe(Infinity);
    expect(all.for('http://x/v1', 'other')).not.toBe(a);
  });
});

describe('parseResetMs', () => {
  it("reads OpenAI's durations and bare seconds", () => {
    expect(['1s', '6m0s', '20ms', '1m30.5s', '1h2m', '60', '0.5', '', 'soon', null].map(parseResetMs)).toEqual([1000, 360_000, 20, 90_500, 3_720_000, 60_000, 500, null, null, null]);
  });
});

describe('RateScheduler retries', () => {
  it('a retry waits ahead of first attempts, so a refused call is not refused again behind newer ones', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 1, clock });
    const held = await s.acquire();
    const order: string[] = [];
    const first = s.acquire().then((p) => (order.push('new'), p));
    const retry = s.acquire(undefined, 0, true).then((p) => (order.push('retry'), p));
    held.release({ status: 200 });
    (await retry).release({ status: 200 });
    await first;
    expect(order).toEqual(['retry', 'new']);
  });
});

describe('RateScheduler: recovery holds only what it must', () => {
  it('a 429 with Retry-After delays a concurrent call on the same (base URL, model) by exactly its Retry-After, and calls of other models or providers not at all', async () => {
    const clock = new FakeClock();
    const all = new RateSchedulers({ clock });
    const same = all.for('http://x/v1', 'm');
    (await same.acquire()).release({ status: 429, headers: headers({ 'retry-after-ms': '700' }) });
    const admitted: Record<string, number> = {};
    const wait = (name: string, s: RateScheduler) => void s.acquire().then((p) => ((admitted[name] = clock.t), p.release({ status: 200 })));
    wait('same', same);
    wait('other model', all.for('http://x/v1', 'other'));
    wait('other provider', all.for('http://y/v1', 'm'));
    await flush();
    expect(admitted).toEqual({ 'other model': 0, 'other provider': 0 });
    clock.advance(699);
    await flush();
    expect(admitted.same).toBeUndefined();
    clock.advance(1);
    await flush();
    expect(admitted.same).toBe(700);
  });

  it('a hung attempt holds only itself: past twice the slowest recent success (at least 1 s) it stops counting against the window', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 1, clock });
    const timedOk = await s.acquire();
    clock.advance(300);
    timedOk.release({ status: 200 }); // the slowest success took 300 ms: stall time 600, raised to 1000
    const hung = await s.acquire();
    const { granted } = ask(s, 1);
    clock.advance(999);
    await flush();
    expect([granted.length, s.state().stalled]).toEqual([0, 0]);
    clock.advance(1);
    await flush();
    expect([granted.length, s.state().stalled, s.state().inFlight]).toEqual([1, 1, 2]);
    hung.release({ status: null }); // its request timeout ends it
    expect([s.state().stalled, s.state().inFlight]).toEqual([0, 1]);
    granted[0]!.release({ status: 200 });
    // Slow successes raise the stall time: 2 × 1500 ms.
    const slow = await s.acquire();
    clock.advance(1500);
    slow.release({ status: 200 });
    await s.acquire();
    const next = ask(s, 1);
    clock.advance(2999);
    await flush();
    expect(next.granted.length).toBe(0);
    clock.advance(1);
    await flush();
    expect(next.granted.length).toBe(1);
  });

  it('before any success is timed nothing counts as hung; hung attempts are not counted as load when a 429 halves the window', async () => {
    const clock = new FakeClock();
    const s = new RateScheduler({ ceiling: 1, clock });
    await s.acquire();
    const { granted } = ask(s, 1);
    clock.advance(60_000);
    await flush();
    expect(granted.length).toBe(0);
    const t = new RateScheduler({ ceiling: 4, clock });
    const first = await t.acquire();
    clock.advance(10);
    first.release({ status: 200 });
    const burst = ask(t, 4);
    await flush();
    clock.advance(1000); // three of the four hang past the stall time
    burst.granted[0]!.release({ status: 429, headers: headers({ 'retry-after-ms': '0' }) });
    expect(t.state().window).toBe(1); // ⌊(0 counted + 1) / 2⌋, at least 1: hung attempts are not load
  });
});
