/**
 * The Learn view's state: a test-time-learning session (method.md, "Inner loop": K episodes, the
 * policy rewriting the guiding prompt between them) run in the page and persisted step by step
 * (`startOrResumeSession`, ttl/session-service.ts), so a reload or crash resumes it (`loadSession` + a resume,
 * which replays the recorded steps without calling the actor again). A Web Lock per session
 * (run-services.ts) keeps two tabs from running the same one: the other tab shows it read-only
 * and refreshes it. The setup form lives in `LearnSetup`; the runs list in `SessionRuns`; the
 * human policy's question between episodes in `HumanTurn` (asked again on resume: runSession makes a missing update first).
 * Entering the view with an unfinished session stored (after a reload, a crash or a provider
 * fault) shows it as it is — progress, curve, transcript — with its settings in the form, which
 * stays read-only until the user resumes it or sets it aside (`held`). Phase, Stop, waits,
 * re-reading and the error slot are the run lifecycle every view shares (run-lifecycle.svelte.ts).
 */
import type { TrajectoryStep } from '../../agents/trajectory.ts';
import type { PlayerLocation } from '../../engine/interface.ts';
import type { PageSnapshot } from '../../web/interface.ts';
import { contextWindowFor } from '../../llm/token-count.ts';
import { DamagedRunError, StorageFullError } from '../../store/interface.ts';
import type { SharedSetup } from '../../share/share-link.ts';
import { exportSession } from '../../ttl/session-io.ts';
import { guideInEffect, usageOf, type SessionConfig, type SessionRecord } from '../../ttl/session-record.ts';
import type { SessionSink } from '../../ttl/session-runner.ts';
import { buildSession, type SessionParts, type SessionPlan } from '../../ttl/session-setup.ts';
import type { Pacer } from '../../ttl/pace.ts';
import { loadSession } from '../../ttl/session-store.ts';
import { browserSchedule, type Schedule } from '../shared/state/retry-countdown.svelte.ts';
import { RunLifecycle, type RunPhase } from '../shared/state/run-lifecycle.svelte.ts';
import { startOrResumeSession } from '../../ttl/session-service.ts';
import { HumanTurn } from './human-turn.svelte.ts';
import { parseTaskId, sessionStoryOf, type RunContext, type RunServices } from '../shared/state/run-services.ts';
import type { PlayerServices } from '../shared/state/services.ts';
import type { LearnSetup } from './learn-setup.svelte.ts';
import { EtaClock, sessionProgress, usageTotalsOf } from './progress.ts';
import { exportFileName, newSessionId, openEpisodeOf, planOfConfig, planOfForm, roleOverridesOf, rolesFor } from './session-plan.ts';
import type { SessionListItem, SessionRuns } from './session-runs.svelte.ts';
import { PaceControl } from '../shared/state/pace-control.svelte.ts';
import { GuideEditor } from '../shared/state/guide-edit.svelte.ts';

export type LearnPhase = RunPhase;

