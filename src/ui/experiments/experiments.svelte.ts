/**
 * The Experiments view's state: a built-in experiment or the user's own JSON file
 * (schema-checked, every bad field named, the text kept for fixing), the usual overrides (K, S,
 * repeats, budget, minibatch, sessions per candidate, task sets), the plan and its estimate before
 * Start (steps, folds, metric calls, LLM calls, tokens and USD beside the paper's per-session
 * tokens; missing games), and the run: the core experiment runner (src/experiment) with the page
 * executor (experiment-executor.ts) driving the Evolve and Evaluate views' own drivers. The
 * experiment's state is kept in IndexedDB (store setting `experiment:<id>`, the last one in
 * `experiments:last`) after every step, so a reload shows it and Resume continues it. Register
 * freezes a run card before Start (registration.ts, as `metattl experiment register`: spec hash,
 * code version, primary contrast, α), kept in the store and written into the experiment Start
 * creates; Start refuses a spec that differs from it, and the report says whether the run matches
 * it. The report's vocabulary-overlap column reads the shelf stories' Z-machine dictionaries
 * (the page has no Jericho walkthroughs: its walkthrough overlap is "—"). All I/O through the
 * injected services; every thrown error is shown (key scrubbed).
 */
import { applyOverrides } from '../../experiment/builtins.ts';
import { estimateExperiment, pricesOfPlan, type ExperimentEstimate, type PriceUsed } from '../../experiment/estimate.ts';
import { freshExperimentState, runExperiment } from '../../experiment/experiment-runner.ts';
import type { ExperimentPlan, ExperimentReport, ExperimentSpec } from '../../experiment/interface.ts';
import { gameOf, planBudgetProblem, planExperiment } from '../../experiment/plan.ts';
import { buildExperimentReport } from '../../experiment/report.ts';
import { makeRegistration, specDifferences, specHash, type Registration } from '../../experiment/registration.ts';
import { codeVersion } from '../../common/code-version.ts';
import type { GameVocabulary } from '../../eval/vocabulary-overlap.ts';
import { ExperimentSpecError } from '../../experiment/schema.ts';
import { loadEvaluationState } from '../../eval/evaluation-store.ts';
import { loadEvolutionState } from '../../evolve/evolution-store.ts';
import type { EvolutionTask } from '../../evolve/interface.ts';
import { contextWindowFor, estimateTokenCounter } from '../../llm/token-count.ts';
import type { SettingValue } from '../../store/interface.ts';
import { EvaluationDriver } from '../shared/state/evaluation-driver.svelte.ts';
import { policyOptions } from '../shared/state/policy-options.ts';
import { EvolutionDriver } from '../shared/state/evolution-driver.svelte.ts';
import { readStoredEntry } from '../shared/state/entry-io.ts';
import type { Schedule } from '../shared/state/retry-countdown.svelte.ts';
import type { RunServices } from '../shared/state/run-services.ts';
import { browserSchedule, randomRunId } from '../shared/state/run-view.svelte.ts';
import { dateAt, type PlayerServices } from '../shared/state/services.ts';
import { estimateModelsOf, type SettingsState } from '../shared/state/settings.svelte.ts';
import { browserExecutor, PAGE_WALKTHROUGHS, sideBySide } from './experiment-executor.ts';
import { experimentExport, type ExperimentFormat, type PageExperiment } from './experiment-exports.ts';
import { ExperimentSetupState } from './experiment-setup.svelte.ts';
import { canonicalSpec, entryFor, shelfTask, shelfVocabularies, type TaskShelf } from './experiment-tasks.ts';
import { errorText } from '../shared/state/error-text.ts';
import { RecallProbeState } from './recall-probe.svelte.ts';
import { ErrorSlot } from '../shared/state/error-slot.svelte.ts';

/** Store setting: the id of the experiment last shown. */
export const LAST_EXPERIMENT_KEY = 'experiments:last';
/** Store setting: the registration made before Start (kept across a reload until Start uses it). */
export const PENDING_REGISTRATION_KEY = 'experiments:registration';
const recordKey = (id: string) => `experiment:${id}`;

export type { PageExperiment } from './experiment-exports.ts';

export type { ExperimentFormat } from './experiment-exports.ts';

export interface ExperimentsDeps {
  runs: RunServices;
  settings: SettingsState;
  files: Pick<PlayerServices, 'download' | 'readFile' | 'now'>;
  newId?: () => string;
  schedule?: Schedule;
}

