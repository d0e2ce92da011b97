/**
 * Persistence of the playground: user-added story files, settings, named save slots, runs
 * (sessions, evolution runs, evaluations: a header plus append-only events such as steps) and the
 * meta-prompt library.
 * Three implementations share this contract: IndexedDB (browser, `idb-store.ts`), memory
 * (`memory-store.ts`, when IndexedDB is unavailable) and JSON files (`node-store.ts`, CLI).
 * Must not import ui, svelte, DOM-only or Node-only APIs.
 */
import { MetattlError } from '../common/errors.ts';

/** A story file the user added (file picker, drag and drop or URL). */
export interface StoredStory {
  /** Stable id chosen by the caller, unique within the store (the UI uses `user:<md5>`). */
  id: string;
  /** Display name, usually the file name ("mygame.z5"). */
  name: string;
  /** The raw file as added (.z3/.z5/.z8 or .zblorb); never modified by the store. */
  bytes: Uint8Array;
  /** Lower-case hex md5 of the Z-code image (for a Blorb: of its ZCOD chunk), as the engine
   * reports it in `StoryInfo.md5`; the key for catalog matching and save slots. */
  md5: string;
  /** When it was added, ms since the Unix epoch. */
  addedAt: number;
  /** Maximum score in score points, supplied by the user; null = unknown (W-AUC is n/a). */
  maxScore: number | null;
}

/** A story without its bytes, for listings. */
export type StorySummary = Omit<StoredStory, 'bytes'> & {
  /** Size of `bytes` in bytes. */
  sizeBytes: number;
};

/** Values a setting can hold: JSON data (so every store can persist it). */
export type SettingValue = string | number | boolean | null | SettingValue[] | { [key: string]: SettingValue };

/**
 * A named save slot of one story. Slots are keyed by (storyMd5, name): saving under an existing
 * name replaces that slot.
 */
export interface SaveSlot {
  /** md5 of the story the snapshot belongs to (`StoryInfo.md5`). */
  storyMd5: string;
  /** User-chosen name, 1–100 characters after trimming. */
  name: string;
  /** The engine snapshot (`EngineSnapshot`): plain structured-cloneable data, may hold Uint8Arrays.
   * The store treats it as opaque. */
  snapshot: unknown;
  /** When it was saved, ms since the Unix epoch. */
  savedAt: number;
  /** The game's latest text on screen when it was saved (the Play view reprints it after a
   * restore); absent in slots saved before it was kept. */
  shownText?: string;
}

/** A save slot without its snapshot, for listings. */
export type SaveSlotSummary = Omit<SaveSlot, 'snapshot'>;

/** The kinds of long-running work that are persisted as runs. */
export type RunKind = 'session' | 'evolution' | 'evaluation';

/**
 * A run's header: replaced as a whole when the run's state changes (start, end of an episode,
 * a policy exchange, the end). `data` is the run's record without its events; `summary` is what
 * run lists show. Both are plain structured-cloneable JSON-like data.
 */
export interface RunHeader {
  id: string;
  kind: RunKind;
  /** Last write, ms since the Unix epoch. */
  updatedAt: number;
  summary: SettingValue;
  data: unknown;
  /** The version of `data`'s shape (store/payload.ts; each run kind's upgrade steps bring an older
   * one to the current shape at load); absent in headers written before versions = 0. */
  payloadVersion?: number;
}

/** A run's header without its data, for listings. */
export type RunSummary = Omit<RunHeader, 'data' | 'payloadVersion'>;

/** One append-only event of a run (e.g. a step), ordered by `seq` (an integer, unique per run). */
export interface RunEvent {
  seq: number;
  data: unknown;
}

/**
 * Damage found when reading a run: the first record that is not what was written (lost, repeated,
 * out of order, cut short, garbled), or records missing that the run's header counted. `events`
 * returned with it are those before the damage.
 */