export class LearnState extends RunLifecycle {
  /** The session shown: running here, reopened, or running in another tab (read-only). */
  record = $state.raw<SessionRecord | null>(null);
  /** Steps of the running episode (live), and its index. */
  liveSteps = $state.raw<readonly TrajectoryStep[]>([]);
  /** The running episode's opening text and the game's text after its newest step ('' / null: none yet). */
  liveStartObservation = $state('');
  /** Where the running episode started (its map's first room); null until its first step. */
  liveStartLocation = $state.raw<PlayerLocation | null>(null);
  /** Web tasks: the page the running episode started on (its page map's first page); null until its first step. */
  liveStartPage = $state.raw<PageSnapshot | null>(null);
  liveLastObservation = $state<string | null>(null);
  liveEpisode = $state<number | null>(null);
  /** Episode whose transcript is shown (null = the running one, else the last). */
  viewedEpisode = $state<number | null>(null);
  /** Set when the shown session runs in another tab (then it is read-only). */
  readOnly = $state<string | null>(null);
  /** Running totals of this run's meter (earlier usage included on resume), tokens and USD. */
  tokens = $state(0);
  /** True when some call's usage was counted locally (the provider sent none): tokens and cost are estimates. */
  tokensEstimated = $state(false);
  /** Of `tokens`: prompt tokens the provider served from its cache (priced at the cached-input price). */
  cachedTokens = $state(0);
  costUsd = $state(0);
  /** Whether the run in progress calls only models priced at its provider (set when it starts). */
  private runCostKnown = $state(true);
  /** Time left, ms (null = unknown). */
  eta = $state<number | null>(null);
  /** The presenter's pace: the delay between steps (recorded with the run) and Pause / Step / Resume. */
  readonly pace: PaceControl;
  /** "You are the meta-agent": the question to the person between episodes. */
  readonly human = new HumanTurn();
  /** "Edit the guide" while paused: the person's edit, played from the next step and recorded. */
  readonly guideEdit = new GuideEditor();
  /** The guide can be edited now: a session runs, paused, and the next thing it does is a step
   * (not the policy's update between episodes). */
  get canEditGuide(): boolean {
    return this.phase === 'running' && this.pace.paused && !this.pace.nextIsUpdate && this.liveEpisode !== null;
  }
  /** Set when the context window of the session started last is a guess (an unknown model). */
  contextWindowNote = $state<string | null>(null);
  /** The last failure was a full storage: offer export and deleting old runs. */
  storageFull = $state(false);
  /** The last resume found the stored session damaged: its id and how many episodes are intact
   * (offer to continue from there). */
  damaged = $state<{ id: string; keepEpisodes: number } | null>(null);
  /** The unfinished session shown on entering the view (its id): its settings fill the form. */
  held = $state<string | null>(null);
  /** Unfinished sessions the user set aside this visit of the page (not offered again). */
  setAside = $state.raw<readonly string[]>([]);
  /** True while the held session is shown and still unfinished: the form is read-only (Resume or "New session"). */
  readonly holding = $derived.by(() => this.held !== null && !this.running && this.sessions.unfinished.some((s) => s.id === this.held));
  /** The unfinished session the banner offers to resume: the held one, else the newest other one
   * not shown and not set aside; null while running or showing a session of another tab. */
  readonly offered = $derived.by((): SessionListItem | null => {
    if (this.running || this.readOnly !== null) return null;
    const open = this.sessions.unfinished;
    if (this.held !== null) return open.find((s) => s.id === this.held) ?? null;
    return open.find((s) => s.id !== this.record?.id && !this.setAside.includes(s.id)) ?? null;
  });

  /** The runner's own record object (mutated in place; holds every step, also when persisting failed). */
  private liveRecord: SessionRecord | null = null;
  private readonly etaClock: EtaClock;
  /** Whether entering the view already looked for an unfinished session to show (once per page). */
  private holdTried = false;

  constructor(
    private readonly runs: RunServices,
    readonly setup: LearnSetup,
    readonly sessions: SessionRuns,
    private readonly services: PlayerServices,
    schedule: Schedule = browserSchedule,
    private readonly clockMs: () => number = () => Date.now(),
  ) {
    super(schedule);
    this.etaClock = new EtaClock(clockMs);
    this.pace = new PaceControl(() => this.runs.store, 'learn');
    this.pace.onDelayChange = (stepDelayMs) => {
      if (this.liveRecord) this.liveRecord.pace = { stepDelayMs };
    };
  }

  /**
   * False when a model the cost is about has no price at its provider (the meter shows "—", never
   * an invented "$0.0000"), by one rule before, during and after a run: the run in progress, its
   * models; a shown session (reopened, reloaded, imported), the models it called at the provider
   * it ran on; no session, the models the next run would call (the estimate's unpriced models).
   */
  get costKnown(): boolean {
    if (this.running) return this.runCostKnown;
    const record = this.record;
    if (record) return this.runs.costKnownFor([record.config.models.actor.model, record.config.models.reflection?.model ?? ''], record.config.provider);
    const estimate = this.setup.estimate;
    return estimate ? estimate.unpricedModels.length === 0 : this.runs.costKnownFor([this.setup.models.actor]);
  }

  /** Each visit of the view: the setup form (and `?metaPrompt=`), and the runs list; on the
   * first visit, the newest unfinished session is shown with its settings (`held`). */
  async enter(): Promise<void> {
    await this.setup.enter();
    await this.pace.load();
    if (this.running) return;
    await this.sessions.refresh();
    if (this.holdTried) return;
    this.holdTried = true;
    const next = this.sessions.unfinished.find((s) => !this.setAside.includes(s.id));
    if (!next || this.record !== null || this.readOnly !== null) return;
    const record = await this.errors.run(() => loadSession(this.runs.store, next.id));
    if (!record || this.running || this.record !== null) return;
    this.show(record);
    this.held = record.id;
    this.setup.showSession(record.config);
    this.pace.showRecorded(record.pace?.stepDelayMs);
  }

