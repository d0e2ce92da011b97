/**
 * The CLI's executor of experiment steps: each evolution step runs as `metattl evolve` does and
 * each evaluation step as `metattl eval` does — the same config, resume and run-and-report
 * functions (evolve-config.ts, evolve-run.ts, eval-run.ts), called directly with the step's
 * settings and the user's provider flags — in this process, with their own store under the
 * experiment's folder (`<store>/experiments/<name>/<step>/`), so each is resumed from its store.
 * What they print on stdout goes to stderr (the experiment's stdout is its own); their progress
 * lines stay on stderr. Each evaluation carries the experiment's declared contrasts among its
 * arms, so a step's results.json has the same declared `comparisons[]` as the experiment's report
 * (Holm within the step there, over the whole report in the report).
 * A recall-probe step runs as `metattl probe recall` does (`runAndReportRecall`) on the step's
 * games, its walkthroughs written to the step's folder (the spec's `recallProbe.walkthroughs`
 * first, then Jericho's games.json by name), its recall.json turned into the step's outcome (src/experiment/recall-step.ts
 * `recallOutcomeOf`); a rerun asks again (it keeps no partial state).
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { runAndReportRecall } from './probe-recall.ts';
import { UsageError } from './usage-error.ts';
import { scrubText } from '../common/secrets.ts';
import { defaultGamesJson, readJerichoGames } from './stories-overlap.ts';
import { recallOutcomeOf } from '../experiment/recall-step.ts';
import type { RecallItem, RecallGameResult, RecallProbeOptions } from '../eval/recall-probe.ts';
import { policiesFromFlags, taskSets } from './eval.ts';
import { checkEvaluationConfig, newEvaluationConfig, resumedEvaluation, runAndReportEvaluation } from './eval-run.ts';
import { budgetLine, newEvolutionConfig, refuseSmallBudget, resumedEvolution } from './evolve-config.ts';
import { runAndReportEvolution } from './evolve-run.ts';
import { contextWindowFromFlags, llmSettingsFromFlags } from './llm-options.ts';
import { replyGrammarOf } from './models.ts';
import { prepareOutputDir } from './output-paths.ts';
import { runSettingsNow } from './resume-check.ts';
import { allWeb, parseTasks } from './tasks.ts';
import { EVALUATION_DEFAULTS } from '../eval/run-defaults.ts';
import { EVOLUTION_DEFAULTS } from '../evolve/run-defaults.ts';
import type { Store } from '../store/interface.ts';
import { loadEvolutionState } from '../evolve/evolution-store.ts';
import { evolutionOutcomeOf } from '../experiment/outcomes.ts';
import { openNodeStore } from '../store/node-store.ts';
import { replicateConcurrency, type ExperimentExecutor, type StepResult } from '../experiment/experiment-runner.ts';
import type { EvaluationOutcome, EvaluationStep, EvolutionOutcome, EvolutionStep, ExperimentPlan, ModelSet, RecallOutcome, RecallProbeStep, StepRecord } from '../experiment/interface.ts';
import { matchedEditSizes, selectedOnOf, stepContrasts } from '../experiment/plan.ts';
import type { SessionWAuc } from '../experiment/selection.ts';

let redirected = 0;
let originalWrite: typeof process.stdout.write | null = null;
/** Run `fn` with process.stdout's writes sent to stderr instead (counted, so replicates running
 * side by side restore stdout only when the last of them ends). */
async function stdoutToStderr<T>(fn: () => Promise<T>): Promise<T> {
  if (redirected++ === 0) {
    originalWrite = process.stdout.write;
    process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
  }
  try {
    return await fn();
  } finally {
    if (--redirected === 0) process.stdout.write = originalWrite!;
  }
}

/** Whether `storeDir` already holds run `id`. */
async function hasRun(storeDir: string, id: string): Promise<boolean> {
  if (!existsSync(storeDir)) return false;
  const store = await openNodeStore(storeDir);
  try {
    return (await store.getRun(id)) !== undefined;
  } finally {
    store.close();
  }
}

