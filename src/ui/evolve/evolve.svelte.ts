/**
 * The Evolve view's state: the setup form with its cost estimate (src/evolve/cost-estimate.ts;
 * prices and role models from Settings), the run driver (ui/shared/state/evolution-driver.svelte.ts), the
 * candidate inspector, and the runs list (reopen, export, import with validation, delete). From a
 * candidate: save it to the meta-prompt library (provenance "evolved in run X from parent Y",
 * selectedOn = the run's train + validation games), or try it in the Learn view. All I/O goes
 * through the injected services; every thrown error is shown (key scrubbed).
 */
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import { BUILT_IN_META_PROMPTS, type MetaPromptEntry } from '../../agents/meta-prompt-library.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../../web/texts.ts';
import { loadWebCatalog } from '../shared/state/web-catalog.ts';
import { estimateEvolution, type EvolutionEstimate } from '../../evolve/cost-estimate.ts';
import { exportEvolution, importEvolution, readEvolutionRun, storeImportedEvolution } from '../../evolve/evolution-io.ts';
import type { Candidate, EvolutionConfig, EvolutionState, EvolutionTask } from '../../evolve/interface.ts';
import { branchConfig, createBranch } from '../../evolve/branch.ts';
import { loadEvolutionState } from '../../evolve/evolution-store.ts';
import { humanCandidateProblem } from '../../evolve/human-candidate.ts';
import { contextWindowFor } from '../../llm/token-count.ts';
import type { Schedule } from '../shared/state/retry-countdown.svelte.ts';
import { storedEntryOf, type LibraryMetaPrompt } from '../shared/state/entry-io.ts';
import { parseTaskId, type RunServices } from '../shared/state/run-services.ts';
import { browserSchedule, randomRunId, RunViewState } from '../shared/state/run-view.svelte.ts';
import { dateAt, type PlayerServices } from '../shared/state/services.ts';
import { estimateModelsOf, type SettingsState } from '../shared/state/settings.svelte.ts';
import { CandidateDetail } from './candidate-detail.svelte.ts';
import { evolvedEntry } from '../shared/evolution/dashboard.ts';
import { EVOLVE_DEFAULTS, EVOLVE_FORM_FIELDS, EvolveForm, seedStrategyOptions, type EvolveFormFields, type SeedStrategyOption } from './evolve-form.svelte.ts';
import { FormMemory, formSettingKey } from '../shared/state/form-memory.svelte.ts';
import { EvolutionDriver, type HumanRequest } from '../shared/state/evolution-driver.svelte.ts';
import { uniquePicks, type TaskPick } from '../shared/format/task-picks.ts';

/** Store setting: the id of the evolution run last shown (reopened after a reload). */
export const LAST_EVOLUTION_KEY = 'evolve:lastRunId';

export interface EvolveDeps {
  runs: RunServices;
  settings: SettingsState;
  files: Pick<PlayerServices, 'download' | 'readFile' | 'now'>;
  /** Show the Learn view with library meta-prompt `id` (`?view=learn&metaPrompt=<id>`). */
  openLearn(metaPromptId: string): void;
  /** Store a library entry through the page's meta-prompt catalog (so the Learn and Library views
   * see it at once); default: straight to the store. */
  saveMetaPrompt?: (entry: LibraryMetaPrompt) => Promise<void>;
  /** The meta-prompt library (built-in entries, then the user's), whose strategies the seed-strategy
   * list offers; default: the built-ins only. */
  metaPrompts?: { readonly entries: readonly MetaPromptEntry[]; init(): Promise<void> };
  newRunId?: () => string;
  schedule?: Schedule;
}

export class EvolveDashboard extends RunViewState<EvolutionState, EvolutionConfig> {
  readonly form: EvolveForm;
  readonly driver: EvolutionDriver;
  readonly detail: CandidateDetail;
  protected readonly lastRunKey = LAST_EVOLUTION_KEY;
  protected readonly runKind = 'evolution';
  protected readonly runningMessage = 'This run is running: stop it before deleting it.';

  /** Shelf stories usable as tasks. */
  readonly stories = $derived.by(() => this.deps.runs.shelf.entries);
  readonly estimate: EvolutionEstimate | null = $derived.by(() => this.computeEstimate());
  /** The seed-strategy list: the library's meta-prompts, the user's own among them (evolve-form.svelte.ts). */
  readonly seedStrategies: SeedStrategyOption[] = $derived.by(() => seedStrategyOptions(this.deps.metaPrompts?.entries ?? BUILT_IN_META_PROMPTS, this.form.seedStrategy));
  /** The form as last left (store setting `form:evolve`). */
  private readonly memory = new FormMemory<EvolveFormFields>(() => this.deps.runs.store, formSettingKey('evolve'));

