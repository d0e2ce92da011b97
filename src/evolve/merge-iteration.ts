/**
 * One merge iteration of the outer loop (GEPA ≥ 0.1.4, MergeProposer.propose and the engine's
 * merge branch; strategies/merge.ts holds the pure rules): find two Pareto candidates with a common
 * ancestor, play the merged strategy on a validation subsample, accept it when its summed score
 * there is at least the better parent's (GEPA's rule, whatever `acceptance` says), and then
 * validate it fully as any accepted child. A subsample task drawn twice is played once and its
 * score counted twice (one metric call per distinct task). No UI or DOM imports.
 */
import type { SeededRng } from '../ttl/rng.ts';
import type { CallPurpose, Candidate, EvolutionConfig, EvolutionEvent, EvolutionState, EvolutionTask } from './interface.ts';
import type { RunForRecord } from './reflective-record.ts';
import { attemptMerge, mergeSubsample, type MergePoolEntry, type MergeSchedule } from './strategies/merge.ts';
import { compareCandidateIds, meanOver } from './strategies/pareto.ts';

/** What a merge iteration uses of the running loop (evolution-runner.ts). */
export interface LoopContext {
  state: EvolutionState;
  config: EvolutionConfig;
  rng: SeededRng;
  sweep(candidate: Candidate, tasks: EvolutionTask[], purpose: CallPurpose): Promise<RunForRecord[]>;
  meanByTask(runs: RunForRecord[]): Record<string, number>;
  /** Recompute the fronts, the best and the progress curve after the pool changed. */
  refresh(): void;
  emit(event: EvolutionEvent): Promise<void>;
}

/** The pool (seed and accepted candidates) as the merge rules see it. */
export function mergePool(state: EvolutionState): Map<string, MergePoolEntry> {
  const valIds = state.config.val.map((t) => t.id);
  return new Map(state.candidates.filter((c) => c.status === 'seed' || c.status === 'accepted').map((c) => [c.id, {
    id: c.id, strategy: c.strategy, parentIds: c.merge ? c.merge.parentIds : c.parentId === null ? [] : [c.parentId], score: meanOver(c.valScores, valIds),
  }]));
}

/**
 * Try a merge in the current iteration (`state.iteration`, already counted).
 * @returns false when no merge was found (the iteration goes on with a reflective proposal), true
 *   when one was evaluated (accepted or rejected)
 */
export async function runMergeIteration(loop: LoopContext, schedule: MergeSchedule): Promise<boolean> {
  const { state, config, rng } = loop;
  const valIds = config.val.map((t) => t.id);
  const pool = mergePool(state);
  // GEPA's find_dominator_programs: the members of the pruned Pareto fronts.
  const candidates = [...new Set(Object.values(state.fronts).flat())].filter((id) => pool.has(id)).sort(compareCandidateIds);
  const found = attemptMerge(candidates, pool, schedule.memory, rng);
  if (found === null) return false;
  schedule.memory.triplets.push([found.id1, found.id2, found.ancestorId]);
  const [first, second] = [found.id1, found.id2].map((cid) => state.candidates.find((c) => c.id === cid)!) as [Candidate, Candidate];
  const subsample = mergeSubsample(first.valScores, second.valScores, valIds, rng);
  if (subsample.length === 0) return false;
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
  const tasks = [...new Set(subsample)].map((tid) => config.val.find((t) => t.id === tid)!);
  const childSum = sumOn(loop.meanByTask(await loop.sweep(child, tasks, 'merge-mb')));
  child.minibatch!.childSum = childSum;
  const what = `merge of ${found.id1} and ${found.id2} (ancestor ${found.ancestorId}, text of ${found.textFrom}): subsample sum ${childSum.toFixed(4)}`;
  if (childSum >= parentSum) {
    child.status = 'accepted';
    child.reason = `${what} ≥ the better parent's ${parentSum.toFixed(4)}`;
    schedule.mergeAccepted();
    await loop.emit({ type: 'accepted', candidate: child });
    child.valScores = loop.meanByTask(await loop.sweep(child, config.val, 'child-val'));
    loop.refresh();
    await loop.emit({ type: 'validation_done', candidate: child, fronts: state.fronts });
  } else {
    child.reason = `${what} < the better parent's ${parentSum.toFixed(4)}`;
    state.rngState = rng.getState();
    await loop.emit({ type: 'rejected', candidate: child });
  }
  return true;
}
