/**
 * Persisting evolution runs through the store's run API: the header is the run's state
 * (candidates accepted and rejected, metric calls, fronts, budget, RNG state, config), rewritten
 * after every event; every completed metric call (with its full session) and every proposer reply
 * is an appended event — the cache a resumed run replays from. A metric call's session run (kept
 * while it plays) is removed only once its record is in the run's events. Loads upgrade what they
 * read to the current payload shape (evolution-payload.ts).
 */
import type { RunHeader, SettingValue, Store } from '../store/interface.ts';
import { versionedData } from '../store/payload.ts';
import type { CallUsage } from '../llm/interface.ts';
import type { SessionPayload } from '../ttl/session-payload.ts';
import type { SessionRecord } from '../ttl/session-record.ts';
import { EVOLUTION_PAYLOAD, evolutionEventOf, upgradeEvolutionPayload, type EvolutionCacheEvent, type EvolutionPayload } from './evolution-payload.ts';
import type { EvolutionCache, EvolutionState, MetricCall, ProposalProvenance } from './interface.ts';

/** What evolution run lists show (of a state in the current payload shape). */
export function evolutionSummary(state: EvolutionPayload): SettingValue {
  const best = state.candidates.find((c) => c.id === state.best.byMean);
  const mean = best ? Object.values(best.valScores).reduce((a, b) => a + b, 0) / Math.max(1, Object.keys(best.valScores).length) : null;
  return {
    status: state.status, stopReason: state.stopReason, metricCallsUsed: state.metricCallsUsed, budget: state.config.budgetMetricCalls,
    candidates: state.candidates.length, accepted: state.candidates.filter((c) => c.status === 'accepted').length,
    bestCandidateId: state.best.byMean, bestMeanVal: mean, train: state.config.train.map((t) => t.id), val: state.config.val.map((t) => t.id),
    proposer: state.config.proposer, startedAt: state.startedAt, sessionsPlayed: state.sessionsPlayed, faultedEpisodes: state.faultedEpisodes,
    models: { ...state.config.models },
  };
}

/** The run header of an evolution run's state at `updatedAt` (ms since the epoch): the state in
 * the current payload shape, its version, and its list summary. */
export function evolutionHeader(state: EvolutionState, updatedAt: number): RunHeader {
  const versioned = versionedData(EVOLUTION_PAYLOAD, state);
  return { id: state.id, kind: 'evolution', updatedAt, summary: evolutionSummary(versioned.data), ...versioned };
}

/** Write the run's state as its header (with its payload version). */
export async function saveEvolutionState(store: Store, state: EvolutionState, now: () => number = Date.now): Promise<void> {
  await store.putRun(evolutionHeader(state, now()));
}

/**
 * The cache of run `id`, filled from its stored events (empty for a new run). `initial` is the
 * state header written first when the run does not exist yet, so events always have a run.
 */
export async function openEvolutionCache(store: Store, id: string, initial: () => EvolutionState): Promise<EvolutionCache & { size: number }> {
  const run = await store.getRun(id);
  if (!run) await saveEvolutionState(store, initial());
  const calls = new Map<string, { call: MetricCall; session: SessionRecord }>();
  const proposals = new Map<string, { reply: string; finishReason: string | null; usage?: CallUsage | null } & ProposalProvenance>();
  const proposalKey = (iteration: number, index = 0) => `${iteration}:${index}`;
  let seq = 0;
  for (const event of run?.events ?? []) {
    seq = Math.max(seq, event.seq);
    const data = evolutionEventOf(event.data);
    if (data.type === 'call') calls.set(data.call.key, { call: data.call, session: data.session });
    else proposals.set(proposalKey(data.iteration, data.index), { reply: data.reply, finishReason: data.finishReason, usage: data.usage, ...provenanceOf(data) });
  }
  const append = (data: EvolutionCacheEvent) => store.appendRunEvents(id, [{ seq: ++seq, data }]);
  return {
    get size() {
      return calls.size + proposals.size;
    },
    getCall: async (key) => calls.get(key),
    putCall: async (call, session) => {
      calls.set(call.key, { call, session });
      await append({ type: 'call', call, session });
      // The session's own run (ttl/session-evaluator.ts) is needed no more once its record is here.
      await store.deleteRun(call.sessionId);
    },
    getProposal: async (iteration, index) => proposals.get(proposalKey(iteration, index)),
    putProposal: async (iteration, reply, finishReason, usage, index, provenance) => {
      proposals.set(proposalKey(iteration, index), { reply, finishReason, usage, ...provenanceOf(provenance) });
      await append({ type: 'proposal', iteration, ...(index ? { index } : {}), reply, finishReason, usage, ...provenanceOf(provenance) });
    },
  };
}

/** The provenance fields of `p` that are set (none for older records and replies that named no model). */
function provenanceOf(p: ProposalProvenance | undefined): ProposalProvenance {
  return { ...(p?.providerModel ? { providerModel: p.providerModel } : {}), ...(p?.systemFingerprint ? { systemFingerprint: p.systemFingerprint } : {}) };
}

/** The stored state of run `id` in the current payload shape, if any.
 * @throws PayloadVersionError when it was written by a newer version (nothing is changed) */
export async function loadEvolutionState(store: Store, id: string): Promise<EvolutionPayload | undefined> {
  const run = await store.getRun(id);
  return run?.header.kind === 'evolution' ? upgradeEvolutionPayload(run.header.data, run.header.payloadVersion) : undefined;
}

/** The session of one metric call of a stored run (for the dashboard's "worst trajectory"). */
export async function loadMetricSession(store: Store, id: string, callKey: string): Promise<SessionPayload | undefined> {
  const run = await store.getRun(id);
  for (const event of run?.events ?? []) {
    const data = evolutionEventOf(event.data);
    if (data.type === 'call' && data.call.key === callKey) return data.session;
  }
  return undefined;
}

/** The tokens and cost of the proposer call of iteration `iteration` of a stored run (null when
 * none is stored, or it was stored without usage). */
export async function loadProposalUsage(store: Store, id: string, iteration: number): Promise<CallUsage | null> {
  const run = await store.getRun(id);
  let usage: CallUsage | null = null;
  for (const event of run?.events ?? []) {
    const data = evolutionEventOf(event.data);
    if (data.type === 'proposal' && data.iteration === iteration) usage = data.usage;
  }
  return usage;
}
