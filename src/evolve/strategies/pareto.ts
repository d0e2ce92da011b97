/**
 * The Pareto pool of per-task experts (GEPA, Agrawal et al. 2025, §3.2 "Pareto-based candidate
 * selection"; method.md "Outer loop" 2a): for each validation task the candidates tied for the
 * best score there; candidates that are never needed (every front they are in also holds another
 * kept candidate) are dropped, weakest aggregate first; a parent is sampled with probability
 * proportional to the number of fronts it is in.
 */
import type { SeededRng } from '../../ttl/rng.ts';

/** Candidate id → task id → score (mean validation W-AUC). */
export type ScoreMatrix = Record<string, Record<string, number>>;

/** For each task, the candidates tied for the best score on it (exact ties; ids sorted). */
export function paretoFronts(scores: ScoreMatrix, taskIds: readonly string[]): Record<string, string[]> {
  const fronts: Record<string, string[]> = {};
  for (const task of taskIds) {
    let best = -Infinity;
    for (const id of Object.keys(scores)) best = Math.max(best, scores[id]![task] ?? -Infinity);
    fronts[task] = Object.keys(scores).filter((id) => best > -Infinity && scores[id]![task] === best).sort();
  }
  return fronts;
}

const mean = (row: Record<string, number>, taskIds: readonly string[]): number =>
  taskIds.reduce((s, t) => s + (row[t] ?? 0), 0) / Math.max(1, taskIds.length);

/**
 * Drop candidates that no front needs. Candidates are examined from the lowest mean score up
 * (ties by id); one is dropped when every front containing it also contains another candidate
 * still kept; repeat until nothing more can be dropped. Returns the pruned fronts.
 */
export function pruneDominated(fronts: Record<string, string[]>, scores: ScoreMatrix, taskIds: readonly string[]): Record<string, string[]> {
  const members = [...new Set(Object.values(fronts).flat())].sort(
    (a, b) => mean(scores[a]!, taskIds) - mean(scores[b]!, taskIds) || a.localeCompare(b),
  );
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

/** How many (pruned) fronts each candidate leads. */
export function frontCounts(fronts: Record<string, string[]>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const front of Object.values(fronts)) for (const id of front) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/**
 * Sample a parent ∝ the number of pruned fronts it leads (ids in sorted order for determinism).
 * @throws Error when there are no candidates with scores
 */
export function selectParent(scores: ScoreMatrix, taskIds: readonly string[], rng: SeededRng): string {
  const counts = frontCounts(pruneDominated(paretoFronts(scores, taskIds), scores, taskIds));
  const pool = [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).flatMap(([id, n]) => Array<string>(n).fill(id));
  if (pool.length === 0) throw new Error('parent selection needs at least one scored candidate');
  return rng.pick(pool);
}
