/**
 * The presenter pace of a run view (Learn, Agent) as state: the per-step delay chosen (kept in the
 * store's settings as `pace:<view>`, so a reload shows it), and Pause / Step / Resume of the run
 * in progress. The pacing itself is the core's (src/ttl/pace.ts: the runner waits between steps);
 * this only creates a `Pacer` per run and mirrors its state for the controls.
 */
import type { SettingValue, Store } from '../../../store/interface.ts';
import { normalStepDelayMs, Pacer, type PaceState, type Sleep } from '../../../ttl/pace.ts';

/** The store setting of a view's pace. */
export const paceSettingKey = (view: 'learn' | 'agent'): string => `pace:${view}`;

export class PaceControl {
  /** The delay before each step after an episode's first, ms (0 = off). */
  stepDelayMs = $state(0);
  /** Pause pressed and not resumed (the run holds before its next step). */
  paused = $state(false);
  /** The running pacer's state; `idle` when no run is paced. */
  state = $state<PaceState | 'idle'>('idle');
  /** Held after an episode, before the meta-agent's update (the next Step runs the update). */
  nextIsUpdate = $state(false);
  /** Steps let run by Step during this run (shown to the presenter). */
  stepsGranted = $state(0);
  /** Called when the delay changes during a run (the view records it with the run). */
  onDelayChange: ((stepDelayMs: number) => void) | null = null;
  private pacer: Pacer | null = null;
  private loaded = false;

  constructor(
    private readonly store: () => Store,
    private readonly view: 'learn' | 'agent',
    private readonly sleep?: Sleep,
  ) {}

  /** Read the saved delay (once; store errors keep 0). */
  async load(): Promise<void> {
    if (this.loaded) return;
    const saved = await this.store().getSetting(paceSettingKey(this.view)).catch(() => undefined);
    this.loaded = true;
    if (saved && typeof saved === 'object' && !Array.isArray(saved)) this.stepDelayMs = normalStepDelayMs((saved as Record<string, unknown>).stepDelayMs);
  }

  /** Choose the delay (applies from the next step of a running session) and remember it. */
  setDelay(stepDelayMs: number): void {
    this.stepDelayMs = normalStepDelayMs(stepDelayMs);
    this.pacer?.setDelay(this.stepDelayMs);
    if (this.pacer) this.onDelayChange?.(this.stepDelayMs);
    void this.store().setSetting(paceSettingKey(this.view), { stepDelayMs: this.stepDelayMs } as SettingValue).catch(() => undefined);
  }

  /** Show a recorded run's pace (a reopened or held session): the delay it ran at. */
  showRecorded(stepDelayMs: number | undefined): void {
    if (stepDelayMs !== undefined && !this.pacer) this.stepDelayMs = normalStepDelayMs(stepDelayMs);
  }

  /** A pacer for a run starting now, at the chosen delay, not paused. */
  begin(): Pacer {
    this.paused = false;
    this.stepsGranted = 0;
    this.pacer = new Pacer({
      stepDelayMs: this.stepDelayMs, ...(this.sleep ? { sleep: this.sleep } : {}),
      onChange: (p) => {
        this.state = p.state;
        this.paused = p.paused;
        this.nextIsUpdate = p.nextIsUpdate;
      },
    });
    this.state = this.pacer.state;
    return this.pacer;
  }

  /** The run ended (complete, stopped, failed). */
  end(): void {
    this.pacer = null;
    this.paused = false;
    this.nextIsUpdate = false;
    this.state = 'idle';
  }

  pause(): void {
    this.pacer?.pause();
  }

  /** One step while paused. */
  step(): void {
    if (!this.pacer?.paused) return;
    this.stepsGranted++;
    this.pacer.step();
  }

  resume(): void {
    this.pacer?.resume();
  }
}
