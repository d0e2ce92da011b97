/**
 * The payloads of a stored evolution run (store/payload.ts): its state (the run header's data),
 * versioned, with the one upgrade step that brings a state of any older shape to the current one
 * at load (from either store backend, through `loadEvolutionState` / `readEvolutionRun`, and from
 * an import), and its cache events — metric calls with their sessions (upgraded like any stored
 * session, ttl/session-payload.ts) and proposer replies (read with their usage, null when they
 * were stored before it was kept).
 *
 * Version 1 (current): `sessionsPlayed` and `faultedEpisodes` are always there. Version 0 (states
 * written before versions): either may be absent (runs made before they were counted).
 */
import type { CallUsage } from '../llm/interface.ts';
import { upgradePayload, type PayloadKind, type PayloadObject } from '../store/payload.ts';
import { upgradeSessionPayload, type SessionPayload } from '../ttl/session-payload.ts';
import type { SessionRecord } from '../ttl/session-record.ts';
import type { EvolutionState, MetricCall, ProposalProvenance } from './interface.ts';

/** An evolution run's state in the current payload shape (every count there: EvolutionState
 * requires them, and the upgrade fills them in older states). */
export type EvolutionPayload = EvolutionState;

/** A stored proposer reply of iteration `iteration`; `index`: the proposal's index within its
 * iteration, absent for the first (and only, at 1×1); `usage` absent in replies stored before it was kept. */
export type ProposalEvent = { type: 'proposal'; iteration: number; index?: number; reply: string; finishReason: string | null; usage?: CallUsage | null } & ProposalProvenance;

/** One cache event of an evolution run as written: a metric call with its session, or a proposer reply. */
export type EvolutionCacheEvent = { type: 'call'; call: MetricCall; session: SessionRecord } | ProposalEvent;

/** One cache event as read back: a metric call's session in the current shape, a reply's usage
 * null when it was stored without one. */
export type StoredEvolutionEvent = { type: 'call'; call: MetricCall; session: SessionPayload } | (ProposalEvent & { usage: CallUsage | null });

/** Version 0 → 1: a run that did not count its sessions played one per stored metric call (each
 * metric call record is one session); no count of faulted episodes = none. */
function withCounts(data: PayloadObject): PayloadObject {
  const calls = Array.isArray(data.metricCalls) ? data.metricCalls.length : 0;
  return {
    ...data,
    sessionsPlayed: typeof data.sessionsPlayed === 'number' ? data.sessionsPlayed : calls,
    faultedEpisodes: typeof data.faultedEpisodes === 'number' ? data.faultedEpisodes : 0,
  };
}

/** The evolution payload kind: label and upgrade steps (current version = steps.length). */
export const EVOLUTION_PAYLOAD: PayloadKind<EvolutionPayload> = { label: 'evolution run', steps: [withCounts] };

/**
 * A stored or imported evolution state of payload version `version` (its run header's or export
 * file's `payloadVersion`; absent = 0) in the current shape; `data` is not changed.
 * @throws PayloadVersionError for a version newer than this code reads, or no state
 */
export function upgradeEvolutionPayload(data: unknown, version?: unknown): EvolutionPayload {
  return upgradePayload(EVOLUTION_PAYLOAD, data, version);
}

/**
 * One stored cache event of an evolution run, a metric call's session in the current shape (the
 * resume check, `cacheEventProblem`, says whether an event is whole; this reads what was written).
 * @throws PayloadVersionError when its session was written by a newer version
 */
export function evolutionEventOf(data: unknown): StoredEvolutionEvent {
  const event = data as EvolutionCacheEvent;
  return event.type === 'call' ? { ...event, session: upgradeSessionPayload(event.session) } : { ...event, usage: event.usage ?? null };
}
