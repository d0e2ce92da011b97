/**
 * "Evolve together" as the room shows it: an evolution's state (evolve/interface.ts) turned into
 * the document's `RoomEvolution` — each candidate with its parents (both of a merge), the
 * participant whose submission it is (a human candidate seeded from the class), the participants
 * whose ideas it descends from (the seeds in its lineage: a mutation credits its parent's, a merge
 * both parents'), its mean validation W-AUC on the hidden tasks, whether it is in the pool, and the
 * best-so-far curve. Pure.
 */
import type { Candidate, EvolutionState } from '../evolve/interface.ts';
import type { RoomCandidate, RoomEvolution } from './protocol.ts';

/** A candidate's parents: none (the seed), one (a proposal, a human candidate), two (a merge). */
export function parentIdsOf(candidate: Candidate): string[] {
  if (candidate.merge) return [...candidate.merge.parentIds];
  return candidate.parentId === null ? [] : [candidate.parentId];
}

/**
 * The participant of each human candidate of `state`, in the order they were added: the k-th
 * candidate with `origin: 'human'` is the run's k-th `config.humanCandidates` entry, seeded from
 * `origins[k]`.
 */
function originsById(state: EvolutionState, origins: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  state.candidates.filter((c) => c.origin === 'human').forEach((c, k) => {
    const who = origins[k];
    if (who !== undefined) out.set(c.id, who);
  });
  return out;
}

/** Mean validation W-AUC of a candidate validated on every validation task, else null. */
function meanValidation(candidate: Candidate, valIds: readonly string[]): number | null {
  if (valIds.length === 0 || valIds.some((id) => candidate.valScores[id] === undefined)) return null;
  return valIds.reduce((sum, id) => sum + candidate.valScores[id]!, 0) / valIds.length;
}

/**
 * Best mean validation W-AUC after each metric call, from the seed's validation on: point j is
 * the best after metric call `first + j`, where `first` is the metric call that finished the seed's
 * validation (no candidate has a validation W-AUC before it).
 */
export function bestSoFarCurve(state: EvolutionState): number[] {
  const points = state.progress;
  if (points.length === 0) return [];
  const curve: number[] = [];
  let best = Number.NEGATIVE_INFINITY;
  let next = 0;
  for (let used = points[0]!.metricCallsUsed; used <= state.metricCallsUsed; used++) {
    while (next < points.length && points[next]!.metricCallsUsed <= used) best = Math.max(best, points[next++]!.bestMeanVal);
    curve.push(best);
  }
  return curve;
}

/**
 * The room's view of an evolution.
 * @param origins the participant of each human candidate, in the order they were added to the run
 * @param status what the room says of the run (the caller maps the run's status and stop reason)
 */
export function roomEvolutionOf(state: EvolutionState, roundId: string, origins: readonly string[], status: RoomEvolution['state'], message: string | null = null): RoomEvolution {
  const origin = originsById(state, origins);
  const byId = new Map(state.candidates.map((c) => [c.id, c]));
  const credits = new Map<string, string[]>();
  // Candidates come in creation order, so every parent's credits are known before its children's.
  const creditsOf = (c: Candidate): string[] => {
    const own = origin.get(c.id);
    const inherited = parentIdsOf(c).flatMap((p) => credits.get(p) ?? (byId.has(p) ? creditsOf(byId.get(p)!) : []));
    return [...new Set([...(own ? [own] : []), ...inherited])].sort((a, b) => origins.indexOf(a) - origins.indexOf(b));
  };
  const valIds = state.config.val.map((t) => t.id);
  const candidates: RoomCandidate[] = state.candidates.map((c) => {
    const credit = creditsOf(c);
    credits.set(c.id, credit);
    return {
      id: c.id, parentIds: parentIdsOf(c), originParticipantId: origin.get(c.id) ?? null, creditParticipantIds: credit,
      wauc: meanValidation(c, valIds), accepted: c.status === 'seed' || c.status === 'accepted',
    };
  });
  return {
    roundId, state: status, budget: state.config.budgetMetricCalls, used: state.metricCallsUsed, candidates,
    curve: bestSoFarCurve(state), bestCandidateId: state.best.byMean, message,
  };
}