export class ExperimentsState {
  /** The experiment chosen and its edits. */
  readonly setup = new ExperimentSetupState();
  record = $state.raw<PageExperiment | null>(null);
  /** The step running now: 1-based index of `total`, its id. */
  current = $state.raw<{ index: number; total: number; step: string } | null>(null);
  running = $state(false);
  ready = $state(false);
  /** The view's error slot. */
  readonly errors = new ErrorSlot((error) => this.deps.runs.messageOf(error));
  /** The error slot's text (a thrown error's, key scrubbed, or a problem found here); null when none. */
  get error(): string | null {
    return this.errors.message;
  }
  set error(message: string | null) {
    this.errors.message = message;
  }
  notice = $state<string | null>(null);
  readonly evolution: EvolutionDriver;
  /** Drivers of the replicates running side by side with `evolution` (made as a plan needs them). */
  sideEvolutions = $state.raw<EvolutionDriver[]>([]);
  readonly evaluation: EvaluationDriver;
  /** The walkthrough-recall probe beside the experiments (recall-probe.svelte.ts). */
  readonly recall: RecallProbeState;
  private readonly schedule: Schedule;
  private readonly clock: () => Date;
  private webSets: ((name: string) => string[] | null) | null = null;
  private stopped = false;
  /** Stops a running recall-probe step. */
  private recallStop: AbortController | null = null;
  private starting: Promise<void> | null = null;

  /** The experiment as it would run: overrides applied, task sets canonical; or the problem. */
  readonly prepared: { spec: ExperimentSpec; plan: ExperimentPlan; missing: string[] } | { problem: string } | null = $derived.by(() => this.prepare());
  readonly estimate: ExperimentEstimate | null = $derived.by(() => {
    const p = this.prepared;
    if (!p || 'problem' in p) return null;
    const models = estimateModelsOf(this.deps.settings);
    return estimateExperiment(p.plan, () => models, estimateTokenCounter(), contextWindowFor(models.roles.metaAgent.model));
  });
  /** The models the estimate's USD is at, each with its roles and price (as `experiment plan` names them). */
  readonly pricesUsed: PriceUsed[] = $derived.by(() => {
    const p = this.prepared;
    if (!p || 'problem' in p) return [];
    const models = estimateModelsOf(this.deps.settings);
    return pricesOfPlan(p.spec, () => models);
  });
  /** The run card made with Register, not yet used by a Start (null: none). */
  registration = $state.raw<Registration | null>(null);
  /** Game id → its vocabularies (dictionary only), for the experiment shown; null until read. */
  vocabularies = $state.raw<Record<string, GameVocabulary> | null>(null);
  /** The report of the experiment shown (pending steps listed, their numbers missing), with its
   * registration's standing and the vocabulary-overlap column once the dictionaries are read. */
  readonly report: ExperimentReport | null = $derived.by(() => (this.record
    ? buildExperimentReport(planExperiment(this.record.state.spec), this.record.state, { registration: this.record.registration ?? null, ...(this.vocabularies ? { vocabularies: this.vocabularies } : {}) })
    : null));

  constructor(private readonly deps: ExperimentsDeps) {
    const schedule = deps.schedule ?? browserSchedule;
    const now = () => dateAt(deps.files.now());
    this.schedule = schedule;
    this.clock = now;
    this.evolution = new EvolutionDriver(deps.runs, schedule, now);
    this.evaluation = new EvaluationDriver(deps.runs, schedule, now);
    this.recall = new RecallProbeState({ runs: deps.runs, files: deps.files });
  }

  /** Open the story shelf and the web sets; show the experiment last shown. Idempotent. */
  enter(): Promise<void> {
    this.starting ??= this.open();
    return this.starting;
  }

  private async open(): Promise<void> {
    await this.errors.run(async () => {
      await this.deps.runs.shelf.init();
      const { WEB_TASK_SETS, webTaskSet } = await import('../../web/tasks/catalog.ts');
      this.webSets = (name) => {
        const set = WEB_TASK_SETS.find((s) => s.toLowerCase() === name.toLowerCase());
        return set ? webTaskSet(set) : null;
      };
      const last = await this.deps.runs.store.getSetting(LAST_EXPERIMENT_KEY).catch(() => undefined);
      if (typeof last === 'string') {
        const stored = await this.deps.runs.store.getSetting(recordKey(last));
        if (stored && typeof stored === 'object') this.record = stored as unknown as PageExperiment;
      }
      const pending = await this.deps.runs.store.getSetting(PENDING_REGISTRATION_KEY).catch(() => undefined);
      if (pending && typeof pending === 'object') this.registration = pending as unknown as Registration;
    });
    if (this.record) await this.readVocabularies();
    this.ready = true;
  }

