/**
 * The payloads of a stored evaluation (store/payload.ts): its state (the run header's data),
 * versioned, with the one upgrade step that brings a state of any older shape to the current one
 * at load (from either store backend, through `loadEvaluationState`), and its events — one per
 * finished session, whose record is upgraded like any stored session (ttl/session-payload.ts).
 *
 * Version 1 (current): `faultedEpisodes` is always there. Version 0 (states written before
 * versions): it may be absent (states made before provider faults were counted).
 */
import { upgradePayload, type PayloadKind, type PayloadObject } from '../store/payload.ts';
import { upgradeSessionPayload, type SessionPayload } from '../ttl/session-payload.ts';
import type { EvaluationResult, EvaluationState } from './interface.ts';

/** An evaluation's state in the current payload shape. */
export type EvaluationPayload = EvaluationState;

/** One stored event of an evaluation: a finished session's result and its whole record. */
export interface EvaluationEvent {
  result: EvaluationResult;
  session: SessionPayload;
}

/** Version 0 → 1: no count of faulted episodes = none. */
function withFaultCount(data: PayloadObject): PayloadObject {
  return { ...data, faultedEpisodes: typeof data.faultedEpisodes === 'number' ? data.faultedEpisodes : 0 };
}

/** The evaluation payload kind: label and upgrade steps (current version = steps.length). */
export const EVALUATION_PAYLOAD: PayloadKind<EvaluationPayload> = { label: 'evaluation', steps: [withFaultCount] };

/**
 * A stored evaluation state of payload version `version` (its run header's `payloadVersion`;
 * absent = 0) in the current shape; `data` is not changed.
 * @throws PayloadVersionError for a version newer than this code reads, or no state
 */
export function upgradeEvaluationPayload(data: unknown, version?: unknown): EvaluationPayload {
  return upgradePayload(EVALUATION_PAYLOAD, data, version);
}

/**
 * One stored event of an evaluation, its session in the current shape (the resume check,
 * `evaluationEventProblem`, says whether an event is whole; this reads what it wrote).
 * @throws PayloadVersionError when its session was written by a newer version
 */
export function evaluationEventOf(data: unknown): EvaluationEvent {
  const { result, session } = data as { result: EvaluationResult; session: unknown };
  return { result, session: upgradeSessionPayload(session) };
}

/** The result of one stored event of an evaluation (its session is not read). */
export function evaluationResultOf(data: unknown): EvaluationResult {
  return (data as { result: EvaluationResult }).result;
}
