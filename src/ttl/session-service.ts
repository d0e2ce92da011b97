/**
 * The session service: what running a stored session means, written once for every composition
 * root (the Learn view, `metattl session`, and the session evaluator that plays each metric call
 * of an evaluation or evolution). As `startOrResumeEvolution` and `startOrResumeEvaluation` do
 * for their runs, it checks a resume (`openStoredSession`: records intact, recorded actions
 * replaying to the recorded scores; a missing session is a `MissingSessionError`), persists the session as it runs with the core's own observer
 * (`persistingSink`: every step, record, episode and exchange, one rule) and keeps the record's
 * provider adaptations up to date, then runs it (`runSession`, which builds a new session's fresh
 * record) to its end or a stop. The session's K and S default to `ttl/run-defaults.ts`
 * (`sessionDefaults`). The roots keep their wiring (models, engine, abort signal, pace, Web Lock)
 * and what they show (a display sink, called after each save).
 */
import { MetattlError } from '../common/errors.ts';
import type { ParameterAdaptation } from '../llm/interface.ts';
import type { Store } from '../store/interface.ts';
import type { Actor } from '../agents/actor.ts';
import { recordingAdaptations } from './adaptation-sink.ts';
import type { EpisodeEngine } from './episode-runner.ts';
import type { PaceSettings, StepGate } from './pace.ts';
import type { AdaptationPolicy } from './policy.ts';
import type { SessionConfig, SessionRecord } from './session-record.ts';
import { openStoredSession } from './session-integrity.ts';
import { runSession, type InterventionSource, type SessionSink } from './session-runner.ts';
import { loadSession, persistingSink } from './session-store.ts';

/** A session asked to be resumed is not in the store (code `missing_session`). */
export class MissingSessionError extends MetattlError {
  override readonly name = 'MissingSessionError';
  /**
   * @param runId the session's id
   * @param where the store, as its user names it (`--store DIR`, "this browser")
   */
  constructor(readonly runId: string, where: string) {
    super('missing_session', `no session "${runId}" in ${where}`);
  }
}

/**
 * Stored session `id`, as stored (not yet checked: `startOrResumeSession` checks it against its
 * story before it replays).
 * @throws MissingSessionError when `store` has no session `id` (`where` names the store)
 */
export async function storedSession(store: Store, id: string, where: string): Promise<SessionRecord> {
  const record = await loadSession(store, id);
  if (!record) throw new MissingSessionError(id, where);
  return record;
}

/** How a stored session is run. */
export interface StoredSessionOptions {
  engine: EpisodeEngine;
  actor: Actor;
  policy: AdaptationPolicy;
  /**
   * `required`: continue the stored session (a `MissingSessionError` when it is not there);
   * `if-stored`: continue it when it is stored (a complete one is returned as stored), else start
   * it; absent: a new session.
   */
  resume?: 'required' | 'if-stored';
  /** A damaged stored session keeps its intact episodes (the stored run rewritten) instead of failing. */
  fromLastGood?: boolean;
  /** Where the store is, for the missing-session message (default "the store"). */
  storeName?: string;
  /** The checked record to go on with (e.g. with an allowed change of settings recorded); default as stored. */
  reconcile?: (checked: SessionRecord) => SessionRecord;
  /** Called with the checked record before it is continued (a view shows it at once). */
  onResumed?: (checked: SessionRecord) => void;
  /** The provider adaptations in force (llm/adaptations.ts), kept in the record. */
  adaptations?: () => ParameterAdaptation[];
  /** What the root shows: called after each save, in order. */
  display?: SessionSink;
  signal?: AbortSignal;
  gate?: StepGate;
  pace?: PaceSettings;
  interventions?: InterventionSource;
  /** Monotonic ms clock for wall time. */
  clockMs?: () => number;
  /** The store's clock (`updatedAt`, ms). */
  storeNow?: () => number;
}

/**
 * Start session `id` with `config`, or resume it (see `options.resume`), to its end or a stop;
 * with `store` null it is not persisted (and cannot be resumed).
 * @returns the final record
 * @throws MissingSessionError when a required resume finds no session; DamagedRunError when the
 *   stored session fails the resume check and `fromLastGood` is not set; whatever the store throws
 */
export async function startOrResumeSession(store: Store | null, id: string, config: SessionConfig, options: StoredSessionOptions): Promise<SessionRecord> {
  const { engine, actor, policy } = options;
  let previous: SessionRecord | undefined;
  if (options.resume) {
    const checked = store ? await openStoredSession(store, id, { engine, fromLastGood: options.fromLastGood ?? false }) : undefined;
    if (!checked && options.resume === 'required') throw new MissingSessionError(id, options.storeName ?? 'the store');
    previous = checked && options.reconcile ? options.reconcile(checked) : checked;
    if (previous) options.onResumed?.(previous);
    // A metric call's session found complete was already played: nothing to run.
    if (previous?.status === 'complete' && options.resume === 'if-stored') return previous;
  }
  const display = options.display ?? {};
  const persisted = store ? persistingSink(store, id, display, options.storeNow) : display;
  const sink = options.adaptations ? recordingAdaptations(persisted, options.adaptations) : persisted;
  return runSession({
    id, config: previous?.config ?? config, engine, actor, policy, sink, ...(previous ? { resume: previous } : {}),
    ...(options.signal ? { signal: options.signal } : {}), ...(options.gate ? { gate: options.gate } : {}), ...(options.pace ? { pace: options.pace } : {}),
    ...(options.interventions ? { interventions: options.interventions } : {}), ...(options.clockMs ? { clockMs: options.clockMs } : {}),
  });
}