  /** "New session": set the held unfinished session aside (it stays in the list, resumable) and
   * free the form (still filled with its settings) for a new session. */
  newSession(): void {
    if (this.running || this.held === null) return;
    this.setAside = [...this.setAside, this.held];
    this.held = null;
    this.resetLive(null);
  }

  /** Fill the form with a shared setup (a share link's "Load"): an unfinished session is then not
   * shown in its place. */
  async applySetup(setup: SharedSetup): Promise<void> {
    this.holdTried = true;
    this.newSession();
    await this.setup.applySetup(setup);
  }

  /** Store a session file and show it. */
  async importFile(file: File): Promise<void> {
    await this.sessions.importFile(file);
    if (this.sessions.lastImported !== null) await this.open(this.sessions.lastImported);
  }

  /** Start a new session from the form. */
  async start(): Promise<void> {
    if (this.running) return;
    await this.setup.init(); // the form the view left last time (and the story shelf) first
    if (this.running) return;
    const choice = this.setup.validate();
    this.error = choice.problem ?? this.runs.settingsProblem(choice.policy ? rolesFor(choice.policy) : ['actor']);
    if (this.error !== null || !choice.policy) return;
    const form = { ...this.setup.form, ...this.setup.taskForRun() };
    const id = newSessionId(this.services.now());
    await this.launch(id, null, async (ctx) => {
      const task = await ctx.resolveTask(form.storyId, form.seed);
      this.runCostKnown = rolesFor(choice.policy!).every((role) => ctx.settings.roles[role].model in ctx.settings.prices);
      const window = await this.runs.contextWindow(ctx.settings, form.contextWindow);
      this.contextWindowNote = window.note;
      const plan = planOfForm(form, sessionStoryOf(task), choice.policy!, window.tokens);
      return { plan: task.task ? { ...plan, task: task.task } : plan, taskId: task.id, config: null };
    });
  }

  /**
   * Resume a stopped or interrupted session (read-only when another tab runs it). What it replays
   * is checked first (session-integrity.ts): a damaged store stops with an error naming the
   * IndexedDB store and the first bad record, and sets `damaged`; `fromLastGood` then keeps the
   * intact episodes and runs the rest again.
   */
  async resume(id: string, fromLastGood = false): Promise<void> {
    if (this.running) return;
    const record = await this.errors.run(() => loadSession(this.runs.store, id));
    if (!record) return;
    if (await this.runs.isRunLocked(id)) return this.showReadOnly(record);
    this.error = null;
    this.pace.showRecorded(record.pace?.stepDelayMs);
    await this.launch(id, record, async (ctx) => {
      const web = record.config.task?.kind === 'web' ? parseTaskId(record.config.task.id) : null;
      const storyId = web?.storyId ?? record.config.story.id ?? this.runs.shelf.entries.find((e) => e.id === `user:${record.config.story.md5}` || e.catalog?.md5 === record.config.story.md5)?.id;
      if (!storyId) throw new Error(`The story “${record.config.story.title}” is not on your story shelf: add it to resume this session.`);
      const task = await ctx.resolveTask(storyId, web?.seed ?? record.config.seed).catch((error: unknown) => {
        if (!web) throw error;
        throw new Error(`This session’s web task “${record.config.task!.id}” does not exist in this version of the playground (${(error as Error).message}), so it cannot be resumed. Its recorded episodes can still be opened and exported.`);
      });
      this.runCostKnown = (['actor', 'metaAgent'] as const).every((role) => ctx.settings.roles[role].model in ctx.settings.prices);
      if (task.md5 !== record.config.story.md5) throw new Error(`The story file “${task.title}” differs from the one this session was started with.`);
      return { plan: planOfConfig(record.config, contextWindowFor(ctx.settings.roles.metaAgent.model)), taskId: task.id, config: record.config };
    }, fromLastGood);
  }

  /** Show a stored session (read-only; resumable when unfinished). */
  async open(id: string): Promise<void> {
    if (this.running) return;
    const record = await this.errors.run(() => loadSession(this.runs.store, id));
    if (!record) return;
    this.stopWatching();
    this.readOnly = null;
    this.held = null;
    if (await this.runs.isRunLocked(id)) return this.showReadOnly(record);
    this.show(record);
  }

