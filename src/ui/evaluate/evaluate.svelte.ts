/**
 * The Evaluate view's state: the setup form with its cost estimate (src/eval/cost-estimate.ts),
 * the run driver (ui/shared/state/evaluation-driver.svelte.ts), the report (src/eval/report.ts: mean ± 95% CI,
 * paired differences against the baseline, per-game rows, learning curves, leak warnings) rebuilt
 * as results arrive, its exports (JSON with every session, CSV, Markdown, standalone HTML with the
 * curves as SVG) and the runs list; each evolved policy's vocabulary overlap with each task set
 * (its games' dictionaries read from the story shelf, as the CLI's results.json and report.md have it).
 * All I/O goes through the injected services; every thrown error is shown (key scrubbed).
 */
import { SvelteSet } from 'svelte/reactivity';
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import { stringifyWithoutSecrets } from '../../agents/trajectory-io.ts';
import { codeVersion } from '../../common/code-version.ts';
import { parseCatalog } from '../../engine/catalog.ts';
import { estimateEvaluation, type EvaluationEstimate } from '../../eval/cost-estimate.ts';
import { loadEvaluationSessions } from '../../eval/evaluation-store.ts';
import type { EvaluationConfig, EvaluationReport, EvaluationState, TaskSet } from '../../eval/interface.ts';
import { reportToMarkdown } from '../../eval/report-formats.ts';
import { evaluationOverlap, vocabularyMarkdown, type GameVocabulary, type TaskSetOverlap } from '../../eval/vocabulary-overlap.ts';
import { shelfGameVocabularies } from '../shared/evaluation/shelf-vocabulary.ts';
import { reportToHtml } from '../../eval/report-html.ts';
import { buildReport } from '../../eval/report.ts';
import { contextWindowFor } from '../../llm/token-count.ts';
import type { EvaluatedTask } from '../../ttl/session-evaluator.ts';
import type { SessionRecord } from '../../ttl/session-record.ts';
import type { Schedule } from '../shared/state/retry-countdown.svelte.ts';
import { readStoredEntry, storedEntryOf, withEvaluation } from '../shared/state/entry-io.ts';
import type { RunServices } from '../shared/state/run-services.ts';
import { browserSchedule, randomRunId, RunViewState } from '../shared/state/run-view.svelte.ts';
import { dateAt, type PlayerServices } from '../shared/state/services.ts';
import { estimateModelsOf, type SettingsState } from '../shared/state/settings.svelte.ts';
import { loadWebCatalog } from '../shared/state/web-catalog.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../../web/texts.ts';
import { EVALUATE_FORM_FIELDS, EvaluateForm, type EvaluateFormFields } from './evaluate-form.svelte.ts';
import { FormMemory, formSettingKey } from '../shared/state/form-memory.svelte.ts';
import { EvaluationDriver } from '../shared/state/evaluation-driver.svelte.ts';
import { evaluatedPolicies, policyOptions, withPolicyNames } from '../shared/state/policy-options.ts';
import { exportedModel, modelOfReport } from '../../llm/model-label.ts';

/** Store setting: the id of the evaluation last shown (reopened after a reload). */
export const LAST_EVALUATION_KEY = 'evaluate:lastRunId';

export type ReportFormat = 'json' | 'csv' | 'md' | 'html' | 'comparisons-csv';

export interface EvaluateDeps {
  runs: RunServices;
  settings: SettingsState;
  files: Pick<PlayerServices, 'download' | 'readFile' | 'now' | 'resolve' | 'fetchOptionalJson'>;
  newRunId?: () => string;
  schedule?: Schedule;
}

export class EvaluateState extends RunViewState<EvaluationState, EvaluationConfig> {
  readonly form: EvaluateForm;
  readonly driver: EvaluationDriver;
  /** The form as last left (store setting `form:evaluate`). */
  private readonly memory = new FormMemory<EvaluateFormFields>(() => this.deps.runs.store, formSettingKey('evaluate'));
  protected readonly lastRunKey = LAST_EVALUATION_KEY;
  protected readonly runKind = 'evaluation';
  protected readonly runningMessage = 'This evaluation is running: stop it before deleting it.';

  readonly estimate: EvaluationEstimate | null = $derived.by(() => this.computeEstimate());
  /** The report of the evaluation shown (null before its first result). */
  readonly report: EvaluationReport | null = $derived.by(() => {
    const state = this.driver.state;
    return state && state.results.length > 0 ? buildReport(withPolicyNames(state, this.form.options)) : null;
  });

