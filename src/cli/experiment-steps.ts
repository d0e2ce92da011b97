/**
 * The CLI's executor of experiment steps: each evolution step is `metattl evolve` and each
 * evaluation step `metattl eval`, run in this process with their own store under the experiment's
 * folder (`<store>/experiments/<name>/<step>/`), so each is resumed by its own --resume. Their
 * stdout goes to stderr (the experiment's stdout is its own); their progress lines stay on stderr.
 * Each eval is given the experiment's declared contrasts (`--contrast A:B`), so a step's results.json
 * carries the same declared `comparisons[]` as the experiment's report (Holm within the step there,
 * over the whole report in the report). A recall-probe step is `metattl probe recall` on the step's
 * games, its walkthroughs written to the step's folder (the spec's `recallProbe.walkthroughs`
 * first, then Jericho's games.json by name), its recall.json turned into the step's outcome
 * (src/experiment/recall-step.ts `recallOutcomeOf`); a rerun asks again (it keeps no partial state).
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { evalCommand } from './eval.ts';
import { evolveCommand } from './evolve.ts';
import { probeRecallCommand } from './probe-recall.ts';
import { UsageError } from './usage-error.ts';
import { scrubText } from '../common/secrets.ts';
import { defaultGamesJson, readJerichoGames } from './stories-overlap.ts';
import { recallOutcomeOf } from '../experiment/recall-step.ts';
import type { RecallItem, RecallGameResult, RecallProbeOptions } from '../eval/recall-probe.ts';
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

/** The model flags of a model set (a role it leaves out keeps the user's flag). */
function modelArgs(set: ModelSet | undefined): string[] {
  const out: string[] = [];
  if (set?.actor) out.push('--actor-model', set.actor);
  if (set?.metaAgent) out.push('--meta-model', set.metaAgent);
  if (set?.proposer) out.push('--proposer-model', set.proposer);
  return out;
}

/** The stored evolution `id` under `storeDir` as the step's outcome (experiment/outcomes.ts), or null when it is not there. */
async function evolutionOutcome(storeDir: string, id: string): Promise<EvolutionOutcome | null> {
  if (!existsSync(storeDir)) return null;
  const store = await openNodeStore(storeDir);
  const state = await loadEvolutionState(store, id).finally(() => store.close());
  return state ? evolutionOutcomeOf(state) : null;
}

/** An executor for `plan` under `dir`; `providerArgs` are the user's provider flags, passed to every
 * step. `concurrency` (the provider's concurrent calls, `--concurrency`) is shared by the replicates
 * of an evolution that run side by side: min(replicates, concurrency) at once, each with
 * ⌊concurrency ÷ that⌋ (`replicateConcurrency`). */
