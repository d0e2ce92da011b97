/**
 * The Agent view's state: one episode (method.md, "Inner loop": the actor plays a story from its
 * start for at most S steps) run in the page — the game in its own worker (`EngineProxy`, the UI
 * thread never runs Z-code), the actor through the provider of the Settings view. While it runs:
 * the steps as they are recorded, the score, the usage meter's running tokens and USD, and any
 * provider-requested wait. Stop aborts the in-flight request (nothing of that reply is executed).
 * The trajectory can be exported; an imported one is shown read-only. Every thrown error is shown
 * in `error` with the key scrubbed. Instead of a story it can play a web task (`kind` 'web',
 * `web:<site>/<template>:<seed>`, 10 steps and the web guide by default, as the CLI): the site runs
 * on a detached document and every step records the page it showed (`page`: the latest, drawn
 * beside the transcript with the acted element highlighted; kept in exports). Phase, Stop, waits
 * and the error slot are the run lifecycle every view shares (run-lifecycle.svelte.ts).
 */
import { Actor } from '../../agents/actor.ts';
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import { exportTrajectory, importTrajectory } from '../../agents/trajectory-io.ts';
import type { Trajectory, TrajectoryStep } from '../../agents/trajectory.ts';
import type { PlayerLocation } from '../../engine/interface.ts';
import type { EpisodeEngine } from '../../ttl/episode-runner.ts';
import type { DocumentFactory } from '../../web/dom/web-environment.ts';
import type { PageSnapshot } from '../../web/interface.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../../web/texts.ts';
import { WEB_DEFAULTS } from '../shared/format/web-task-list.ts';
import { isWebTaskId } from '../shared/state/web-task-id.ts';
import type { LlmSettings } from '../../llm/interface.ts';
import { missingKeyText } from '../../llm/providers.ts';
import { UsageMeter } from '../../llm/usage-meter.ts';
import { runEpisode } from '../../ttl/episode-runner.ts';
import { SESSION_DEFAULTS } from '../../ttl/run-defaults.ts';
import type { LlmServices } from '../shared/state/llm-services.ts';
import { isSeed, type ShelfEntry } from '../shared/state/shelf.ts';
import { browserSchedule, type Schedule } from '../shared/state/retry-countdown.svelte.ts';
import { RunLifecycle, type RunPhase } from '../shared/state/run-lifecycle.svelte.ts';
import { withRetryWait } from '../shared/state/retry-wait.ts';
import { dateAt, type PlayerServices } from '../shared/state/services.ts';
import type { SettingsState } from '../shared/state/settings.svelte.ts';
import { llmSettingsOf } from '../shared/state/llm-settings.ts';
import { LAST_STORY_KEY, type StoryShelf } from '../shared/state/story-shelf.svelte.ts';
import { StoryPicker } from '../shared/state/story-picker.ts';
import { FormMemory, formSettingKey } from '../shared/state/form-memory.svelte.ts';
import { PaceControl } from '../shared/state/pace-control.svelte.ts';
import { GuideEditor } from '../shared/state/guide-edit.svelte.ts';
import type { GuideEdit } from '../../agents/trajectory.ts';
import type { Pacer } from '../../ttl/pace.ts';

/** The Agent form's fields kept across reloads (store setting `form:agent`). */
interface AgentForm {
  kind: AgentTaskKind;
  selectedId: string;
  webTaskId: string;
  seed: number;
  maxSteps: number;
  guidingPrompt: string;
}

/** Step limit S unless the user sets one (method.md: S = 50). */
export const DEFAULT_MAX_STEPS = SESSION_DEFAULTS.maxSteps;

/** A web task's max score: the episode reward is 1 or 0. */
const WEB_MAX_SCORE = 1;

/** What the agent plays: a story of the story shelf, or a web task. */
export type AgentTaskKind = 'story' | 'web';

/** Where the episode is: `starting` (loading the story or the site), `running` steps, `stopping` after Stop. */
export type AgentPhase = RunPhase;

