/**
 * `metattl eval`: compare adaptation policies on task sets with repeats and confidence intervals.
 * Writes `results.json` (config, every session's result and record, the report with its
 * `comparisons[]` and `warnings[]`, also at the top level), `summary.csv`, `comparisons.csv` and
 * `report.md` to --out (`--contrast A:B` adds a declared contrast a − b beside each policy against
 * the baseline; `--power-delta X` names the Δ the repeats-needed estimate is for, default 0.05;
 * `--raw-meta-prompt FILE` adds a policy whose meta-agent system message is the file's text byte for
 * byte, recorded as `spec.raw: true` in results.json's config), and prints the summary table. Persisted and resumable with --store DIR
 * and --resume RUN_ID. Same core and numbers as the Evaluate page.
 */
import { EVAL } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { scrubText } from '../common/secrets.ts';
import { codeVersion } from '../common/code-version.ts';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DEFAULT_GUIDING_PROMPT } from '../agents/actor-prompt.ts';
import { stringifyWithoutSecrets } from '../agents/trajectory-io.ts';
import { startOrResumeEvaluation } from '../eval/evaluation-service.ts';
import { evaluationEventProblem, loadEvaluationSessions, loadEvaluationState } from '../eval/evaluation-store.ts';
import { changedSettingsCheck, resumeCheck, runSettingsNow, settingsChanges as changesOf, withChangedSettings } from './resume-check.ts';
import type { EvaluatedPolicy, EvaluationConfig, EvaluationState, TaskSet } from '../eval/interface.ts';
import { buildReport } from '../eval/report.ts';
import { comparisonsToCsv, reportToCsv } from '../eval/report-csv.ts';
import { reportToMarkdown, summaryTable } from '../eval/report-formats.ts';
import { chatModelsFromFlags, replyGrammarOf } from './models.ts';
import { loadTokenCounter } from '../llm/token-count.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import { MemoryStore } from '../store/memory-store.ts';
import { openNodeStore } from '../store/node-store.ts';
import { evaluateSession } from '../ttl/session-evaluator.ts';
import { contextWindowFromFlags, costText, knownCostUsd, llmSettingsFromFlags, providerNotes, providerNotesText } from './llm-options.ts';
import { policyFromOption, rawMetaPromptFromFile, selectedOnFromOption } from './policy-option.ts';
import { contrastOption, intOption, LIMITS, powerDeltaOption } from './numbers.ts';
import { prepareOutputDir } from './output-paths.ts';
import { vocabulariesFor } from './stories-overlap.ts';
import { evaluationOverlap, vocabularyMarkdown, type TaskSetOverlap } from '../eval/vocabulary-overlap.ts';
import { allWeb, parseTasks, workerPool, type CliTask } from './tasks.ts';
import { WEB_TASK_SETS } from '../web/tasks/catalog.ts';
import { EVALUATION_DEFAULTS } from '../eval/run-defaults.ts';
import { sessionDefaults } from '../ttl/run-defaults.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../web/texts.ts';
import { exitCode, listenForInterrupt } from './interrupt.ts';
import { UsageError } from './usage-error.ts';
import { exportedModel } from '../llm/model-label.ts';

