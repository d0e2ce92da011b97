/**
 * The CLI's executor of experiment steps: each evolution step is `metattl evolve` and each
 * evaluation step `metattl eval`, run in this process with their own store under the experiment's
 * folder (`<store>/experiments/<name>/<step>/`), so each is resumed by its own --resume. Their
 * stdout goes to stderr (the experiment's stdout is its own); their progress lines stay on stderr.
 * Each eval is given the experiment's declared contrasts (`--contrast A:B`), so a step's results.json
 * carries the same declared `comparisons[]` as the experiment's report (Holm within the step there,
 * over the whole report in the report).
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { evalCommand } from './eval.ts';
import { evolveCommand } from './evolve.ts';
import { loadEvolutionState } from '../evolve/evolution-store.ts';
import { evolutionOutcomeOf } from '../experiment/outcomes.ts';
import { openNodeStore } from '../store/node-store.ts';
import { replicateConcurrency, type ExperimentExecutor, type StepResult } from '../experiment/experiment-runner.ts';
import type { EvaluationOutcome, EvaluationStep, EvolutionOutcome, EvolutionStep, ExperimentPlan, ModelSet, StepRecord } from '../experiment/interface.ts';
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
  };
}