  /** Game id → its vocabulary (dictionary), read from the story shelf as games are shown. */
  private vocabularies = $state.raw<Record<string, GameVocabulary>>({});
  /** Games whose vocabulary was asked for (read or found missing). */
  private readonly vocabularyAsked = new SvelteSet<string>();
  /** Each evolved policy's vocabulary overlap with each story task set of the evaluation shown
   * (null until its games are read; [] when no policy names the games it was selected on). */
  readonly vocabulary: (TaskSetOverlap & { policy: string })[] | null = $derived.by(() => {
    const state = this.driver.state;
    if (!state) return null;
    const games = evaluationGames(state);
    if (games.some((g) => !g.startsWith('web:') && !this.vocabularyAsked.has(g) && !this.vocabularies[g])) return null;
    return evaluationOverlap(state.config.policies, state.config.taskSets.map((s) => ({ name: s.name, games: s.tasks.map((t) => t.storyId ?? t.id) })), this.vocabularies);
  });
  /** The session whose detail is open (its curve and map), by its result key; null: none. */
  shownSession = $state.raw<{ key: string; record: SessionRecord } | null>(null);

  constructor(private readonly deps: EvaluateDeps) {
    super(deps.runs, deps.newRunId ?? (() => randomRunId('eval')));
    this.form = new EvaluateForm((storyId) => this.gameOf(storyId));
    this.driver = new EvaluationDriver(deps.runs, deps.schedule ?? browserSchedule, () => dateAt(deps.files.now()));
  }

  /** Each time the view is shown: init once, then re-read the library's meta-prompts (a run may
   * have been saved to it from Evolve). */
  async enter(): Promise<void> {
    await this.init();
    await this.refreshPolicies();
  }

  /** The shelf's stories and the catalog's ID / OOD tags for the form. */
  protected override async opened(): Promise<void> {
    this.form.restore(await this.memory.load(EVALUATE_FORM_FIELDS));
    this.form.entries = this.deps.runs.shelf.entries;
    const catalog = await this.deps.files.fetchOptionalJson(this.deps.files.resolve('stories/catalog.json'));
    try {
      this.form.catalogGames = parseCatalog(catalog).stories.map((s) => ({ id: s.id, tags: s.tags }));
    } catch {
      this.form.catalogGames = [];
    }
    this.form.webCatalog = await loadWebCatalog();
  }

  /** Open the detail of the evaluation's session `key` (a result's key): its record from the
   * store. Opening the open one again closes it. An error (no such session) is shown. */
  async showSession(key: string): Promise<void> {
    const state = this.driver.state;
    if (!state) return;
    if (this.shownSession?.key === key) {
      this.shownSession = null;
      return;
    }
    await this.errors.run(async () => {
      const record = (await loadEvaluationSessions(this.deps.runs.store, state.id)).get(key);
      if (!record) throw new Error(`The session ${key} of evaluation ${state.id} has no record in this browser.`);
      this.shownSession = { key, record };
    });
  }

  protected override forgetShown(): void {
    this.shownSession = null;
  }

  /** Remember the form as it is now (the view calls this from an `$effect`; form-memory.svelte.ts). */
  saveForm(): void {
    this.memory.save(this.form.snapshot());
  }

  async refreshPolicies(): Promise<void> {
    await this.errors.run(async () => {
      const stored = await this.deps.runs.store.listMetaPrompts();
      this.form.options = policyOptions(stored.map((s) => readStoredEntry(s.entry)).filter((e) => e !== null));
      this.form.entries = this.deps.runs.shelf.entries;
    });
  }

  private computeEstimate(): EvaluationEstimate | null {
    const count = this.countTokens;
    const f = this.form;
    if (!count || f.chosen.length === 0 || f.taskCount === 0) return null;
    const models = estimateModelsOf(this.deps.settings);
    return estimateEvaluation({
      shape: { episodes: f.episodes, maxSteps: f.maxSteps, initialGuidingPrompt: this.guidingPrompt(), contextWindow: f.contextWindow ?? contextWindowFor(models.roles.metaAgent.model) },
      policies: evaluatedPolicies(f.options, f.chosen, f.raw).map((p) => p.spec), tasks: f.taskCount, repeats: f.repeats,
    }, models, count);
  }

  /** The initial guiding prompt: the web guide when every task is a web task (as the CLI). */
  private guidingPrompt(): string {
    return this.form.allWeb ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT;
  }

