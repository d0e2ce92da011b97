/**
 * The Evolve view's state: the setup form with its cost estimate (src/evolve/cost-estimate.ts;
 * prices and role models from Settings), the run driver (evolution-driver.svelte.ts), the
 * candidate inspector, and the runs list (reopen, export, import with validation, delete). From a
 * candidate: save it to the meta-prompt library (provenance "evolved in run X from parent Y",
 * selectedOn = the run's train + validation games), or try it in the Learn view. All I/O goes
 * through the injected services; every thrown error is shown (key scrubbed).
 */
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../../web/texts.ts';
import { loadWebCatalog } from '../shared/stores/web-catalog.ts';
import { estimateEvolution, type EvolutionEstimate } from '../../evolve/cost-estimate.ts';
import { exportEvolution, importEvolution, readEvolutionRun, storeImportedEvolution } from '../../evolve/evolution-io.ts';
import type { EvolutionConfig, EvolutionTask } from '../../evolve/interface.ts';
import { contextWindowFor, estimateTokenCounter, type TokenCounter } from '../../llm/token-count.ts';
import type { RunSummary } from '../../store/interface.ts';
import type { Schedule } from '../shared/stores/retry-countdown.svelte.ts';
import { storedEntryOf, type LibraryMetaPrompt } from '../shared/stores/entry-io.ts';
import { parseTaskId, type RunServices } from '../shared/stores/run-services.ts';
import { dateAt, type PlayerServices } from '../shared/stores/services.ts';
import { estimateModelsOf, type SettingsState } from '../shared/stores/settings.svelte.ts';
import { CandidateDetail } from './candidate-detail.svelte.ts';
import { evolvedEntry } from './dashboard.ts';
import { EVOLVE_DEFAULTS, EvolveForm } from './evolve-form.svelte.ts';
import { EvolutionDriver } from './evolution-driver.svelte.ts';
import { gameIdOf, uniquePicks, type TaskPick } from '../shared/format/task-picks.ts';

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
  newRunId?: () => string;
  schedule?: Schedule;
}

const browserSchedule: Schedule = (callback, delayMs) => {
  const timer = setTimeout(callback, delayMs);
  return () => clearTimeout(timer);
};

