/**
 * The Evaluate view's state: the setup form with its cost estimate (src/eval/cost-estimate.ts),
 * the run driver (evaluation-driver.svelte.ts), the report (src/eval/report.ts: mean ± 95% CI,
 * paired differences against the baseline, per-game rows, learning curves, leak warnings) rebuilt
 * as results arrive, its exports (JSON with every session, CSV, Markdown, standalone HTML with the
 * curves as SVG) and the runs list. All I/O goes through the injected services; every thrown
 * error is shown (key scrubbed).
 */
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import { stringifyWithoutSecrets } from '../../agents/trajectory-io.ts';
import { parseCatalog } from '../../engine/catalog.ts';
import { estimateEvaluation, type EvaluationEstimate } from '../../eval/cost-estimate.ts';
import { loadEvaluationSessions } from '../../eval/evaluation-store.ts';
import type { EvaluationConfig, EvaluationReport, TaskSet } from '../../eval/interface.ts';
import { reportToCsv, reportToMarkdown } from '../../eval/report-formats.ts';
import { reportToHtml } from '../../eval/report-html.ts';
import { buildReport } from '../../eval/report.ts';
import { contextWindowFor, estimateTokenCounter, type TokenCounter } from '../../llm/token-count.ts';
import type { RunSummary } from '../../store/interface.ts';
import type { EvaluatedTask } from '../../ttl/session-evaluator.ts';
import type { Schedule } from '../shared/stores/retry-countdown.svelte.ts';
import { gameIdOf } from '../shared/format/task-picks.ts';
import { readStoredEntry, storedEntryOf, withEvaluation } from '../shared/stores/entry-io.ts';
import type { RunServices } from '../shared/stores/run-services.ts';
import { dateAt, type PlayerServices } from '../shared/stores/services.ts';
import { estimateModelsOf, type SettingsState } from '../shared/stores/settings.svelte.ts';
import { loadWebCatalog } from '../shared/stores/web-catalog.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../../web/texts.ts';
import { EvaluateForm } from './evaluate-form.svelte.ts';
import { EvaluationDriver } from './evaluation-driver.svelte.ts';
import { evaluatedPolicies, policyOptions } from './policy-options.ts';

/** Store setting: the id of the evaluation last shown (reopened after a reload). */
export const LAST_EVALUATION_KEY = 'evaluate:lastRunId';

export type ReportFormat = 'json' | 'csv' | 'md' | 'html';

export interface EvaluateDeps {
  runs: RunServices;
  settings: SettingsState;
  files: Pick<PlayerServices, 'download' | 'readFile' | 'now' | 'resolve' | 'fetchOptionalJson'>;
  newRunId?: () => string;
  schedule?: Schedule;
}

const browserSchedule: Schedule = (callback, delayMs) => {
  const timer = setTimeout(callback, delayMs);
  return () => clearTimeout(timer);
};