/** `ID,OOD` (or the web sets WEB-ID-train … WEB-OOD) → one set each; story:seed and web task parts → one set named "custom". */
async function taskSets(spec: string): Promise<{ sets: TaskSet[]; tasks: CliTask[] }> {
  const named = spec.split(',').map((p) => p.trim()).filter(Boolean);
  if (named.length === 0) throw new UsageError('--tasks needs ID, OOD or story:seed,...');
  const sets: TaskSet[] = [];
  const all: CliTask[] = [];
  const setName = (p: string) => (/^(id|ood)$/i.test(p) ? p.toUpperCase() : WEB_TASK_SETS.find((n) => n.toLowerCase() === p.toLowerCase()));
  const custom = named.filter((p) => !setName(p));
  for (const name of named.filter((p) => setName(p))) {
    const tasks = await parseTasks(name, '--tasks');
    all.push(...tasks);
    sets.push({ name: setName(name)!, tasks: tasks.map(({ story: _s, ...t }) => t) });
  }
  if (custom.length) {
    const tasks = await parseTasks(custom.join(','), '--tasks');
    all.push(...tasks);
    sets.push({ name: 'custom', tasks: tasks.map(({ story: _s, ...t }) => t) });
  }
  return { sets, tasks: all };
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

export async function evalCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(EVAL, argv);
  if (!values.out) throw new UsageError('eval needs --out DIR');
  const contrasts = (values.contrast ?? []).map(contrastOption);
  const powerDelta = powerDeltaOption(values['power-delta']);
  await prepareOutputDir(values.out, '--out');
  if (values.resume && !values.store) throw new UsageError('--resume needs --store DIR');
  const settings = llmSettingsFromFlags(values);
  const store = values.store ? await openNodeStore(values.store) : new MemoryStore();
  const previous = values.resume ? await loadEvaluationState(store, values.resume) : undefined;
  if (values.resume && !previous) throw new UsageError(`no evaluation "${values.resume}" in ${values.store}`);
  if (values.resume) await resumeCheck(store, values.resume, 'evaluation', evaluationEventProblem, values['from-last-good'], `metattl eval --store ${values.store} --resume ${values.resume} --out ${values.out} --from-last-good`);
  // A resume runs with the flags' models and settings: refused when they differ from the run's, unless allowed (then recorded).
  const now = runSettingsNow(settings, replyGrammarOf(values).replyGrammar);
  const change = previous ? changedSettingsCheck('eval', changesOf(previous.config, now, ['actor', 'metaAgent']), values['allow-changed-settings']) : null;
  const settingsChanges = change?.changes ?? [];
  const taskSpec = values.tasks ?? previous?.config.taskSets.flatMap((s) => s.tasks.map((t) => t.id)).join(',');
  if (!taskSpec) throw new UsageError('eval needs --tasks (ID, OOD, or story:seed,...)');
  const { sets, tasks } = await taskSets(taskSpec);
  const web = allWeb(tasks);
  const policies = await policiesFromFlags(values.policies, values['raw-meta-prompt'] ?? []);
  const config: EvaluationConfig = previous ? withChangedSettings(previous.config, change, now) : {
    policies, taskSets: sets, repeats: intOption(values.repeats, 'repeats', EVALUATION_DEFAULTS.repeats, 1, LIMITS.repeats), episodes: intOption(values.episodes, 'episodes', sessionDefaults(web).episodes, 1, LIMITS.episodes), maxSteps: intOption(values.steps, 'steps', sessionDefaults(web).maxSteps, 1, LIMITS.steps),
    initialGuidingPrompt: values.guide ?? (web ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT),
    baselinePolicyId: values.baseline ?? (policies.some((p) => p.id === EVALUATION_DEFAULTS.baseline) ? EVALUATION_DEFAULTS.baseline : policies[0]!.id),
    bootstrapSeed: intOption(values['bootstrap-seed'], 'bootstrap-seed', EVALUATION_DEFAULTS.bootstrapSeed, 0, 0xffffffff), concurrency: settings.maxConcurrent,
    models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model }, contextWindow: await contextWindowFromFlags(values, settings),
    ...replyGrammarOf(values), llm: now.llm,
    ...(contrasts.length ? { contrasts } : {}),
  };
  if (!config.policies.some((p) => p.id === config.baselinePolicyId)) throw new UsageError(`--baseline ${config.baselinePolicyId} is not among --policies`);
  for (const c of config.contrasts ?? []) for (const id of [c.a, c.b]) if (!config.policies.some((p) => p.id === id)) throw new UsageError(`--contrast ${c.a}:${c.b}: "${id}" is not among --policies (${config.policies.map((p) => p.id).join(', ')})`);
  if (!previous && values.id && values.store && (await store.getRun(values.id))) throw new UsageError(`--id ${values.id}: a run with this id is already in ${values.store}; use --resume ${values.id} to continue it, or another id`);
  const id = previous?.id ?? values.id ?? randomUUID();
  const meter = new UsageMeter(settings.caps, settings.prices);
  const models = await chatModelsFromFlags(values, settings, meter);
  const pool = workerPool(tasks);
  const options = {
    settings, models, countTokens: await loadTokenCounter(), pool, episodes: config.episodes, maxSteps: config.maxSteps,
    initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow,
    // Unfinished sessions are kept in the store and continued from their last finished episode.
    store, fromLastGood: values['from-last-good'],
  };
  const interrupt = listenForInterrupt();
  let state: EvaluationState;
  try {
    // The core stores, saves after every event and resumes (eval/evaluation-service.ts); this is wiring and display.
    state = await startOrResumeEvaluation(store, id, config, {
      signal: interrupt.signal, faultedEpisodesBefore: previous?.faultedEpisodes ?? 0, prices: settings.prices,
      evaluate: (policy, task, repeat, sessionId, signal) => evaluateSession(options, policy, task, sessionId, signal, repeat),
      observers: values.json ? [] : [(event) => {
        if (event.type === 'session_done') process.stderr.write(`[${event.done}/${event.total}] ${event.result.policyId} on ${event.result.taskId} #${event.result.repeat}: W-AUC ${event.result.wAuc.toFixed(3)}  (${costText(knownCostUsd(settings, meter))})\n`);
      }],
    });
  } finally {
    interrupt.release();
    pool.disposeAll();
  }
  const report = buildReport(state, { powerDelta });
  const vocabulary = await evaluationVocabulary(config);
  // This invocation's spend; null when a model called has no known price at this provider.
  const costUsd = knownCostUsd(settings, meter);
  const sessions = await loadEvaluationSessions(store, id);
  store.close();
  const results = {
    format: 'metattl-evaluation-results-1', id, codeVersion: codeVersion(), status: state.status, stopReason: state.stopReason, stopMessage: state.stopMessage,
    completedSessions: state.results.length, plannedSessions: state.totalSessions, faultedEpisodes: state.faultedEpisodes ?? 0, costUsd, config, report,
    model: exportedModel(config.models), comparisons: report.comparisons, exploratoryComparisons: report.exploratoryComparisons, warnings: report.warnings, ...(vocabulary.length ? { vocabulary } : {}), ...(settingsChanges.length ? { settingsChanges } : {}), ...(report.simulated ? { simulated: report.simulated } : {}), sessions: state.results.map((r) => ({ ...r, session: sessions.get(r.key) ?? null })) };
  await writeFile(join(values.out, 'results.json'), stringifyWithoutSecrets(results));
  await writeFile(join(values.out, 'summary.csv'), scrubText(reportToCsv(report)));
  await writeFile(join(values.out, 'comparisons.csv'), scrubText(comparisonsToCsv(report)));
  await writeFile(join(values.out, 'report.md'), scrubText([reportToMarkdown(report, 'Evaluation report', results.codeVersion), ...vocabularyMarkdown('policy', vocabulary.map((v) => ({ ...v, label: v.policy })))].join('\n')));
  if (values.json) {
    process.stdout.write(JSON.stringify({ id, status: state.status, stopReason: state.stopReason, stopMessage: state.stopMessage, completedSessions: state.results.length, plannedSessions: state.totalSessions, faultedEpisodes: state.faultedEpisodes ?? 0, costUsd, totalTokens: meter.totalTokens, ...providerNotes(settings, meter), report, comparisons: report.comparisons, warnings: report.warnings }) + '\n');
    if (state.stopReason === 'provider_error') process.stderr.write(`metattl: evaluation stopped: ${state.stopMessage ?? 'provider fault'}\n`);
  } else {
    process.stderr.write(providerNotesText(providerNotes(settings, meter)));
    const why = state.stopReason ? ` (${state.stopReason}${state.stopMessage ? `: ${state.stopMessage}` : ''}; continue with --store DIR --resume ${id})` : '';
    process.stdout.write(`${summaryTable(report)}\n\nevaluation ${id}: ${state.status}${why}; ${state.results.length}/${state.totalSessions} sessions; ${state.faultedEpisodes ?? 0} faulted episode${state.faultedEpisodes === 1 ? '' : 's'}; ${costText(costUsd)}; wrote results.json, summary.csv, comparisons.csv, report.md to ${values.out}\n`);
  }
  return exitCode(interrupt.interrupted, state.stopReason === 'provider_error');
}

