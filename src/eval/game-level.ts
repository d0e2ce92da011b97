/**
 * The game as the unit of a claim: statistics over G per-game mean differences (method.md
 * "Metrics"). With few games the nested bootstrap's interval is about [lowest game, highest game]
 * and excludes 0 far more often than 5 % under the null; these tests treat each game as one
 * observation, so they say what G games can and cannot support.
 *
 * - `studentTQuantile`, `studentTCdf`: Student's t distribution (regularized incomplete beta,
 *   Numerical Recipes 3rd ed. §6.4; log-gamma by Lanczos, §6.1); checked against scipy.stats.t.
 * - `tInterval`: mean ± t(1 − α/2, G − 1)·s/√G (scipy.stats.ttest_1samp(...).confidence_interval()).
 * - `signFlipP`: the exact two-sided sign-flip permutation p of the mean over all 2^G sign
 *   assignments (scipy.stats.permutation_test, permutation_type='samples'), with `minP` = 2 / 2^G,
 *   the smallest p G games can reach.
 * - `holm`: Holm's step-down adjusted p values (statsmodels multipletests method='holm').
 * - `varianceComponents`, `repeatsNeeded`: the power of the game-level t-test for a named Δ
 *   (noncentral t, as statsmodels' TTestPower).
 * Pure; no DOM or Node imports.
 */
import { SeededRng } from '../ttl/rng.ts';

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; |error| < 1e-13 for the arguments used here). */
function lnGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta (modified Lentz). */
function betaCf(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d; if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c; if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d; h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d; if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c; if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b), x in [0, 1]. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaCf(a, b, x)) / a : 1 - (front * betaCf(b, a, 1 - x)) / b;
}

/** P(T ≤ t) for Student's t with `df` > 0 degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0;
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The q-quantile (0 < q < 1) of Student's t with `df` degrees of freedom (bisection on the CDF, |error| < 1e-12). */
export function studentTQuantile(q: number, df: number): number {
  if (!(q > 0 && q < 1) || !(df > 0)) return Number.NaN;
  if (q === 0.5) return 0;
  let lo = -1;
  let hi = 1;
  while (studentTCdf(lo, df) > q) lo *= 2;
  while (studentTCdf(hi, df) < q) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * Math.max(1, Math.abs(lo)); i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < q) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}

const meanOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Sample variance (n − 1 denominator); NaN below 2 values. */
export const sampleVariance = (xs: readonly number[]): number => {
  if (xs.length < 2) return Number.NaN;
  const m = meanOf(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
};

/**
 * Two-sided t-interval of the mean of `values` (G values, G − 1 df) and the t-test's two-sided p
 * against 0. Below 2 values the interval and p are NaN; zero spread gives a zero-width interval
 * and p = 0 (mean ≠ 0) or 1 (mean = 0).
 */
export function tInterval(values: readonly number[], level = 0.95): { mean: number; low: number; high: number; p: number } {
  const n = values.length;
  const mean = n ? meanOf(values) : Number.NaN;
  if (n < 2) return { mean, low: Number.NaN, high: Number.NaN, p: Number.NaN };
  const se = Math.sqrt(sampleVariance(values) / n);
  if (se === 0) return { mean, low: mean, high: mean, p: mean === 0 ? 1 : 0 };
  const half = studentTQuantile(1 - (1 - level) / 2, n - 1) * se;
  const p = 2 * studentTCdf(-Math.abs(mean / se), n - 1);
  return { mean, low: mean - half, high: mean + half, p };
}

/** Above this many games the sign-flip p is estimated from seeded random flips instead of all 2^G. */
export const EXACT_SIGN_FLIP_GAMES = 16;

/**
 * The two-sided sign-flip permutation p of mean(values) = 0: the share of the 2^G sign
 * assignments whose |mean| is at least the observed |mean| (the identity included, so p ≥ minP).
 * Exact up to `EXACT_SIGN_FLIP_GAMES` values; above, 100,000 seeded random assignments (+1 for the
 * observed). `minP` = 2 / 2^G (1 for G = 0), the smallest p that G games can reach.
 */
export function signFlipP(values: readonly number[], seed = 0): { p: number; minP: number; exact: boolean } {
  const g = values.length;
  if (g === 0) return { p: 1, minP: 1, exact: true };
  const observed = Math.abs(values.reduce((a, b) => a + b, 0));
  const tol = 1e-12 * Math.max(1, values.reduce((a, b) => a + Math.abs(b), 0));
  const minP = Math.min(1, 2 / 2 ** g);
  if (g <= EXACT_SIGN_FLIP_GAMES) {
    let hits = 0;
    const total = 2 ** g;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < g; i++) s += (mask >> i) & 1 ? -values[i]! : values[i]!;
      if (Math.abs(s) >= observed - tol) hits++;
    }
    return { p: hits / total, minP, exact: true };
  }
  const rng = new SeededRng(seed);
  const draws = 100_000;
  let hits = 0;
  for (let d = 0; d < draws; d++) {
    let s = 0;
    for (let i = 0; i < g; i++) s += rng.int(2) ? -values[i]! : values[i]!;
    if (Math.abs(s) >= observed - tol) hits++;
  }
  return { p: (hits + 1) / (draws + 1), minP, exact: false };
}

/**
 * Holm's step-down adjustment (Holm 1979): sort the m p values ascending, adjusted p_(i) =
 * max_{j ≤ i} min(1, (m − j + 1)·p_(j)); returned in the input order. NaN inputs stay NaN and do
 * not count in m.
 */
