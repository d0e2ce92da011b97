/**
 * Driving a persisted, resumable run in the page (an evolution or an evaluation) on the run
 * lifecycle every view's run shares (run-lifecycle.svelte.ts: phase, Stop, waits, error slot): one tab drives
 * a run while holding its Web Lock (run-services `withRunLock`); a tab that opens a run another
 * tab drives shows it read-only and re-reads it from the store until the lock is free. Shows the
 * running tokens and USD of the usage meter, provider-requested waits, and every thrown error
 * (key scrubbed). Subclasses load a run's state and run it (`load`, `drive`), the run's core
 * service wired by `driveWith` — the part every page driver shares: the run context and its
 * meter, each session's options, the first state shown and the display observer. Before a run is
 * resumed its stored records are checked (store/run-check.ts): a damaged store stops with an error
 * naming the IndexedDB store and the first bad record and sets `damaged`; resuming with
 * `fromLastGood` keeps the records before it and does the rest again.
 */
import { DamagedRunError, type RunKind } from '../../../store/interface.ts';
import { checkRunForResume, type RecordValidator } from '../../../store/run-check.ts';
import type { Role } from '../../../llm/interface.ts';
import { knownUsd } from '../../../llm/defaults.ts';
import type { RoleTotals, UsageMeter } from '../../../llm/usage-meter.ts';
import type { RunObserver } from '../../../ttl/run-observers.ts';
import type { SessionEvaluatorOptions } from '../../../ttl/session-evaluator.ts';
import type { Schedule } from './retry-countdown.svelte.ts';
import { RunLifecycle, WATCH_INTERVAL_MS, type RunPhase } from './run-lifecycle.svelte.ts';
import type { RunContext, RunServices } from './run-services.ts';
import { dateAt } from './services.ts';

/** `idle`: nothing runs here; `watching`: another tab drives the run shown. */
export type DriverMode = RunPhase | 'watching';

export { WATCH_INTERVAL_MS };

/** What a run's session shape is read from (both run kinds' configs have it). */
type SessionShapeConfig = { episodes: number; maxSteps: number; initialGuidingPrompt: string; contextWindow: number };

/** The wiring `driveWith` hands a driver to call its run's core service with. */
export interface DriveWiring<S> {
  /** The run's context (settings, models, meter, engines, store). */
  ctx: RunContext;
  /** How each session of the run is played (`sessionOptions`). */
  options: SessionEvaluatorOptions;
  /** The service's `prepare` step, the part every driver shares: show the stored state of a run
   * that had none shown yet (`fresh`: nothing was stored before this drive), then mark it started. */
  shown(fresh: boolean): Promise<void>;
  /** The display observer: each event's snapshot becomes the state shown (not awaited by the core). */
  observers: [RunObserver<unknown, S>];
}

export abstract class RunDriver<S extends { id: string; status: string; config: C }, C> extends RunLifecycle {
  /** The run shown (a snapshot, replaced on every event). */
  state = $state.raw<S | null>(null);
  /** True while another tab drives the run shown (it is shown read-only and re-read). */
  private watching = $state(false);
  /** The run's phase here, or `watching`. */
  get mode(): DriverMode {
    return this.watching ? 'watching' : this.phase;
  }
  /** Tokens and USD of the run while it runs here and after it ended here (earlier sessions of a
   * resumed run included); `costUsd` is null while a model it calls has no known price at this
   * provider (shown as "—", never an invented figure). */
  tokens = $state(0);
  costUsd = $state<number | null>(0);
  /** The last resume found the stored run damaged: how many records are intact. */
  damaged = $state<{ keepCount: number } | null>(null);
  /** True while this tab drives the run shown. */
  get driving(): boolean {
    return this.running;
  }

  /**
   * @param schedule timers for waits and watching (the browser's, or a test's)
   * @param now the clock runs are stamped with (default: the page's)
   */
  constructor(
    protected readonly runs: RunServices,
    schedule: Schedule,
    protected readonly now: () => Date = () => dateAt(Date.now()),
  ) {
    super(schedule);
  }

  protected messageOf(error: unknown): string {
    return this.runs.messageOf(error);
  }

  /** The stored state of run `id`, if any. */
  protected abstract load(id: string): Promise<S | undefined>;
  /** Run (or resume) `id` to its end or a stop, holding its lock; publish states with `this.state = …`. */
  protected abstract drive(id: string, config: C, signal: AbortSignal): Promise<S>;
  /** What the run is called in messages ("evolution run", "evaluation"). */
  protected abstract readonly noun: string;
  /** The run kind in the store and the check of one stored record (for the resume check). */
  protected abstract readonly kind: RunKind;
  protected abstract readonly validateRecord: RecordValidator;

  /** Show stored run `id`: read-only while another tab holds its lock. */
  async show(id: string): Promise<void> {
    if (this.driving) return;
    this.unwatch();
    this.error = null;
    const state = await this.load(id);
    if (!state) {
      this.state = null;
      this.error = `There is no ${this.noun} “${id}” in this browser.`;
      return;
    }
    this.state = state;
    this.tokens = 0;
    this.costUsd = 0;
    if (await this.runs.isRunLocked(id)) this.watch(id);
  }

