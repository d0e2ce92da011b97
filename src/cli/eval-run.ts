/**
 * An evaluation on the command line, built and run in one place for `metattl eval` and the CLI's
 * experiment executor (experiment-steps.ts): a new evaluation's config from its parsed settings
 * (what is not given takes `EVALUATION_DEFAULTS` and the session's K and S,
 * `ttl/run-defaults.ts`), a resumed one's (its stored config after the resume check and the
 * changed-settings check), and the run through the core's evaluation service followed by its
 * report: results.json, summary.csv, comparisons.csv and report.md in the output folder, the
 * summary (or --json) on stdout.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_GUIDING_PROMPT } from '../agents/actor-prompt.ts';
import { stringifyWithoutSecrets } from '../agents/trajectory-io.ts';
import { codeVersion } from '../common/code-version.ts';
import { scrubText } from '../common/secrets.ts';
import { startOrResumeEvaluation } from '../eval/evaluation-service.ts';
import { evaluationEventProblem, loadEvaluationSessions, loadEvaluationState } from '../eval/evaluation-store.ts';
import type { EvaluatedPolicy, EvaluationConfig, EvaluationState, TaskSet } from '../eval/interface.ts';
import { buildReport } from '../eval/report.ts';
import { comparisonsToCsv, reportToCsv } from '../eval/report-csv.ts';
import { reportToMarkdown, summaryTable } from '../eval/report-formats.ts';
import { EVALUATION_DEFAULTS } from '../eval/run-defaults.ts';
import { evaluationOverlap, vocabularyMarkdown, type TaskSetOverlap } from '../eval/vocabulary-overlap.ts';
import type { LlmSettings } from '../llm/interface.ts';
import { exportedModel } from '../llm/model-label.ts';
import { loadTokenCounter } from '../llm/token-count.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import type { Store } from '../store/interface.ts';
import { sessionDefaults } from '../ttl/run-defaults.ts';
import { evaluateSession } from '../ttl/session-evaluator.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../web/texts.ts';
import { exitCode, listenForInterrupt } from './interrupt.ts';
import { costText, knownCostUsd, providerNotes, providerNotesText } from './llm-options.ts';
import { chatModelsFromFlags } from './models.ts';
import { changedSettingsCheck, resumeCheck, settingsChanges, withChangedSettings, type runSettingsNow } from './resume-check.ts';
import { vocabulariesFor } from './stories-overlap.ts';
import { workerPool, type CliTask } from './tasks.ts';
import { UsageError } from './usage-error.ts';

/** A new evaluation's settings; every one left out takes its default (`EVALUATION_DEFAULTS`, K
 * and S of the tasks' kind — `web`: every task a web task —, the story or web guide, the baseline
 * naive when compared, else the first policy). */
export interface NewEvaluation {
  policies: EvaluatedPolicy[];
  taskSets: TaskSet[];
  web: boolean;
  repeats?: number;
  episodes?: number;
  maxSteps?: number;
  initialGuidingPrompt?: string;
  baselinePolicyId?: string;
  bootstrapSeed?: number;
  contrasts?: NonNullable<EvaluationConfig['contrasts']>;
}

/**
 * A new evaluation's config: `n` over the defaults, with the models, concurrency and recorded LLM
 * settings of `settings` / `now`, the meta-agent's `contextWindow` (tokens) and `replyGrammar`.
 */
export function newEvaluationConfig(n: NewEvaluation, settings: LlmSettings, now: ReturnType<typeof runSettingsNow>, contextWindow: number, replyGrammar: { replyGrammar?: boolean }): EvaluationConfig {
  const shape = sessionDefaults(n.web);
  const { policies } = n;
  return {
    policies, taskSets: n.taskSets, repeats: n.repeats ?? EVALUATION_DEFAULTS.repeats, episodes: n.episodes ?? shape.episodes, maxSteps: n.maxSteps ?? shape.maxSteps,
    initialGuidingPrompt: n.initialGuidingPrompt ?? (n.web ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT),
    baselinePolicyId: n.baselinePolicyId ?? (policies.some((p) => p.id === EVALUATION_DEFAULTS.baseline) ? EVALUATION_DEFAULTS.baseline : policies[0]!.id),
    bootstrapSeed: n.bootstrapSeed ?? EVALUATION_DEFAULTS.bootstrapSeed, concurrency: settings.maxConcurrent,
    models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model }, contextWindow,
    ...replyGrammar, llm: now.llm,
    ...(n.contrasts?.length ? { contrasts: n.contrasts } : {}),
  };
}

