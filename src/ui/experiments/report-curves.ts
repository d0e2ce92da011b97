/**
 * The learning curves of an experiment's report as the page draws them: one chart per
 * evaluation step (one task set), one line per arm — the mean final score per episode — with its
 * 95% interval as a shaded band (the interval's low and high as the band's edges), in the same
 * colours as the HTML export (report-formats.ts, seriesColour by the arm's first appearance).
 * x = episode 1…K, y from 0 to the task set's max score when every game's max score is known.
 * When every arm of a step has a per-game normalised curve (final score ÷ the game's max score,
 * every game weighing the same), that curve is drawn instead, y from 0 to 1, and the axis says so.
 * Pure: no DOM, no Chart.js (the chart itself is drawn by LineChart through line-chart.ts).
 */
import type { ExperimentReport, ExperimentRow } from '../../experiment/interface.ts';
import { formatInterval, seriesColour } from '../../eval/report-html.ts';
import { gameOf } from '../../experiment/plan.ts';
import type { LineChartSpec, LineSeries } from '../shared/charts/line-chart.ts';
import { describeModel, type ModelIdentity } from '../../llm/model-label.ts';

/** One evaluation step's curves: the step id, its task set and its rows (one per arm, report order). */
export interface CurveStep {
  step: string;
  taskSet: string;
  rows: ExperimentRow[];
}

/** The report's evaluation steps in report order, each with its rows. */
export function curveSteps(report: ExperimentReport): CurveStep[] {
  const steps: CurveStep[] = [];
  for (const row of report.rows) {
    const found = steps.find((s) => s.step === row.step);
    if (found) found.rows.push(row);
    else steps.push({ step: row.step, taskSet: row.taskSet, rows: [row] });
  }
  return steps;
}

/**
 * The top of a step's score axis: the highest max score of its games, when every game's max
 * score is known (`maxScoreOf` returns null for an unknown one, e.g. a web task), else null.
 * @param games the step's games (its rows' `split.games`; `<game>:<seed>` also accepted)
 * @param maxScoreOf a game's max score in points, or null
 */
export function stepMaxScore(games: readonly string[], maxScoreOf: (game: string) => number | null): number | null {
  if (games.length === 0) return null;
  const maxes = [...new Set(games.map(gameOf))].map(maxScoreOf);
  if (maxes.some((m) => m === null || !Number.isFinite(m) || m <= 0)) return null;
  return Math.max(...(maxes as number[]));
}

/**
 * The chart of one step: per arm the mean final score per episode (x = 1…K; episodes whose
 * estimate is not finite are left out) and its 95% CI band; the arms' colours are their index in
 * `arms` (all the report's arms, so an arm keeps its colour across steps). With a known max score
 * `max`, y runs from 0 to it (or to a higher drawn value) and a dashed "Max score (max)" line is drawn;
 * `note` (reportModelNote: who played) is the muted line above the chart and on its exported image.
 */
/** Whether every row of the step has a per-game normalised curve (then it is drawn). */
export const stepNormalised = (step: CurveStep): boolean => step.rows.every((r) => (r.normalisedCurve?.length ?? 0) > 0);
const curveOf = (row: ExperimentRow, normalised: boolean) => (normalised ? row.normalisedCurve! : row.curve);

export function stepCurvesSpec(step: CurveStep, arms: readonly string[], max: number | null, note?: string, model?: LineChartSpec['model']): LineChartSpec {
  const normalised = stepNormalised(step);
  const series: LineSeries[] = step.rows.map((row) => {
    const ok = curveOf(row, normalised).map((c, i) => ({ c, x: i + 1 })).filter(({ c }) => Number.isFinite(c.estimate));
    return {
      label: row.arm, colour: seriesColour(Math.max(0, arms.indexOf(row.arm))), points: ok.map(({ c, x }) => ({ x, y: c.estimate })),
      band: { low: ok.map(({ c, x }) => ({ x, y: c.low })), high: ok.map(({ c, x }) => ({ x, y: c.high })) },
    };
  });
  const episodes = Math.max(1, ...step.rows.map((r) => r.curve.length));
  const spec: LineChartSpec = { series, xLabel: 'episode', yLabel: normalised ? 'score ÷ max score (normalised per game)' : 'mean final score', xMin: 1, xMax: episodes, integerX: true, ...(note ? { note } : {}), ...(model ? { model } : {}) };
  const drawn0 = series.flatMap((s) => [...s.points, ...(s.band?.high ?? [])].map((p) => p.y)).filter(Number.isFinite);
  if (normalised) return { ...spec, yMin: 0, yMax: Math.max(1, ...drawn0), refLines: [{ label: 'Max score (each game)', y: 1 }] };
  if (max === null) return spec;
  const drawn = series.flatMap((s) => [...s.points, ...(s.band?.high ?? [])].map((p) => p.y)).filter(Number.isFinite);
  return { ...spec, yMin: 0, yMax: Math.max(max, ...drawn), refLines: [{ label: `Max score (${max})`, y: max }] };
}

/**
 * Who played the report's runs, as the line above each of its charts (llm/model-label.ts):
 * "Played by the simulated model — not a language model; …" when any model set is simulated,
 * otherwise each model set's sentence once ("Played by gpt-4o-mini."), in the report's order.
 */
export function reportModelNote(report: Pick<ExperimentReport, 'models'>): string {
  const identities = report.models.map((m) => describeModel(m));
  const simulated = identities.find((m) => m.simulated);
  if (simulated) return simulated.sentence;
  return identities.length ? [...new Set(identities.map((m) => m.sentence))].join(' ') : describeModel({}).sentence;
}

/** Who played a step's curves: its rows' model set (llm/model-label.ts; unknown when not recorded). */
export function stepModel(report: Pick<ExperimentReport, 'models'>, step: CurveStep): ModelIdentity {
  return describeModel(report.models[step.rows[0]?.modelSet ?? 0] ?? {});
}

/** The report's arms in order of first appearance (their colour index). */
export const reportArms = (report: ExperimentReport): string[] => [...new Set(report.rows.map((r) => r.arm))];

/** One arm's curve in words: "naive: 1.0 [0.0, 2.0] → 3.0 [2.0, 4.0]" (the chart's data in the text list). */
export const curveLine = (row: ExperimentRow): string => (row.normalisedCurve?.length
  ? `${row.arm}: ${row.normalisedCurve.map((c) => formatInterval(c, 3)).join(' → ')} (÷ max score, per game)`
  : `${row.arm}: ${row.curve.map((c) => formatInterval(c, 1)).join(' → ')}`);

/** The step's curves in words (the chart's accessible name). */
export function stepCurvesSummary(step: CurveStep): string {
  return `Learning curves of ${step.taskSet} (${step.step}), mean final score per episode${stepNormalised(step) ? ' as a share of each game\'s max score (normalised per game, so every game weighs the same)' : ''} with 95% intervals — ${step.rows.map(curveLine).join('; ')}`;
}