  private shelf(): TaskShelf {
    const lib = this.deps.runs.shelf;
    return { entries: lib.entries, catalog: lib.catalogEntries, webSet: (name) => this.webSets?.(name) ?? null };
  }

  private prepare(): { spec: ExperimentSpec; plan: ExperimentPlan; missing: string[] } | { problem: string } | null {
    const base = this.setup.base;
    if (!base) return null;
    try {
      const { spec, missing } = canonicalSpec(applyOverrides(base, this.setup.overridesOf(base)), this.shelf());
      return { spec, plan: planExperiment(spec), missing };
    } catch (error) {
      return { problem: error instanceof ExperimentSpecError ? error.problems.join('; ') : errorText(error) };
    }
  }

  /** Read the user's experiment file; a bad one is refused with every field named (its text kept to edit). */
  async loadFile(file: File): Promise<void> {
    await this.errors.run(async () => this.setup.load(new TextDecoder().decode(await this.deps.files.readFile(file)), file.name));
  }

  /** Why Start is refused now, or null. */
  get startProblem(): string | null {
    const p = this.prepared;
    if (!p) return this.setup.source.kind === 'file' ? 'The experiment file has problems (listed above).' : 'Choose an experiment.';
    if ('problem' in p) return p.problem;
    if (p.missing.length) return `The story shelf has no story for ${p.missing.join(', ')}: get them first (Get the Jericho games…) or add their files.`;
    const budgetProblem = planBudgetProblem(p.plan);
    if (budgetProblem) return budgetProblem;
    // The recall probe's walkthroughs must be in the spec here (the page has no games.json): refused before Start, not at the last step.
    const noWalkthrough = p.plan.steps.flatMap((s) => (s.kind === 'recall-probe' ? s.games : [])).filter((g) => !p.spec.recallProbe?.walkthroughs?.[g]?.length);
    if (noWalkthrough.length) return `The recall probe has no walkthrough for ${noWalkthrough.filter((g, i) => noWalkthrough.indexOf(g) === i).join(', ')}: ${PAGE_WALKTHROUGHS}.`;
    const r = this.registration;
    if (r && specHash(r.spec) !== specHash(p.spec)) return `The experiment differs from its registration (${r.registeredAt}) in ${specDifferences(r.spec, p.spec).join(', ')}: set it back to the registered settings, or clear the registration (its comparisons are then exploratory).`;
    if (p.spec.models.some((m) => m.actor || m.metaAgent || m.proposer)) return 'This experiment names its own models: the page runs with the Settings’ models; run it from the CLI (npx metattl experiment run).';
    return this.deps.runs.settingsProblem(p.spec.evolutions.some((e) => e.proposer === 'llm') ? ['actor', 'metaAgent', 'proposer'] : ['actor', 'metaAgent']);
  }

  /** Start the experiment as planned (a new id; the one shown before stays stored). */
  async start(): Promise<void> {
    this.error = this.startProblem;
    const p = this.prepared;
    if (this.error || !p || 'problem' in p || this.running) return;
    const settings = this.deps.runs.llmSettings();
    const id = (this.deps.newId ?? (() => randomRunId('exp')))();
    const state = freshExperimentState(p.plan, [{ actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model, proposer: settings.roles.proposer.model }], dateAt(this.deps.files.now()).toISOString());
    // The run card, frozen before this Start, goes into the experiment it registered.
    const registration = this.registration;
    this.record = { id, state, spent: { tokens: 0, costUsd: 0 }, ...(registration ? { registration } : {}) };
    await this.persist();
    await this.deps.runs.store.setSetting(LAST_EXPERIMENT_KEY, id).catch(() => undefined);
    if (registration) await this.clearRegistration();
    this.vocabularies = null;
    void this.readVocabularies();
    await this.drive();
  }

