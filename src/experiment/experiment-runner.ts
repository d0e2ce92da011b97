/**
 * Running an experiment: its plan's steps in order, each handed to an injected executor that runs
 * (or resumes) an ordinary evolution or evaluation; finished steps are skipped on resume, so an
 * experiment resumes exactly where it stopped, and each step resumes inside itself. The state is
 * saved after every step through the injected `save`. A step that stops (interrupt, cap, provider
 * fault) stops the experiment, resumable. No UI, DOM or Node imports.
 */
import { codeVersion } from '../common/code-version.ts';
import type { EvaluationOutcome, EvaluationStep, EvolutionOutcome, EvolutionStep, ExperimentPlan, ExperimentState, RecallOutcome, RecallProbeStep, StepRecord } from './interface.ts';

/** What an executor reports: the process-style exit code of the step's run (0 = done) and, when
 * the run got far enough to have one, its outcome. */
export interface StepResult<T> {
  exitCode: number;
  outcome: T | null;
}

export interface ExperimentExecutor {
  /** Run or resume one evolution; `steps`: the records of the steps so far (a matched control
   * reads the edit sizes of the evolution it matches, plan.ts `matchedEditSizes`). */
  evolution(step: EvolutionStep, steps: Readonly<Record<string, StepRecord>>): Promise<StepResult<EvolutionOutcome>>;
  /** Run or resume one evaluation; `evolved` maps each evolution step the arms need to its outcome. */
  evaluation(step: EvaluationStep, evolved: Record<string, EvolutionOutcome>): Promise<StepResult<EvaluationOutcome>>;
  /** Run the walkthrough-recall probe step (recall-step.ts); required when the plan has one. */
  recallProbe?(step: RecallProbeStep): Promise<StepResult<RecallOutcome>>;
  save(state: ExperimentState): Promise<void>;
  onStep?(event: { step: string; index: number; total: number; phase: 'start' | 'done' | 'skipped' | 'stopped' }): void;
  /** ISO time (injected clock). */
  now(): string;
  /** How many replicates of one evolution may run side by side (absent = 1, one after another);
   * the executor shares its concurrency among them (`replicateConcurrency`). */
  parallelEvolutions?: number;
}

/** Each of `parallel` side-by-side runs' share of a concurrency budget: ⌊concurrency ÷ parallel⌋, at
 * least 1; the runs side by side are at most `concurrency`, so the total stays within the budget. */
export function replicateConcurrency(concurrency: number, parallel: number): { parallel: number; each: number } {
  const side = Math.max(1, Math.min(parallel, concurrency));
  return { parallel: side, each: Math.max(1, Math.floor(concurrency / side)) };
}

/** A fresh state for `plan` (every step pending). */
export function freshExperimentState(plan: ExperimentPlan, models: ExperimentState['models'], now: string): ExperimentState {
  return {
    format: 'metattl-experiment-state-1', spec: plan.spec, status: 'running', models,
    steps: Object.fromEntries(plan.steps.map((s) => [s.id, { status: 'pending' as const }])), startedAt: now, finishedAt: null, codeVersion: codeVersion(),
  };
}

/** Run every unfinished step of `plan`; returns the state and the exit code of the step that
 * stopped it (0 when the experiment is complete). */
export async function runExperiment(plan: ExperimentPlan, state: ExperimentState, exec: ExperimentExecutor): Promise<{ state: ExperimentState; exitCode: number }> {
  state.status = 'running';
  state.finishedAt = null;
  const total = plan.steps.length;
  const started = new Map<string, number>();
  const runEvolution = async (step: EvolutionStep): Promise<number> => {
    const result = await exec.evolution(step, state.steps);
    // Every outcome says which replicate it is and the seed it ran with (both executors alike).
    const outcome = result.outcome ? { ...result.outcome, replicate: step.replicate, rngSeed: step.evolution.rngSeed } : null;
    state.steps[step.id] = { status: result.exitCode === 0 && result.outcome?.status === 'complete' ? 'complete' : 'stopped', ...(outcome ? { evolution: outcome } : {}) };
    return result.exitCode;
  };
  for (const [index, step] of plan.steps.entries()) {
    const record = state.steps[step.id] ?? { status: 'pending' };
    if (record.status === 'complete') {
      exec.onStep?.({ step: step.id, index: index + 1, total, phase: 'skipped' });
      continue;
    }
    let exitCode: number;
    if (step.kind === 'evolution' && started.has(step.id)) {
      // Ran side by side with an earlier replicate of its group.
      exitCode = started.get(step.id)!;
    } else if (step.kind === 'evolution') {
      // This replicate and the group's next unfinished ones, up to `parallelEvolutions` side by side.
      const batch = plan.steps.slice(index).filter((s): s is EvolutionStep => s.kind === 'evolution' && s.group === step.group && s.modelSet === step.modelSet && state.steps[s.id]?.status !== 'complete')
        .slice(0, Math.max(1, exec.parallelEvolutions ?? 1));
      for (const s of batch) exec.onStep?.({ step: s.id, index: plan.steps.indexOf(s) + 1, total, phase: 'start' });
      const codes = await Promise.all(batch.map(runEvolution));
      // A side-by-side replicate that stopped stops the experiment at its own turn below.
      batch.forEach((s, i) => started.set(s.id, codes[i]!));
      exitCode = codes[0]!;
      if (batch.length > 1) await exec.save(state);
    } else if (step.kind === 'recall-probe') {
      exec.onStep?.({ step: step.id, index: index + 1, total, phase: 'start' });
      if (!exec.recallProbe) throw new Error(`${step.id}: this executor cannot run the walkthrough-recall probe`);
      const result = await exec.recallProbe(step);
      exitCode = result.exitCode;
      state.steps[step.id] = { status: result.exitCode === 0 && result.outcome ? 'complete' : 'stopped', ...(result.outcome ? { recall: result.outcome } : {}) };
    } else {
      exec.onStep?.({ step: step.id, index: index + 1, total, phase: 'start' });
      const evolved: Record<string, EvolutionOutcome> = {};
      for (const arm of step.arms) {
        if (arm.evolutionStep) evolved[arm.evolutionStep] = state.steps[arm.evolutionStep]!.evolution!;
      }
      const result = await exec.evaluation(step, evolved);
      exitCode = result.exitCode;
      state.steps[step.id] = { status: result.exitCode === 0 && result.outcome?.status === 'complete' ? 'complete' : 'stopped', ...(result.outcome ? { evaluation: result.outcome } : {}) };
    }
    if (state.steps[step.id]!.status !== 'complete') {
      state.status = 'stopped';
      await exec.save(state);
      exec.onStep?.({ step: step.id, index: index + 1, total, phase: 'stopped' });
      // A run stopped at a USD or token cap exits 0, as evolve and eval do; it is still resumable.
      return { state, exitCode };
    }
    await exec.save(state);
    exec.onStep?.({ step: step.id, index: index + 1, total, phase: 'done' });
  }
  state.status = 'complete';
  state.finishedAt = exec.now();
  await exec.save(state);
  return { state, exitCode: 0 };
}