export interface RunDamage {
  /** The file or database store holding the run's events ("…/runs/<sha1>.events.jsonl", "IndexedDB
   * “metattl-playground”, object store runEvents"). */
  where: string;
  /** The first bad record ("line 12", "seq 200003"), or "end of file" for missing records. */
  record: string;
  /** What is wrong with it, in plain words. */
  problem: string;
}

/** A run as read back: its header, its events by ascending seq (those before any damage), the
 * damage found (null when the run is whole), and where its events live. */
export interface StoredRun {
  header: RunHeader;
  events: RunEvent[];
  damage: RunDamage | null;
  /** Where the events live (for messages): a file path or an IndexedDB object store. */
  where: string;
}

/** Which backend a store uses; `persistent` is false only for the memory store. */
export type StoreKind = 'indexeddb' | 'memory' | 'files';

/**
 * The persistence contract. Every method is async and either completes fully or throws; a failed
 * write leaves the previous data untouched (one transaction / atomic file replace per write).
 * Reads of missing records return `undefined`, never throw. Every method may throw:
 * - `StorageFullError` when the browser quota or the disk is exhausted;
 * - `StorageBlockedError` when the database cannot be opened or was closed for another tab;
 * - `StorageError` for anything else the backend reports.
 * Returned objects are copies: mutating them does not change the store.
 */
export interface Store {
  readonly kind: StoreKind;
  /** False when nothing survives a reload (memory store). */
  readonly persistent: boolean;

  /** All user stories, oldest first (by `addedAt`, then id). */
  listStories(): Promise<StorySummary[]>;
  getStory(id: string): Promise<StoredStory | undefined>;
  /** Insert or replace the story with this id. */
  putStory(story: StoredStory): Promise<void>;
  /** Set the user-supplied max score of a stored story; throws `StorageError` if `id` is unknown. */
  setStoryMaxScore(id: string, maxScore: number | null): Promise<void>;
  /** Remove a story (its save slots are kept: they belong to the md5, not the file). No-op when absent. */
  deleteStory(id: string): Promise<void>;

  getSetting(key: string): Promise<SettingValue | undefined>;
  setSetting(key: string, value: SettingValue): Promise<void>;
  deleteSetting(key: string): Promise<void>;

  /** Save slots of one story, newest first (by `savedAt`, then name). */
  listSaves(storyMd5: string): Promise<SaveSlotSummary[]>;
  getSave(storyMd5: string, name: string): Promise<SaveSlot | undefined>;
  /** Insert or replace the slot (storyMd5, name). */
  putSave(slot: SaveSlot): Promise<void>;
  /** No-op when absent. */
  deleteSave(storyMd5: string, name: string): Promise<void>;

  /** Runs of one kind, most recently updated first. */
  listRuns(kind: RunKind): Promise<RunSummary[]>;
  /**
   * The header and every event (by ascending seq) of a run; undefined when absent. Persistent
   * stores check what they read (each event's checksum, the chain of event lines, the number of
   * events the header counted) and report the first damage in `damage`, returning only the events
   * before it.
   */
  getRun(id: string): Promise<StoredRun | undefined>;
  /** Insert or replace a run's header (its events are kept). */
  putRun(header: RunHeader): Promise<void>;
  /** Add or replace events of a run, in one write; optionally replace the header in the same write. */
  appendRunEvents(runId: string, events: RunEvent[], header?: RunHeader): Promise<void>;
  /** Replace a run's header and all its events (e.g. keep only the intact part of a damaged run),
   * in one write: afterwards the run holds exactly these events. */
  rewriteRun(header: RunHeader, events: RunEvent[]): Promise<void>;
  /** Remove a run and all its events, in one write. No-op when absent. */
  deleteRun(id: string): Promise<void>;

  /** User meta-prompt library entries (built-ins are not stored), oldest first by `createdAt`. */
  listMetaPrompts(): Promise<StoredMetaPrompt[]>;
  putMetaPrompt(entry: StoredMetaPrompt): Promise<void>;
  deleteMetaPrompt(id: string): Promise<void>;

