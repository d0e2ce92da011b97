/**
 * The evaluation report's summary CSV (the CLI's `summary.csv`, the Evaluate view's CSV export):
 * one row per policy and task set, written by csv.ts. Apart from report-formats.ts so the page loads
 * the CSV writer only when it exports.
 */
import { toCsv } from './csv.ts';
import { FEW_GAMES } from './comparisons.ts';
import type { Comparison, EvaluationReport } from './interface.ts';
import { MODEL_CSV_COLUMNS, modelCsvCells, modelOfReport, type ModelIdentity } from '../llm/model-label.ts';

export const CSV_HEADER = [
  'policy', 'task_set', 'sessions', 'games', 'wauc_mean', 'wauc_low', 'wauc_high', 'avg_score_mean', 'avg_score_low', 'avg_score_high',
  'best_score_mean', 'best_score_low', 'best_score_high', 'diff_vs_baseline', 'diff_low', 'diff_high', 'beats_baseline', 'leak_warning', 'raw_meta_prompt', 'cost_usd',
  'identical_repeats', ...MODEL_CSV_COLUMNS,
];

/** The summary CSV: one row per policy and task set (`CSV_HEADER`), written by csv.ts. The column
 * identical_repeats is true on every row of a policy the `identical_repeats` warning names (every
 * repeat gave the same scores: its within-task intervals are zero-width); the last two, model and
 * model_caveat, name who played (llm/model-label.ts modelOfReport; the caveat empty for a language
 * model). */
export function reportToCsv(report: EvaluationReport): string {
  const model = modelCsvCells(modelOfReport(report));
  const identical = new Set((report.warnings ?? []).filter((w) => w.code === 'identical_repeats').map((w) => w.policyId));
  const rows = report.policies.map((p) => [
    p.policyId, p.taskSet, p.sessions, p.games, p.wAuc.estimate, p.wAuc.low, p.wAuc.high, p.averageScore.estimate, p.averageScore.low,
    p.averageScore.high, p.bestScore.estimate, p.bestScore.low, p.bestScore.high, p.diffVsBaseline?.estimate ?? null,
    p.diffVsBaseline?.low ?? null, p.diffVsBaseline?.high ?? null, p.beatsBaseline, p.leakWarning, p.rawMetaPrompt === true,
    // Empty when a model called has no known price at its provider (never an invented 0).
    p.costUsd ?? null, identical.has(p.policyId), ...model,
  ]);
  return toCsv({ header: CSV_HEADER, rows });
}

export const COMPARISONS_CSV_HEADER = [
  'a', 'b', 'task_set', 'declared', 'sessions', 'games', 'delta_mean', 'delta_low', 'delta_high', 't_low', 't_high', 't_p', 'sign_flip_p', 'min_p',
  'holm_p', 'positive', 'power_delta', 'session_sd', 'tau', 'repeats_needed', 'per_game', 'few_games',
];

/** One comparison's cells under COMPARISONS_CSV_HEADER. */
function comparisonCsvCells(c: Comparison): (string | number | boolean | null)[] {
  return [
    c.a, c.b, c.taskSet, c.declared, c.sessions, c.gameLevel.games, c.delta.mean, c.delta.low, c.delta.high, c.gameLevel.tLow, c.gameLevel.tHigh, c.gameLevel.tP,
    c.gameLevel.signFlipP, c.gameLevel.minP, c.holmP, c.positive, c.power.delta, c.power.sessionSd, c.power.tau, c.power.repeatsNeeded,
    c.perGame.map((g) => `${g.game}:${g.mean}:${g.low}:${g.high}`).join(' '), c.gameLevel.games < FEW_GAMES,
  ];
}

/** The comparisons CSV (`comparisons.csv`): one row per comparison, declared first; per_game =
 * "game:mean:low:high" joined by spaces; few_games = true when it rests on fewer than 6 games (the
 * `few_games` warning: a claim about these games, not games in general); then model and
 * model_caveat (who played, from the report's `simulated` / `model`). */
export function comparisonsToCsv(report: Pick<EvaluationReport, 'comparisons' | 'exploratoryComparisons' | 'simulated' | 'model'>): string {
  const model = modelCsvCells(modelOfReport(report));
  const rows = [...(report.comparisons ?? []), ...(report.exploratoryComparisons ?? [])].map((c) => [...comparisonCsvCells(c), ...model]);
  return toCsv({ header: [...COMPARISONS_CSV_HEADER, ...MODEL_CSV_COLUMNS], rows });
}

/** An experiment's comparisons CSV: `step` (the evaluation step, which tells folds and model sets
 * apart) first, then the columns of comparisonsToCsv's but the model's, then `registered`
 * (primary, secondary or exploratory against a registration; empty without one), then model and
 * model_caveat: who played the step (`modelOf(step)`; an unknown model without it). */
export function stepComparisonsToCsv(
  report: { comparisons?: readonly (Comparison & { step: string; registered?: string })[]; exploratoryComparisons?: readonly (Comparison & { step: string; registered?: string })[] },
  modelOf: (step: string) => Pick<ModelIdentity, 'name' | 'caveat'> = () => modelOfReport({}),
): string {
  const rows = [...(report.comparisons ?? []), ...(report.exploratoryComparisons ?? [])].map((c) => [c.step, ...comparisonCsvCells(c), c.registered ?? null, ...modelCsvCells(modelOf(c.step))]);
  return toCsv({ header: ['step', ...COMPARISONS_CSV_HEADER, 'registered', ...MODEL_CSV_COLUMNS], rows });
}