  /**
   * Freeze a run card for the experiment as it would start now (registration.ts `makeRegistration`:
   * its spec, sha-256, the code version, the primary contrast a − b on `taskSet` (null: every
   * evaluated set), α); Start then writes it into the experiment it creates.
   * @returns false when there is nothing to register or the contrast / α is refused (error shown)
   */
  async register(options: { primary?: { a: string; b: string }; taskSet?: string | null; alpha?: number } = {}): Promise<boolean> {
    const p = this.prepared;
    if (!p || 'problem' in p) return false;
    // The budget check Start makes: a run card for a plan Start would refuse is refused now.
    const budgetProblem = planBudgetProblem(p.plan);
    if (budgetProblem) {
      this.error = budgetProblem;
      return false;
    }
    const made = await this.errors.attempt(() => {
      this.registration = makeRegistration(p.spec, { ...options, now: dateAt(this.deps.files.now()).toISOString(), codeVersion: codeVersion() });
    });
    if (!made) return false;
    await this.deps.runs.store.setSetting(PENDING_REGISTRATION_KEY, JSON.parse(JSON.stringify(this.registration)) as SettingValue);
    return true;
  }

  /** Drop the run card not yet used (a Start then runs unregistered). */
  async clearRegistration(): Promise<void> {
    this.registration = null;
    await this.deps.runs.store.deleteSetting(PENDING_REGISTRATION_KEY).catch(() => undefined);
  }

  /** Download the pending run card as registration.json (the CLI's file, byte-compatible JSON). */
  downloadRegistration(): void {
    if (this.registration) this.deps.files.download('registration.json', `${JSON.stringify(this.registration, null, 2)}\n`, 'application/json');
  }

  /** Read the Z-machine dictionaries of the shown experiment's games from the story shelf (experiment-tasks.ts `shelfVocabularies`). */
  private async readVocabularies(): Promise<void> {
    const record = this.record;
    if (!record) return;
    const lib = this.deps.runs.shelf;
    const out = await shelfVocabularies(planExperiment(record.state.spec), lib.entries, async (entry) => (await lib.load(entry)).bytes);
    if (this.record?.id === record.id) this.vocabularies = out;
  }

  /** Continue the experiment shown (stopped, or interrupted by a reload). */
  async resume(): Promise<void> {
    if (!this.record || this.record.state.status === 'complete' || this.running) return;
    const spec = this.record.state.spec;
    this.error = this.deps.runs.settingsProblem(spec.evolutions.some((e) => e.proposer === 'llm') ? ['actor', 'metaAgent', 'proposer'] : ['actor', 'metaAgent']);
    if (this.error) return;
    await this.drive();
  }

  /** Stop: the running step's run stops (finished sessions stay stored); the experiment is resumable. */
  stop(): void {
    this.stopped = true;
    this.evolution.stop();
    for (const d of this.sideEvolutions) d.stop();
    this.evaluation.stop();
    this.recallStop?.abort();
  }

  /** Tokens and USD spent: finished steps plus the step running now. */
  get spent(): { tokens: number; costUsd: number | null } {
    const done = this.record?.spent ?? { tokens: 0, costUsd: 0 };
    const live = this.running ? [this.evolution, ...this.sideEvolutions, this.evaluation].filter((d) => d.driving) : [];
    return live.reduce((t, d) => ({ tokens: t.tokens + d.tokens, costUsd: t.costUsd === null || d.costUsd === null ? null : t.costUsd + d.costUsd }), done);
  }

