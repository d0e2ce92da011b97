/**
 * What the Evaluate view shows of a report, derived purely: the task sets, the learning curves of
 * one set as a chart spec (mean final score per episode with its 95% CI band — normalised per game
 * by its max score when the report has those curves — the same colours as the HTML export), and the status line of an evaluation.
 */
import type { CsvTable } from '../../eval/csv.ts';
import type { EvaluationReport, EvaluationState, GameSummary } from '../../eval/interface.ts';
import { normalisedCurves, seriesOf } from '../../eval/report-html.ts';
import type { LineChartSpec } from '../shared/charts/line-chart.ts';
import { describeModel, MODEL_CSV_COLUMNS, modelCsvCells, modelOfReport, type RunModels } from '../../llm/model-label.ts';

export const taskSetsOf = (report: EvaluationReport): string[] => [...new Set(report.policies.map((p) => p.taskSet))];

/** The curves of `taskSet` (episodes on x from 1), titled, with who played (`models`, the
 * evaluation's config) as the note. Non-finite points are left out. */
export function curvesSpec(report: EvaluationReport, taskSet: string, models: RunModels = {}): LineChartSpec {
  const labels = { title: `Learning curves — ${taskSet}`, note: describeModel(models).sentence, model: describeModel(models) };
  const series = seriesOf(report, taskSet).map((s) => {
    const ok = s.curve.map((c, i) => ({ c, x: i + 1 })).filter(({ c }) => Number.isFinite(c.estimate));
    return {
      label: s.label, colour: s.colour, points: ok.map(({ c, x }) => ({ x, y: c.estimate })),
      band: { low: ok.map(({ c, x }) => ({ x, y: c.low })), high: ok.map(({ c, x }) => ({ x, y: c.high })) },
    };
  });
  const episodes = Math.max(1, ...series.map((s) => s.points.length));
  if (!normalisedCurves(report)) return { ...labels, series, xLabel: 'episode', yLabel: 'mean final score', xMin: 1, xMax: episodes, integerX: true };
  const drawn = series.flatMap((s) => [...s.points, ...s.band.high].map((p) => p.y)).filter(Number.isFinite);
  return { ...labels, series, xLabel: 'episode', yLabel: 'score ÷ max score (normalised per game)', xMin: 1, xMax: episodes, integerX: true, yMin: 0, yMax: Math.max(1, ...drawn) };
}

/** The curves in words (the chart's text alternative). */
export function curvesSummary(report: EvaluationReport, taskSet: string): string {
  const digits = normalisedCurves(report) ? 3 : 1;
  const text = seriesOf(report, taskSet)
    .map((s) => `${s.label}: ${s.curve.map((c) => (Number.isFinite(c.estimate) ? c.estimate.toFixed(digits) : 'n/a')).join(', ')}`)
    .join('; ');
  return digits === 3 ? `Mean final score ÷ the game's max score, normalised per game — ${text}` : text;
}

/** The evaluation's status for people; `interrupted` when it was running and nothing drives it. */
export function evaluationStatus(state: EvaluationState, driven: boolean): string {
  const faulted = state.faultedEpisodes;
  const done = `${state.results.length} / ${state.totalSessions || '?'} sessions${faulted ? `, ${faulted} faulted episode${faulted === 1 ? '' : 's'} (not scored)` : ''}`;
  if (state.status === 'running') return driven ? `running — ${done}` : `interrupted (the page closed or reloaded mid-run) — ${done}: resume to continue`;
  const why = state.stopReason === 'stopped' ? ' — stopped by you' : state.stopReason ? ` — ${state.stopMessage ?? state.stopReason}` : '';
  return `${state.status}${why} — ${done}`;
}

/** The per-game rows in the order the table shows them (by story id). */
export const gamesInOrder = (report: EvaluationReport): GameSummary[] => [...report.games].sort((a, b) => a.storyId.localeCompare(b.storyId));

/** The per-game table as CSV, as shown (policies by name): its columns, each interval as estimate,
 * 95% CI low and high (numbers), then who played (model, model_caveat: llm/model-label.ts modelOfReport). */
export function gamesTable(report: EvaluationReport): CsvTable {
  const interval = (name: string) => [name, `${name} 95% CI low`, `${name} 95% CI high`];
  const who = modelCsvCells(modelOfReport(report));
  return {
    header: ['game', 'policy', 'task set', 'sessions', ...interval('W-AUC'), ...interval('average score'), ...interval('best score'), ...MODEL_CSV_COLUMNS],
    rows: gamesInOrder(report).map((g) => [
      g.storyId, g.policyName ?? g.policyId, g.taskSet, g.sessions, g.wAuc.estimate, g.wAuc.low, g.wAuc.high,
      g.averageScore.estimate, g.averageScore.low, g.averageScore.high, g.bestScore.estimate, g.bestScore.low, g.bestScore.high, ...who,
    ]),
  };
}