  private readonly makeRunId: () => string;

  constructor(private readonly deps: EvolveDeps) {
    const makeRunId = deps.newRunId ?? (() => randomRunId('evo'));
    super(deps.runs, makeRunId);
    this.makeRunId = makeRunId;
    const schedule = deps.schedule ?? browserSchedule;
    this.form = new EvolveForm((storyId) => this.gameOf(storyId), () => deps.runs.shelf.entries.map((e) => e.id));
    this.driver = new EvolutionDriver(deps.runs, schedule, () => dateAt(deps.files.now()));
    this.detail = new CandidateDetail(() => deps.runs.store);
  }

  /** The web task catalog for the form (loaded with the view, not the page). */
  protected override async opened(): Promise<void> {
    this.form.restore(await this.memory.load(EVOLVE_FORM_FIELDS));
    await this.deps.metaPrompts?.init().catch(() => undefined); // a library that cannot load offers the built-ins
    this.form.webCatalog = await loadWebCatalog();
  }

  /** Remember the form as it is now (the view calls this from an `$effect`; form-memory.svelte.ts). */
  saveForm(): void {
    this.memory.save(this.form.snapshot());
  }

  /** The selected candidate belongs to the run shown. */
  protected override forgetShown(): void {
    this.detail.clear();
  }

  /** Start a new run from the form. */
  async start(): Promise<void> {
    await this.launch(this.form.problems, this.form.proposer === 'llm' ? ['actor', 'metaAgent', 'proposer'] : ['actor', 'metaAgent'], () => this.buildConfig());
  }

