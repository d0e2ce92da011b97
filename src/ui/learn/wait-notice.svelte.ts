/**
 * "The provider asked us to wait N s" (429/503 Retry-After): the seconds shown while a retry
 * waits, cleared when the wait is over, a step arrives, or the run stops. Time is injected.
 */
import type { Schedule } from '../agent.svelte.ts';

/** `setTimeout` as a `Schedule`. */
export const browserSchedule: Schedule = (callback, delayMs) => {
  const timer = setTimeout(callback, delayMs);
  return () => clearTimeout(timer);
};

export class WaitNotice {
  /** Seconds the provider asked to wait; null when not waiting. */
  seconds = $state<number | null>(null);
  private cancel: (() => void) | null = null;

  constructor(private readonly schedule: Schedule) {}

  show(waitMs: number): void {
    this.clear();
    this.seconds = Math.ceil(waitMs / 1000);
    this.cancel = this.schedule(() => this.clear(), waitMs);
  }

  clear(): void {
    this.cancel?.();
    this.cancel = null;
    this.seconds = null;
  }
}
