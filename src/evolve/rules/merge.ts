/**
 * GEPA's merge proposer (≥ 0.1.4, src/gepa/proposer/merge.py and its scheduling in
 * src/gepa/core/engine.py; `use_merge`, `max_merge_invocations`), for our single-component
 * candidate (the strategy section). Mirrors GEPA's functions step by step, so it keeps their
 * order of random draws; our RNG is not Python's, so equality is on the same draws
 * (test/gepa-merge-parity.test.ts). Divergences, each forced by our setting:
 * - populations are drawn from in creation order (GEPA draws from Python set order);
 * - common ancestors whose mean scores are all 0 are drawn uniformly (Python's weighted
 *   `random.choices` raises there, and a naive seed scoring 0 is common for us);
 * - no validation-overlap floor: every pool candidate is validated on every validation task
 *   (GEPA documents the floor as relevant only to partial validation policies).
 * Pure: no I/O, no UI imports.
 */
import { EVOLUTION_DEFAULTS } from '../run-defaults.ts';
import { compareCandidateIds } from './pareto.ts';

/** GEPA's default `max_merge_invocations` (api.py). */
export const DEFAULT_MAX_MERGES: number = EVOLUTION_DEFAULTS.maxMerges;
/** Validation tasks a merged candidate is first evaluated on (GEPA's `num_subsample_ids`). */
export const MERGE_SUBSAMPLE_SIZE = 5;
/** Tries per search (GEPA's `max_attempts`). */
const MAX_ATTEMPTS = 10;

/** The draws the merge makes: uniforms in [0, 1). */
export interface MergeRng {
  next(): number;
}

/** k distinct items without replacement, in draw order; each draw takes index ⌊u·n⌋ of the items
 * left (in their given order). @throws RangeError when k > items */
export function sampleDistinct<T>(items: readonly T[], k: number, rng: MergeRng): T[] {
  if (k > items.length) throw new RangeError(`cannot draw ${k} distinct items of ${items.length}`);
  const left = [...items];
  return Array.from({ length: k }, () => left.splice(Math.floor(rng.next() * left.length), 1)[0]!);
}

/** One item with probability ∝ its weight, as Python's `random.choices(…, weights)`: the first whose
 * cumulative weight exceeds u · total; uniform (⌊u·n⌋) when every weight is 0. */
export function weightedPick<T>(items: readonly T[], weights: readonly number[], rng: MergeRng): T {
  const total = weights.reduce((a, b) => a + b, 0);
  const u = rng.next();
  if (!(total > 0)) return items[Math.floor(u * items.length)]!;
  let cumulative = 0;
  for (const [i, w] of weights.entries()) {
    cumulative += w;
    if (cumulative > u * total) return items[i]!;
  }
  return items[items.length - 1]!;
}

/** A pool candidate as the merge sees it. */
export interface MergePoolEntry {
  id: string;
  strategy: string;
  /** Its parents in the pool: none (the seed), one (a reflective child), two (a merge). */
  parentIds: readonly string[];
  /** Its aggregate score: mean validation W-AUC (GEPA's `program_full_scores_val_set`). */
  score: number;
}

/** What earlier merges tried (GEPA's `merges_performed`): (id1, id2, ancestor) triplets and
 * (id1, id2, ids the merged text came from) descriptions. Grows as merges are found. */
export interface MergeMemory {
  triplets: [string, string, string][];
  descriptions: [string, string, string[]][];
}

/** A found merge: the merged strategy, its parents (id1 before id2 in creation order), their
 * common ancestor, and the parent whose text it took. */
export interface MergeFound {
  strategy: string;
  id1: string;
  id2: string;
  ancestorId: string;
  textFrom: string;
}

/** Every ancestor of `id` (parents, their parents, …). */
export function ancestorsOf(id: string, pool: ReadonlyMap<string, MergePoolEntry>): Set<string> {
  const found = new Set<string>();
  const walk = (node: string) => {
    for (const parent of pool.get(node)?.parentIds ?? []) {
      if (found.has(parent)) continue;
      found.add(parent);
      walk(parent);
    }
  };
  walk(id);
  return found;
}

/** GEPA's desirable-predictor rule for one component: one descendant kept the ancestor's text and
 * the other changed it. */
export function hasDesirableText(ancestor: string, text1: string, text2: string): boolean {
  return (ancestor === text1 || ancestor === text2) && text1 !== text2;
}

const sameTriplet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Common ancestors worth merging through: not tried with this pair, no better than either
 * descendant, and with a desirable text (GEPA's filter_ancestors). */
export function filterAncestors(id1: string, id2: string, common: readonly string[], memory: MergeMemory, pool: ReadonlyMap<string, MergePoolEntry>): string[] {
  const [p1, p2] = [pool.get(id1)!, pool.get(id2)!];
  return common.filter((a) => {
    const anc = pool.get(a)!;
    if (memory.triplets.some((t) => sameTriplet(t, [id1, id2, a]))) return false;
    if (anc.score > p1.score || anc.score > p2.score) return false;
    return hasDesirableText(anc.strategy, p1.strategy, p2.strategy);
  });
}

/** A pair of merge candidates, neither an ancestor of the other, with a usable common ancestor
 * drawn ∝ its score (GEPA's find_common_ancestor_pair); null after 10 tries. */
export function findCommonAncestorPair(candidates: readonly string[], pool: ReadonlyMap<string, MergePoolEntry>, memory: MergeMemory, rng: MergeRng): [string, string, string] | null {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (candidates.length < 2) return null;
    let [i, j] = sampleDistinct(candidates, 2, rng) as [string, string];
    if (compareCandidateIds(j, i) < 0) [i, j] = [j, i];
    const [ancI, ancJ] = [ancestorsOf(i, pool), ancestorsOf(j, pool)];
    if (ancI.has(j) || ancJ.has(i)) continue;
    const common = [...ancI].filter((a) => ancJ.has(a)).sort(compareCandidateIds);
    const usable = filterAncestors(i, j, common, memory, pool);
    if (usable.length > 0) return [i, j, weightedPick(usable, usable.map((a) => pool.get(a)!.score), rng)];
  }
  return null;
}

