/**
 * GEPA's merge proposer (≥ 0.1.4, MergeProposer.propose; rules/merge.ts holds the pure rules):
 * find two Pareto candidates with a common ancestor and propose their merged strategy, to be played
 * on a validation subsample and accepted when its summed score there is at least the better
 * parent's (GEPA's rule, whatever `acceptance` says); the loop then validates it fully as any
 * accepted child. A subsample task drawn twice is played once and its score counted twice (one
 * metric call per distinct task). Core module: no UI or DOM imports.
 */
import type { Candidate, EvolutionState } from '../interface.ts';
import { attemptMerge, mergeSubsample, type MergePoolEntry, type MergeSchedule } from '../rules/merge.ts';
import { compareCandidateIds, meanOver } from '../rules/pareto.ts';
import type { CandidateProposal, LoopContext, Proposer } from './interface.ts';

/** The pool (seed and accepted candidates) as the merge rules see it. */
export function mergePool(state: EvolutionState): Map<string, MergePoolEntry> {
  const valIds = state.config.val.map((t) => t.id);
  return new Map(state.candidates.filter((c) => c.status === 'seed' || c.status === 'accepted').map((c) => [c.id, {
    id: c.id, strategy: c.strategy, parentIds: c.merge ? c.merge.parentIds : c.parentId === null ? [] : [c.parentId], score: meanOver(c.valScores, valIds),
  }]));
}

/** Proposes no merge (null) in a run without a merge schedule, when no pair is found, or when the
 * pair's subsample is empty. */
export const mergeProposer: Proposer = {
  kind: 'merge',
  propose: async (loop) => (loop.merges ? proposeMerge(loop, loop.merges) : null),
};

async function proposeMerge(loop: LoopContext, schedule: MergeSchedule): Promise<CandidateProposal[] | null> {
  const { state, config, rng } = loop;
  const valIds = config.val.map((t) => t.id);
  const pool = mergePool(state);
  // GEPA's find_dominator_programs: the members of the pruned Pareto fronts.
  const candidates = [...new Set(Object.values(state.fronts).flat())].filter((id) => pool.has(id)).sort(compareCandidateIds);
  const found = attemptMerge(candidates, pool, schedule.memory, rng);
  if (found === null) return null;
  schedule.memory.triplets.push([found.id1, found.id2, found.ancestorId]);
  const [first, second] = [found.id1, found.id2].map((cid) => state.candidates.find((c) => c.id === cid)!) as [Candidate, Candidate];
  const subsample = mergeSubsample(first.valScores, second.valScores, valIds, rng);
  if (subsample.length === 0) return null;
  const sumOn = (scores: Record<string, number>) => subsample.reduce((total, t) => total + (scores[t] ?? 0), 0);
  const parentSums: [number, number] = [sumOn(first.valScores), sumOn(second.valScores)];
  const parentSum = Math.max(...parentSums);
  const child: Candidate = {
    id: `c${state.candidates.length}`, parentId: found.id1, iteration: state.iteration, strategy: found.strategy, status: 'rejected', reason: '',
    proposerReply: null, valScores: {}, minibatch: { taskIds: subsample, parentSum, childSum: null }, triggeredBy: null,
    merge: { parentIds: [found.id1, found.id2], ancestorId: found.ancestorId, textFrom: found.textFrom, parentSums },
  };
  state.candidates.push(child);
  await loop.emit({ type: 'iteration_started', iteration: state.iteration, parentId: found.id1, minibatch: subsample, mergeOf: [found.id1, found.id2] });
  await loop.emit({ type: 'proposal_made', iteration: state.iteration, candidate: child });
  const what = (childSum: number) => `merge of ${found.id1} and ${found.id2} (ancestor ${found.ancestorId}, text of ${found.textFrom}): subsample sum ${childSum.toFixed(4)}`;
  return [{
    child,
    tasks: [...new Set(subsample)].map((tid) => config.val.find((t) => t.id === tid)!),
    purpose: 'merge-mb',
    childSum: (runs) => sumOn(loop.meanByTask(runs)),
    judge: (childSum) => childSum >= parentSum
      ? { accepted: true, reason: `${what(childSum)} ≥ the better parent's ${parentSum.toFixed(4)}` }
      : { accepted: false, reason: `${what(childSum)} < the better parent's ${parentSum.toFixed(4)}` },
    onAccepted: () => schedule.mergeAccepted(),
  }];
}
