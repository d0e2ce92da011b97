/**
 * Presenter pace: a per-step delay and Pause / Step / Resume between the steps of an episode.
 * The episode runner awaits `beforeStep` before it asks the actor for a step, so a pause never
 * cuts a call in flight (the pending call finishes and its step is recorded, then the loop
 * waits). Pace changes when a step happens, never what it is: a paced run records the same
 * trajectory, scores and W-AUC as an unpaced one on the same inputs. Time is injected (`sleep`),
 * so tests do not wait. Core: imports nothing of the DOM or the UI.
 */

/** The pace a session was run at: part of its settings (kept with the run), never of its results. */
export interface PaceSettings {
  /** Wait before each step after the episode's first, ms (0 = as fast as the model answers). */
  stepDelayMs: number;
}

/** What the runner awaits between steps. Resolves when the next step may start (or `signal` aborted). */
export interface StepGate {
  beforeStep(stepIndex: number, signal?: AbortSignal): Promise<void>;
  /** Awaited after episode `episodeIndex` ended, before the policy's update of the guiding prompt
   * (the meta-agent's call); absent = no wait. While paused it holds like a step: Step runs it. */
  beforeUpdate?(episodeIndex: number, signal?: AbortSignal): Promise<void>;
}

/** Where the loop is with respect to the pace: `running` (free or in a call), `delaying` (waiting
 * out the step delay), `paused` (Pause pressed, a call may still be finishing), `held` (paused and
 * the loop is waiting between steps). */
export type PaceState = 'running' | 'delaying' | 'paused' | 'held';

/** Sleep `ms` milliseconds, ending early (resolving) when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real sleep: a timer, cleared on abort. */
export const timerSleep: Sleep = (ms, signal) => new Promise((resolve) => {
  if (signal?.aborted || ms <= 0) return resolve();
  const done = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', done);
    resolve();
  };
  const timer = setTimeout(done, ms);
  signal?.addEventListener('abort', done, { once: true });
});

/** The choices a presenter picks from, ms (any other non-negative value is allowed too). */
export const STEP_DELAY_CHOICES_MS: readonly number[] = [0, 500, 1000, 2000];

/** A valid delay: a finite number ≥ 0, rounded to whole ms, at most 10 minutes; else 0. */
export function normalStepDelayMs(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(Math.round(value), 600_000) : 0;
}

/**
 * A pace controller shared by the runner (as its `StepGate`) and the controls (pause, step,
 * resume, setDelay). `onChange` is called whenever `state` or `paused` changes.
 */
export class Pacer implements StepGate {
  private delayMs: number;
  private pausedNow: boolean;
  private stateNow: PaceState = 'running';
  /** Steps granted by Step while paused and not yet started. */
  private granted = 0;
  private holdingUpdate = false;
  private wake: (() => void) | null = null;
  private readonly sleep: Sleep;

  constructor(options: { stepDelayMs?: number; paused?: boolean; sleep?: Sleep; onChange?: (pacer: Pacer) => void } = {}) {
    this.delayMs = normalStepDelayMs(options.stepDelayMs ?? 0);
    this.pausedNow = options.paused ?? false;
    this.sleep = options.sleep ?? timerSleep;
    this.onChange = options.onChange ?? null;
    if (this.pausedNow) this.stateNow = 'paused';
  }

  onChange: ((pacer: Pacer) => void) | null;

  get stepDelayMs(): number { return this.delayMs; }
  get paused(): boolean { return this.pausedNow; }
  get state(): PaceState { return this.stateNow; }
  /** True while held before a policy update (the next Step runs the meta-agent, not a step). */
  get nextIsUpdate(): boolean { return this.holdingUpdate; }

  /** Change the delay; it applies from the next wait. */
  setDelay(stepDelayMs: number): void {
    this.delayMs = normalStepDelayMs(stepDelayMs);
    this.changed();
  }

  /** Hold the loop before its next step (a call in flight finishes first). */
  pause(): void {
    if (this.pausedNow) return;
    this.pausedNow = true;
    this.granted = 0;
    this.set(this.stateNow === 'delaying' ? 'held' : 'paused');
    this.wake?.();
  }

  /** While paused: let exactly one more step run, then hold again. No effect when not paused. */
  step(): void {
    if (!this.pausedNow) return;
    this.granted++;
    this.wake?.();
  }

  /** Go on at the set pace. */
  resume(): void {
    if (!this.pausedNow) return;
    this.pausedNow = false;
    this.granted = 0;
    this.set('running');
    this.wake?.();
  }

  async beforeStep(stepIndex: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) return this.set(this.pausedNow ? 'paused' : 'running');
      if (this.pausedNow) {
        if (this.granted > 0) {
          this.granted--;
          return this.set('paused');
        }
        this.set('held');
        await this.waitForWake(signal);
        continue;
      }
      if (stepIndex > 1 && this.delayMs > 0) {
        this.set('delaying');
        const woken = this.waitForWake(signal);
        await Promise.race([this.sleep(this.delayMs, signal), woken]);
        this.wake = null;
        // Pause pressed during the delay: hold; otherwise the delay is over.
        if (this.pausedNow) continue;
      }
      return this.set('running');
    }
  }

  /** After an episode, before the policy update: while paused, held until Step or Resume (no delay). */
  async beforeUpdate(_episodeIndex: number, signal?: AbortSignal): Promise<void> {
    this.holdingUpdate = true;
    try {
      while (this.pausedNow && !signal?.aborted) {
        if (this.granted > 0) {
          this.granted--;
          return this.set('paused');
        }
        this.set('held');
        this.changed();
        await this.waitForWake(signal);
      }
      this.set(this.pausedNow ? 'paused' : 'running');
    } finally {
      this.holdingUpdate = false;
      this.changed();
    }
  }

  private waitForWake(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        if (this.wake === done) this.wake = null;
        resolve();
      };
      this.wake = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private set(state: PaceState): void {
    if (this.stateNow === state) return;
    this.stateNow = state;
    this.changed();
  }

  private changed(): void {
    this.onChange?.(this);
  }
}
