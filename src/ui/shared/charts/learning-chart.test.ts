/** The slide-ready learning curve: the exported configuration's title and
 * subtitle, its legend's series names, and room for the markers at the plot's edges. */
import { describe, expect, it } from 'vitest';
import { CURVE_PADDING, curveConfig, curveExportConfig, maxScoreLabel, SCORE_SERIES, scoreAxisTop, scoreLabelRoom, scoreTicks, type CurveData } from './learning-chart.ts';

const data: CurveData = { episodes: 3, series: [{ label: SCORE_SERIES, scores: [0, 2, 5] }], maxScores: [5] };
const caption = { title: 'Learning curve — The Lever Room', subtitle: 'Story: The Lever Room · policy: naive meta-agent · seed 1 · K = 3, S = 6 · W-AUC 0.333' };

describe('the exported learning curve', () => {
  it('carries the caption as its title and subtitle, dark on white', () => {
    const plugins = curveExportConfig(data, caption).options!.plugins!;
    expect(plugins.title).toMatchObject({ display: true, text: caption.title, color: '#1e1e1e' });
    expect(plugins.subtitle).toMatchObject({ display: true, text: caption.subtitle, color: '#1e1e1e' });
    expect(curveExportConfig(data).options!.plugins!.title).toBeUndefined();
  });

  it('names its series "Score per episode" and "Max score (5)", not "final score — max score 5"', () => {
    const labels = curveExportConfig(data, caption).data.datasets.map((d) => d.label);
    expect(labels).toEqual(['Score per episode', 'Max score (5)']);
    expect(maxScoreLabel(350)).toBe('Max score (350)');
  });

  it('leaves room for a whole marker at the last episode and at the max score, and does not clip them to the plot', () => {
    const config = curveConfig(data, { text: '#000', grid: '#ccc' });
    const score = config.data.datasets[0]!;
    const markerRadius = (score.pointRadius as number) + (score.borderWidth as number) / 2;
    expect(config.options!.layout!.padding).toEqual(CURVE_PADDING);
    expect(CURVE_PADDING.right).toBeGreaterThanOrEqual(markerRadius);
    expect(CURVE_PADDING.top).toBeGreaterThanOrEqual(markerRadius - 2);
    expect(score.clip).toBe(false);
  });

  it('tops the score axis at the max score (so it is labelled), or at a score above it; no max: the data decide', () => {
    const lever: CurveData = { episodes: 3, series: [{ label: SCORE_SERIES, scores: [1, 3, null] }], maxScores: [5] };
    expect(scoreAxisTop(lever)).toBe(5);
    expect(scoreAxisTop({ ...lever, series: [{ label: SCORE_SERIES, scores: [7] }] })).toBe(7);
    expect(scoreAxisTop({ ...lever, maxScores: [] })).toBeNull();
    const y = curveConfig(lever, { text: '#000', grid: '#ccc' }).options!.scales!.y as { max?: number; ticks: { precision: number; autoSkip: boolean } };
    expect(y.max).toBe(5);
    expect(y.ticks).toMatchObject({ precision: 0, autoSkip: false });
    expect((curveConfig({ ...lever, maxScores: [] }, { text: '#000', grid: '#ccc' }).options!.scales!.y as { max?: number }).max).toBeUndefined();
  });

  it('labels integer ticks from 0 up to and including the max score, in a step that fits', () => {
    expect(scoreTicks(5, 6)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(scoreTicks(5, 4)).toEqual([0, 2, 5]);
    expect(scoreTicks(5, 3)).toEqual([0, 5]);
    expect(scoreTicks(7, 5)).toEqual([0, 2, 4, 7]);
    expect(scoreTicks(9, 4)).toEqual([0, 9]);
    expect(scoreTicks(350, 6)).toEqual([0, 100, 200, 350]);
    expect(scoreTicks(10, 4)).toEqual([0, 5, 10]);
    expect(scoreTicks(0, 4)).toEqual([0]);
  });

  it('gives a teaching game\'s 0…5 axis every whole number at workshop type size (22 px) on the 140 px of axis it gets at 1280 × 800', () => {
    expect(scoreLabelRoom(140, 22)).toBe(6);
    expect(scoreTicks(5, scoreLabelRoom(140, 22))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(scoreTicks(5, scoreLabelRoom(120, 18))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(scoreTicks(350, scoreLabelRoom(140, 22))).toEqual([0, 100, 200, 350]);
  });
});
