/**
 * The selection test's arithmetic: Welch intervals of linear combinations of session means against
 * a computation written out here (Welch–Satterthwaite df, t quantiles from scipy where the df is an
 * integer), pairing by (task, repeat), recorded − fresh per session, and the cases without an interval.
 */
import { describe, expect, it } from 'vitest';
import { studentTQuantile } from '../eval/game-level.ts';
import { optimismValues, pairedDiffs, pooledSelection, welchCombination } from './selection.ts';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: number[]) => xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1);

describe('welchCombination', () => {
  it('one term: the one-sample t-interval (scipy t.ppf(0.975, 4) = 2.7764451051977987)', () => {
    const xs = [0.12, 0.3, 0.05, 0.2, 0.18];
    const r = welchCombination([{ weight: 1, values: xs }], 0.5)!;
    const half = 2.7764451051977987 * Math.sqrt(variance(xs) / 5);
    expect(r.mean).toBeCloseTo(0.5 + mean(xs), 12);
    expect(r.low).toBeCloseTo(0.5 + mean(xs) - half, 9);
    expect(r.high).toBeCloseTo(0.5 + mean(xs) + half, 9);
    expect(r).toMatchObject({ n: 5, df: expect.closeTo(4, 9) });
  });

  it('a difference of two means with unequal n and spread: Welch–Satterthwaite df, written out', () => {
    const a = [0.4, 0.1];
    const b = [0.3, 0.31, 0.29, 0.5];
    const va = variance(a) / 2;
    const vb = variance(b) / 4;
    const df = (va + vb) ** 2 / (va ** 2 / 1 + vb ** 2 / 3);
    const r = welchCombination([{ weight: 1, values: a }, { weight: -1, values: b }])!;
    expect(r.df).toBeCloseTo(df, 9);
    expect(df).not.toBeCloseTo(Math.round(df), 2);
    const half = studentTQuantile(0.975, df) * Math.sqrt(va + vb);
    expect([r.mean, r.low, r.high]).toEqual([expect.closeTo(mean(a) - mean(b), 12), expect.closeTo(mean(a) - mean(b) - half, 9), expect.closeTo(mean(a) - mean(b) + half, 9)]);
  });

  it('below two values there is no interval; no values, no estimate; zero spread, zero width', () => {
    expect(welchCombination([{ weight: 1, values: [0.3] }])).toEqual({ mean: 0.3, low: null, high: null, n: 1, df: null });
    expect(welchCombination([{ weight: 1, values: [] }])).toBeNull();
    expect(welchCombination([{ weight: 1, values: [0.2, 0.2] }, { weight: -1, values: [0.1, 0.1, 0.1] }])).toEqual({ mean: expect.closeTo(0.1, 12), low: expect.closeTo(0.1, 12), high: expect.closeTo(0.1, 12), n: 5, df: null });
  });
});

describe('the selection test inputs', () => {
  const s = (policyId: string, taskId: string, repeat: number, wAuc: number) => ({ policyId, taskId, repeat, wAuc });

  it('pairs by (task, repeat) and skips a unit one arm did not play', () => {
    const sessions = [s('evolved', 't1', 0, 0.5), s('evolved', 't1', 1, 0.4), s('evolved', 't2', 0, 0.3), s('naive', 't1', 1, 0.1), s('naive', 't1', 0, 0.2), s('naive', 't3', 0, 0.9)];
    expect(pairedDiffs(sessions, 'evolved', 'naive')).toEqual([expect.closeTo(0.3, 12), expect.closeTo(0.3, 12)]);
  });

  it('optimism = recorded score on the session\'s task − the fresh session, for the chosen arm only', () => {
    const sessions = [s('evolved', 't1', 0, 0.5), s('evolved', 't2', 0, 0.1), s('naive', 't1', 0, 0.2), s('evolved', 'tX', 0, 0.7)];
    expect(optimismValues(sessions, 'evolved', { t1: 0.6, t2: 0.1 })).toEqual([expect.closeTo(0.1, 12), 0]);
  });

  it('pooled: each fold weighs 1/F whatever its n; folds without data are left out', () => {
    const folds = [{ optimism: [0.1, 0.3], validationDiffs: [0.2, 0.2], testDiffs: [0, 0.1] }, { optimism: [0, 0, 0.3, 0.3], validationDiffs: [], testDiffs: [0.1] }];
    const p = pooledSelection(folds);
    expect(p.folds).toBe(2);
    expect(p.selectionOptimism!.mean).toBeCloseTo((0.2 + 0.15) / 2, 12);
    expect(p.transferGap!.mean).toBeCloseTo(0.2 - 0.05, 12);
    expect(p.acrossFolds.selectionOptimism!.mean).toBeCloseTo(0.175, 12);
    expect(p.acrossFolds.transferGap).toEqual({ mean: expect.closeTo(0.15, 12), low: null, high: null });
  });
});