/** Calls `callback` after `delayMs` ms; returns a function that cancels it. */
export type { Schedule };

export class Agent extends RunLifecycle {
  /** A story or a web task. */
  kind = $state<AgentTaskKind>('story');
  /** Story picker value ('' = none). */
  selectedId = $state('');
  /** Web task picker value (`web:<site>/<template>:<seed>`; '' = none). */
  webTaskId = $state('');
  /** Web tasks: the page at the episode's start (null: none, or a story). */
  startPage = $state.raw<PageSnapshot | null>(null);
  seed = $state(0);
  /** Step limit S. */
  maxSteps = $state(DEFAULT_MAX_STEPS);
  guidingPrompt = $state(DEFAULT_GUIDING_PROMPT);
  /** The steps shown: live while running, else of the finished or imported episode. */
  steps = $state.raw<readonly TrajectoryStep[]>([]);
  /** The game's opening text of the episode shown ('' before one starts). */
  startObservation = $state('');
  /** Where the episode started (the map's first room); null for web tasks and older files. */
  startLocation = $state.raw<PlayerLocation | null>(null);
  /** The game's text after the newest step shown (null: none yet). */
  lastObservation = $state<string | null>(null);
  /** The finished (or imported) episode; null while running or before the first. */
  trajectory = $state.raw<Trajectory | null>(null);
  /** True when `trajectory` came from a file. */
  imported = $state(false);
  /** Game score (signed score points), null when unknown or none shown. */
  score = $state<number | null>(null);
  maxScore = $state<number | null>(null);
  /** Running totals of the usage meter: prompt + completion tokens, and USD. */
  tokens = $state(0);
  /** True when some call's usage was counted locally (the provider sent none): tokens and cost are estimates. */
  tokensEstimated = $state(false);
  /** Of `tokens`: prompt tokens the provider served from its cache (priced at the cached-input price). */
  cachedTokens = $state(0);
  costUsd = $state(0);
  /** Set when a run starts: its actor's model when unpriced, else null (undefined: no run yet). */
  private runUnpriced = $state<string | null | undefined>(undefined);

  /** The actor's model when it has no price at the provider (the cost shows "—", not "$0.0000"),
   * else null: the model of the run made here, else the one the next run would call. */
  get unpricedModel(): string | null {
    if (this.runUnpriced !== undefined) return this.runUnpriced;
    const { roles, prices } = llmSettingsOf(this.settings.form, '');
    const model = roles.actor.model;
    return model === '' || model in prices ? null : model;
  }
  ready = $state(false);
  /** Web tasks: the page after the latest step (the start page before the first step); null for a
   * story. (The view draws the page the latest action acted on: web-frame-page.ts.) */
  readonly page = $derived.by(() => this.steps.findLast((s) => s.page !== undefined)?.page ?? this.startPage);

  /** The presenter's pace (delay between steps, Pause / Step / Resume; the delay kept as `pace:agent`). */
  readonly pace: PaceControl;
  /** "Edit the guide" while paused: the person's edit, played from the next step. */
  readonly guideEdit = new GuideEditor();
  /** The person's edits of the guide in the episode shown (recorded in its trajectory). */
  edits = $state.raw<GuideEdit[]>([]);
  /** The running episode's pacer (null when idle). */
  private pacer: Pacer | null = null;
  /** Adds and removes stories (the story shelf panel), choosing what was added. */
  readonly stories: StoryPicker;
  private starting: Promise<void> | null = null;
  private readonly memory = new FormMemory<AgentForm>(() => this.shelf.store, formSettingKey('agent'));

  constructor(
    private readonly services: PlayerServices,
    readonly shelf: StoryShelf,
    private readonly settings: SettingsState,
    private readonly llm: LlmServices,
    schedule: Schedule = browserSchedule,
    /** The document a web task's site draws into (default: a detached document; tests: jsdom). */
    private readonly webDocument?: DocumentFactory,
  ) {
    super(schedule);
    this.pace = new PaceControl(() => shelf.store, 'agent');
    this.stories = new StoryPicker(() => shelf, {
      choose: (id) => this.selectStory(id),
      removed: (id) => {
        if (this.selectedId === id) this.selectedId = '';
      },
      errors: this.errors,
    });
  }