/**
 * Look for a merge of two Pareto candidates (GEPA's sample_and_attempt_merge_programs_by_common_predictors):
 * the merged text is the descendant's text where the other kept the ancestor's; when both changed
 * it, the better-scored one's (a tie is one draw); when neither did, id1's. Records the found
 * description in `memory.descriptions` (the caller records the triplet, as GEPA's proposer does).
 * @param candidates the merge candidates: the pruned Pareto fronts' members, in creation order
 * @param pool every pool candidate (seed and accepted), by id
 * @returns null when the pool has fewer than 3 candidates, fewer than 2 merge candidates, or no
 *   untried pair was found in 10 × 10 tries
 */
export function attemptMerge(candidates: readonly string[], pool: ReadonlyMap<string, MergePoolEntry>, memory: MergeMemory, rng: MergeRng): MergeFound | null {
  if (candidates.length < 2 || pool.size < 3) return null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const pair = findCommonAncestorPair(candidates, pool, memory, rng);
    if (pair === null) continue;
    const [id1, id2, ancestorId] = pair;
    if (memory.triplets.some((t) => sameTriplet(t, pair))) continue;
    const [anc, p1, p2] = [pool.get(ancestorId)!, pool.get(id1)!, pool.get(id2)!];
    let textFrom: string;
    if (hasDesirableText(anc.strategy, p1.strategy, p2.strategy)) textFrom = anc.strategy === p1.strategy ? id2 : id1;
    else if (anc.strategy !== p1.strategy && anc.strategy !== p2.strategy) textFrom = p1.score > p2.score ? id1 : p2.score > p1.score ? id2 : [id1, id2][Math.floor(rng.next() * 2)]!;
    else textFrom = id1;
    if (memory.descriptions.some(([a, b, from]) => a === id1 && b === id2 && sameTriplet(from, [textFrom]))) continue;
    memory.descriptions.push([id1, id2, [textFrom]]);
    return { strategy: pool.get(textFrom)!.strategy, id1, id2, ancestorId, textFrom };
  }
  return null;
}

/**
 * The validation tasks a merged candidate is first evaluated on (GEPA's
 * select_eval_subsample_for_merged_program): up to ⌈size/3⌉ each where parent 1 is better, where
 * parent 2 is, and where they tie, then filled from the unused tasks; with fewer tasks than `size`
 * the rest are drawn with replacement, so a task may appear more than once (its score then counts
 * that many times in the sums).
 * @param taskIds the validation task ids in the run's order
 */
export function mergeSubsample(scores1: Record<string, number>, scores2: Record<string, number>, taskIds: readonly string[], rng: MergeRng, size = MERGE_SUBSAMPLE_SIZE): string[] {
  const common = taskIds.filter((t) => t in scores1 && t in scores2);
  const buckets = [common.filter((t) => scores1[t]! > scores2[t]!), common.filter((t) => scores2[t]! > scores1[t]!), common.filter((t) => scores1[t] === scores2[t])];
  const nEach = Math.max(1, Math.ceil(size / 3));
  const selected: string[] = [];
  for (const bucket of buckets) {
    if (selected.length >= size) break;
    const available = bucket.filter((t) => !selected.includes(t));
    const take = Math.min(available.length, nEach, size - selected.length);
    if (take > 0) selected.push(...sampleDistinct(available, take, rng));
  }
  const remaining = size - selected.length;
  if (remaining > 0) {
    const unused = common.filter((t) => !selected.includes(t));
    if (unused.length >= remaining) selected.push(...sampleDistinct(unused, remaining, rng));
    else if (common.length > 0) for (let k = 0; k < remaining; k++) selected.push(common[Math.floor(rng.next() * common.length)]!);
  }
  return selected.slice(0, size);
}

/**
 * When merges are tried (GEPA's engine): each accepted reflective proposal sets "last iteration
 * found a new program" and, while fewer than `maxMerges` merges were accepted, schedules one more
 * (merges_due). An iteration tries a merge first when one is due and the previous iteration found
 * a new program; the flag is cleared every iteration. An accepted merge consumes one due merge and
 * counts toward the limit; a rejected one consumes nothing. The iteration of a found merge (accepted
 * or not) makes no reflective proposal; when no merge is found, it goes on with one.
 */
export class MergeSchedule {
  mergesDue = 0;
  mergesAccepted = 0;
  private lastIterationFoundNew = false;
  readonly memory: MergeMemory = { triplets: [], descriptions: [] };

  constructor(readonly maxMerges: number) {}

  /** A reflective proposal of this iteration was accepted. */
  reflectiveAccepted(): void {
    this.lastIterationFoundNew = true;
    if (this.mergesAccepted < this.maxMerges) this.mergesDue += 1;
  }

  /** Whether this iteration tries a merge first; clears the flag (call once per iteration). */
  takeTurn(): boolean {
    const due = this.mergesDue > 0 && this.lastIterationFoundNew;
    this.lastIterationFoundNew = false;
    return due;
  }

  mergeAccepted(): void {
    this.mergesDue -= 1;
    this.mergesAccepted += 1;
  }
}
