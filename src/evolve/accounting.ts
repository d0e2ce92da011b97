/**
 * Per-arm accounting of an evolution run (method.md, "Controls"): two arms given the same budget
 * in metric calls can still differ in how many proposals they made (a rejected proposal costs 2b
 * metric calls, an accepted one 2b + V), how many children passed acceptance, how many were
 * validated, and what the proposer spent. A control is matched only when these are reported side
 * by side. Everything is derived from the run's stored candidates, so older runs get their counts
 * too (tokens only where proposals recorded their usage). Pure: no I/O.
 */
import type { Candidate, EvolutionState } from './interface.ts';

/** What one evolution run did, counted from its candidates. */
export interface EvolutionAccounting {
  /** Proposer calls (LLM arm) or random draws (random arms) made: every candidate the loop's
   * proposer wrote, failed ones included; merges and human candidates are not proposals. */
  proposals: number;
  /** Proposals whose child passed the acceptance rule on its minibatch. */
  accepted: number;
  /** Candidates other than the seed validated in full (every validation task scored): accepted
   * children, merges and human candidates alike — each cost V metric calls. */
  validated: number;
  /** The proposer's prompt + completion tokens over the run (0 for random arms; 0 for proposals
   * recorded before usage was kept). */
  proposerTokens: number;
  /** The proposer's cost in USD; null when nothing was priced (a random arm, an unpriced or free
   * model, or usage not recorded). */
  proposerUsd: number | null;
  /** Word edit distance (parent → child) of every proposal that produced a text, in candidate
   * order (wordEditDistance). */
  editSizes: number[];
}

/** Whether a candidate was written by the loop's proposer (not the seed, a merge or a person). */
export const isProposal = (c: Candidate): boolean => c.parentId !== null && c.merge === undefined && c.origin !== 'human';

/** Split text into words: maximal runs of non-whitespace. */
export const wordsOf = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/**
 * The Levenshtein distance between two texts counted in words (insertions, deletions and
 * substitutions of whitespace-separated words, each cost 1; Levenshtein 1966). O(|a|·|b|) time,
 * O(|b|) memory.
 * @returns a whole number ≥ 0; 0 exactly when the word sequences are equal
 */
export function wordEditDistance(a: string, b: string): number {
  const x = wordsOf(a);
  const y = wordsOf(b);
  if (x.length === 0) return y.length;
  if (y.length === 0) return x.length;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  let cur = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]!;
}

/** The edit size of a child against its parent: recorded at proposal time, else computed. */
function editSizeOf(child: Candidate, byId: ReadonlyMap<string, Candidate>): number | null {
  if (child.status === 'failed' || !child.strategy) return null;
  if (child.editSize !== undefined) return child.editSize;
  const parent = byId.get(child.parentId ?? '');
  return parent ? wordEditDistance(parent.strategy, child.strategy) : null;
}

/** Count what `state`'s run did (EvolutionAccounting). */
export function evolutionAccounting(state: Pick<EvolutionState, 'candidates' | 'config'>): EvolutionAccounting {
  const byId = new Map(state.candidates.map((c) => [c.id, c]));
  const proposals = state.candidates.filter(isProposal);
  const valTasks = state.config.val.map((t) => t.id);
  const validated = state.candidates.filter((c) => c.status !== 'seed' && c.status === 'accepted' && valTasks.length > 0 && valTasks.every((t) => t in c.valScores)).length;
  const usages = proposals.flatMap((c) => (c.proposerUsage ? [c.proposerUsage] : []));
  const usd = usages.reduce((a, u) => a + u.costUsd, 0);
  return {
    proposals: proposals.length,
    accepted: proposals.filter((c) => c.status === 'accepted').length,
    validated,
    proposerTokens: usages.reduce((a, u) => a + u.promptTokens + u.completionTokens, 0),
    proposerUsd: usd > 0 ? usd : null,
    editSizes: proposals.flatMap((c) => {
      const size = editSizeOf(c, byId);
      return size === null ? [] : [size];
    }),
  };
}
