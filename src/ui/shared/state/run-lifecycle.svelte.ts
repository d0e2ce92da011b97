/**
 * The lifecycle every run a view starts shares, written once: a phase (idle → starting → running
 * → stopping → idle), an abort signal Stop fires, the countdown of a provider-requested wait,
 * re-reading a run another tab drives while its Web Lock is held, and the view's one error slot
 * (`errors`, error-slot.svelte.ts: every thrown error worded as error-text.ts does, the key
 * scrubbed). Subclasses say how an error reads (`messageOf`), run their work through `lifecycle`
 * and any other fallible task through `errors.run`, overriding nothing else: the Evolve and
 * Evaluate drivers (run-driver.svelte.ts), Learn's session and the Agent's episode.
 */
import { ErrorSlot } from './error-slot.svelte.ts';
import { RetryCountdown, type Schedule } from './retry-countdown.svelte.ts';

/** `idle`: nothing runs here; `starting`: set-up before the first step; `stopping`: after Stop. */
export type RunPhase = 'idle' | 'starting' | 'running' | 'stopping';

/** How often a run another tab drives is re-read, ms. */
export const WATCH_INTERVAL_MS = 2_000;

/** What a run does besides its work: `failed` after a thrown error is shown in `error` (it may add
 * to it), `settle` after the run ended either way (before the phase is back to idle). */
export interface LifecycleHooks {
  failed?(error: unknown): void | Promise<void>;
  settle?(): void;
}

export abstract class RunLifecycle {
  phase = $state<RunPhase>('idle');
  /** The view's error slot; `error` is its text. */
  readonly errors = new ErrorSlot((error) => this.messageOf(error));
  /** The text of the last thrown error (key scrubbed), or a problem found before a run; null when none. */
  get error(): string | null {
    return this.errors.message;
  }
  set error(message: string | null) {
    this.errors.message = message;
  }
  /** True while a run is in progress in this tab (from its start to the end of its stop). */
  readonly running = $derived(this.phase !== 'idle');
  /** Seconds left of the wait before a retry (counting down); null when not waiting. */
  get waitingSeconds(): number | null {
    return this.wait.seconds;
  }

  private controller: AbortController | null = null;
  private readonly wait: RetryCountdown;
  private cancelWatch: (() => void) | null = null;

  constructor(protected readonly schedule: Schedule) {
    this.wait = new RetryCountdown(schedule);
  }

  /** The text shown for a thrown error, with the key scrubbed. */
  protected abstract messageOf(error: unknown): string;

  /**
   * Run `work` as this view's run: phase `starting` (`started()` moves it to `running`), an abort
   * signal that `stop()` fires, a thrown error shown in `error` (then `hooks.failed`), and on any
   * end the wait cleared, `hooks.settle`, and phase `idle`. Never throws (unless a hook does).
   * @returns what `work` returned, or undefined when it threw
   */
  protected async lifecycle<T>(work: (signal: AbortSignal) => Promise<T>, hooks: LifecycleHooks = {}): Promise<T | undefined> {
    this.phase = 'starting';
    const controller = new AbortController();
    this.controller = controller;
    try {
      return await work(controller.signal);
    } catch (error) {
      this.errors.showError(error);
      await hooks.failed?.(error);
      return undefined;
    } finally {
      this.controller = null;
      this.wait.clear();
      hooks.settle?.();
      this.phase = 'idle';
    }
  }

  /** Stop the run this tab drives: in-flight requests are aborted (nothing of their replies is
   * used); what was recorded stays. */
  stop(): void {
    if (!this.controller) return;
    this.controller.abort();
    this.phase = 'stopping';
    this.wait.clear();
  }

  /** Close the error slot. */
  dismissError(): void {
    this.errors.dismiss();
  }

  /** Mark the run as running (after its set-up) — unless Stop came first. */
  protected started(): void {
    if (this.phase === 'starting') this.phase = 'running';
  }

  /** Show a provider-requested wait of `waitMs` (cleared after it, by `clearWait`, or when the run ends). */
  protected showWait(waitMs: number): void {
    this.wait.show(waitMs);
  }

  protected clearWait(): void {
    this.wait.clear();
  }

  /** Re-read a run another tab drives every WATCH_INTERVAL_MS: `reread` shows it again and tells
   * whether to go on (its lock is still held); replaces any watch in progress. */
  protected watchEvery(reread: () => Promise<boolean>): void {
    this.stopWatching();
    const tick = async (): Promise<void> => {
      this.cancelWatch = null;
      if (await reread()) this.cancelWatch = this.schedule(() => void tick(), WATCH_INTERVAL_MS);
    };
    this.cancelWatch = this.schedule(() => void tick(), WATCH_INTERVAL_MS);
  }

  /** Stop re-reading a watched run. */
  protected stopWatching(): void {
    this.cancelWatch?.();
    this.cancelWatch = null;
  }
}