  /** The config of the form, tasks resolved against the story shelf. @throws Error naming a story
   * without a max score or no longer on the story shelf */
  private async buildConfig(): Promise<EvaluationConfig> {
    const settings = this.deps.runs.llmSettings();
    const f = this.form;
    const taskSets: TaskSet[] = [];
    for (const set of f.sets) {
      const tasks: EvaluatedTask[] = [];
      for (const p of set.picks) tasks.push(await this.scoredTask(p.storyId, p.seed));
      taskSets.push({ name: set.name, tasks });
    }
    const window = await this.deps.runs.contextWindow(settings, f.contextWindow);
    this.notice = window.note;
    return {
      policies: evaluatedPolicies(f.options, f.chosen, f.raw), taskSets, repeats: f.repeats, episodes: f.episodes, maxSteps: f.maxSteps,
      initialGuidingPrompt: this.guidingPrompt(), baselinePolicyId: f.baseline, bootstrapSeed: 0, concurrency: settings.maxConcurrent,
      models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model }, contextWindow: window.tokens,
      ...(f.activeContrasts.length ? { contrasts: f.activeContrasts.map((c) => ({ ...c })) } : {}),
    };
  }

  /** Start a new evaluation from the form. */
  async start(): Promise<void> {
    const roles = this.form.chosenOptions.every((o) => o.spec.kind === 'static') ? (['actor'] as const) : (['actor', 'metaAgent'] as const);
    await this.launch(this.form.problems, roles, () => this.buildConfig());
  }

  /** Write a finished evaluation's W-AUC (mean and CI per task set) into the library entries it
   * evaluated, so the Library view shows each meta-prompt's evaluations. */
  protected override async afterRun(): Promise<void> {
    const state = this.driver.state;
    if (!state || state.status !== 'complete') return;
    const report = buildReport(state);
    const rows = report.policies;
    await this.errors.run(async () => {
      for (const stored of await this.deps.runs.store.listMetaPrompts()) {
        const entry = readStoredEntry(stored.entry);
        if (!entry) continue;
        const updated = withEvaluation(entry, state.id, rows, modelOfReport(report));
        if (updated !== entry) await this.deps.runs.store.putMetaPrompt({ ...stored, entry: storedEntryOf(updated) });
      }
    });
  }

  /** Read the dictionaries of the shown evaluation's games not read yet (for `vocabulary`). */
  async readVocabularies(): Promise<void> {
    const state = this.driver.state;
    if (!state || !state.config.policies.some((p) => p.selectedOn.length)) return;
    const wanted = evaluationGames(state).filter((g) => !this.vocabularyAsked.has(g));
    if (!wanted.length) return;
    const lib = this.deps.runs.shelf;
    const read = await shelfGameVocabularies(wanted, lib.entries, async (entry) => (await lib.load(entry)).bytes);
    for (const g of wanted) this.vocabularyAsked.add(g);
    this.vocabularies = { ...this.vocabularies, ...read };
  }

  /** Download the report of the evaluation shown. JSON holds the config, who played it (`model`:
   * name, `simulated` flag, caveat), the report and every session (as the CLI's results.json); never a key. */
  async exportReport(format: ReportFormat): Promise<void> {
    const state = this.driver.state;
    const report = this.report;
    if (!state || !report) return;
    await this.errors.run(async () => {
      const name = `evaluation-${state.id}`;
      const title = `Evaluation ${state.id}`;
      const download = this.deps.files.download;
      // The CSV writer loads on first use (not with the page).
      if (format === 'csv') download(`${name}.csv`, (await import('../../eval/report-csv.ts')).reportToCsv(report), 'text/csv');
      // The CLI's comparisons.csv: each contrast's Δ, per-game Δ, game-level test, Holm and repeats needed.
      else if (format === 'comparisons-csv') download(`${name}-comparisons.csv`, (await import('../../eval/report-csv.ts')).comparisonsToCsv(report), 'text/csv');
      else if (format === 'md') download(`${name}.md`, [reportToMarkdown(report, title, codeVersion()), ...vocabularyMarkdown('policy', (this.vocabulary ?? []).map((v) => ({ ...v, label: v.policy })))].join('\n'), 'text/markdown');
      else if (format === 'html') download(`${name}.html`, reportToHtml(report, title, codeVersion()), 'text/html');
      else {
        const sessions = await loadEvaluationSessions(this.deps.runs.store, state.id);
        const vocabulary = this.vocabulary ?? [];
        const results = { id: state.id, codeVersion: codeVersion(), model: exportedModel(state.config.models), status: state.status, stopReason: state.stopReason, config: state.config, report, ...(vocabulary.length ? { vocabulary } : {}), sessions: state.results.map((r) => ({ ...r, session: sessions.get(r.key) ?? null })) };
        download(`${name}.json`, stringifyWithoutSecrets(results), 'application/json');
      }
    });
  }
}

/** The story games of an evaluation: its tasks' games and its policies' selection games (`:seed` dropped). */
function evaluationGames(state: EvaluationState): string[] {
  return [...new Set([...state.config.taskSets.flatMap((s) => s.tasks.map((t) => t.storyId ?? t.id)), ...state.config.policies.flatMap((p) => p.selectedOn.map((g) => g.replace(/:\d+$/, '')))])];
}