/** The provider flags a step runs with, parsed (`LLM_OPTIONS` names: `actor-model`, `concurrency`, …). */
export type ProviderFlags = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** The user's provider flags with a model set's models (a role it leaves out keeps the user's flag). */
function withModels(flags: ProviderFlags, set: ModelSet | undefined): ProviderFlags {
  return {
    ...flags, ...(set?.actor ? { 'actor-model': set.actor } : {}), ...(set?.metaAgent ? { 'meta-model': set.metaAgent } : {}), ...(set?.proposer ? { 'proposer-model': set.proposer } : {}),
  };
}

/** What a step runs with: its flags, the LLM settings they give and the settings a resume compares. */
function stepSettings(flags: ProviderFlags) {
  const settings = llmSettingsFromFlags(flags);
  return { flags, settings, now: runSettingsNow(settings, replyGrammarOf(flags).replyGrammar) };
}

/** Close `store` when `fn` throws (a run that starts closes it itself). */
async function closingOnError<T>(store: Store, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    store.close();
    throw error;
  }
}

/** The stored evolution `id` under `storeDir` as the step's outcome (experiment/outcomes.ts), or null when it is not there. */
async function evolutionOutcome(storeDir: string, id: string): Promise<EvolutionOutcome | null> {
  if (!existsSync(storeDir)) return null;
  const store = await openNodeStore(storeDir);
  const state = await loadEvolutionState(store, id).finally(() => store.close());
  return state ? evolutionOutcomeOf(state) : null;
}

/** An executor for `plan` under `dir`; `provider` are the user's provider flags (parsed), passed to
 * every step, and `allowChanged` lets a resumed step go on with changed settings (recorded).
 * `concurrency` (the provider's concurrent calls, `--concurrency`) is shared by the replicates
 * of an evolution that run side by side: min(replicates, concurrency) at once, each with
 * ⌊concurrency ÷ that⌋ (`replicateConcurrency`). */
export function cliExecutor(plan: ExperimentPlan, dir: string, provider: { flags: ProviderFlags; allowChanged: boolean }, onSave: (text: string) => Promise<void>, concurrency = 1): ExperimentExecutor {
  const mostReplicates = Math.max(1, ...plan.steps.map((s) => (s.kind === 'evolution' ? s.replicates : 1)));
  const share = replicateConcurrency(concurrency, mostReplicates);
  return {
    now: () => new Date().toISOString(),
    save: (state) => onSave(JSON.stringify(state, null, 1)),
    parallelEvolutions: share.parallel,
    async evolution(step: EvolutionStep, steps: Readonly<Record<string, StepRecord>>): Promise<StepResult<EvolutionOutcome>> {
      // A replicated evolution's runs side by side share the concurrency.
      const flags = withModels(step.replicates > 1 ? { ...provider.flags, concurrency: String(share.each) } : provider.flags, plan.spec.models[step.modelSet]);
      const exitCode = await stdoutToStderr(() => runEvolutionStep(plan, step, steps, dir, stepSettings(flags), provider.allowChanged));
      return { exitCode, outcome: await evolutionOutcome(join(dir, step.id, 'store'), step.id) };
    },
    async evaluation(step: EvaluationStep, evolved: Record<string, EvolutionOutcome>): Promise<StepResult<EvaluationOutcome>> {
      const outDir = join(dir, step.id, 'out');
      const flags = withModels(provider.flags, plan.spec.models[step.modelSet]);
      const exitCode = await stdoutToStderr(() => runEvaluationStep(plan, step, evolved, dir, stepSettings(flags), provider.allowChanged));
      const results = await readFile(join(outDir, 'results.json'), 'utf8').then((t) => JSON.parse(t) as { id: string; status: string; report: EvaluationOutcome['report']; sessions?: SessionWAuc[] }, () => null);
      const sessions = (results?.sessions ?? []).map((r) => ({ policyId: r.policyId, taskId: r.taskId, repeat: r.repeat, wAuc: r.wAuc }));
      return { exitCode, outcome: results ? { runId: results.id, status: results.status, report: results.report, sessions } : null };
    },
    async recallProbe(step: RecallProbeStep): Promise<StepResult<RecallOutcome>> {
      const stepDir = join(dir, step.id);
      await mkdir(stepDir, { recursive: true });
      const { source, walkthroughs } = await recallWalkthroughs(step, plan.spec.recallProbe?.walkthroughs ?? {}, stepDir);
      const flags = withModels(provider.flags, plan.spec.models[step.modelSet]);
      const run = { names: step.games, options: step.options, walkthroughs, flags, out: join(stepDir, 'out'), json: false };
      // A provider fault or a cap stops the step (resumable: it is asked again), as a stopped eval does.
      const exitCode = await stdoutToStderr(async () => {
        await prepareOutputDir(run.out, '--out');
        return runAndReportRecall(run);
      }).catch((error: unknown) => {
        if (error instanceof UsageError) throw error;
        process.stderr.write(`${step.id}: ${scrubText(error instanceof Error ? error.message : String(error))}\n`);
        return 1;
      });
      const recall = await readFile(join(stepDir, 'out', 'recall.json'), 'utf8').then((t) => JSON.parse(t) as { model: string; options: RecallProbeOptions; games: RecallGameResult[]; pooled: RecallGameResult | null; items: RecallItem[] }, () => null);
      return { exitCode, outcome: exitCode === 0 && recall ? recallOutcomeOf(recall, recall.model, source) : null };
    },
  };
}

