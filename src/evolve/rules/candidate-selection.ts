/**
 * Which candidate of the pool is the next parent (GEPA ≥ 0.1.4, `candidate_selection_strategy`,
 * src/gepa/strategies/candidate_selector.py), over the pool's mean validation W-AUC per task:
 * - `pareto` (default, GEPA 0.1.0's and the paper's): a draw ∝ pruned Pareto fronts led (pareto.ts);
 * - `current_best`: the best mean validation score, no draw (ties: the earliest-created);
 * - `epsilon_greedy`: with probability ε (default 0.1, as GEPA) a uniform draw over the pool in
 *   creation order, else the current best — one draw, plus one more when exploring;
 * - `top_k_pareto`: the Pareto draw restricted to the k (default 5, as GEPA) best by mean
 *   (ties keep creation order, as Python's stable reverse sort); the best when no front keeps one.
 * Our RNG is not Python's, so equality with GEPA is on the same scores and the same draws.
 */
import type { SeededRng } from '../../ttl/rng.ts';
import { EVOLUTION_DEFAULTS } from '../run-defaults.ts';
import { compareCandidateIds, meanOver, paretoFronts, samplingListOf, selectParent, type ScoreMatrix } from './pareto.ts';

export const CANDIDATE_SELECTIONS = ['pareto', 'current_best', 'epsilon_greedy', 'top_k_pareto'] as const;
export type CandidateSelection = (typeof CANDIDATE_SELECTIONS)[number];

/** GEPA's defaults for the string-named selectors (api.py). */
export const DEFAULT_EPSILON: number = EVOLUTION_DEFAULTS.epsilon;
export const DEFAULT_TOP_K: number = EVOLUTION_DEFAULTS.topK;

export interface SelectionOptions {
  selection: CandidateSelection;
  /** ε of `epsilon_greedy`, in [0, 1]. */
  epsilon?: number;
  /** k of `top_k_pareto`, ≥ 1. */
  topK?: number;
}

/** The earliest-created candidate with the highest mean over `taskIds` (GEPA's idxmax). */
export function currentBest(scores: ScoreMatrix, taskIds: readonly string[]): string {
  const ids = Object.keys(scores).sort(compareCandidateIds);
  if (ids.length === 0) throw new Error('parent selection needs at least one scored candidate');
  let best = ids[0]!;
  for (const id of ids) if (meanOver(scores[id]!, taskIds) > meanOver(scores[best]!, taskIds)) best = id;
  return best;
}

/**
 * The next parent's id.
 * @throws Error when the pool is empty, or ε / k is out of range
 */
export function selectCandidate(options: SelectionOptions, scores: ScoreMatrix, taskIds: readonly string[], rng: Pick<SeededRng, 'next' | 'int' | 'pick'>): string {
  switch (options.selection) {
    case 'pareto':
      return selectParent(scores, taskIds, rng);
    case 'current_best':
      return currentBest(scores, taskIds);
    case 'epsilon_greedy': {
      const epsilon = options.epsilon ?? DEFAULT_EPSILON;
      if (!(epsilon >= 0 && epsilon <= 1)) throw new Error(`epsilon must be in [0, 1], got ${epsilon}`);
      const ids = Object.keys(scores).sort(compareCandidateIds);
      if (ids.length === 0) throw new Error('parent selection needs at least one scored candidate');
      return rng.next() < epsilon ? ids[rng.int(ids.length)]! : currentBest(scores, taskIds);
    }
    case 'top_k_pareto': {
      const k = options.topK ?? DEFAULT_TOP_K;
      if (!(Number.isInteger(k) && k >= 1)) throw new Error(`top-k must be a whole number ≥ 1, got ${k}`);
      const ids = Object.keys(scores).sort(compareCandidateIds);
      // A stable sort by descending mean keeps creation order among ties, as Python's sorted(reverse=True).
      const top = new Set(ids.map((id) => ({ id, mean: meanOver(scores[id]!, taskIds) })).sort((a, b) => b.mean - a.mean).slice(0, k).map((x) => x.id));
      const fronts = Object.fromEntries(Object.entries(paretoFronts(scores, taskIds)).map(([task, front]) => [task, front.filter((id) => top.has(id))] as const).filter(([, front]) => front.length > 0));
      const list = samplingListOf(fronts, scores, taskIds);
      return list.length === 0 ? currentBest(scores, taskIds) : rng.pick(list);
    }
  }
}