export function holm(pValues: readonly number[]): number[] {
  const order = pValues.map((p, i) => ({ p, i })).filter((x) => Number.isFinite(x.p)).sort((a, b) => a.p - b.p);
  const m = order.length;
  const out = pValues.map(() => Number.NaN);
  let running = 0;
  order.forEach(({ p, i }, k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    out[i] = running;
  });
  return out;
}

/**
 * Variance components of paired differences grouped by game: `sessionSd` = the pooled
 * within-game SD of one session's difference (σ), `tau` = the SD of the games' true mean
 * differences (τ, method of moments: max(0, var(game means) − mean(σ²/n_g)), 0 below 2 games).
 * @param games per game, its sessions' paired differences (games with none are ignored)
 */
export function varianceComponents(games: readonly (readonly number[])[]): { sessionSd: number; tau: number; sessionsPerGame: number } {
  const kept = games.filter((g) => g.length > 0);
  let ss = 0;
  let df = 0;
  for (const g of kept) {
    if (g.length < 2) continue;
    ss += sampleVariance(g) * (g.length - 1);
    df += g.length - 1;
  }
  const sigma2 = df > 0 ? ss / df : 0;
  const means = kept.map(meanOf);
  const tau2 = kept.length >= 2 ? Math.max(0, sampleVariance(means) - meanOf(kept.map((g) => sigma2 / g.length))) : 0;
  return { sessionSd: Math.sqrt(sigma2), tau: Math.sqrt(tau2), sessionsPerGame: kept.length ? meanOf(kept.map((g) => g.length)) : 0 };
}

export interface PowerInput {
  /** The true mean difference to detect (W-AUC units, > 0). */
  delta: number;
  /** σ: SD of one session's paired difference within a game. */
  sessionSd: number;
  /** τ: SD of the games' true mean differences. */
  tau: number;
  /** G games. */
  games: number;
  /** Seeds (tasks) per game; sessions per game = seeds × repeats. Default 1. */
  seedsPerGame?: number;
  /** Two-sided α (default 0.05) and the power wanted (default 0.8). */
  alpha?: number;
  power?: number;
  /** Largest repeat count tried (default 1,000). */
  maxRepeats?: number;
}

/** Standard normal CDF Φ(x) (erfc by Numerical Recipes' Chebyshev fit, |relative error| < 1.2e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/**
 * Power of the two-sided game-level t-test (G − 1 df, level α) for a true Δ: P(|T'| > t_{1−α/2})
 * for the noncentral t T' = (Z + λ)/S with λ = Δ/SE, SE = √((τ² + σ²/(seeds·r))/G) and
 * S = √(χ²_{G−1}/(G−1)), integrated over S (Simpson, 4,000 panels) — statsmodels' TTestPower.
 */
export function gameLevelPower(input: PowerInput, repeats: number): number {
  const { delta, sessionSd, tau, games } = input;
  if (games < 2) return 0;
  const seeds = input.seedsPerGame ?? 1;
  const se = Math.sqrt((tau * tau + (sessionSd * sessionSd) / (seeds * repeats)) / games);
  if (se === 0) return delta !== 0 ? 1 : input.alpha ?? 0.05;
  const df = games - 1;
  const crit = studentTQuantile(1 - (input.alpha ?? 0.05) / 2, df);
  const lambda = delta / se;
  const logNorm = Math.log(2) + (df / 2) * Math.log(df / 2) - lnGamma(df / 2);
  // Density of S = √(χ²_df / df): 2 (df/2)^{df/2} / Γ(df/2) · s^{df−1} e^{−df s²/2}.
  const density = (x: number) => (x <= 0 ? (df === 1 ? Math.exp(logNorm) : 0) : Math.exp(logNorm + (df - 1) * Math.log(x) - (df * x * x) / 2));
  const f = (x: number) => (normalCdf(lambda - crit * x) + normalCdf(-lambda - crit * x)) * density(x);
  const top = 1 + 12 / Math.sqrt(df);
  const n = 4000;
  const h = top / n;
  let sum = f(0) + f(top);
  for (let i = 1; i < n; i++) sum += (i % 2 ? 4 : 2) * f(i * h);
  return Math.min(1, Math.max(0, (sum * h) / 3));
}

/**
 * Repeats per task needed for the game-level t-test to detect `delta` with the wanted power, or
 * null with the reason when no number of repeats reaches it (τ too large for G games, or fewer
 * than 2 games) — then only more games help.
 */
export function repeatsNeeded(input: PowerInput): { repeats: number | null; powerAtLimit: number; reason: string | null } {
  const want = input.power ?? 0.8;
  const max = input.maxRepeats ?? 1000;
  if (input.games < 2) return { repeats: null, powerAtLimit: 0, reason: `${input.games} game${input.games === 1 ? '' : 's'}: a game-level test needs at least 2` };
  const limit = gameLevelPower({ ...input, sessionSd: 0 }, 1);
  if (limit < want) return { repeats: null, powerAtLimit: limit, reason: `with ${input.games} games and game-level SD τ = ${input.tau.toFixed(3)} even infinitely many repeats give power ${(limit * 100).toFixed(0)} %: add games` };
  for (let r = 1; r <= max; r++) if (gameLevelPower(input, r) >= want) return { repeats: r, powerAtLimit: limit, reason: null };
  return { repeats: null, powerAtLimit: limit, reason: `more than ${max} repeats` };
}
