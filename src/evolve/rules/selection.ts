/**
 * Final selection (method.md, "Outer loop" 4): the candidate with the best mean validation W-AUC,
 * and the one with the best mean per-task z-scored W-AUC (z = (x − mean_t) / sd_t over the
 * candidates on task t, population sd; z = 0 on a task whose scores all tie). Ties go to the
 * earliest-created candidate (c9 before c10), as GEPA's FullEvaluationPolicy.get_best_program.
 */
import { compareCandidateIds, meanOver, type ScoreMatrix } from './pareto.ts';

function argmax(values: Map<string, number>): string | null {
  let best: string | null = null;
  for (const [id, v] of [...values.entries()].sort(([a], [b]) => compareCandidateIds(a, b))) {
    if (best === null || v > values.get(best)!) best = id;
  }
  return best;
}

export function meanScores(scores: ScoreMatrix, taskIds: readonly string[]): Map<string, number> {
  return new Map(Object.entries(scores).map(([id, row]) => [id, meanOver(row, taskIds)]));
}

export function zScores(scores: ScoreMatrix, taskIds: readonly string[]): Map<string, number> {
  const ids = Object.keys(scores);
  const z = new Map(ids.map((id) => [id, 0]));
  for (const t of taskIds) {
    const xs = ids.map((id) => scores[id]![t] ?? 0);
    const mu = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mu) ** 2, 0) / xs.length);
    ids.forEach((id, i) => z.set(id, z.get(id)! + (sd === 0 ? 0 : (xs[i]! - mu) / sd) / taskIds.length));
  }
  return z;
}

export function selectBest(scores: ScoreMatrix, taskIds: readonly string[]): { byMean: string | null; byZScore: string | null } {
  if (Object.keys(scores).length === 0 || taskIds.length === 0) return { byMean: null, byZScore: null };
  return { byMean: argmax(meanScores(scores, taskIds)), byZScore: argmax(zScores(scores, taskIds)) };
}
