/**
 * The Pareto pool of per-task experts (GEPA, Agrawal et al. 2025, §3.2 "Pareto-based candidate
 * selection"; method.md "Outer loop" 2a), with GEPA 0.1.0's order and tie-breaking
 * (gepa_utils.remove_dominated_programs / select_program_candidate_from_pareto_front):
 * - candidates are ordered by creation (c0, c1, …, c9, c10: ids compared as numbers);
 * - for each validation task, the front is every candidate tied for the best score there;
 * - pruning examines candidates from the lowest mean validation score up, ties in order of first
 *   appearance in the fronts (tasks in order, candidates in creation order within a front), and
 *   drops one when every front holding it also holds another candidate still kept; then it starts
 *   over, until nothing more can be dropped;
 * - a parent is drawn once, uniformly from the list in which each kept candidate appears once per
 *   front it leads (candidates in order of first appearance in the pruned fronts).
 */
import type { SeededRng } from '../../ttl/rng.ts';

/** Candidate id → task id → score (mean validation W-AUC). */
export type ScoreMatrix = Record<string, Record<string, number>>;

const collator = new Intl.Collator('en', { numeric: true });

/** Creation order of candidate ids: digit runs compare as numbers ("c9" < "c10"). */
export function compareCandidateIds(a: string, b: string): number {
  return collator.compare(a, b);
}

/** For each task, the candidates tied for the best score on it (exact ties; creation order). */
export function paretoFronts(scores: ScoreMatrix, taskIds: readonly string[]): Record<string, string[]> {
  const ids = Object.keys(scores).sort(compareCandidateIds);
  const fronts: Record<string, string[]> = {};
  for (const task of taskIds) {
    let best = -Infinity;
    for (const id of ids) best = Math.max(best, scores[id]![task] ?? -Infinity);
    fronts[task] = ids.filter((id) => best > -Infinity && scores[id]![task] === best);
  }
  return fronts;
}

/** Mean over `taskIds` in task order (GEPA's average of validation sub-scores). */
export const meanOver = (row: Record<string, number>, taskIds: readonly string[]): number =>
  taskIds.reduce((s, t) => s + (row[t] ?? 0), 0) / Math.max(1, taskIds.length);

/** Candidates in order of first appearance in `fronts` (tasks in key order). */
function firstAppearance(fronts: Record<string, string[]>): string[] {
  return [...new Set(Object.values(fronts).flat())];
}

/**
 * Drop candidates that no front needs, in GEPA's order (see the module comment). Returns the
 * pruned fronts (same keys; each front keeps its creation order).
 */
export function pruneDominated(fronts: Record<string, string[]>, scores: ScoreMatrix, taskIds: readonly string[]): Record<string, string[]> {
  // Array.prototype.sort is stable: equal means keep their first-appearance order (as Python's sorted).
  const members = firstAppearance(fronts).sort((a, b) => meanOver(scores[a]!, taskIds) - meanOver(scores[b]!, taskIds));
  const dropped = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of members) {
      if (dropped.has(id)) continue;
      const needed = Object.values(fronts).some((front) => front.includes(id) && !front.some((o) => o !== id && !dropped.has(o)));
      if (!needed) {
        dropped.add(id);
        changed = true;
        break;
      }
    }
  }
  return Object.fromEntries(Object.entries(fronts).map(([task, front]) => [task, front.filter((id) => !dropped.has(id))]));
}

/** How many (pruned) fronts each candidate leads, in order of first appearance. */
export function frontCounts(fronts: Record<string, string[]>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const front of Object.values(fronts)) for (const id of front) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** The sampling list GEPA draws a parent from: each kept candidate once per front it leads. */
export function parentSamplingList(scores: ScoreMatrix, taskIds: readonly string[]): string[] {
  return samplingListOf(paretoFronts(scores, taskIds), scores, taskIds);
}

/** The sampling list for given (unpruned) `fronts`: pruned in GEPA's order, then each kept
 * candidate once per front it leads (GEPA's select_program_candidate_from_pareto_front). */
export function samplingListOf(fronts: Record<string, string[]>, scores: ScoreMatrix, taskIds: readonly string[]): string[] {
  const counts = frontCounts(pruneDominated(fronts, scores, taskIds));
  return [...counts.entries()].flatMap(([id, n]) => Array<string>(n).fill(id));
}

/**
 * Draw a parent ∝ the number of pruned fronts it leads: exactly one draw from the run's RNG.
 * @throws Error when there are no candidates with scores
 */
export function selectParent(scores: ScoreMatrix, taskIds: readonly string[], rng: Pick<SeededRng, 'pick'>): string {
  const pool = parentSamplingList(scores, taskIds);
  if (pool.length === 0) throw new Error('parent selection needs at least one scored candidate');
  return rng.pick(pool);
}