  /** "Edit the guide" (only while paused between steps): open the editor on the guide in force for
   * the running episode's next step. */
  editGuide(): void {
    const record = this.liveRecord;
    if (!this.canEditGuide || !record || this.liveEpisode === null) return;
    const step = this.liveSteps.length + 1;
    this.guideEdit.edit(guideInEffect(record, this.liveEpisode, step), this.liveEpisode, step);
  }

  /** Play on with the edited guide (Resume). */
  resumeWithEdit(): void {
    this.pace.resume();
  }

  /** Download the session shown as JSON (never holds the key); the live one when persisting failed. */
  exportShown(): void {
    const record = this.running || this.storageFull ? (this.liveRecord ?? this.record) : this.record;
    if (record) this.services.download(exportFileName(record), exportSession(record), 'application/json');
  }

  viewEpisode(index: number | null): void {
    this.viewedEpisode = index;
  }

  override dismissError(): void {
    super.dismissError();
    this.storageFull = false;
    this.damaged = null;
  }

  /** Leave the read-only view of a session running elsewhere. */
  closeReadOnly(): void {
    this.stopWatching();
    this.readOnly = null;
  }

  private async launch(
    id: string, resume: SessionRecord | null,
    plan: (ctx: RunContext) => Promise<{ plan: SessionPlan; taskId: string; config: SessionConfig | null }>,
    fromLastGood = false,
  ): Promise<void> {
    this.stopWatching();
    this.readOnly = null;
    this.held = null;
    this.storageFull = false;
    this.damaged = null;
    let ctx: RunContext | null = null;
    let meterOff = (): void => undefined;
    await this.lifecycle(async (signal) => {
      this.resetLive(resume);
      const pacer = this.pace.begin();
      const mirror = pacer.onChange;
      pacer.onChange = (p) => {
        mirror?.(p);
        this.etaClock.hold(p.state === 'held'); // a presenter's pause is not time the session takes
      };
      ctx = await this.runs.prepare({
        previousUsage: resume ? usageOf(resume) : undefined, roleOverrides: resume ? roleOverridesOf(resume.config) : undefined,
        roles: rolesFor(resume?.config.policy ?? this.setup.validate().policy ?? { kind: 'static' }), onRetryWait: (_role, ms) => this.showWait(ms),
        previousAdaptations: resume?.adaptations,
      });
      const meter = ctx.meter;
      meterOff = meter.subscribe(() => this.meterChanged(meter.totalTokens, meter.totalUsd, meter.estimatedCalls > 0, meter.cachedPromptTokens));
      this.meterChanged(meter.totalTokens, meter.totalUsd, meter.estimatedCalls > 0, meter.cachedPromptTokens);
      const prepared = await plan(ctx);
      const parts = buildSession(prepared.plan, ctx.settings, ctx.models, ctx.countTokens, this.human.ask);
      this.started();
      const result = await this.playSession(ctx, id, { ...parts, config: prepared.config ?? parts.config, taskId: prepared.taskId }, resume !== null, fromLastGood, pacer, signal);
      if (result === null && resume) this.showReadOnly(resume);
      else if (result) this.show(result);
    }, {
      failed: (error) => {
        this.storageFull = error instanceof StorageFullError;
        if (error instanceof DamagedRunError) this.damaged = { id: error.runId, keepEpisodes: error.keepCount };
        if (this.storageFull) this.error += ' Export this session to keep it, then delete old runs below to make room, and resume it.';
        if (this.liveRecord) this.record = structuredClone(this.liveRecord);
      },
      settle: () => {
        meterOff();
        this.pace.end();
        ctx?.dispose();
        this.human.clear();
        this.guideEdit.cancel();
        this.liveEpisode = null;
        this.eta = null;
      },
    });
    await this.sessions.refresh();
    await this.setup.refreshRoomAllowance();
  }

