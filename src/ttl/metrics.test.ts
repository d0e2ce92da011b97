import { describe, expect, it } from 'vitest';
import { averageScore, bestScore, bootstrapMean, hierarchicalBootstrapMean, nestedBootstrapMean, nestedPairedDifference, pairedDifference, percentile, wAuc } from './metrics.ts';
import { SeededRng } from './rng.ts';

describe('W-AUC', () => {
  it('scores 0, 10, 20 with max 40 → (1·0 + 2·10 + 3·20) / (40 · 6) = 80/240', () => {
    expect(wAuc([0, 10, 20], 40)).toBeCloseTo(80 / 240, 12);
  });
  it('weights later episodes more: the same scores reversed give less', () => {
    expect(wAuc([20, 10, 0], 40)).toBeCloseTo(40 / 240, 12);
  });
  it('keeps negative scores signed and is n/a without a max score', () => {
    expect(wAuc([-2, 0], 10)).toBeCloseTo(-2 / 30, 12);
    expect(wAuc([1, 2], null)).toBeNull();
    expect(wAuc([1, 2], 0)).toBeNull();
  });
  it('average and best', () => {
    expect(averageScore([0, 10, 20])).toBe(10);
    expect(bestScore([0, 10, -5])).toBe(10);
  });
});

describe('bootstrap', () => {
  it('percentile interpolates linearly (type 7)', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([10, 20], 0.025)).toBeCloseTo(10.25, 12);
  });

  it('a constant sample has a zero-width interval at its value', () => {
    expect(bootstrapMean([3, 3, 3], { seed: 1 })).toMatchObject({ estimate: 3, low: 3, high: 3, resamples: 2000, n: 3 });
  });

  it('matches an independent computation of the same resampling scheme', () => {
    const values = [0.1, 0.4, 0.35, 0.8, 0.2];
    const ci = bootstrapMean(values, { seed: 7, resamples: 500 });
    // Independent re-implementation: the same generator, draws taken in the same order.
    const rng = new SeededRng(7);
    const means = Array.from({ length: 500 }, () => values.map(() => values[Math.floor(rng.next() * 5)]!).reduce((a, b) => a + b) / 5).sort((a, b) => a - b);
    expect(ci.low).toBeCloseTo(means[12]! + (means[13]! - means[12]!) * (499 * 0.025 - 12), 12);
    expect(ci.estimate).toBeCloseTo(0.37, 12);
    expect(ci.low).toBeLessThan(0.37);
    expect(ci.high).toBeGreaterThan(0.37);
  });

  it('is reproducible for a seed and differs across seeds', () => {
    const v = [0.13, 0.57, 0.21, 0.88, 0.34, 0.95, 0.42];
    expect(bootstrapMean(v, { seed: 3 })).toEqual(bootstrapMean(v, { seed: 3 }));
    expect(bootstrapMean(v, { seed: 3 }).low).not.toBe(bootstrapMean(v, { seed: 4 }).low);
  });

  it('hierarchical: three games do not masquerade as many samples (wider than the flat bootstrap)', () => {
    const groups = [[0.1, 0.1, 0.1, 0.1], [0.5, 0.5, 0.5, 0.5], [0.9, 0.9, 0.9, 0.9]];
    const flat = bootstrapMean(groups.flat(), { seed: 11 });
    const nested = hierarchicalBootstrapMean(groups, { seed: 11 });
    expect(nested.estimate).toBeCloseTo(0.5, 12);
    expect(nested.high - nested.low).toBeGreaterThan(flat.high - flat.low);
    expect(nested.n).toBe(12);
  });

  it('paired difference of identical arms is exactly zero; a constant shift is recovered', () => {
    const same = pairedDifference([[[0.2, 0.2], [0.4, 0.4]], [[0.6, 0.6]]], { seed: 5 });
    expect(same).toMatchObject({ estimate: 0, low: 0, high: 0 });
    const shifted = pairedDifference([[[0.3, 0.2], [0.5, 0.4]], [[0.7, 0.6]]], { seed: 5 });
    expect(shifted.low).toBeCloseTo(0.1, 12);
    expect(shifted.high).toBeCloseTo(0.1, 12);
  });

  it('game → seed → repeat: with one seed per game it is exactly the games → sessions bootstrap', () => {
    const groups = [[0.1, 0.15, 0.12], [0.5, 0.45], [0.9, 0.8, 0.85, 0.7]];
    expect(nestedBootstrapMean(groups.map((g) => [g]), { seed: 11 })).toEqual(hierarchicalBootstrapMean(groups, { seed: 11 }));
    expect(nestedPairedDifference([[[[0.3, 0.2], [0.5, 0.4]]], [[[0.7, 0.6]]]], { seed: 5 })).toMatchObject({ low: expect.closeTo(0.1, 12), high: expect.closeTo(0.1, 12) });
  });

  it('game → seed → repeat: when seeds differ, its intervals are ≥ 10% wider than games → sessions and not narrower than the true spread', () => {
    // Simulated task sets: 6 games × 3 seeds × 3 repeats, value = game effect + seed effect + noise
    // (sd 0.05, 0.15, 0.02). True sd of the grand mean: √(0.05²/6 + 0.15²/18 + 0.02²/54).
    const rng = new SeededRng(2024);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    const trueWidth = 2 * 1.96 * Math.sqrt(0.0025 / 6 + 0.0225 / 18 + 0.0004 / 54);
    let nestedWidth = 0;
    let flatWidth = 0;
    const datasets = 60;
    for (let d = 0; d < datasets; d++) {
      const games = Array.from({ length: 6 }, () => {
        const g = 0.05 * normal();
        return Array.from({ length: 3 }, () => {
          const s = g + 0.15 * normal();
          return Array.from({ length: 3 }, () => s + 0.02 * normal());
        });
      });
      const nested = nestedBootstrapMean(games, { seed: d, resamples: 1000 });
      const flat = hierarchicalBootstrapMean(games.map((g) => g.flat()), { seed: d, resamples: 1000 });
      nestedWidth += (nested.high - nested.low) / datasets;
      flatWidth += (flat.high - flat.low) / datasets;
    }
    // Measured: nested ≈ 1.10 × the true width (resampling every level is conservative: a game's
    // resampled mean already varies with its seeds), games → sessions ≈ 0.86 × nested.
    expect(nestedWidth / trueWidth).toBeGreaterThan(0.95);
    expect(nestedWidth / trueWidth).toBeLessThan(1.2);
    expect(flatWidth / nestedWidth).toBeLessThan(0.9);
  });
});