const randomRunId = (): string => `evo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

export class EvolveDashboard {
  readonly form: EvolveForm;
  readonly driver: EvolutionDriver;
  readonly detail: CandidateDetail;
  runList = $state.raw<RunSummary[]>([]);
  countTokens = $state.raw<TokenCounter | null>(null);
  ready = $state(false);
  /** A confirmation to show (e.g. "Saved to the library"). */
  notice = $state<string | null>(null);
  error = $state<string | null>(null);

  /** Library stories usable as tasks. */
  readonly stories = $derived.by(() => this.deps.runs.library.entries);
  readonly estimate: EvolutionEstimate | null = $derived.by(() => this.computeEstimate());

  constructor(private readonly deps: EvolveDeps) {
    const schedule = deps.schedule ?? browserSchedule;
    this.form = new EvolveForm((storyId) => this.gameOf(storyId), () => deps.runs.library.entries.map((e) => e.id));
    this.driver = new EvolutionDriver(deps.runs, schedule, () => dateAt(deps.files.now()));
    this.detail = new CandidateDetail(() => deps.runs.store);
  }

  /** The game of a library story (catalog id, else library id). */
  gameOf(storyId: string): string {
    const entry = this.deps.runs.library.find(storyId);
    return entry ? gameIdOf(entry) : storyId;
  }

  /** Open the library, load the token counter and the runs list, reopen the last run. Idempotent. */
  private starting: Promise<void> | null = null;
  init(): Promise<void> {
    this.starting ??= this.open();
    return this.starting;
  }

  private async open(): Promise<void> {
    await this.guard(async () => {
      await this.deps.runs.library.init();
      this.countTokens = estimateTokenCounter(); // no tokenizer fetch for an estimate
      this.form.webCatalog = await loadWebCatalog();
      await this.refreshRuns();
      const last = await this.deps.runs.store.getSetting(LAST_EVOLUTION_KEY).catch(() => undefined);
      if (typeof last === 'string' && this.runList.some((r) => r.id === last)) await this.driver.show(last);
    });
    this.ready = true;
  }

  /** Start a new run from the form. */
  async start(): Promise<void> {
    this.notice = null;
    this.error = this.form.problems[0] ?? this.deps.runs.settingsProblem(this.form.proposer === 'llm' ? ['actor', 'metaAgent', 'proposer'] : ['actor', 'metaAgent']);
    if (this.error !== null || this.driver.driving) return;
    let config: EvolutionConfig;
    try {
      config = await this.buildConfig();
    } catch (error) {
      this.error = this.deps.runs.messageOf(error);
      return;
    }
    const id = (this.deps.newRunId ?? randomRunId)();
    this.detail.clear();
    await this.deps.runs.store.setSetting(LAST_EVOLUTION_KEY, id).catch(() => undefined);
    await this.driver.run(id, config);
    await this.refreshRuns();
  }

  /** Resume the run shown; `fromLastGood` after a damage report (keep the intact records). */
  async resume(fromLastGood = false): Promise<void> {
    this.notice = null;
    this.error = null;
    await this.driver.resume(fromLastGood);
    await this.refreshRuns();
  }

  stop(): void {
    this.driver.stop();
  }

  /** The run's tasks resolved against the library (md5, max score). @throws Error naming a story
   * without a max score or no longer in the library */
  private async buildConfig(): Promise<EvolutionConfig> {
    const settings = this.deps.runs.llmSettings();
    const resolve = async (picks: readonly TaskPick[]): Promise<EvolutionTask[]> =>
      Promise.all(uniquePicks(picks).map(async (p) => {
        const t = await this.deps.runs.resolveTask(p.storyId, p.seed);
        if (t.maxScore === null) throw new Error(`“${t.title}” has no known max score, so W-AUC is undefined for it. Set its max score in the Play view first.`);
        return { id: t.id, storyId: this.gameOf(p.storyId), title: t.title, md5: t.md5, seed: t.seed, maxScore: t.maxScore, ...(t.task ? { task: t.task } : {}) };
      }));
    const f = this.form;
    const window = await this.deps.runs.contextWindow(settings, f.contextWindow);
    this.notice = window.note;
    return {
      train: await resolve(f.train), val: await resolve(f.val), repeats: f.valRepeats, trainRepeats: f.trainRepeats, valRepeats: f.valRepeats, episodes: f.episodes, maxSteps: f.maxSteps,
      initialGuidingPrompt: this.form.allWeb ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT, seedStrategy: f.seedStrategy, minibatchSize: f.minibatchSize, budgetMetricCalls: f.budgetMetricCalls,
      maxConsecutiveFailures: EVOLVE_DEFAULTS.maxConsecutiveFailures, proposer: f.proposer, proposerInstruction: f.proposerInstruction, rngSeed: f.rngSeed, concurrency: settings.maxConcurrent,
      models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model, proposer: settings.roles.proposer.model },
      contextWindow: window.tokens,
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
      budgetMetricCalls: f.budgetMetricCalls, proposer: f.proposer, seedStrategy: f.seedStrategy,
    }, models, count);
  }

  async refreshRuns(): Promise<void> {
    await this.guard(async () => {
      this.runList = await this.deps.runs.store.listRuns('evolution');
    });
  }

  /** Show stored run `id` (read-only while another tab drives it). */
  async openRun(id: string): Promise<void> {
    if (this.driver.driving) return;
    this.notice = null;
    this.detail.clear();
    await this.driver.show(id);
    await this.deps.runs.store.setSetting(LAST_EVOLUTION_KEY, id).catch(() => undefined);
  }

  /** Set up the form like the run shown (a new run with the same settings). */
  copySetup(): void {
    const state = this.driver.state;
    if (!state) return;
    this.form.fillFrom(state.config, (taskId) => {
      try {
        const t = parseTaskId(taskId);
        return this.deps.runs.library.find(t.storyId) ? t : null;
      } catch {
        return null;
      }
    });
  }

  async deleteRun(id: string): Promise<void> {
    await this.guard(async () => {
      if ((this.driver.driving && this.driver.state?.id === id) || (await this.deps.runs.isRunLocked(id))) throw new Error('This run is running: stop it before deleting it.');
      await this.deps.runs.store.deleteRun(id);
      if (this.driver.state?.id === id) {
        this.driver.clear();
        this.detail.clear();
      }
      await this.refreshRuns();
    });
  }

  /** Download the whole run (state, sessions, proposer replies) as JSON; never a key. */
  async exportRun(id: string): Promise<void> {
    await this.guard(async () => {
      const run = await readEvolutionRun(this.deps.runs.store, id);
      if (!run) throw new Error(`There is no evolution run “${id}” in this browser.`);
      this.deps.files.download(`evolution-${id}.json`, exportEvolution(run), 'application/json');
    });
  }

  /** Import an exported run (validated), then show it. */
  async importFile(file: File): Promise<void> {
    this.notice = null;
    await this.guard(async () => {
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
    await this.guard(async () => {
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

  dismiss(): void {
    this.error = null;
    this.notice = null;
    this.driver.error = null;
    this.driver.damaged = null;
  }

  private async guard(task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (error) {
      this.error = this.deps.runs.messageOf(error);
    }
  }
}