  /**
   * Play (or resume) session `id` to its end or a stop while holding its Web Lock, on an engine of
   * its task, through the core's session service (`startOrResumeSession`: every step persisted; a
   * resumed session's stored records checked and replayed first). @returns the finished record, or null when another tab holds the lock
   * @throws DamagedRunError (a damaged store), StorageFullError, and what the runner throws
   */
  private playSession(
    run: RunContext, id: string, parts: SessionParts & { taskId: string },
    resume: boolean, fromLastGood: boolean, pacer: Pacer, signal: AbortSignal,
  ): Promise<SessionRecord | null> {
    // The core checks a resume, persists every step and record and runs it (ttl/session-service.ts); this is wiring and display.
    return this.runs.withRunLock(id, async () => run.engines.with(parts.taskId, (engine) => startOrResumeSession(run.store, id, parts.config, {
      engine, actor: parts.actor, policy: parts.policy, signal, display: this.uiSink(), adaptations: run.adaptations, storeNow: this.services.now,
      ...(resume ? { resume: 'required' as const, fromLastGood, storeName: 'this browser' } : {}),
      onResumed: (checked) => {
        [this.record, this.liveRecord] = [structuredClone(checked), checked];
      },
      clockMs: this.clockMs, gate: pacer, pace: { stepDelayMs: pacer.stepDelayMs }, interventions: this.guideEdit,
    })));
  }

  private uiSink(): SessionSink {
    return {
      onRecord: (record) => this.recordChanged(record),
      onEpisode: (_episode, record) => this.recordChanged(record),
      onExchange: (_exchange, record) => this.recordChanged(record),
      onStep: (episodeIndex, _step, trajectory) => {
        this.clearWait();
        this.liveEpisode = episodeIndex;
        this.liveSteps = [...trajectory.steps];
        this.liveStartObservation = trajectory.startObservation;
        this.liveStartLocation = trajectory.startLocation ?? null;
        this.liveStartPage = trajectory.startPage ?? null;
        this.liveLastObservation = trajectory.finalObservation;
        this.updateEta();
      },
    };
  }

  private recordChanged(record: SessionRecord): void {
    this.liveRecord = record;
    this.record = structuredClone(record);
    const open = openEpisodeOf(record.config, record.episodes);
    if (open !== this.liveEpisode) {
      this.liveStartLocation = null;
      this.liveStartPage = null;
    }
    this.liveEpisode = open;
    this.liveSteps = open === null ? [] : [...(record.episodes.find((e) => e.index === open)?.steps ?? [])];
    this.updateEta();
  }

  private updateEta(): void {
    const r = this.liveRecord;
    if (!r) return;
    const done = r.episodes.filter((e) => e.trajectory).length;
    this.eta = this.etaClock.eta(sessionProgress({ episodes: r.config.episodes, maxSteps: r.config.maxSteps, episodesDone: done, currentSteps: this.liveSteps.length }));
  }

  private meterChanged(tokens: number, costUsd: number, estimated: boolean, cachedTokens: number): void {
    this.tokens = tokens;
    this.cachedTokens = cachedTokens;
    this.tokensEstimated = estimated;
    this.costUsd = costUsd;
  }

  private resetLive(resume: SessionRecord | null): void {
    this.record = resume;
    this.liveRecord = resume;
    this.liveSteps = [];
    this.liveEpisode = null;
    this.viewedEpisode = null;
    this.tokens = 0;
    this.cachedTokens = 0;
    this.tokensEstimated = false;
    this.costUsd = 0;
    this.eta = null;
    this.etaClock.restart();
  }

  private show(record: SessionRecord): void {
    this.record = record;
    this.liveRecord = record;
    this.liveSteps = [];
    this.viewedEpisode = null;
    const usage = usageTotalsOf(record);
    this.meterChanged(usage.tokens, usage.costUsd, record.exchanges.some((e) => e.usage?.estimated === true), usage.cachedTokens);
  }

  /** Show a session that runs in another tab, re-reading it until that tab lets go. */
  private showReadOnly(record: SessionRecord): void {
    this.show(record);
    this.held = null;
    this.readOnly = 'This session is running in another tab of this browser, so it is shown here read-only and refreshed every few seconds. Stop it there to resume it here.';
    this.watchEvery(() => this.refreshReadOnly(record.id));
  }

  /** Re-read session `id` shown read-only. @returns whether to go on (the other tab still runs it) */
  private async refreshReadOnly(id: string): Promise<boolean> {
    if (this.readOnly === null || this.running) return false;
    const [record, locked] = await Promise.all([loadSession(this.runs.store, id).catch(() => undefined), this.runs.isRunLocked(id)]);
    if (!record || this.readOnly === null) return false;
    this.show(record);
    if (locked) return true;
    this.readOnly = null;
    await this.sessions.refresh();
    return false;
  }

  protected messageOf(error: unknown): string {
    return this.runs.messageOf(error);
  }
}
