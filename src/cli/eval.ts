/**
 * `metattl eval`: compare adaptation policies on task sets with repeats and confidence intervals.
 * Writes `results.json` (config, every session's result and record), `summary.csv` and
 * `report.md` to --out, and prints the summary table. Persisted and resumable with --store DIR
 * and --resume RUN_ID. Same core and numbers as the Evaluate page.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_GUIDING_PROMPT } from '../agents/actor-prompt.ts';
import { stringifyWithoutSecrets } from '../agents/trajectory-io.ts';
import { runEvaluation, type EvaluationCache } from '../eval/evaluation-runner.ts';
import { loadEvaluationSessions, loadEvaluationState, openEvaluationCache, saveEvaluationState } from '../eval/evaluation-store.ts';
import type { EvaluatedPolicy, EvaluationConfig, EvaluationState, TaskSet } from '../eval/interface.ts';
import { buildReport } from '../eval/report.ts';
import { reportToCsv, reportToMarkdown, summaryTable } from '../eval/report-formats.ts';
import { createChatModels } from '../llm/openai-chat-model.ts';
import { contextWindowFor, loadTokenCounter } from '../llm/token-count.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import { MemoryStore } from '../store/memory-store.ts';
import { openNodeStore } from '../store/node-store.ts';
import { evaluateSession } from '../ttl/session-evaluator.ts';
import { LLM_OPTIONS, llmSettingsFromFlags } from './llm-options.ts';
import { policyFromOption, selectedOnFromOption } from './policy-option.ts';
import { parseTasks, workerPool, type CliTask } from './tasks.ts';
import { UsageError } from './usage-error.ts';

const int = (value: string | undefined, name: string, fallback: number): number => {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got ${value}`);
  return n;
};

/** `ID,OOD` → two sets; story:seed parts → one set named "custom". */
async function taskSets(spec: string): Promise<{ sets: TaskSet[]; tasks: CliTask[] }> {
  const named = spec.split(',').map((p) => p.trim()).filter(Boolean);
  const sets: TaskSet[] = [];
  const all: CliTask[] = [];
  const custom = named.filter((p) => !/^(id|ood)$/i.test(p));
  for (const name of named.filter((p) => /^(id|ood)$/i.test(p))) {
    const tasks = await parseTasks(name, '--tasks');
    all.push(...tasks);
    sets.push({ name: name.toUpperCase(), tasks: tasks.map(({ story: _s, ...t }) => t) });
  }
  if (custom.length) {
    const tasks = await parseTasks(custom.join(','), '--tasks');
    all.push(...tasks);
    sets.push({ name: 'custom', tasks: tasks.map(({ story: _s, ...t }) => t) });
  }
  return { sets, tasks: all };
}

export async function evalCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...LLM_OPTIONS,
      policies: { type: 'string', default: 'static,naive' }, tasks: { type: 'string' }, repeats: { type: 'string' }, episodes: { type: 'string' },
      steps: { type: 'string' }, baseline: { type: 'string' }, store: { type: 'string' }, resume: { type: 'string' }, out: { type: 'string' },
      guide: { type: 'string' }, 'bootstrap-seed': { type: 'string' }, json: { type: 'boolean', default: false },
    },
  });
  if (!values.out) throw new UsageError('eval needs --out DIR');
  if (values.resume && !values.store) throw new UsageError('--resume needs --store DIR');
  const settings = llmSettingsFromFlags(values);
  const store = values.store ? await openNodeStore(values.store) : new MemoryStore();
  const previous = values.resume ? await loadEvaluationState(store, values.resume) : undefined;
  if (values.resume && !previous) throw new UsageError(`no evaluation "${values.resume}" in ${values.store}`);
  const taskSpec = values.tasks ?? previous?.config.taskSets.flatMap((s) => s.tasks.map((t) => t.id)).join(',');
  if (!taskSpec) throw new UsageError('eval needs --tasks (ID, OOD, or story:seed,...)');
  const { sets, tasks } = await taskSets(taskSpec);
  const policies: EvaluatedPolicy[] = [];
  for (const name of values.policies.split(',').map((p) => p.trim()).filter(Boolean)) {
    const spec = await policyFromOption(name);
    const id = name.includes('/') || name.includes('.') ? basename(name).replace(/\.\w+$/, '') : name;
    policies.push({ id, spec, selectedOn: await selectedOnFromOption(name) });
  }
  const config: EvaluationConfig = previous?.config ?? {
    policies, taskSets: sets, repeats: int(values.repeats, 'repeats', 3), episodes: int(values.episodes, 'episodes', 6), maxSteps: int(values.steps, 'steps', 50),
    initialGuidingPrompt: values.guide ?? DEFAULT_GUIDING_PROMPT,
    baselinePolicyId: values.baseline ?? (policies.some((p) => p.id === 'naive') ? 'naive' : policies[0]!.id),
    bootstrapSeed: Number(values['bootstrap-seed'] ?? 0), concurrency: settings.maxConcurrent,
    models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model }, contextWindow: contextWindowFor(settings.roles.metaAgent.model),
  };
  if (!config.policies.some((p) => p.id === config.baselinePolicyId)) throw new UsageError(`--baseline ${config.baselinePolicyId} is not among --policies`);
  const id = previous?.id ?? randomUUID();
  const meter = new UsageMeter(settings.caps, settings.prices);
  const models = createChatModels(settings, meter);
  const pool = workerPool(tasks);
  const options = {
    settings, models, countTokens: await loadTokenCounter(), pool, episodes: config.episodes, maxSteps: config.maxSteps,
    initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow,
  };
  const fresh = (): EvaluationState => ({
    format: 'metattl-evaluation-1', id, config, status: 'running', stopReason: null, stopMessage: null, results: [],
    totalSessions: 0, startedAt: new Date().toISOString(), finishedAt: null,
  });
  const cache: EvaluationCache = await openEvaluationCache(store, id, fresh);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  let state: EvaluationState;
  try {
    state = await runEvaluation(id, config, {
      cache, signal: controller.signal,
      evaluate: (policy, task, _repeat, sessionId, signal) => evaluateSession(options, policy, task, sessionId, signal),
      onEvent: async (event, st) => {
        await saveEvaluationState(store, st);
        if (!values.json && event.type === 'session_done') process.stderr.write(`[${event.done}/${event.total}] ${event.result.policyId} on ${event.result.taskId} #${event.result.repeat}: W-AUC ${event.result.wAuc.toFixed(3)}  ($${meter.totalUsd.toFixed(4)})\n`);
      },
    });
  } finally {
    process.off('SIGINT', onSignal);
    pool.disposeAll();
  }
  const report = buildReport(state);
  const sessions = await loadEvaluationSessions(store, id);
  store.close();
  await mkdir(values.out, { recursive: true });
  const results = { id, status: state.status, stopReason: state.stopReason, config, report, sessions: state.results.map((r) => ({ ...r, session: sessions.get(r.key) ?? null })) };
  await writeFile(join(values.out, 'results.json'), stringifyWithoutSecrets(results));
  await writeFile(join(values.out, 'summary.csv'), reportToCsv(report));
  await writeFile(join(values.out, 'report.md'), reportToMarkdown(report));
  if (values.json) process.stdout.write(JSON.stringify({ id, status: state.status, report }) + '\n');
  else process.stdout.write(`${summaryTable(report)}\n\nevaluation ${id}: ${state.status}; wrote results.json, summary.csv, report.md to ${values.out}\n`);
  return 0;
}