  /** The run's tasks resolved against the story shelf (md5, max score). @throws Error naming a story
   * without a max score or no longer on the story shelf */
  private async buildConfig(): Promise<EvolutionConfig> {
    const settings = this.deps.runs.llmSettings();
    const resolve = async (picks: readonly TaskPick[]): Promise<EvolutionTask[]> =>
      Promise.all(uniquePicks(picks).map((p) => this.scoredTask(p.storyId, p.seed)));
    const f = this.form;
    const window = await this.deps.runs.contextWindow(settings, f.contextWindow);
    this.notice = window.note;
    return {
      train: await resolve(f.train), val: await resolve(f.val), repeats: f.valRepeats, trainRepeats: f.trainRepeats, valRepeats: f.valRepeats, episodes: f.episodes, maxSteps: f.maxSteps,
      initialGuidingPrompt: this.form.allWeb ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT, seedStrategy: f.seedStrategy, minibatchSize: f.minibatchSize, budgetMetricCalls: f.budgetMetricCalls,
      maxConsecutiveFailures: EVOLVE_DEFAULTS.maxConsecutiveFailures, ...f.proposerConfig(), rngSeed: f.rngSeed, concurrency: settings.maxConcurrent,
      models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model, proposer: settings.roles.proposer.model },
      contextWindow: window.tokens, ...f.outer.options(),
    };
  }

  private computeEstimate(): EvolutionEstimate | null {
    const count = this.countTokens;
    const f = this.form;
    if (!count || f.train.length === 0 || f.val.length === 0) return null;
    const models = estimateModelsOf(this.deps.settings);
    return estimateEvolution({
      shape: { episodes: f.episodes, maxSteps: f.maxSteps, initialGuidingPrompt: this.form.allWeb ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT, contextWindow: f.contextWindow ?? contextWindowFor(models.roles.metaAgent.model) },
      trainRepeats: f.trainRepeats, valRepeats: f.valRepeats, trainTasks: uniquePicks(f.train).length, valTasks: uniquePicks(f.val).length, minibatchSize: f.minibatchSize,
      budgetMetricCalls: f.budgetMetricCalls, proposer: f.proposer, optimizer: f.optimizer, proposalsPerIteration: f.outer.proposalsPerIteration, seedStrategy: f.seedStrategy,
    }, models, count);
  }

  /** Set up the form like the run shown (a new run with the same settings). */
  copySetup(): void {
    const state = this.driver.state;
    if (!state) return;
    this.form.fillFrom(state.config, (taskId) => {
      try {
        const t = parseTaskId(taskId);
        return this.deps.runs.shelf.find(t.storyId) ? t : null;
      } catch {
        return null;
      }
    });
  }

  /** Download the whole run (state, sessions, proposer replies) as JSON; never a key. */
  async exportRun(id: string): Promise<void> {
    await this.errors.run(async () => {
      const run = await readEvolutionRun(this.deps.runs.store, id);
      if (!run) throw new Error(`There is no evolution run “${id}” in this browser.`);
      this.deps.files.download(`evolution-${id}.json`, exportEvolution(run), 'application/json');
    });
  }

  /** Import an exported run (validated), then show it. */
  async importFile(file: File): Promise<void> {
    this.notice = null;
    await this.errors.run(async () => {
      const run = importEvolution(new TextDecoder().decode(await this.deps.files.readFile(file)));
      await storeImportedEvolution(this.deps.runs.store, run, this.deps.files.now());
      await this.refreshRuns();
      await this.openRun(run.state.id);
      this.notice = `Imported run ${run.state.id}.`;
    });
  }

  /** Save candidate `candidateId` of the run shown to the meta-prompt library. @returns its library id */
  async saveToLibrary(candidateId: string): Promise<string | null> {
    const state = this.driver.state;
    const c = state?.candidates.find((x) => x.id === candidateId);
    if (!state || !c) return null;
    let saved: string | null = null;
    await this.errors.run(async () => {
      const entry = evolvedEntry(state, c);
      if (this.deps.saveMetaPrompt) await this.deps.saveMetaPrompt(entry);
      else await this.deps.runs.store.putMetaPrompt({ id: entry.id, createdAt: this.deps.files.now(), entry: storedEntryOf(entry) });
      this.notice = `Saved ${c.id} to the meta-prompt library as “${entry.name}”.`;
      saved = entry.id;
    });
    return saved;
  }

  /** Save candidate `candidateId` to the library and open it in the Learn view. */
  async tryMetaPrompt(candidateId: string): Promise<void> {
    const id = await this.saveToLibrary(candidateId);
    if (id !== null) this.deps.openLearn(id);
  }

  /** Hold the run this tab drives after the iteration in flight. */
  pause(): void {
    this.driver.pause();
  }

  /** Why a person's candidate from `parent` cannot be evaluated now (null: it can). */
  editProblem(state: EvolutionState, parent: Candidate): string | null {
    if (this.driver.driving) return 'Pause the run first: a new candidate is evaluated between iterations.';
    if (this.driver.mode === 'watching') return 'Another tab runs this run.';
    return humanCandidateProblem(state, parent.id);
  }

  /** Evaluate a person's candidate in the run shown; the run then holds at the same boundary. */
  async addCandidate(request: HumanRequest): Promise<void> {
    this.notice = null;
    this.error = null;
    const done = await this.driver.addCandidate(request);
    const c = done ? [...done.candidates].reverse().find((x) => x.origin === 'human') : undefined;
    if (done && c) {
      this.notice = `Your candidate ${c.id} (from ${c.parentId}) was ${c.status}: ${c.reason}. The run is ${done.status}; Resume goes on.`;
      await this.detail.select(done, c.id);
    }
    await this.refreshRuns();
  }

  /** Why the run shown cannot be branched after iteration `iteration` with `budget` (null: it can). */
  branchProblem(state: EvolutionState, iteration: number, budget = state.config.budgetMetricCalls): string | null {
    if (this.driver.driving) return 'Pause or stop the run first.';
    try {
      branchConfig(state, iteration, { budgetMetricCalls: budget });
      return null;
    } catch (error) {
      return this.deps.runs.messageOf(error);
    }
  }

  /** Start a new run branched from the run shown after iteration `iteration`, with `budget`
   * metric calls (its other settings the source's); it replays to the fork, then goes on. */
  async branchFrom(iteration: number, budget: number): Promise<void> {
    const source = this.driver.state;
    if (!source || this.driver.driving) return;
    this.notice = null;
    this.error = this.deps.runs.settingsProblem(source.config.proposer === 'llm' ? ['actor', 'metaAgent', 'proposer'] : ['actor', 'metaAgent']);
    if (this.error !== null) return;
    let config: EvolutionConfig | undefined;
    const id = this.makeRunId();
    await this.errors.run(async () => {
      await createBranch(this.deps.runs.store, source.id, id, iteration, { budgetMetricCalls: budget }, dateAt(this.deps.files.now()));
      config = (await loadEvolutionState(this.deps.runs.store, id))?.config;
    });
    if (!config) return;
    this.detail.clear();
    await this.deps.runs.store.setSetting(LAST_EVOLUTION_KEY, id).catch(() => undefined);
    await this.refreshRuns();
    await this.driver.run(id, config);
    await this.refreshRuns();
  }
}