  /** Release the backend (close the database). Further calls throw `StorageBlockedError`. */
  close(): void;
}

/** A meta-prompt library entry stored by the user (plain data; see agents/meta-prompt-library). */
export interface StoredMetaPrompt {
  id: string;
  /** ms since the Unix epoch. */
  createdAt: number;
  entry: SettingValue;
}

export const byUpdatedAtDesc = (a: RunSummary, b: RunSummary): number => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id);
export const byCreatedAt = (a: StoredMetaPrompt, b: StoredMetaPrompt): number => a.createdAt - b.createdAt || a.id.localeCompare(b.id);

/** A run header's summary (drops the data and its version). */
export function summariseRun(header: RunHeader): RunSummary {
  return { id: header.id, kind: header.kind, updatedAt: header.updatedAt, summary: header.summary };
}

/** Base class of storage failures; `message` is user-readable. */
export class StorageError extends MetattlError {
  override name = 'StorageError';
  /** @param code `storage` for a plain storage failure; subclasses pass their own */
  constructor(message: string, options?: { cause?: unknown }, code = 'storage') {
    super(code, message, options);
  }
}

/**
 * A stored run is damaged: what a resume would replay is not whole or not consistent. Nothing was
 * changed. `keep` describes the intact part a resume can continue from (e.g. "episodes 1–2"), and
 * `keepCount` its size (episodes for a session, cached records for an evolution or evaluation; 0
 * when nothing before the damage is usable).
 */
export class DamagedRunError extends StorageError {
  override name = 'DamagedRunError';
  constructor(
    readonly runId: string,
    readonly damage: RunDamage,
    readonly keep: string,
    readonly keepCount: number,
    kindLabel: string,
  ) {
    super(`The stored ${kindLabel} "${runId}" is damaged, so it was not resumed: ${damage.where}, ${damage.record}: ${damage.problem}. ${keepCount > 0 ? `Intact before it: ${keep}; continuing from there discards the rest and runs it again.` : 'Nothing before the damage can be kept; continuing starts it again from the beginning.'}`, undefined, 'damaged_run');
  }
}

/** The browser's storage quota (QuotaExceededError) or the disk is full; nothing was written. */
export class StorageFullError extends StorageError {
  override name = 'StorageFullError';
  /** @param what the thing not saved ("the run \"r1\""); `code` is for StorageLowError only */
  constructor(what: string, options?: { cause?: unknown }, code = 'storage_full') {
    super(
      `Storage is full: could not save ${what}. Nothing was written. Remove stories or save slots you no longer need, or free disk space, and try again.`,
      options,
      code,
    );
  }
}

/** The database cannot be used: another tab holds an older version open, the open timed out, or
 * this connection was closed so another tab could upgrade. */
export class StorageBlockedError extends StorageError {
  override name = 'StorageBlockedError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options, 'storage_blocked');
  }
}

/** Trimmed slot name, or a `StorageError` when it is empty or longer than 100 characters. */
export function checkSlotName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100) {
    throw new StorageError('A save slot needs a name of 1–100 characters.');
  }
  return trimmed;
}

/** Sort helpers shared by the implementations (documented orders above). */
export const byAddedAt = (a: StorySummary, b: StorySummary): number => a.addedAt - b.addedAt || a.id.localeCompare(b.id);
export const bySavedAtDesc = (a: SaveSlotSummary, b: SaveSlotSummary): number => b.savedAt - a.savedAt || a.name.localeCompare(b.name);

/** A story's summary (drops the bytes). */
export function summariseStory(story: StoredStory): StorySummary {
  const { bytes, ...rest } = story;
  return { ...rest, sizeBytes: bytes.byteLength };
}

/** A slot's summary (drops the snapshot). */
export function summariseSave(slot: SaveSlot): SaveSlotSummary {
  return { storyMd5: slot.storyMd5, name: slot.name, savedAt: slot.savedAt };
}
