/** The report's learning-curve charts: one chart per evaluation step, one line per arm
 * with the 95% interval's bounds as its band, episodes 1…K, the score axis topped by the max score
 * when every game's is known; built from a hand-made report. */
import { describe, expect, it } from 'vitest';
import type { ExperimentReport, ExperimentRow } from '../../experiment/interface.ts';
import type { Interval } from '../../ttl/metrics.ts';
import { lineChartConfig, lineChartTable } from '../shared/charts/line-chart.ts';
import { SIMULATION_NOTICE } from '../../llm/model-label.ts';
import { curveLine, curveSteps, reportArms, reportModelNote, stepCurvesSpec, stepCurvesSummary, stepMaxScore, stepModel } from './report-curves.ts';

const iv = (estimate: number, low: number, high: number): Interval => ({ estimate, low, high, resamples: 2000, n: 2 });
const row = (step: string, taskSet: string, arm: string, games: string[], curve: ExperimentRow['curve']): ExperimentRow => ({
  step, modelSet: 0, fold: null, taskSet, split: { games, role: 'not-selected' }, arm, sessions: 2, games: games.length,
  wAuc: iv(0.5, 0.4, 0.6), averageScore: iv(2, 1, 3), bestScore: iv(3, 2, 4), diffVsBaseline: null, leakWarning: null, curve, paper: null,
});

const report = {
  format: 'metattl-experiment-report-1', name: 'mine', description: '', status: 'complete', settings: { episodes: 3, steps: 10, repeats: 2, bootstrapSeed: 1 },
  models: [], folds: [], evolutions: [], perGame: [], foldResults: [], paperReference: null, pendingSteps: [],
  rows: [
    row('eval-ID', 'ID', 'naive', ['advent', 'lever'], [iv(1, 0, 2), iv(2, 1, 3), iv(2.5, 2, 3)]),
    row('eval-ID', 'ID', 'evolved', ['advent', 'lever'], [iv(1.5, 1, 2), iv(3, 2, 4), iv(4, 3.5, 4.5)]),
    row('eval-OOD', 'OOD', 'evolved', ['zork3:0'], [iv(0, 0, 0), iv(Number.NaN, Number.NaN, Number.NaN), iv(1, 0, 2)]),
    row('eval-OOD', 'OOD', 'naive', ['zork3:0'], [iv(0, 0, 0), iv(0.5, 0, 1), iv(0.5, 0, 1)]),
  ],
} as ExperimentReport;

const MAX: Record<string, number> = { advent: 5, lever: 3 };
const maxScoreOf = (game: string): number | null => MAX[game] ?? null;