/**
 * The evaluated policies of `--policies` (names or meta-prompt files, in order) then of each
 * `--raw-meta-prompt` file (its text the whole system message; its id the file's name).
 * @throws UsageError when none is given, one is listed twice, or a raw file's id is taken
 */
async function policiesFromFlags(policiesFlag: string, rawFiles: readonly string[]): Promise<EvaluatedPolicy[]> {
  const policies: EvaluatedPolicy[] = [];
  const names = policiesFlag.split(',').map((p) => p.trim()).filter(Boolean);
  if (names.length === 0 && rawFiles.length === 0) throw new UsageError('--policies needs at least one policy');
  if (new Set(names).size !== names.length) throw new UsageError(`--policies lists a policy twice: ${policiesFlag}`);
  for (const name of names) {
    const spec = await policyFromOption(name);
    const id = name.includes('/') || name.includes('.') ? basename(name).replace(/\.\w+$/, '') : name;
    // A meta-prompt file's own name ("Evolved c1 (run …)") is the policy's name for people; the id stays the file's.
    const named = spec.kind === 'meta' && spec.name !== id && spec.name !== basename(name) ? { name: spec.name } : {};
    policies.push({ id, ...named, spec, selectedOn: await selectedOnFromOption(name) });
  }
  // Raw meta-prompts: the file's text is the whole system message; the id is the file's name.
  for (const file of rawFiles) {
    const spec = await rawMetaPromptFromFile(file);
    const id = basename(file).replace(/\.\w+$/, '');
    if (policies.some((p) => p.id === id)) throw new UsageError(`--raw-meta-prompt ${file}: a policy "${id}" is already listed (rename the file)`);
    policies.push({ id, name: `${id} (raw)`, spec, selectedOn: [] });
  }
  return policies;
}