  /** Open the story shelf and preselect `?story=` (with `?seed=`), else the last story played; `?task=web:…`
   * chooses that web task instead. Runs once. */
  init(): Promise<void> {
    this.starting ??= this.start();
    return this.starting;
  }

  /** Pick a story; its seed becomes the catalog's default. */
  selectStory(id: string): void {
    const entry = this.shelf.find(id);
    if (!entry || this.running) return;
    this.selectedId = id;
    this.seed = this.shelf.defaultSeed(entry);
  }

  /** Play a story or a web task; the step limit and the guiding prompt follow the kind's defaults
   * unless they were changed (story: S = 50, the default guide; web: 10 steps, the web guide). */
  setKind(kind: AgentTaskKind): void {
    if (this.running || kind === this.kind) return;
    const [from, to] = kind === 'web'
      ? [{ steps: DEFAULT_MAX_STEPS, guide: DEFAULT_GUIDING_PROMPT }, { steps: WEB_DEFAULTS.maxSteps, guide: WEB_DEFAULT_GUIDING_PROMPT }]
      : [{ steps: WEB_DEFAULTS.maxSteps, guide: WEB_DEFAULT_GUIDING_PROMPT }, { steps: DEFAULT_MAX_STEPS, guide: DEFAULT_GUIDING_PROMPT }];
    this.kind = kind;
    if (this.maxSteps === from.steps) this.maxSteps = to.steps;
    if (this.guidingPrompt === from.guide) this.guidingPrompt = to.guide;
  }

  /** Choose the web task played (its id names the seed). */
  selectWebTask(id: string): void {
    if (!this.running) this.webTaskId = id;
  }

  /** Play one episode of the selected story (or web task) with the current settings. */
  async run(): Promise<void> {
    if (this.running) return;
    const web = this.kind === 'web';
    const entry = web ? undefined : this.shelf.find(this.selectedId);
    const settings = this.settings.llmSettings();
    const problem = web && !isWebTaskId(this.webTaskId) ? 'Choose a web task first.'
      : !web && !entry ? 'Choose a story first.'
      : settings.provider.baseUrl === '' ? 'Set the provider’s base URL in Settings first.'
      : missingKeyText(settings.provider) !== null ? missingKeyText(settings.provider)
      : settings.roles.actor.model === '' ? 'Set the actor’s model in Settings first.'
      : !web && !isSeed(this.seed) ? 'The seed must be a whole number from 0 to 4294967295.'
      : null;
    this.error = problem;
    if (problem !== null) return;
    this.reset();
    const meter = new UsageMeter(settings.caps, settings.prices);
    const unsubscribe = meter.subscribe((m) => {
      this.tokens = m.totalTokens;
      this.cachedTokens = m.cachedPromptTokens;
      this.costUsd = m.totalUsd;
      this.tokensEstimated = m.estimatedCalls > 0;
    });
    this.runUnpriced = settings.roles.actor.model in settings.prices ? null : settings.roles.actor.model;
    this.pacer = this.pace.begin();
    await this.lifecycle(async (signal) => {
      const trajectory = entry ? await this.playEpisode(entry, settings, meter, signal) : await this.playWebTask(this.webTaskId, settings, meter, signal);
      this.show(trajectory);
      const failed = trajectory.steps.at(-1)?.error;
      if (failed && failed.kind !== 'budget') this.error = this.messageOf(new Error(failed.message));
    }, {
      settle: () => {
        unsubscribe();
        this.pace.end();
        this.guideEdit.cancel();
        this.pacer = null;
      },
    });
  }

  /** The guide can be edited now: an episode runs, paused between steps. */
  get canEditGuide(): boolean {
    return this.phase === 'running' && this.pace.paused;
  }

