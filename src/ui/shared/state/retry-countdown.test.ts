/** RetryCountdown: whole seconds left, ticking once a second to the end, cleared by a new wait or clear(). */
import { describe, expect, it } from 'vitest';
import { RetryCountdown, type Schedule } from './retry-countdown.svelte.ts';

function fakeClock() {
  const pending: { callback: () => void; delayMs: number; cancelled: boolean }[] = [];
  const schedule: Schedule = (callback, delayMs) => {
    const entry = { callback, delayMs, cancelled: false };
    pending.push(entry);
    return () => void (entry.cancelled = true);
  };
  /** Fire the last scheduled callback that is still live; returns its delay. */
  const fire = (): number => {
    const next = pending.filter((p) => !p.cancelled).at(-1)!;
    next.cancelled = true;
    next.callback();
    return next.delayMs;
  };
  return { schedule, pending, fire };
}

describe('RetryCountdown', () => {
  it('counts 2.5 s down as 3, 2, 1, then clears', () => {
    const clock = fakeClock();
    const countdown = new RetryCountdown(clock.schedule);
    countdown.show(2500);
    const seen: (number | null)[] = [countdown.seconds];
    const delays: number[] = [];
    while (countdown.seconds !== null) {
      delays.push(clock.fire());
      seen.push(countdown.seconds);
    }
    expect(seen).toEqual([3, 2, 1, null]);
    expect(delays).toEqual([500, 1000, 1000]);
  });

  it('a new wait replaces the old one; clear() stops the ticks', () => {
    const clock = fakeClock();
    const countdown = new RetryCountdown(clock.schedule);
    countdown.show(5000);
    countdown.show(2000);
    expect(countdown.seconds).toBe(2);
    expect(clock.pending.filter((p) => !p.cancelled)).toHaveLength(1);
    countdown.clear();
    expect(countdown.seconds).toBeNull();
    expect(clock.pending.every((p) => p.cancelled)).toBe(true);
  });
});