/** @throws UsageError when the baseline or a contrast's policy is not among the policies */
export function checkEvaluationConfig(config: EvaluationConfig): void {
  if (!config.policies.some((p) => p.id === config.baselinePolicyId)) throw new UsageError(`--baseline ${config.baselinePolicyId} is not among --policies`);
  for (const c of config.contrasts ?? []) for (const id of [c.a, c.b]) if (!config.policies.some((p) => p.id === id)) throw new UsageError(`--contrast ${c.a}:${c.b}: "${id}" is not among --policies (${config.policies.map((p) => p.id).join(', ')})`);
}

/** A stored evaluation about to be resumed: its state as stored, the config it goes on with and the settings changes allowed now. */
export interface ResumedEvaluation {
  previous: EvaluationState;
  config: EvaluationConfig;
  settingsChanges: string[];
}

/**
 * Stored evaluation `id`, checked for a resume: its records intact (else `DamagedRunError` ending
 * with `continueCommand`, unless `fromLastGood`) and its models and settings those of `now` (else
 * refused, unless `allowChanged`: then the change is recorded in the config returned).
 * @throws UsageError when there is no such evaluation or its settings would change unallowed
 */
export async function resumedEvaluation(store: Store, id: string, now: ReturnType<typeof runSettingsNow>, opts: { fromLastGood: boolean; allowChanged: boolean; continueCommand: string; storeDir: string }): Promise<ResumedEvaluation> {
  const previous = await loadEvaluationState(store, id);
  if (!previous) throw new UsageError(`no evaluation "${id}" in ${opts.storeDir}`);
  await resumeCheck(store, id, 'evaluation', evaluationEventProblem, opts.fromLastGood, opts.continueCommand);
  const change = changedSettingsCheck('eval', settingsChanges(previous.config, now, ['actor', 'metaAgent']), opts.allowChanged);
  return { previous, config: withChangedSettings(previous.config, change, now), settingsChanges: change?.changes ?? [] };
}

/** An evaluation to run and report. */
export interface EvaluationRun {
  /** The parsed provider flags (read by `chatModelsFromFlags`). */
  flags: Record<string, unknown>;
  settings: LlmSettings;
  /** Closed once the evaluation is run and its sessions read. */
  store: Store;
  id: string;
  config: EvaluationConfig;
  /** The evaluation's tasks with their story files. */
  tasks: CliTask[];
  resumed?: ResumedEvaluation;
  /** The output folder (already prepared). */
  out: string;
  json: boolean;
  /** The W-AUC difference the repeats-needed estimate is for. */
  powerDelta: number;
  fromLastGood: boolean;
}

/**
 * Run (or resume) the evaluation through the core's service, then write its report files to
 * `r.out` and print the summary table and line (or the --json object) on stdout.
 * @returns the exit code: 0, 130 after Ctrl-C, 1 when a provider fault stopped it
 */
export async function runAndReportEvaluation(r: EvaluationRun): Promise<number> {
  const { settings, store, id, config } = r;
  const meter = new UsageMeter(settings.caps, settings.prices);
  const models = await chatModelsFromFlags(r.flags, settings, meter);
  const pool = workerPool(r.tasks);
  const options = {
    settings, models, countTokens: await loadTokenCounter(), pool, episodes: config.episodes, maxSteps: config.maxSteps,
    initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow,
    // Unfinished sessions are kept in the store and continued from their last finished episode.
    store, fromLastGood: r.fromLastGood,
  };
  const interrupt = listenForInterrupt();
  let state: EvaluationState;
  try {
    // The core stores, saves after every event and resumes (eval/evaluation-service.ts); this is wiring and display.
    state = await startOrResumeEvaluation(store, id, config, {
      signal: interrupt.signal, faultedEpisodesBefore: r.resumed?.previous.faultedEpisodes ?? 0, prices: settings.prices,
      evaluate: (policy, task, repeat, sessionId, signal) => evaluateSession(options, policy, task, sessionId, signal, repeat),
      observers: r.json ? [] : [(event) => {
        if (event.type === 'session_done') process.stderr.write(`[${event.done}/${event.total}] ${event.result.policyId} on ${event.result.taskId} #${event.result.repeat}: W-AUC ${event.result.wAuc.toFixed(3)}  (${costText(knownCostUsd(settings, meter))})\n`);
      }],
    });
  } finally {
    interrupt.release();
    pool.disposeAll();
  }
  await writeEvaluationReport(r, state, meter);
  return exitCode(interrupt.interrupted, state.stopReason === 'provider_error');
}

