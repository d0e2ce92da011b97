/**
 * "Waiting N s before retrying": a countdown of the wait before a retry (the provider's
 * Retry-After, capped to the longest wait in Settings, or our backoff), shown where a run's
 * status is. It ticks once a second down to 0 and clears itself; a new wait, a step arriving or
 * the run stopping clears it too. Time is injected (`Schedule`), so tests drive the ticks.
 */

/** Run `callback` after `delayMs`; returns a cancel function. */
export type Schedule = (callback: () => void, delayMs: number) => () => void;

/** `setTimeout` as a `Schedule`. */
export const browserSchedule: Schedule = (callback, delayMs) => {
  const timer = setTimeout(callback, delayMs);
  return () => clearTimeout(timer);
};

export class RetryCountdown {
  /** Whole seconds left (rounded up); null when not waiting. */
  seconds = $state<number | null>(null);
  private cancel: (() => void) | null = null;

  constructor(private readonly schedule: Schedule) {}

  /** Start counting down `waitMs` (replacing any wait shown). */
  show(waitMs: number): void {
    this.clear();
    let remaining = Math.max(0, waitMs);
    const tick = (): void => {
      this.seconds = Math.ceil(remaining / 1000);
      if (remaining <= 0) {
        this.clear();
        return;
      }
      // First tick on the next whole second, then every second.
      const step = remaining % 1000 || 1000;
      this.cancel = this.schedule(() => {
        remaining -= step;
        tick();
      }, step);
    };
    tick();
  }

  clear(): void {
    this.cancel?.();
    this.cancel = null;
    this.seconds = null;
  }
}
