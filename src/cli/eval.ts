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
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { EvaluatedPolicy, EvaluationConfig, TaskSet } from '../eval/interface.ts';
import { replyGrammarOf } from './models.ts';
import { MemoryStore } from '../store/memory-store.ts';
import { openNodeStore } from '../store/node-store.ts';
import { runSettingsNow } from './resume-check.ts';
import { contextWindowFromFlags, llmSettingsFromFlags } from './llm-options.ts';
import { policyFromOption, rawMetaPromptFromFile, selectedOnFromOption } from './policy-option.ts';
import { contrastOption, intOption, LIMITS, powerDeltaOption } from './numbers.ts';
import { prepareOutputDir } from './output-paths.ts';
import { allWeb, parseTasks, type CliTask } from './tasks.ts';
import { WEB_TASK_SETS } from '../web/tasks/catalog.ts';
import { EVALUATION_DEFAULTS } from '../eval/run-defaults.ts';
import { sessionDefaults } from '../ttl/run-defaults.ts';
import { UsageError } from './usage-error.ts';
import { checkEvaluationConfig, newEvaluationConfig, resumedEvaluation, runAndReportEvaluation } from './eval-run.ts';

/** `ID,OOD` (or the web sets WEB-ID-train … WEB-OOD) → one set each; story:seed and web task parts → one set named "custom". */
export async function taskSets(spec: string): Promise<{ sets: TaskSet[]; tasks: CliTask[] }> {
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

export async function evalCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(EVAL, argv);
  if (!values.out) throw new UsageError('eval needs --out DIR');
  const contrasts = (values.contrast ?? []).map(contrastOption);
  const powerDelta = powerDeltaOption(values['power-delta']);
  await prepareOutputDir(values.out, '--out');
  if (values.resume && !values.store) throw new UsageError('--resume needs --store DIR');
  const settings = llmSettingsFromFlags(values);
  const store = values.store ? await openNodeStore(values.store) : new MemoryStore();
  // A resume runs with the flags' models and settings: refused when they differ from the run's, unless allowed (then recorded).
  const now = runSettingsNow(settings, replyGrammarOf(values).replyGrammar);
  const resumed = values.resume ? await resumedEvaluation(store, values.resume, now, {
    fromLastGood: values['from-last-good'], allowChanged: values['allow-changed-settings'], continueCommand: `metattl eval --store ${values.store} --resume ${values.resume} --out ${values.out} --from-last-good`, storeDir: values.store!,
  }) : undefined;
  const previous = resumed?.previous;
  const taskSpec = values.tasks ?? previous?.config.taskSets.flatMap((s) => s.tasks.map((t) => t.id)).join(',');
  if (!taskSpec) throw new UsageError('eval needs --tasks (ID, OOD, or story:seed,...)');
  const { sets, tasks } = await taskSets(taskSpec);
  const web = allWeb(tasks);
  const policies = await policiesFromFlags(values.policies, values['raw-meta-prompt'] ?? []);
  const config: EvaluationConfig = resumed ? resumed.config : newEvaluationConfig({
    policies, taskSets: sets, web, repeats: intOption(values.repeats, 'repeats', EVALUATION_DEFAULTS.repeats, 1, LIMITS.repeats), episodes: intOption(values.episodes, 'episodes', sessionDefaults(web).episodes, 1, LIMITS.episodes), maxSteps: intOption(values.steps, 'steps', sessionDefaults(web).maxSteps, 1, LIMITS.steps),
    ...(values.guide !== undefined ? { initialGuidingPrompt: values.guide } : {}), ...(values.baseline !== undefined ? { baselinePolicyId: values.baseline } : {}),
    bootstrapSeed: intOption(values['bootstrap-seed'], 'bootstrap-seed', EVALUATION_DEFAULTS.bootstrapSeed, 0, 0xffffffff), contrasts,
  }, settings, now, await contextWindowFromFlags(values, settings), replyGrammarOf(values));
  checkEvaluationConfig(config);
  if (!previous && values.id && values.store && (await store.getRun(values.id))) throw new UsageError(`--id ${values.id}: a run with this id is already in ${values.store}; use --resume ${values.id} to continue it, or another id`);
  return runAndReportEvaluation({
    flags: values, settings, store, id: previous?.id ?? values.id ?? randomUUID(), config, tasks, ...(resumed ? { resumed } : {}),
    out: values.out, json: values.json, powerDelta, fromLastGood: values['from-last-good'],
  });
}

/**
 * The evaluated policies of `--policies` (names or meta-prompt files, in order) then of each
 * `--raw-meta-prompt` file (its text the whole system message; its id the file's name).
 * @throws UsageError when none is given, one is listed twice, or a raw file's id is taken
 */
export async function policiesFromFlags(policiesFlag: string, rawFiles: readonly string[]): Promise<EvaluatedPolicy[]> {
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