export function cliExecutor(plan: ExperimentPlan, dir: string, providerArgs: readonly string[], onSave: (text: string) => Promise<void>, concurrency = 1): ExperimentExecutor {
  const { spec } = plan;
  const mostReplicates = Math.max(1, ...plan.steps.map((s) => (s.kind === 'evolution' ? s.replicates : 1)));
  const share = replicateConcurrency(concurrency, mostReplicates);
  const shape = ['--episodes', String(spec.episodes), '--steps', String(spec.steps)];
  return {
    now: () => new Date().toISOString(),
    save: (state) => onSave(JSON.stringify(state, null, 1)),
    parallelEvolutions: share.parallel,
    async evolution(step: EvolutionStep, steps: Readonly<Record<string, StepRecord>>): Promise<StepResult<EvolutionOutcome>> {
      const storeDir = join(dir, step.id, 'store');
      const e = step.evolution;
      const resume = await hasRun(storeDir, step.id);
      // A matched control draws its edit sizes from the LLM arm's recorded edits (a resume keeps its own).
      const matched = resume ? null : matchedEditSizes(plan, step, steps);
      const args = [
        '--train', step.train.join(','), '--val', step.val.join(','), '--train-repeats', String(e.trainRepeats), '--val-repeats', String(e.valRepeats), ...shape,
        '--budget', String(e.budget), '--minibatch', String(e.minibatch), '--proposer', e.proposer, '--rng-seed', String(e.rngSeed),
        ...(e.optimizer === 'opro' ? ['--optimizer', 'opro'] : []), ...(e.proposerInput === 'no-trace' ? ['--proposer-input', 'no-trace'] : []), ...(matched ? ['--edit-sizes', matched.sizes.join(','), '--edit-sizes-source', matched.source] : []), '--store', storeDir, '--id', step.id, ...(resume ? ['--resume'] : []), ...providerArgs, ...modelArgs(spec.models[step.modelSet]),
        // A replicated evolution's runs side by side share the concurrency (the last flag wins).
        ...(step.replicates > 1 ? ['--concurrency', String(share.each)] : []),
      ];
      const exitCode = await stdoutToStderr(() => evolveCommand(args));
      return { exitCode, outcome: await evolutionOutcome(storeDir, step.id) };
    },
    async evaluation(step: EvaluationStep, evolved: Record<string, EvolutionOutcome>): Promise<StepResult<EvaluationOutcome>> {
      const stepDir = join(dir, step.id);
      const storeDir = join(stepDir, 'store');
      const outDir = join(stepDir, 'out');
      await mkdir(stepDir, { recursive: true });
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
      const resume = await hasRun(storeDir, step.id);
      const args = [
        ...stepContrasts(plan, step).flatMap((c) => ['--contrast', `${c.a}:${c.b}`]),
        '--policies', policies.join(','), ...raw.flatMap((f) => ['--raw-meta-prompt', f]), '--tasks', step.tasks.join(','), '--repeats', String(step.repeats), ...shape, '--baseline', step.baseline,
        '--bootstrap-seed', String(spec.bootstrapSeed), '--store', storeDir, '--out', outDir, ...(resume ? ['--resume', step.id] : ['--id', step.id]),
        ...providerArgs, ...modelArgs(spec.models[step.modelSet]),
      ];
      const exitCode = await stdoutToStderr(() => evalCommand(args));
      const results = await readFile(join(outDir, 'results.json'), 'utf8').then((t) => JSON.parse(t) as { id: string; status: string; report: EvaluationOutcome['report']; sessions?: SessionWAuc[] }, () => null);
      const sessions = (results?.sessions ?? []).map((r) => ({ policyId: r.policyId, taskId: r.taskId, repeat: r.repeat, wAuc: r.wAuc }));
      return { exitCode, outcome: results ? { runId: results.id, status: results.status, report: results.report, sessions } : null };
    },
    async recallProbe(step: RecallProbeStep): Promise<StepResult<RecallOutcome>> {
      const stepDir = join(dir, step.id);
      await mkdir(stepDir, { recursive: true });
      const { source, file } = await recallWalkthroughs(step, spec.recallProbe?.walkthroughs ?? {}, stepDir);
      const args = [
        '--tasks', step.games.join(','), '--k', String(step.options.k), '--probes', String(step.options.probes), '--seed', String(step.options.seed), '--walkthroughs', file, '--out', join(stepDir, 'out'),
        ...providerArgs.filter((a) => a !== '--allow-changed-settings'), ...modelArgs(spec.models[step.modelSet]),
      ];
      // A provider fault or a cap stops the step (resumable: it is asked again), as a stopped eval does.
      const exitCode = await stdoutToStderr(() => probeRecallCommand(args)).catch((error: unknown) => {
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
 * The walkthroughs of a recall-probe step as a games.json-shaped file in `stepDir` (what `probe
 * recall --walkthroughs` reads): each game's from `inline` (the spec's), else from Jericho's
 * games.json by name when that file exists. `source` says where they came from, for the report.
 * @throws UsageError naming every game found in neither
 */
async function recallWalkthroughs(step: RecallProbeStep, inline: Readonly<Record<string, string[]>>, stepDir: string): Promise<{ source: string; file: string }> {
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
  return { source, file };
}