  private async drive(): Promise<void> {
    const record = this.record!;
    const plan = planExperiment(record.state.spec);
    this.running = true;
    this.stopped = false;
    const runs = this.deps.runs;
    // Replicates side by side, each on its own driver, sharing the Settings' sessions at once.
    const concurrency = runs.llmSettings().maxConcurrent;
    const side = sideBySide(plan, concurrency, Number.MAX_SAFE_INTEGER).parallel - 1;
    if (this.sideEvolutions.length < side) this.sideEvolutions = [...this.sideEvolutions, ...Array.from({ length: side - this.sideEvolutions.length }, () => new EvolutionDriver(runs, this.schedule, this.clock))];
    const executor = browserExecutor(plan, {
      experimentId: record.id, evolution: this.evolution, evaluation: this.evaluation, sideDrivers: this.sideEvolutions.slice(0, side), concurrency,
      resolve: (taskId) => this.resolve(taskId),
      storedConfig: async (id, kind) => (kind === 'evolution' ? await loadEvolutionState(runs.store, id) : await loadEvaluationState(runs.store, id))?.config,
      shape: async () => {
        const s = runs.llmSettings();
        return { models: { actor: s.roles.actor.model, metaAgent: s.roles.metaAgent.model, proposer: s.roles.proposer.model }, concurrency: s.maxConcurrent, contextWindow: (await runs.contextWindow(s)).tokens };
      },
      policies: async () => policyOptions((await runs.store.listMetaPrompts()).map((s) => readStoredEntry(s.entry)).filter((e) => e !== null)),
      save: async (state) => {
        this.record = { ...this.record!, state: structuredClone(state) };
        await this.persist();
      },
      now: () => dateAt(this.deps.files.now()).toISOString(),
      recallModel: async () => {
        const ctx = await runs.prepare({ roles: ['actor'] });
        this.recallStop = new AbortController();
        return { model: ctx.models.actor, name: ctx.settings.roles.actor.model, concurrency: ctx.settings.maxConcurrent, signal: this.recallStop.signal, dispose: () => { ctx.dispose(); this.recallStop = null; } };
      },
      titleOf: (game) => {
        const entry = entryFor(runs.shelf.entries, game);
        return entry?.catalog?.title ?? entry?.title ?? game;
      },
    });
    executor.onStep = (e) => {
      if (e.phase === 'start') this.current = { index: e.index, total: e.total, step: e.step };
      if (e.phase === 'done' || e.phase === 'stopped') this.addSpent(e.step);
    };
    try {
      const finished = await this.errors.attempt(async () => {
        // A Stop pressed between two steps stops the next one before it starts.
        await runExperiment(plan, record.state, { ...executor, evolution: (s, done) => this.guarded(() => executor.evolution(s, done)), evaluation: (s, ev) => this.guarded(() => executor.evaluation(s, ev)), recallProbe: (s) => this.guarded(() => executor.recallProbe!(s)) });
        this.error = this.evolution.error ?? this.sideEvolutions.find((d) => d.error)?.error ?? this.evaluation.error;
      });
      if (!finished && this.record) {
        this.record = { ...this.record, state: { ...this.record.state, status: 'stopped' } };
        await this.persist();
      }
    } finally {
      this.running = false;
      this.current = null;
    }
  }

  /** A step, unless Stop was pressed since the last one (then it reports stopped without running). */
  private async guarded<T>(run: () => Promise<{ exitCode: number; outcome: T | null }>): Promise<{ exitCode: number; outcome: T | null }> {
    if (this.stopped) return { exitCode: 130, outcome: null };
    return run();
  }

  private addSpent(step: string): void {
    const r = this.record;
    if (!r) return;
    const d = [this.evolution, ...this.sideEvolutions, this.evaluation].find((x) => x.state && x.state.id === `${r.id}.${step}`);
    if (!d) return;
    this.record = { ...r, spent: { tokens: r.spent.tokens + d.tokens, costUsd: r.spent.costUsd === null || d.costUsd === null ? null : r.spent.costUsd + d.costUsd } };
    void this.persist();
  }

  private async resolve(taskId: string): Promise<EvolutionTask> {
    const { storyId, seed } = shelfTask(taskId, this.deps.runs.shelf.entries);
    const t = await this.deps.runs.resolveTask(storyId, seed);
    if (t.maxScore === null) throw new Error(`“${t.title}” has no known max score, so W-AUC is undefined for it. Set its max score in the Play view first.`);
    // The game is the canonical id's (catalog id, or the web task's template), as the report's rows use.
    return { id: t.id, storyId: gameOf(taskId), title: t.title, md5: t.md5, seed: t.seed, maxScore: t.maxScore, ...(t.task ? { task: t.task } : {}) };
  }

  private async persist(): Promise<void> {
    const r = this.record;
    if (r) await this.deps.runs.store.setSetting(recordKey(r.id), JSON.parse(JSON.stringify(r)) as SettingValue);
  }

  /** Download the report of the experiment shown (experiment-exports.ts); never a key. */
  /** A game's max score in points (its catalog's, else the one stored for the user's story), or
   * null when unknown or the game is no shelf story (a web task). */
  maxScoreOf(game: string): number | null {
    const entry = entryFor(this.deps.runs.shelf.entries, game);
    return entry ? (entry.catalog?.maxScore ?? entry.storedMaxScore ?? null) : null;
  }

  exportReport(format: ExperimentFormat): void {
    if (this.report && this.record) {
      const file = experimentExport(format, this.record, this.report);
      this.deps.files.download(file.name, file.text, file.mime);
    }
  }

  dismiss(): void {
    this.error = null;
    this.notice = null;
  }
}
