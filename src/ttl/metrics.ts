/**
 * Session metrics and their uncertainty (method.md, "Metrics"):
 * - W-AUC = Σ_t t·s_t / (M · Σ_t t) over episodes t = 1…K with final scores s_t and max score M
 *   (Meta-TTL, arXiv 2604.00830, §4); later episodes weigh more; in [0, 1] for non-negative scores.
 * - average and best raw episode score.
 * - 95% percentile-bootstrap intervals (Efron & Tibshirani 1993, ch. 13), B = 2,000, seeded;
 *   hierarchical for sessions grouped by game (resample games, then sessions within each game; when
 *   a game has several seeds, games, then seeds within a game, then repeats within a seed — the
 *   levels at which the data vary), and paired for differences between two arms on the same
 *   (game, seed, repeat) units.
 */
import { SeededRng } from './rng.ts';

/**
 * W-AUC of one session.
 * @param scores final score of each episode, in order (score points, signed)
 * @param maxScore the game's max score M (> 0)
 * @returns a number (in [0, 1] for scores in [0, M]); null when M is unknown or not positive
 */
export function wAuc(scores: readonly number[], maxScore: number | null): number | null {
  if (maxScore === null || !(maxScore > 0) || scores.length === 0) return null;
  let weighted = 0;
  let weights = 0;
  scores.forEach((s, i) => {
    weighted += (i + 1) * s;
    weights += i + 1;
  });
  return weighted / (maxScore * weights);
}

/** Mean of the episode scores (NaN for none). */
export function averageScore(scores: readonly number[]): number {
  return scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : Number.NaN;
}

/** Best episode score (−Infinity for none). */
export function bestScore(scores: readonly number[]): number {
  return Math.max(...scores);
}

export const mean = averageScore;

export interface Interval {
  /** The statistic on the original data. */
  estimate: number;
  low: number;
  high: number;
  /** Resamples drawn. */
  resamples: number;
  /** Number of values (sessions or pairs) behind the figure. */
  n: number;
}

export interface BootstrapOptions {
  seed: number;
  /** Resamples B (default 2,000). */
  resamples?: number;
  /** Coverage (default 0.95). */
  level?: number;
}

/** Percentile `q` in [0, 1] of sorted values (linear interpolation, type 7). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

function interval(estimate: number, draws: number[], level: number, n: number): Interval {
  draws.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { estimate, low: percentile(draws, tail), high: percentile(draws, 1 - tail), resamples: draws.length, n };
}

/** Percentile-bootstrap CI of the mean of independent values. */
export function bootstrapMean(values: readonly number[], options: BootstrapOptions): Interval {
  const rng = new SeededRng(options.seed);
  const b = options.resamples ?? 2000;
  const draws: number[] = [];
  for (let r = 0; r < b; r++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[rng.int(values.length)]!;
    draws.push(sum / values.length);
  }
  return interval(mean(values), draws, options.level ?? 0.95, values.length);
}

/**
 * Hierarchical percentile bootstrap of the mean over sessions grouped by game: each resample
 * draws games with replacement, then sessions with replacement within each drawn game, and takes
 * the mean of all drawn sessions. The estimate is the plain mean of all sessions.
 * @param groups values per game (each non-empty)
 */
export function hierarchicalBootstrapMean(groups: readonly (readonly number[])[], options: BootstrapOptions): Interval {
  // One seed per game: the three-level bootstrap draws no seed, so this is exactly two levels.
  return nestedBootstrapMean(groups.map((g) => [g]), options);
}

/**
 * Three-level percentile bootstrap of the mean: games with replacement, then seeds with
 * replacement within each drawn game, then repeats with replacement within each drawn seed; the
 * mean of all drawn sessions. A game with a single seed draws no seed (it can only be itself), so
 * task sets with one seed per game give exactly `hierarchicalBootstrapMean`'s interval.
 * @param games games → seeds → the values of that seed's repeats (empty seeds and games ignored)
 */
export function nestedBootstrapMean(games: readonly (readonly (readonly number[])[])[], options: BootstrapOptions): Interval {
  const kept = games.map((g) => g.filter((seed) => seed.length > 0)).filter((g) => g.length > 0);
  const rng = new SeededRng(options.seed);
  const b = options.resamples ?? 2000;
  const draws: number[] = [];
  for (let r = 0; r < b; r++) {
    let sum = 0;
    let count = 0;
    for (let g = 0; g < kept.length; g++) {
      const game = kept[rng.int(kept.length)]!;
      for (let s = 0; s < game.length; s++) {
        const seed = game.length === 1 ? game[0]! : game[rng.int(game.length)]!;
        for (let i = 0; i < seed.length; i++) sum += seed[rng.int(seed.length)]!;
        count += seed.length;
      }
    }
    draws.push(sum / count);
  }
  const all = kept.flat(2);
  return interval(mean(all), draws, options.level ?? 0.95, all.length);
}

/**
 * Paired hierarchical bootstrap of mean(a − b): `pairs[g]` holds, for game g, the (a, b) values of
 * the same (seed, repeat) units; games, then units within games, are resampled together so each
 * draw keeps the pairing.
 */
export function pairedDifference(pairs: readonly (readonly [number, number][])[], options: BootstrapOptions): Interval {
  return hierarchicalBootstrapMean(pairs.map((game) => game.map(([a, b]) => a - b)), options);
}

/** Paired three-level bootstrap of mean(a − b): games → seeds → the (a, b) pairs of each repeat. */
export function nestedPairedDifference(pairs: readonly (readonly (readonly [number, number][])[])[], options: BootstrapOptions): Interval {
  return nestedBootstrapMean(pairs.map((game) => game.map((seed) => seed.map(([a, b]) => a - b))), options);
}