const randomRunId = (): string => `eval-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

export class EvaluateState {
  readonly form: EvaluateForm;
  readonly driver: EvaluationDriver;
  runList = $state.raw<RunSummary[]>([]);
  countTokens = $state.raw<TokenCounter | null>(null);
  ready = $state(false);
  notice = $state<string | null>(null);
  error = $state<string | null>(null);

  readonly estimate: EvaluationEstimate | null = $derived.by(() => this.computeEstimate());
  /** The report of the evaluation shown (null before its first result). */
  readonly report: EvaluationReport | null = $derived.by(() => {
    const state = this.driver.state;
    return state && state.results.length > 0 ? buildReport(state) : null;
  });

  private starting: Promise<void> | null = null;

  constructor(private readonly deps: EvaluateDeps) {
    this.form = new EvaluateForm((storyId) => this.gameOf(storyId));
    this.driver = new EvaluationDriver(deps.runs, deps.schedule ?? browserSchedule, () => dateAt(deps.files.now()));
  }

  gameOf(storyId: string): string {
    const entry = this.deps.runs.library.find(storyId);
    return entry ? gameIdOf(entry) : storyId;
  }

  /** Open the library, catalog, policies, token counter and runs list; reopen the last evaluation. */
  init(): Promise<void> {
    this.starting ??= this.open();
    return this.starting;
  }

  /** Each time the view is shown: init once, then re-read the library's meta-prompts (a run may
   * have been saved to it from Evolve). */
  async enter(): Promise<void> {
    await this.init();
    await this.refreshPolicies();
  }

  private async open(): Promise<void> {
    await this.guard(async () => {
      const { library } = this.deps.runs;
      await library.init();
      this.form.entries = library.entries;
      const catalog = await this.deps.files.fetchOptionalJson(this.deps.files.resolve('stories/catalog.json'));
      try {
        this.form.catalogGames = parseCatalog(catalog).stories.map((s) => ({ id: s.id, tags: s.tags }));
      } catch {
        this.form.catalogGames = [];
      }
      this.countTokens = estimateTokenCounter(); // no tokenizer fetch for an estimate
      this.form.webCatalog = await loadWebCatalog();
      await this.refreshRuns();
      const last = await this.deps.runs.store.getSetting(LAST_EVALUATION_KEY).catch(() => undefined);
      if (typeof last === 'string' && this.runList.some((r) => r.id === last)) await this.driver.show(last);
    });
    this.ready = true;
  }

  async refreshPolicies(): Promise<void> {
    await this.guard(async () => {
      const stored = await this.deps.runs.store.listMetaPrompts();
      this.form.options = policyOptions(stored.map((s) => readStoredEntry(s.entry)).filter((e) => e !== null));
      this.form.entries = this.deps.runs.library.entries;
    });
  }

  async refreshRuns(): Promise<void> {
    await this.guard(async () => {
      this.runList = await this.deps.runs.store.listRuns('evaluation');
    });
  }

  private computeEstimate(): EvaluationEstimate | null {
    const count = this.countTokens;
    const f = this.form;
    if (!count || f.chosen.length === 0 || f.taskCount === 0) return null;
    const models = estimateModelsOf(this.deps.settings);
    return estimateEvaluation({
      shape: { episodes: f.episodes, maxSteps: f.maxSteps, initialGuidingPrompt: this.guidingPrompt(), contextWindow: f.contextWindow ?? contextWindowFor(models.roles.metaAgent.model) },
      policies: f.chosenOptions.map((o) => o.spec), tasks: f.taskCount, repeats: f.repeats,
    }, models, count);
  }

  /** The initial guiding prompt: the web guide when every task is a web task (as the CLI). */
  private guidingPrompt(): string {
    return this.form.allWeb ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT;
  }

  /** The config of the form, tasks resolved against the library. @throws Error naming a story
   * without a max score or no longer in the library */
  private async buildConfig(): Promise<EvaluationConfig> {
    const settings = this.deps.runs.llmSettings();
    const f = this.form;
    const taskSets: TaskSet[] = [];
    for (const set of f.sets) {
      const tasks: EvaluatedTask[] = [];
      for (const p of set.picks) {
        const t = await this.deps.runs.resolveTask(p.storyId, p.seed);
        if (t.maxScore === null) throw new Error(`“${t.title}” has no known max score, so W-AUC is undefined for it. Set its max score in the Play view first.`);
        tasks.push({ id: t.id, storyId: this.gameOf(p.storyId), title: t.title, md5: t.md5, seed: t.seed, maxScore: t.maxScore, ...(t.task ? { task: t.task } : {}) });
      }
      taskSets.push({ name: set.name, tasks });
    }
    const window = await this.deps.runs.contextWindow(settings, f.contextWindow);
    this.notice = window.note;
    return {
      policies: evaluatedPolicies(f.options, f.chosen), taskSets, repeats: f.repeats, episodes: f.episodes, maxSteps: f.maxSteps,
      initialGuidingPrompt: this.guidingPrompt(), baselinePolicyId: f.baseline, bootstrapSeed: 0, concurrency: settings.maxConcurrent,
      models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model }, contextWindow: window.tokens,
    };
  }

  async start(): Promise<void> {
    this.notice = null;
    const roles = this.form.chosenOptions.every((o) => o.spec.kind === 'static') ? (['actor'] as const) : (['actor', 'metaAgent'] as const);
    this.error = this.form.problems[0] ?? this.deps.runs.settingsProblem(roles);
    if (this.error !== null || this.driver.driving) return;
    let config: EvaluationConfig;
    try {
      config = await this.buildConfig();
    } catch (error) {
      this.error = this.deps.runs.messageOf(error);
      return;
    }
    const id = (this.deps.newRunId ?? randomRunId)();
    await this.deps.runs.store.setSetting(LAST_EVALUATION_KEY, id).catch(() => undefined);
    await this.driver.run(id, config);
    await this.recordInLibrary();
    await this.refreshRuns();
  }

  /** Resume the evaluation shown; `fromLastGood` after a damage report (keep the intact records). */
  async resume(fromLastGood = false): Promise<void> {
    this.notice = null;
    this.error = null;
    await this.driver.resume(fromLastGood);
    await this.recordInLibrary();
    await this.refreshRuns();
  }

  /** Write a finished evaluation's W-AUC (mean and CI per task set) into the library entries it
   * evaluated, so the Library view shows each meta-prompt's evaluations. */
  private async recordInLibrary(): Promise<void> {
    const state = this.driver.state;
    if (!state || state.status !== 'complete') return;
    const rows = buildReport(state).policies;
    await this.guard(async () => {
      for (const stored of await this.deps.runs.store.listMetaPrompts()) {
        const entry = readStoredEntry(stored.entry);
        if (!entry) continue;
        const updated = withEvaluation(entry, state.id, rows);
        if (updated !== entry) await this.deps.runs.store.putMetaPrompt({ ...stored, entry: storedEntryOf(updated) });
      }
    });
  }

  stop(): void {
    this.driver.stop();
  }

  async openRun(id: string): Promise<void> {
    if (this.driver.driving) return;
    this.notice = null;
    await this.driver.show(id);
    await this.deps.runs.store.setSetting(LAST_EVALUATION_KEY, id).catch(() => undefined);
  }

  async deleteRun(id: string): Promise<void> {
    await this.guard(async () => {
      if ((this.driver.driving && this.driver.state?.id === id) || (await this.deps.runs.isRunLocked(id))) throw new Error('This evaluation is running: stop it before deleting it.');
      await this.deps.runs.store.deleteRun(id);
      if (this.driver.state?.id === id) this.driver.clear();
      await this.refreshRuns();
    });
  }

  /** Download the report of the evaluation shown. JSON holds the config, the report and every
   * session (as the CLI's results.json); never a key. */
  async exportReport(format: ReportFormat): Promise<void> {
    const state = this.driver.state;
    const report = this.report;
    if (!state || !report) return;
    await this.guard(async () => {
      const name = `evaluation-${state.id}`;
      const title = `Evaluation ${state.id}`;
      const download = this.deps.files.download;
      if (format === 'csv') download(`${name}.csv`, reportToCsv(report), 'text/csv');
      else if (format === 'md') download(`${name}.md`, reportToMarkdown(report, title), 'text/markdown');
      else if (format === 'html') download(`${name}.html`, reportToHtml(report, title), 'text/html');
      else {
        const sessions = await loadEvaluationSessions(this.deps.runs.store, state.id);
        const results = { id: state.id, status: state.status, stopReason: state.stopReason, config: state.config, report, sessions: state.results.map((r) => ({ ...r, session: sessions.get(r.key) ?? null })) };
        download(`${name}.json`, stringifyWithoutSecrets(results), 'application/json');
      }
    });
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
