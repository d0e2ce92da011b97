/**
 * Versioned run payloads: a run header's `data` (a session record without its steps, an
 * evaluation's state, an evolution run's state) is written with the header's `payloadVersion`,
 * and each run kind declares its upgrade steps, one per older version (`steps[v]` turns version v
 * into v + 1). At load, `upgradePayload` brings a stored payload of any version to the current
 * shape step by step — as GEPA's `GEPAState` upgrades a saved state — so readers get one typed
 * shape and need no fallbacks for fields older records lack. Headers written before versions
 * existed have none: version 0.
 *
 * Steps fill in what a version lacks and leave alone what is there, so data already in the shape a
 * step makes passes it unchanged. In-memory records carry no version: before a save they are
 * brought to the current shape the same way (`currentPayload`), so what is stamped with the
 * current version is in the current shape.
 *
 * A load never changes what is stored: the upgrade makes new objects, and the header keeps its
 * old version until the run is saved again. A payload of a version newer than this code knows is
 * refused with `PayloadVersionError` and left as it is, so nothing of it is lost.
 * Pure; no DOM or Node APIs.
 */
import { MetattlError } from '../common/errors.ts';

/** The header field (and, in export files, the top-level field) that holds a payload's version
 * (a whole number ≥ 0; absent = 0). */
export const PAYLOAD_VERSION_FIELD = 'payloadVersion';

/** A payload as stored: a plain JSON-like object. */
export type PayloadObject = Record<string, unknown>;

/** One upgrade step: a payload of version v → version v + 1. Must not change its argument: it
 * returns a new object (sharing what it leaves alone), and leaves a payload already in the shape
 * it makes as it is. */
export type PayloadStep = (data: PayloadObject) => PayloadObject;

/**
 * The payload of one run kind: what it is called in messages, and its upgrade steps. The current
 * version is `steps.length`; `T` is the current shape.
 */
export interface PayloadKind<T> {
  /** What the payload is, for messages ("session", "evaluation", "evolution run"). */
  label: string;
  steps: readonly PayloadStep[];
  /** Phantom: the current shape (never set; carries `T`). */
  readonly shape?: T;
}

/** The current version of a payload kind. */
export const currentPayloadVersion = (kind: PayloadKind<unknown>): number => kind.steps.length;

/**
 * A payload this code cannot read: its version is newer than it knows (written by a later version
 * of the Playground), or not a version at all, or the payload is not an object. Nothing was
 * changed; `version` is what the record says, `known` the newest version this code reads.
 */
export class PayloadVersionError extends MetattlError {
  override name = 'PayloadVersionError';
  constructor(
    readonly label: string,
    readonly version: unknown,
    readonly known: number,
    problem?: string,
  ) {
    super(
      'payload_version',
      problem ?? (typeof version === 'number' && Number.isInteger(version) && version > known
        ? `This ${label} was written by a newer version of the Playground (payload version ${version}; this one reads versions up to ${known}). It was left as it is: open it with a newer version.`
        : `This ${label} has no readable payload version (${JSON.stringify(version)}; this one reads versions 0–${known}). It was left as it is.`),
    );
  }
}

const isObject = (value: unknown): value is PayloadObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `version` checked as a version of `kind` this code reads (absent = 0).
 * @throws PayloadVersionError when it is not a whole number from 0 to the kind's current version
 */
export function checkPayloadVersion(kind: PayloadKind<unknown>, version: unknown): number {
  const v = version ?? 0;
  const known = currentPayloadVersion(kind);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > known) throw new PayloadVersionError(kind.label, version, known);
  return v;
}

/** The version an export file says it holds (its top-level `payloadVersion`, absent = 0), checked.
 * @throws PayloadVersionError as `checkPayloadVersion` */
export function fileVersionOf(kind: PayloadKind<unknown>, file: unknown): number {
  return checkPayloadVersion(kind, isObject(file) ? file[PAYLOAD_VERSION_FIELD] : undefined);
}

/**
 * `data`, a stored payload of version `version` (absent = 0), in the current shape: a new object
 * upgraded by each step from its version on. `data` is not changed (what the steps leave alone is
 * shared with it, not copied).
 * @throws PayloadVersionError for a version this code does not read, or when `data` is not an object
 */
export function upgradePayload<T>(kind: PayloadKind<T>, data: unknown, version?: unknown): T {
  const from = checkPayloadVersion(kind, version);
  if (!isObject(data)) throw new PayloadVersionError(kind.label, version, currentPayloadVersion(kind), `This ${kind.label} holds no record (${data === null ? 'null' : Array.isArray(data) ? 'a list' : typeof data}). It was left as it is.`);
  let out: PayloadObject = { ...data };
  for (let v = from; v < kind.steps.length; v++) out = kind.steps[v]!(out);
  return out as T;
}

/** An in-memory record (it carries no version) in the current shape, for a save under the current
 * version: every step from version 0, each filling only what is absent. */
export function currentPayload<T>(kind: PayloadKind<T>, data: object): T {
  return upgradePayload(kind, data, 0);
}

/** The `data` and `payloadVersion` of a run header holding in-memory record `data`: the record in
 * the current shape (`currentPayload`) and the current version. */
export function versionedData<T>(kind: PayloadKind<T>, data: object): { data: T; payloadVersion: number } {
  return { data: currentPayload(kind, data), payloadVersion: currentPayloadVersion(kind) };
}
