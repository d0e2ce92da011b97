/**
 * Running an experiment: its plan's steps in order, each handed to an injected executor that runs
 * (or resumes) an ordinary evolution or evaluation; finished steps are skipped on resume, so an
 * experiment resumes exactly where it stopped, and each step resumes inside itself. The state is
 * saved after every step through the injected `save`. A step that stops (interrupt, cap, provider
 * fault) stops the experiment, resumable. No UI, DOM or Node imports.
 */
import { codeVersion } from '../common/code-version.ts';
import type { EvaluationOutcome, EvaluationStep, EvolutionOutcome, EvolutionStep, ExperimentPlan, ExperimentState, StepRecord } from './interface.ts';

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
  save(state: ExperimentState): Promise<void>;
  onStep?(event: { step: string; index: number; total: number; phase: 'start' | 'done' | 'skipped' | 'stopped' }): void;
  /** ISO time (injected clock). */
  now(): string;
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
  for (const [index, step] of plan.steps.entries()) {
    const record = state.steps[step.id] ?? { status: 'pending' };
    if (record.status === 'complete') {
      exec.onStep?.({ step: step.id, index: index + 1, total, phase: 'skipped' });
      continue;
    }
    exec.onStep?.({ step: step.id, index: index + 1, total, phase: 'start' });
    let exitCode: number;
    if (step.kind === 'evolution') {
      const result = await exec.evolution(step, state.steps);
      exitCode = result.exitCode;
      state.steps[step.id] = { status: result.exitCode === 0 && result.outcome?.status === 'complete' ? 'complete' : 'stopped', ...(result.outcome ? { evolution: result.outcome } : {}) };
    } else {
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
