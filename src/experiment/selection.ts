/**
 * The skeptic's test of selection, per leave-one-game-out fold and pooled over folds:
 *
 * - selection optimism (the winner's curse): the chosen candidate's recorded validation W-AUC (the
 *   number the evolution chose it by, mean per validation task) minus its W-AUC in fresh sessions
 *   on the same validation tasks. One value per fresh session: recorded(task) − fresh session.
 * - transfer gap: (chosen − naive) on the validation games, fresh, minus (chosen − naive) on the
 *   held-out game — a difference of differences, so each game's difficulty cancels inside each
 *   paired difference. Pairs are (task, repeat) units where both arms played.
 *
 * Intervals are two-sided 95 % Welch t-intervals over sessions: estimate = c + Σ w_k · mean(x_k),
 * SE² = Σ w_k² s_k² / n_k, df by Welch–Satterthwaite (Welch 1947) = SE⁴ / Σ (w_k² s_k² / n_k)² /
 * (n_k − 1). The recorded validation score is taken as a fixed number (its own sampling noise is
 * not in the interval); folds and games are fixed (the interval says nothing about other games).
 * Below 2 values in a component with weight ≠ 0 there is no interval (low = high = null); zero
 * spread gives a zero-width interval. Pure; no UI, DOM or Node imports.
 */
import { studentTQuantile, tInterval } from '../eval/game-level.ts';

/** One session's W-AUC as the selection test reads it (an evaluation's per-session result). */
export interface SessionWAuc {
  policyId: string;
  taskId: string;
  repeat: number;
  wAuc: number;
}

/** `{mean, low, high}` of a selection quantity, W-AUC units; `n` = the sessions (or session pairs)
 * behind it, `df` the Welch–Satterthwaite degrees of freedom; low/high null when not estimable. */
export interface SelectionInterval {
  mean: number;
  low: number | null;
  high: number | null;
  n: number;
  df: number | null;
}

/** One term of a linear combination: weight × the mean of `values`. */
export interface MeanTerm {
  weight: number;
  values: readonly number[];
}

const meanOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Sample variance; exactly 0 when every value is the same (rounding in the mean would not give 0). */
const varOf = (xs: readonly number[]) => {
  if (xs.every((x) => x === xs[0])) return 0;
  const m = meanOf(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
};

/**
 * Welch t-interval of `constant + Σ weight · mean(values)` over independent terms (formula in the
 * module docstring). @returns null when a term has no values; low/high null when a weighted term
 * has fewer than 2 values.
 */
export function welchCombination(terms: readonly MeanTerm[], constant = 0, level = 0.95): SelectionInterval | null {
  const used = terms.filter((t) => t.weight !== 0);
  if (!used.length || used.some((t) => t.values.length === 0)) return null;
  const mean = constant + used.reduce((s, t) => s + t.weight * meanOf(t.values), 0);
  const n = used.reduce((s, t) => s + t.values.length, 0);
  if (used.some((t) => t.values.length < 2)) return { mean, low: null, high: null, n, df: null };
  const parts = used.map((t) => ({ v: (t.weight ** 2 * varOf(t.values)) / t.values.length, df: t.values.length - 1 }));
  const se2 = parts.reduce((s, p) => s + p.v, 0);
  if (se2 === 0) return { mean, low: mean, high: mean, n, df: null };
  const df = se2 ** 2 / parts.reduce((s, p) => s + p.v ** 2 / p.df, 0);
  const half = studentTQuantile(1 - (1 - level) / 2, df) * Math.sqrt(se2);
  return { mean, low: mean - half, high: mean + half, n, df };
}

/** recorded(task) − fresh W-AUC, one per fresh session of `chosen` on a task with a recorded
 * score (`recorded` maps a validation task id to the chosen candidate's recorded mean W-AUC there). */
export function optimismValues(sessions: readonly SessionWAuc[], chosen: string, recorded: Readonly<Record<string, number>>): number[] {
  return sessions.filter((s) => s.policyId === chosen && recorded[s.taskId] !== undefined).map((s) => recorded[s.taskId]! - s.wAuc);
}

/** a − b on every (task, repeat) unit where both arms played, in the order of `a`'s sessions. */
export function pairedDiffs(sessions: readonly SessionWAuc[], a: string, b: string): number[] {
  const other = new Map(sessions.filter((s) => s.policyId === b).map((s) => [`${s.taskId}\u0000${s.repeat}`, s.wAuc]));
  return sessions.filter((s) => s.policyId === a && other.has(`${s.taskId}\u0000${s.repeat}`)).map((s) => s.wAuc - other.get(`${s.taskId}\u0000${s.repeat}`)!);
}

/** What one fold hands to the pooled row. */
export interface FoldSelectionInput {
  optimism: number[];
  validationDiffs: number[];
  testDiffs: number[];
}

/** Per fold: selection optimism and transfer gap with their Welch intervals (module docstring). */
export function foldSelection(input: FoldSelectionInput): { selectionOptimism: SelectionInterval | null; transferGap: SelectionInterval | null } {
  return {
    selectionOptimism: welchCombination([{ weight: 1, values: input.optimism }]),
    transferGap: welchCombination([{ weight: 1, values: input.validationDiffs }, { weight: -1, values: input.testDiffs }]),
  };
}

/** Pooled over F folds: the unweighted mean of the fold estimates (each fold weighs 1/F), its
 * Welch interval over the sessions of every fold (folds fixed), and the fold-level t-interval
 * over the F fold estimates (F − 1 df; NaN → null below 2 folds). Folds without data are left out. */
export function pooledSelection(folds: readonly FoldSelectionInput[]): {
  folds: number;
  selectionOptimism: SelectionInterval | null;
  transferGap: SelectionInterval | null;
  acrossFolds: { selectionOptimism: { mean: number; low: number | null; high: number | null } | null; transferGap: { mean: number; low: number | null; high: number | null } | null };
} {
  const withOptimism = folds.filter((f) => f.optimism.length > 0);
  const withGap = folds.filter((f) => f.validationDiffs.length > 0 && f.testDiffs.length > 0);
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  const across = (values: number[]) => {
    if (!values.length) return null;
    const t = tInterval(values);
    return { mean: t.mean, low: finite(t.low), high: finite(t.high) };
  };
  return {
    folds: Math.max(withOptimism.length, withGap.length),
    selectionOptimism: withOptimism.length ? welchCombination(withOptimism.map((f) => ({ weight: 1 / withOptimism.length, values: f.optimism }))) : null,
    transferGap: withGap.length ? welchCombination(withGap.flatMap((f) => [{ weight: 1 / withGap.length, values: f.validationDiffs }, { weight: -1 / withGap.length, values: f.testDiffs }])) : null,
    acrossFolds: {
      selectionOptimism: across(withOptimism.map((f) => meanOf(f.optimism))),
      transferGap: across(withGap.map((f) => meanOf(f.validationDiffs) - meanOf(f.testDiffs))),
    },
  };
}
