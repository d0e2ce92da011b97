/**
 * The payload of a stored session (store/payload.ts): the session record (its run header's data),
 * versioned, with the one upgrade step that brings a record of any older shape to the current one
 * at load — from the store (both backends, through `assembleSession`), from a session inside an
 * evaluation's or evolution's events, and from a file (an import, a shipped recording).
 *
 * Version 1 (current): `faults` and `faultedEpisodes` are always there. Version 0 (records written
 * before versions, and every session inside events and export files so far): either may be
 * absent (records made before provider faults were kept).
 */
import type { TrajectoryStep } from '../agents/trajectory.ts';
import { upgradePayload, type PayloadKind, type PayloadObject } from '../store/payload.ts';
import type { SessionRecord } from './session-record.ts';

/** A session record in the current payload shape: its faults and their count always present (as
 * SessionRecord requires; the upgrade fills them in older records). */
export type SessionPayload = SessionRecord;

/** Version 0 → 1: no faults kept = none; the count of faulted episodes is that of the kept
 * episode attempts when absent. */
function withFaults(data: PayloadObject): PayloadObject {
  const faults = Array.isArray(data.faults) ? (data.faults as { phase?: unknown }[]) : [];
  const faultedEpisodes = typeof data.faultedEpisodes === 'number' ? data.faultedEpisodes : faults.filter((f) => f.phase === 'episode').length;
  return { ...data, faults, faultedEpisodes };
}

/** The session payload kind: label and upgrade steps (current version = steps.length). */
export const SESSION_PAYLOAD: PayloadKind<SessionPayload> = { label: 'session', steps: [withFaults] };

/**
 * A stored or imported session record of payload version `version` (a run header's
 * `payloadVersion`; absent = 0), with or without its steps, in the current shape; `data` is not changed.
 * @throws PayloadVersionError for a version newer than this code reads, or no record
 */
export function upgradeSessionPayload(data: unknown, version?: unknown): SessionPayload {
  return upgradePayload(SESSION_PAYLOAD, data, version);
}

/** One step event of a stored session (the store's events are what `persistingSink` appended). */
export function sessionStepOf(data: unknown): TrajectoryStep {
  return data as TrajectoryStep;
}
