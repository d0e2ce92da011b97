import { describe, expect, it } from 'vitest';
import { lineChartConfig, seriesStyle, xBounds, yBounds, type LineChartSpec } from './line-chart.ts';

const spec = (ys: number[][], extra: Partial<LineChartSpec> = {}): LineChartSpec => ({
  series: ys.map((y, i) => ({ label: `s${i}`, colour: '#123456', points: y.map((v, x) => ({ x: x + 1, y: v })) })), xLabel: 'x', yLabel: 'y', ...extra,
});

describe('line chart axes and markers', () => {
  it('all-zero scores get a 0…1 axis, non-negative data starts at 0, negative data and set bounds are left alone', () => {
    expect(yBounds(spec([[0, 0], [0, 0]]))).toEqual({ min: 0, max: undefined, suggestedMax: 1 });
    expect(yBounds(spec([[1, 3]]))).toEqual({ min: 0, max: undefined, suggestedMax: undefined });
    expect(yBounds(spec([[-2, 3]]))).toEqual({ min: undefined, max: undefined, suggestedMax: undefined });
    expect(yBounds(spec([[0, 0]], { yMin: -1, yMax: 5 }))).toEqual({ min: -1, max: 5, suggestedMax: undefined });
  });

  it('series differ in marker shape, size and dashes, the first drawn largest', () => {
    const [a, b, c] = [0, 1, 2].map((i) => seriesStyle(i, 3));
    expect([a!.pointStyle, b!.pointStyle, c!.pointStyle]).toEqual(['circle', 'rectRot', 'triangle']);
    expect([a!.pointRadius, b!.pointRadius, c!.pointRadius]).toEqual([8, 6, 4]);
    expect(a!.borderDash).toEqual([]);
    expect(b!.borderDash.length).toBeGreaterThan(0);
  });
});

describe('a chart with a max score (episodes side by side)', () => {
  it('runs its y axis to the max score with whole-number ticks and a dashed max-score line across the steps', () => {
    const config = lineChartConfig(spec([[0, 1, 2], [0, 0, 4]], { xMin: 0, xMax: 3, yMax: 5, integerY: true, refLines: [{ label: 'Max score (5)', y: 5 }] }), '#111');
    const y = config.options!.scales!.y!;
    expect(y).toMatchObject({ min: 0, max: 5, ticks: { precision: 0, stepSize: 1 } });
    const line = config.data.datasets.find((d) => d.label === 'Max score (5)')!;
    expect(line.data).toEqual([{ x: 0, y: 5 }, { x: 3, y: 5 }]);
    expect(line.borderDash!.length).toBeGreaterThan(0);
    expect(config.options!.plugins!.legend!.labels!.usePointStyle).toBe(true);
  });

  it('without one, keeps decimals allowed and draws no extra line', () => {
    const config = lineChartConfig(spec([[0, 0.5]]), '#111');
    expect((config.options!.scales!.y!.ticks as { precision?: number }).precision).toBeUndefined();
    expect(config.data.datasets.map((d) => d.label)).toEqual(['s0']);
  });
});

describe('a whole-number x axis of one value (K = 1)', () => {
  it('is widened half a step each side, labelled only at whole numbers, and a reference line spans it', () => {
    const one = spec([[36]], { xMin: 1, xMax: 1, integerX: true, refLines: [{ label: 'Max score (350)', y: 350 }] });
    expect(xBounds(one)).toEqual({ min: 0.5, max: 1.5 });
    const x = lineChartConfig(one, '#000').options!.scales!.x as { min: number; max: number; ticks: { stepSize?: number; includeBounds?: boolean } };
    expect([x.min, x.max]).toEqual([0.5, 1.5]);
    expect(x.ticks).toMatchObject({ stepSize: 1, includeBounds: false });
    expect(lineChartConfig(one, '#000').data.datasets.at(-1)!.data).toEqual([{ x: 0.5, y: 350 }, { x: 1.5, y: 350 }]);
    // Wider axes keep their bounds and Chart.js's own tick steps.
    const six = spec([[1, 2]], { xMin: 1, xMax: 6, integerX: true });
    expect(xBounds(six)).toEqual({ min: 1, max: 6 });
    expect((lineChartConfig(six, '#000').options!.scales!.x as { ticks: { stepSize?: number } }).ticks.stepSize).toBeUndefined();
    expect(xBounds(spec([[1]], { xMin: 1, xMax: 1 }))).toEqual({ min: 1, max: 1 });
  });
});