  /** "Edit the guide" (only while paused): open the editor on the guide in force for the next step. */
  editGuide(): void {
    if (!this.canEditGuide) return;
    this.guideEdit.edit(this.guideNow(), null, this.steps.length + 1);
  }

  /** The guide the actor follows now: the last edit's, else the form's. */
  private guideNow(): string {
    return this.edits.at(-1)?.newGuide ?? this.guidingPrompt;
  }

  /** The guide for step `step`: a person's edit (recorded) or the guide in force. */
  private guideFor(step: number): string {
    const guide = this.guideNow();
    const edited = this.guideEdit.take();
    if (edited === null || edited === guide) return guide;
    this.edits = [...this.edits, { step, oldGuide: guide, newGuide: edited, at: dateAt(this.services.now()).toISOString() }];
    return edited;
  }

  /** Download the episode shown as trajectory JSON (never holds the key). */
  exportTrajectory(): void {
    const t = this.trajectory;
    if (!t) return;
    const slug = t.story.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'story';
    this.services.download(`trajectory-${slug}-seed${t.seed}.json`, exportTrajectory(t), 'application/json');
  }

  /** Show a trajectory file read-only; a bad file's ImportError message is shown as is. */
  async importFile(file: File): Promise<void> {
    if (this.running) return;
    this.error = null;
    await this.errors.run(async () => {
      const trajectory = importTrajectory(new TextDecoder().decode(await this.services.readFile(file)));
      this.reset();
      this.startObservation = trajectory.startObservation;
      this.startLocation = trajectory.startLocation ?? null;
      this.startPage = trajectory.startPage ?? null;
      this.maxScore = trajectory.story.maxScore;
      this.tokens = trajectory.steps.reduce((n, s) => n + s.promptTokens + s.completionTokens, 0);
      this.cachedTokens = trajectory.steps.reduce((n, s) => n + (s.cachedPromptTokens ?? 0), 0);
      this.costUsd = trajectory.steps.reduce((n, s) => n + s.costUsd, 0);
      this.show(trajectory);
      this.imported = true;
    });
  }

  /** Load the story in its worker and run the episode (LLM and interpreter faults are data in
   * the trajectory). @throws for a story that cannot be loaded or a worker that cannot start */
  private async playEpisode(entry: ShelfEntry, settings: LlmSettings, meter: UsageMeter, signal: AbortSignal): Promise<Trajectory> {
    const story = await this.shelf.load(entry);
    this.maxScore = await this.shelf.maxScoreOf(story);
    const engine = await this.services.loadEngine(story.bytes, this.shelf.loadOptions(story, this.seed));
    try {
      this.startObservation = engine.start.text;
      this.startLocation = engine.start.location ?? null;
      this.score = engine.start.score;
      return await this.runWatched(engine, { title: story.catalog?.title ?? entry.title, maxScore: this.maxScore }, settings, meter, signal);
    } finally {
      engine.dispose();
    }
  }

  /** Run one episode on `engine` with the actor of `settings`, showing every step as it comes. */
  private async runWatched(engine: EpisodeEngine, story: { title: string; maxScore: number | null }, settings: LlmSettings, meter: UsageMeter, signal: AbortSignal): Promise<Trajectory> {
    const models = await this.llm.createModels(settings, meter);
    const actor = new Actor(withRetryWait(models.actor, (waitMs) => this.showWait(waitMs)));
    this.started();
    const trajectory = await runEpisode({
      engine, actor, story, guidingPrompt: this.guidingPrompt, maxSteps: this.maxSteps, signal, ...(this.pacer ? { gate: this.pacer } : {}),
      guideFor: async (step) => this.guideFor(step),
      now: () => dateAt(this.services.now()),
      onStep: (step, live) => {
        this.clearWait();
        this.steps = [...live.steps];
        this.lastObservation = live.finalObservation;
        if (step.action !== null) this.score = step.score;
      },
    });
    return this.edits.length > 0 ? { ...trajectory, interventions: [...this.edits] } : trajectory;
  }