  /** Close the run shown (nothing runs). */
  clear(): void {
    if (this.driving) return;
    this.unwatch();
    this.state = null;
    this.error = null;
  }

  /** The run in progress was resumed with "continue from the last good record": a damaged
   * unfinished session of it then keeps its intact episodes too. */
  private fromLastGood = false;

  /** Start run `id`, or resume it with its stored config. @returns the final state, or null when
   * it did not run here (another tab drives it, or an error, shown in `error`) */
  async run(id: string, config: C, fromLastGood = false): Promise<S | null> {
    if (this.driving) return null;
    this.unwatch();
    this.error = null;
    this.damaged = null;
    this.fromLastGood = fromLastGood;
    const result = await this.lifecycle(async (signal) => {
      const done = await this.runs.withRunLock(id, async () => {
        await checkRunForResume(this.runs.store, id, this.kind, this.validateRecord, fromLastGood);
        return this.drive(id, config, signal);
      });
      if (done === null) {
        this.phase = 'idle';
        await this.show(id);
        this.error = `This ${this.noun} is running in another tab: it is shown read-only here.`;
        return null;
      }
      this.state = done;
      return done;
    }, {
      failed: async (error) => {
        if (error instanceof DamagedRunError) this.damaged = { keepCount: error.keepCount };
        const stored = await this.load(id).catch(() => undefined);
        if (stored) this.state = stored;
      },
    });
    return result ?? null;
  }

  /** Resume the run shown (stopped or interrupted); `fromLastGood`: after a damage report, keep
   * the intact records and do the rest again. */
  resume(fromLastGood = false): Promise<S | null> {
    const state = this.state;
    if (!state || (state.status === 'complete' && !fromLastGood)) return Promise.resolve(null);
    return this.run(state.id, state.config, fromLastGood);
  }

  /** Build a run's context for `roles` (usage already recorded counted against the caps) and show
   * its meter and provider-requested waits; `done` unsubscribes and terminates its engines.
   * @throws Error (settings problem, the SDK or the tokenizer failing to load) */
  protected async prepareRun(roles: readonly Role[], previousUsage?: Record<Role, RoleTotals>): Promise<{ ctx: RunContext; done: () => void }> {
    const ctx = await this.runs.prepare({ roles, previousUsage, onRetryWait: (_role, ms) => this.showWait(ms) });
    const called = roles.map((role) => ctx.settings.roles[role].model);
    const unfollow = this.follow(ctx.meter, (usd) => knownUsd(usd, called, ctx.settings.prices));
    return {
      ctx,
      done: () => {
        unfollow();
        ctx.dispose();
      },
    };
  }

  /**
   * Drive run `id` of `config` through its core service: `call` gets a run context for `roles`
   * (usage `previousUsage` already counted against the caps, its meter and waits shown), each
   * session's options, the shared `prepare` step and the display observer; the context is disposed
   * when `call` settles.
   * @throws what `prepareRun` or `call` throws
   */
  protected async driveWith(id: string, config: SessionShapeConfig, roles: readonly Role[], previousUsage: Record<Role, RoleTotals> | undefined, call: (wiring: DriveWiring<S>) => Promise<S>): Promise<S> {
    const { ctx, done } = await this.prepareRun(roles, previousUsage);
    try {
      return await call({
        ctx, options: this.sessionOptions(ctx, config),
        shown: async (fresh) => {
          if (fresh) this.state = (await this.load(id)) ?? null;
          this.started();
        },
        observers: [(_event, snapshot) => {
          this.state = snapshot;
        }],
      });
    } finally {
      done();
    }
  }

  /** How each session of a run of `config` is played on `ctx` (models, engines, K, S, window). */
  protected sessionOptions(ctx: RunContext, config: SessionShapeConfig): SessionEvaluatorOptions {
    return {
      settings: ctx.settings, models: ctx.models, countTokens: ctx.countTokens, pool: ctx.engines, episodes: config.episodes, maxSteps: config.maxSteps,
      initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow,
      // Unfinished sessions are kept in IndexedDB and Resume continues them from their last finished episode.
      store: ctx.store, fromLastGood: this.fromLastGood,
    };
  }

  /** Show `meter`'s totals as they change; `known` turns the meter's USD into the figure shown
   * (null: not known at this provider). @returns unsubscribe */
  protected follow(meter: UsageMeter, known: (usd: number) => number | null = (usd) => usd): () => void {
    this.tokens = meter.totalTokens;
    this.costUsd = known(meter.totalUsd);
    return meter.subscribe((m) => {
      this.clearWait();
      this.tokens = m.totalTokens;
      this.costUsd = known(m.totalUsd);
    });
  }

  private watch(id: string): void {
    this.watching = true;
    this.watchEvery(async () => {
      const state = await this.load(id).catch(() => undefined);
      if (!this.watching || this.state?.id !== id) return false;
      if (state) this.state = state;
      if (await this.runs.isRunLocked(id)) return true;
      this.watching = false;
      return false;
    });
  }

  private unwatch(): void {
    this.stopWatching();
    this.watching = false;
  }
}