/** results.json, summary.csv, comparisons.csv and report.md in `r.out`, then the summary on stdout; closes the store. */
async function writeEvaluationReport(r: EvaluationRun, state: EvaluationState, meter: UsageMeter): Promise<void> {
  const { settings, store, id, config } = r;
  const report = buildReport(state, { powerDelta: r.powerDelta });
  const vocabulary = await evaluationVocabulary(config);
  // This invocation's spend; null when a model called has no known price at this provider.
  const costUsd = knownCostUsd(settings, meter);
  const sessions = await loadEvaluationSessions(store, id);
  store.close();
  const settingsChanges = r.resumed?.settingsChanges ?? [];
  const results = {
    format: 'metattl-evaluation-results-1', id, codeVersion: codeVersion(), status: state.status, stopReason: state.stopReason, stopMessage: state.stopMessage,
    completedSessions: state.results.length, plannedSessions: state.totalSessions, faultedEpisodes: state.faultedEpisodes, costUsd, config, report,
    model: exportedModel(config.models), comparisons: report.comparisons, exploratoryComparisons: report.exploratoryComparisons, warnings: report.warnings, ...(vocabulary.length ? { vocabulary } : {}), ...(settingsChanges.length ? { settingsChanges } : {}), ...(report.simulated ? { simulated: report.simulated } : {}), sessions: state.results.map((x) => ({ ...x, session: sessions.get(x.key) ?? null })) };
  await writeFile(join(r.out, 'results.json'), stringifyWithoutSecrets(results));
  await writeFile(join(r.out, 'summary.csv'), scrubText(reportToCsv(report)));
  await writeFile(join(r.out, 'comparisons.csv'), scrubText(comparisonsToCsv(report)));
  await writeFile(join(r.out, 'report.md'), scrubText([reportToMarkdown(report, 'Evaluation report', results.codeVersion), ...vocabularyMarkdown('policy', vocabulary.map((v) => ({ ...v, label: v.policy })))].join('\n')));
  if (r.json) {
    process.stdout.write(JSON.stringify({ id, status: state.status, stopReason: state.stopReason, stopMessage: state.stopMessage, completedSessions: state.results.length, plannedSessions: state.totalSessions, faultedEpisodes: state.faultedEpisodes, costUsd, totalTokens: meter.totalTokens, ...providerNotes(settings, meter), report, comparisons: report.comparisons, warnings: report.warnings }) + '\n');
    if (state.stopReason === 'provider_error') process.stderr.write(`metattl: evaluation stopped: ${state.stopMessage ?? 'provider fault'}\n`);
  } else {
    process.stderr.write(providerNotesText(providerNotes(settings, meter)));
    const why = state.stopReason ? ` (${state.stopReason}${state.stopMessage ? `: ${state.stopMessage}` : ''}; continue with --store DIR --resume ${id})` : '';
    process.stdout.write(`${summaryTable(report)}\n\nevaluation ${id}: ${state.status}${why}; ${state.results.length}/${state.totalSessions} sessions; ${state.faultedEpisodes} faulted episode${state.faultedEpisodes === 1 ? '' : 's'}; ${costText(costUsd)}; wrote results.json, summary.csv, comparisons.csv, report.md to ${r.out}\n`);
  }
}

/**
 * Each evolved policy's (one whose meta-prompt file names the games it was selected on) vocabulary
 * overlap with each story task set (src/eval/vocabulary-overlap.ts's formula: the share of the
 * task set's dictionary words the selection games also have); [] when no policy names its games.
 */
async function evaluationVocabulary(config: EvaluationConfig): Promise<(TaskSetOverlap & { policy: string })[]> {
  const game = (id: string) => id.replace(/:\d+$/, '');
  const sets = config.taskSets.map((s) => ({ name: s.name, games: [...new Set(s.tasks.map((t) => game(t.id)))] }));
  const evolved = config.policies.filter((p) => p.selectedOn.length);
  if (!evolved.length || sets.every((s) => s.games.some((g) => g.startsWith('web:')))) return [];
  const vocabularies = await vocabulariesFor([...sets.flatMap((s) => s.games), ...evolved.flatMap((p) => p.selectedOn.map(game))].filter((g) => !g.startsWith('web:')));
  return evaluationOverlap(config.policies, sets, vocabularies);
}