  /** Build the web task's site (the catalog loads now, not with the page) and run the episode on
   * it. @throws Error for an unknown task id (the catalog's message) */
  private async playWebTask(taskId: string, settings: LlmSettings, meter: UsageMeter, signal: AbortSignal): Promise<Trajectory> {
    const { createWebTaskEngine } = await import('../shared/state/web-tasks.ts');
    const engine = createWebTaskEngine(taskId, this.webDocument);
    this.maxScore = WEB_MAX_SCORE;
    try {
      const watched: EpisodeEngine = {
        info: engine.info, seed: engine.seed, ...(engine.texts ? { texts: engine.texts } : {}), ...(engine.task ? { task: engine.task } : {}),
        reset: async () => {
          const start = await engine.reset();
          this.startObservation = start.text;
          this.startPage = start.page ?? null;
          this.score = start.score;
          return start;
        },
        step: (command) => engine.step(command),
        ...(engine.stop ? { stop: () => engine.stop!() } : {}),
      };
      return await this.runWatched(watched, { title: engine.task?.id ?? taskId, maxScore: WEB_MAX_SCORE }, settings, meter, signal);
    } finally {
      engine.dispose();
    }
  }

  private async start(): Promise<void> {
    await this.errors.run(async () => {
      await this.shelf.init();
      await this.restoreForm();
      await this.pace.load();
      const query = this.services.query();
      const asked = query.get('story');
      const wanted = asked ?? (this.selectedId !== '' ? null : await this.shelf.store.getSetting(LAST_STORY_KEY).catch(() => undefined));
      const first = this.selectedId === '' ? this.shelf.entries[0]?.id : undefined;
      const id = typeof wanted === 'string' && this.shelf.find(wanted) ? wanted : first;
      if (id !== undefined && (asked !== null || this.selectedId === '')) this.selectStory(id);
      const seed = Number(query.get('seed') ?? NaN);
      if (query.get('story') === id && isSeed(seed)) this.seed = seed;
      const task = query.get('task');
      if (task !== null && isWebTaskId(task)) {
        this.setKind('web');
        this.webTaskId = task;
      }
    });
    this.ready = true;
  }

  /** Remember the form as it is now (the view calls this from an `$effect`; form-memory.svelte.ts). */
  saveForm(): void {
    this.memory.save(this.formFields());
  }

  private formFields(): AgentForm {
    return { kind: this.kind, selectedId: this.selectedId, webTaskId: this.webTaskId, seed: this.seed, maxSteps: this.maxSteps, guidingPrompt: this.guidingPrompt };
  }

  /** The form as last left in this view (a story no longer on the story shelf is dropped). */
  private async restoreForm(): Promise<void> {
    const saved = await this.memory.load(this.formFields());
    this.kind = saved.kind === 'web' ? 'web' : 'story';
    this.selectedId = this.shelf.find(saved.selectedId) ? saved.selectedId : '';
    this.webTaskId = saved.webTaskId;
    this.seed = isSeed(saved.seed) ? saved.seed : 0;
    this.maxSteps = Number.isInteger(saved.maxSteps) && saved.maxSteps > 0 ? saved.maxSteps : this.maxSteps;
    this.guidingPrompt = saved.guidingPrompt;
  }

  private reset(): void {
    this.steps = [];
    this.edits = [];
    this.trajectory = null;
    this.imported = false;
    this.startObservation = '';
    this.startLocation = null;
    this.lastObservation = null;
    this.startPage = null;
    this.score = null;
    this.tokens = 0;
    this.cachedTokens = 0;
    this.tokensEstimated = false;
    this.costUsd = 0;
    this.runUnpriced = undefined;
  }

  private show(trajectory: Trajectory): void {
    this.trajectory = trajectory;
    this.edits = trajectory.interventions ?? [];
    this.steps = trajectory.steps;
    this.lastObservation = trajectory.finalObservation;
    this.score = trajectory.finalScore;
  }

  protected messageOf(error: unknown): string {
    return this.settings.messageOf(error);
  }
}