/**
 * The walkthroughs of a recall-probe step (game → commands), also kept as a games.json-shaped file
 * in `stepDir` (walkthroughs.json, what `probe recall --walkthroughs` reads): each game's from
 * `inline` (the spec's), else from Jericho's games.json by name when that file exists. `source`
 * says where they came from, for the report.
 * @throws UsageError naming every game found in neither
 */
async function recallWalkthroughs(step: RecallProbeStep, inline: Readonly<Record<string, string[]>>, stepDir: string): Promise<{ source: string; walkthroughs: Map<string, string[]> }> {
  const needJericho = step.games.some((g) => !inline[g]);
  const jericho = needJericho && existsSync(defaultGamesJson()) ? await readJerichoGames(defaultGamesJson()) : [];
  const games = step.games.flatMap((g) => {
    const walkthrough = inline[g] ?? jericho.find((x) => x.name === g)?.walkthrough;
    return walkthrough ? [{ name: g, walkthrough }] : [];
  });
  const missing = step.games.filter((g) => !games.some((x) => x.name === g));
  if (missing.length) throw new UsageError(`${step.id}: no walkthrough for ${missing.join(', ')}: give it in the experiment's recallProbe.walkthroughs (game → commands)${needJericho ? `, or name a Jericho game (${defaultGamesJson()} ${jericho.length ? 'has no such game' : 'is missing'})` : ''}`);
  const fromSpec = step.games.filter((g) => inline[g]);
  const fromJericho = step.games.filter((g) => !inline[g] && games.some((x) => x.name === g));
  const file = join(stepDir, 'walkthroughs.json');
  await writeFile(file, JSON.stringify(games));
  const source = [fromSpec.length ? `the experiment's recallProbe.walkthroughs (${fromSpec.join(', ')})` : '', fromJericho.length ? `Jericho's games.json (${fromJericho.join(', ')})` : ''].filter(Boolean).join('; ') || 'none found';
  return { source, walkthroughs: new Map(games.map((g) => [g.name, g.walkthrough])) };
}

/**
 * One evolution step as `metattl evolve` runs it (the same config, resume and run-and-report
 * functions), in its own store `<dir>/<step>/store` under the step's id: a new run when the store
 * does not hold it yet, else a resume. @returns the exit code
 */
async function runEvolutionStep(plan: ExperimentPlan, step: EvolutionStep, steps: Readonly<Record<string, StepRecord>>, dir: string, run: ReturnType<typeof stepSettings>, allowChanged: boolean): Promise<number> {
  const { spec } = plan;
  const e = step.evolution;
  const storeDir = join(dir, step.id, 'store');
  const resume = await hasRun(storeDir, step.id);
  // A matched control draws its edit sizes from the LLM arm's recorded edits (a resume keeps its own).
  const matched = resume ? null : matchedEditSizes(plan, step, steps);
  const train = await parseTasks(step.train.join(','), '--train');
  const val = await parseTasks(step.val.join(','), '--val');
  const store = await openNodeStore(storeDir);
  const { config, previous } = await closingOnError(store, async () => {
    const resumed = resume ? await resumedEvolution(store, storeDir, step.id, run.now, { fromLastGood: false, allowChanged }) : undefined;
    const config = resumed?.config ?? newEvolutionConfig({
      train, val, trainRepeats: e.trainRepeats, valRepeats: e.valRepeats, episodes: spec.episodes, maxSteps: spec.steps,
      budgetMetricCalls: e.budget, minibatchSize: e.minibatch, proposer: e.proposer, rngSeed: e.rngSeed, optimizer: e.optimizer ?? EVOLUTION_DEFAULTS.optimizer,
      ...(e.proposerInput === 'no-trace' ? { proposerInput: e.proposerInput } : {}), ...(matched ? { editSizes: { sizes: [...matched.sizes], source: matched.source } } : {}),
    }, run.settings, run.now, await contextWindowFromFlags(run.flags, run.settings), replyGrammarOf(run.flags));
    refuseSmallBudget(config);
    return { config, previous: resumed?.previous };
  });
  if (!previous) process.stderr.write(budgetLine(config));
  return runAndReportEvolution({
    values: run.flags, settings: run.settings, store, storeDir, id: step.id, config, tasks: [...train, ...val], ...(previous ? { previous } : {}), json: false, fromLastGood: false,
  });
}