describe('the experiment report’s learning-curve charts', () => {
  it('makes one chart per evaluation step, its rows in report order, arms coloured by first appearance', () => {
    const steps = curveSteps(report);
    expect(steps.map((s) => `${s.step} ${s.taskSet} ${s.rows.map((r) => r.arm).join('+')}`)).toEqual(['eval-ID ID naive+evolved', 'eval-OOD OOD evolved+naive']);
    expect(reportArms(report)).toEqual(['naive', 'evolved']);
    const ood = stepCurvesSpec(steps[1]!, reportArms(report), null);
    // Okabe–Ito: naive #0072B2 (first), evolved #D55E00 — the same in both steps, as in the HTML export.
    expect(ood.series.map((s) => `${s.label} ${s.colour}`)).toEqual(['evolved #D55E00', 'naive #0072B2']);
  });

  it('draws each arm’s mean per episode (x = 1…K) with the interval’s low and high as its band', () => {
    const spec = stepCurvesSpec(curveSteps(report)[0]!, ['naive', 'evolved'], null);
    const evolved = spec.series[1]!;
    expect(evolved.points).toEqual([{ x: 1, y: 1.5 }, { x: 2, y: 3 }, { x: 3, y: 4 }]);
    expect(evolved.band).toEqual({ low: [{ x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 3.5 }], high: [{ x: 1, y: 2 }, { x: 2, y: 4 }, { x: 3, y: 4.5 }] });
    expect(spec).toMatchObject({ xLabel: 'episode', yLabel: 'mean final score', xMin: 1, xMax: 3, integerX: true });
    expect(spec.yMax).toBeUndefined();
    expect(spec.refLines).toBeUndefined();
    // Chart.js datasets: per arm the band's low edge, its high edge filled down to it, then the line.
    const data = lineChartConfig(spec, '#000').data.datasets;
    expect(data.map((d) => `${d.label} ${String(d.fill)}`)).toEqual(['naive (95% CI) false', 'naive (95% CI) -1', 'naive false', 'evolved (95% CI) false', 'evolved (95% CI) -1', 'evolved false']);
    expect(data[4]!.data).toEqual(evolved.band!.high);
    // The CSV export: one row per point with the band's bounds.
    expect(lineChartTable(spec).rows.slice(3)).toEqual([['evolved', 1, 1.5, 1, 2, 'unknown model', ''], ['evolved', 2, 3, 2, 4, 'unknown model', ''], ['evolved', 3, 4, 3.5, 4.5, 'unknown model', '']]);
    // With the step's model set given, every row names it.
    const named = stepCurvesSpec(curveSteps(report)[0]!, ['naive', 'evolved'], null, undefined, stepModel({ models: [{ actor: 'simulated', metaAgent: 'simulated', proposer: 'simulated' }] }, curveSteps(report)[0]!));
    expect(lineChartTable(named).header.slice(-2)).toEqual(['model', 'model_caveat']);
    expect(lineChartTable(named).rows[0]!.slice(-2)).toEqual(['simulated model', 'simulated model — not a language model; it shows how the loop works, not how real models behave']);
  });

  it('leaves out an episode whose estimate is not finite, keeping the others at their episode', () => {
    const evolved = stepCurvesSpec(curveSteps(report)[1]!, ['naive', 'evolved'], null).series[0]!;
    expect(evolved.points).toEqual([{ x: 1, y: 0 }, { x: 3, y: 1 }]);
    expect(evolved.band!.high).toEqual([{ x: 1, y: 0 }, { x: 3, y: 2 }]);
  });

  it('tops the score axis at the highest max score when every game’s is known, with a dashed max-score line', () => {
    const [id, ood] = curveSteps(report);
    expect(stepMaxScore(['advent', 'lever'], maxScoreOf)).toBe(5);
    expect(stepMaxScore(['advent:0', 'lever:1'], maxScoreOf)).toBe(5);
    expect(stepMaxScore(['zork3'], maxScoreOf)).toBeNull();
    expect(stepMaxScore(['advent', 'zork3'], maxScoreOf)).toBeNull();
    expect(stepMaxScore([], maxScoreOf)).toBeNull();
    const spec = stepCurvesSpec(id!, ['naive', 'evolved'], 5);
    expect(spec).toMatchObject({ yMin: 0, yMax: 5, refLines: [{ label: 'Max score (5)', y: 5 }] });
    // A band above a (mis-set) max score still fits: the axis tops at the drawn 4.5.
    expect(stepCurvesSpec(id!, ['naive', 'evolved'], 4).yMax).toBe(4.5);
    expect(stepCurvesSpec(ood!, ['naive', 'evolved'], null).yMin).toBeUndefined();
  });

  it('says the curves in words: the chart’s accessible name and its data list', () => {
    const id = curveSteps(report)[0]!;
    expect(curveLine(id.rows[0]!)).toBe('naive: 1.0 [0.0, 2.0] → 2.0 [1.0, 3.0] → 2.5 [2.0, 3.0]');
    expect(stepCurvesSummary(id)).toBe('Learning curves of ID (eval-ID), mean final score per episode with 95% intervals — naive: 1.0 [0.0, 2.0] → 2.0 [1.0, 3.0] → 2.5 [2.0, 3.0]; evolved: 1.5 [1.0, 2.0] → 3.0 [2.0, 4.0] → 4.0 [3.5, 4.5]');
  });

  it('names who played above every chart: the simulated model says it is one, other models by name', () => {
    const simulated = reportModelNote({ models: [{ actor: 'gpt-4o-mini', metaAgent: 'gpt-4o-mini', proposer: 'gpt-4o-mini' }, { actor: 'simulated', metaAgent: 'simulated', proposer: 'simulated' }] });
    expect(simulated).toBe(`Played by the ${SIMULATION_NOTICE}.`);
    expect(stepCurvesSpec(curveSteps(report)[0]!, ['naive', 'evolved'], 5, simulated).note).toBe(simulated);
    expect(reportModelNote({ models: [{ actor: 'gpt-4o-mini', metaAgent: 'gpt-4o-mini', proposer: 'gpt-4o-mini' }] })).toBe('Played by gpt-4o-mini.');
    expect(reportModelNote({ models: [] })).toBe('Played by a model not recorded.');
    expect(stepCurvesSpec(curveSteps(report)[0]!, ['naive', 'evolved'], 5).note).toBeUndefined();
  });
});
