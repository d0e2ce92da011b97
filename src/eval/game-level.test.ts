import { describe, expect, it } from 'vitest';
import reference from './fixtures/game-level-reference.json';
import { gameLevelPower, holm, repeatsNeeded, signFlipP, studentTQuantile, tInterval, varianceComponents } from './game-level.ts';
import { SeededRng } from '../ttl/rng.ts';

describe('game-level statistics against scipy / statsmodels (fixture made by scripts/game-level-reference.py)', () => {
  it('names the versions that made the fixture', () => {
    expect(reference.madeBy).toMatch(/scipy \d+\.\d+/);
    expect(reference.madeBy).toMatch(/statsmodels \d+\.\d+/);
  });

  it('t quantiles equal scipy.stats.t.ppf', () => {
    for (const { q, df, t } of reference.quantiles) expect(studentTQuantile(q, df)).toBeCloseTo(t, 9);
  });

  it('t-intervals (G − 1 df) and their p equal scipy.stats.ttest_1samp on the same game means', () => {
    for (const c of reference.cases) {
      const mine = tInterval(c.values);
      expect(mine.low).toBeCloseTo(c.tLow, 10);
      expect(mine.high).toBeCloseTo(c.tHigh, 10);
      expect(mine.p).toBeCloseTo(c.tP, 10);
    }
    // Three games with Δ 0.041, 0.059, 0.104: the t-interval spans 0 where the bootstrap did not.
    const three = tInterval([0.041, 0.059, 0.104]);
    expect(three.low).toBeLessThan(0);
    expect(three.high).toBeGreaterThan(0.14);
  });

  it('the exact sign-flip p equals scipy.stats.permutation_test (samples, two-sided); minP = 2 / 2^G', () => {
    for (const c of reference.cases) {
      const mine = signFlipP(c.values);
      expect(mine.p).toBeCloseTo(c.signFlipP, 12);
      expect(mine.exact).toBe(true);
      expect(mine.minP).toBeCloseTo(2 / 2 ** c.values.length, 15);
      expect(mine.p).toBeGreaterThanOrEqual(mine.minP);
    }
    expect(signFlipP([0.1, 0.2, 0.3]).p).toBe(0.25);
  });

  it('Holm-adjusted p equal statsmodels multipletests(method="holm")', () => {
    for (const c of reference.holm) {
      const mine = holm(c.p);
      c.adjusted.forEach((x, i) => expect(mine[i]).toBeCloseTo(x, 12));
    }
  });

  it('the game-level power equals statsmodels TTestPower (noncentral t) within 1e-4', () => {
    for (const c of reference.power) {
      expect(Math.abs(gameLevelPower({ delta: c.delta, sessionSd: c.sessionSd, tau: c.tau, games: c.games }, c.repeats) - c.power)).toBeLessThan(1e-4);
    }
  });
});

describe('repeats needed and variance components', () => {
  it('gives the smallest r reaching 80 % power, and null with a reason when τ caps the power', () => {
    const input = { delta: 0.05, sessionSd: 0.1, tau: 0, games: 6 };
    const need = repeatsNeeded(input);
    expect(need.repeats).not.toBeNull();
    expect(gameLevelPower(input, need.repeats!)).toBeGreaterThanOrEqual(0.8);
    expect(gameLevelPower(input, need.repeats! - 1)).toBeLessThan(0.8);
    const capped = repeatsNeeded({ delta: 0.05, sessionSd: 0.1, tau: 0.1, games: 3 });
    expect(capped.repeats).toBeNull();
    expect(capped.reason).toMatch(/add games/);
    expect(repeatsNeeded({ ...input, games: 1 }).repeats).toBeNull();
  });

  it('recovers σ and τ from simulated paired differences', () => {
    const rng = new SeededRng(7);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    const games = Array.from({ length: 40 }, () => { const mu = 0.1 * normal(); return Array.from({ length: 50 }, () => mu + 0.2 * normal()); });
    const v = varianceComponents(games);
    expect(v.sessionSd).toBeGreaterThan(0.18);
    expect(v.sessionSd).toBeLessThan(0.22);
    expect(v.tau).toBeGreaterThan(0.06);
    expect(v.tau).toBeLessThan(0.14);
  });
});

describe('the game-level flag under the null with game-level spread τ > 0', () => {
  it('flags about 5 % of null draws (8 games, 15 repeats, σ = 0.10, τ = 0.10), where a per-session interval flags far more', () => {
    const rng = new SeededRng(11);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    const draws = 400;
    let flagged = 0;
    let naive = 0;
    for (let d = 0; d < draws; d++) {
      const games = Array.from({ length: 8 }, () => { const mu = 0.1 * normal(); return Array.from({ length: 15 }, () => mu + 0.1 * normal()); });
      const means = games.map((g) => g.reduce((a, b) => a + b, 0) / g.length);
      if (signFlipP(means).p <= 0.05) flagged++;
      // An interval that treats the 120 sessions as independent (ignoring the games) for contrast.
      const all = games.flat();
      const m = all.reduce((a, b) => a + b, 0) / all.length;
      const se = Math.sqrt(all.reduce((s, x) => s + (x - m) ** 2, 0) / (all.length - 1) / all.length);
      if (Math.abs(m) > 1.96 * se) naive++;
    }
    // Exact level at G = 8: 12 / 256 = 0.047; binomial SD over 400 draws ≈ 0.011.
    expect(flagged / draws).toBeGreaterThan(0.015);
    expect(flagged / draws).toBeLessThan(0.085);
    expect(naive / draws).toBeGreaterThan(0.3);
  });
});