/** The policy files of an evaluation step's arms in `stepDir` (an evolved arm's best strategy, a
 * copied meta-prompt file or raw file, each under the arm's id) and the names of built-in policies. */
async function armPolicies(plan: ExperimentPlan, step: EvaluationStep, evolved: Record<string, EvolutionOutcome>, stepDir: string): Promise<{ policies: string[]; raw: string[] }> {
  const policies: string[] = [];
  const raw: string[] = [];
  for (const arm of step.arms) {
    if (arm.evolutionStep) {
      // The evaluation's policy id is the file's name: the arm's id.
      const outcome = evolved[arm.evolutionStep]!;
      const file = join(stepDir, `${arm.id}.json`);
      await writeFile(file, JSON.stringify({ name: `${arm.id} (${outcome.bestCandidateId} of ${arm.evolutionStep})`, strategy: outcome.bestStrategy, selectedOn: selectedOnOf(plan, arm.evolutionStep) }));
      policies.push(file);
    } else if (arm.raw) {
      // The arm's file, under the arm's id, sent as the meta-agent's whole system message.
      const file = join(stepDir, `${arm.id}${extname(arm.policy!) || '.txt'}`);
      await copyFile(arm.policy!, file);
      raw.push(file);
    } else if (arm.policy!.includes('/') || arm.policy!.includes('.')) {
      const file = join(stepDir, `${arm.id}${extname(arm.policy!)}`);
      await copyFile(arm.policy!, file);
      policies.push(file);
    } else policies.push(arm.policy!);
  }
  return { policies, raw };
}

/**
 * One evaluation step as `metattl eval` runs it (the same config, resume and run-and-report
 * functions): its store `<dir>/<step>/store`, its report in `<dir>/<step>/out`, the experiment's
 * declared contrasts among its arms. @returns the exit code
 */
async function runEvaluationStep(plan: ExperimentPlan, step: EvaluationStep, evolved: Record<string, EvolutionOutcome>, dir: string, run: ReturnType<typeof stepSettings>, allowChanged: boolean): Promise<number> {
  const { spec } = plan;
  const stepDir = join(dir, step.id);
  const storeDir = join(stepDir, 'store');
  const outDir = join(stepDir, 'out');
  await mkdir(stepDir, { recursive: true });
  const arms = await armPolicies(plan, step, evolved, stepDir);
  await prepareOutputDir(outDir, '--out');
  const resume = await hasRun(storeDir, step.id);
  const store = await openNodeStore(storeDir);
  const { config, resumed, tasks } = await closingOnError(store, async () => {
    const resumed = resume ? await resumedEvaluation(store, step.id, run.now, {
      fromLastGood: false, allowChanged, storeDir, continueCommand: `metattl eval --store ${storeDir} --resume ${step.id} --out ${outDir} --from-last-good`,
    }) : undefined;
    const { sets, tasks } = await taskSets(step.tasks.join(','));
    const policies = await policiesFromFlags(arms.policies.join(','), arms.raw);
    const config = resumed?.config ?? newEvaluationConfig({
      policies, taskSets: sets, web: allWeb(tasks), repeats: step.repeats, episodes: spec.episodes, maxSteps: spec.steps, baselinePolicyId: step.baseline,
      bootstrapSeed: spec.bootstrapSeed, contrasts: stepContrasts(plan, step),
    }, run.settings, run.now, await contextWindowFromFlags(run.flags, run.settings), replyGrammarOf(run.flags));
    checkEvaluationConfig(config);
    return { config, resumed, tasks };
  });
  return runAndReportEvaluation({
    flags: run.flags, settings: run.settings, store, id: step.id, config, tasks, ...(resumed ? { resumed } : {}),
    out: outDir, json: false, powerDelta: EVALUATION_DEFAULTS.powerDelta, fromLastGood: false,
  });
}
