/**
 * A finished (or stopped) run as an experiment step's outcome, built in one place for both
 * executors (the page's and the CLI's): an evolution's chosen candidate and its accounting, an
 * evaluation's report. Pure.
 */
import type { EvaluationState } from '../eval/interface.ts';
import { buildReport } from '../eval/report.ts';
import { evolutionAccounting } from '../evolve/accounting.ts';
import type { EvolutionState } from '../evolve/interface.ts';
import type { EvaluationOutcome, EvolutionOutcome } from './interface.ts';

/** An evolution run as the experiment's outcome: the candidate chosen by mean validation W-AUC,
 * its strategy and that mean (0 candidates: no strategy, null mean), the run's counts and the
 * per-arm accounting (evolve/accounting.ts). */
export function evolutionOutcomeOf(state: EvolutionState): EvolutionOutcome {
  const best = state.candidates.find((c) => c.id === state.best.byMean);
  const scores = Object.values(best?.valScores ?? {});
  return {
    runId: state.id, status: state.status, stopReason: state.stopReason, metricCallsUsed: state.metricCallsUsed, budget: state.config.budgetMetricCalls, sessionsPlayed: state.sessionsPlayed,
    bestCandidateId: state.best.byMean, bestStrategy: best?.strategy ?? '', bestValWAuc: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null, candidates: state.candidates.length,
    ...(best ? { bestIsSeed: best.status === 'seed', bestValScores: { ...best.valScores } } : {}), ...evolutionAccounting(state), ...(state.config.editSizes ? { editSizeTarget: state.config.editSizes } : {}),
  };
}

/** An evaluation run as the experiment's outcome: its report (eval/report.ts) and each session's W-AUC. */
export function evaluationOutcomeOf(state: EvaluationState): EvaluationOutcome {
  return { runId: state.id, status: state.status, report: buildReport(state), sessions: state.results.map((r) => ({ policyId: r.policyId, taskId: r.taskId, repeat: r.repeat, wAuc: r.wAuc })) };
}
