/**
 * The store in IndexedDB — the only module that imports `idb`. Schema `PlaygroundDB`, version
 * `DB_VERSION`, upgraded cumulatively (`oldVersion < N`). One short transaction per write, with no
 * awaits of anything else inside it, so a failed write (QuotaExceededError → `StorageFullError`)
 * leaves nothing half-written. Opening never hangs: a `blocked` open or a timeout becomes
 * `StorageBlockedError`. Must not import ui.
 *
 * Damage detection (checked by `getRun`): every run event record carries `sum`, the checksum
 * (checksum.ts) of its run id, seq and data, so a record that was garbled, cut or moved to another
 * seq is found; every run header carries `$events`, the number of event records the run had when
 * the header was written, so lost records are found too (records added after the last header
 * write and then lost cannot be told from a crash before they were written).
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import { fnv1a } from './checksum.ts';
import { encodeJson } from './json-codec.ts';
import { scrubSecrets } from '../common/secrets.ts';
import {
  byAddedAt, byCreatedAt, bySavedAtDesc, byUpdatedAtDesc, checkSlotName, StorageBlockedError, StorageError,
  StorageFullError, summariseRun, summariseSave, summariseStory, type RunEvent, type RunHeader, type RunKind,
  type RunDamage, type RunSummary, type SaveSlot, type SaveSlotSummary, type SettingValue, type Store, type StoredMetaPrompt, type StoredRun,
  type StoredStory, type StorySummary,
} from './interface.ts';

/** Current schema version. Bump it, add an `if (oldVersion < N)` step and a fixture test. */
export const DB_VERSION = 2;
export const DB_NAME = 'metattl-playground';

/** A setting record: `value` keyed by `key`. */
export interface SettingRecord {
  key: string;
  value: SettingValue;
}

/** A stored run event: the event plus its run id (key [runId, seq]) and its checksum (absent in
 * records written before checksums). */
export interface RunEventRecord extends RunEvent {
  runId: string;
  sum?: string;
}

/** A stored run header: the header plus the number of its event records when it was written. */
export type RunHeaderRecord = RunHeader & { $events?: number };

/** The checksum of one event record (run id, seq and data). */
export function eventSum(runId: string, seq: number, data: unknown): string {
  return fnv1a(`${runId}\n${encodeJson({ seq, data })}`);
}

/**
 * Version 1: stories by id (index by md5), settings by key, saves by [storyMd5, name].
 * Version 2 adds runs by id (index by kind), runEvents by [runId, seq] (index by run), and
 * metaPrompts by id.
 */
export interface PlaygroundDB extends DBSchema {
  stories: { key: string; value: StoredStory; indexes: { 'by-md5': string } };
  settings: { key: string; value: SettingRecord };
  saves: { key: [string, string]; value: SaveSlot; indexes: { 'by-story': string } };
  runs: { key: string; value: RunHeaderRecord; indexes: { 'by-kind': string } };
  runEvents: { key: [string, number]; value: RunEventRecord; indexes: { 'by-run': string } };
  metaPrompts: { key: string; value: StoredMetaPrompt };
}

export interface IdbStoreOptions {
  /** Database name (default `DB_NAME`; tests use their own). */
  dbName?: string;
  /** Give up opening after this many ms (default 10,000) with `StorageBlockedError`. */
  openTimeoutMs?: number;
  /** Schema version to open (default `DB_VERSION`); only upgrade tests change it. */
  version?: number;
}

const BLOCKED_MESSAGE =
  'The saved-data database is held open by another tab of the Playground running an older version. Close the other tabs and reload this page.';

/** Create the object stores missing in a database at `oldVersion`. */
function upgrade(db: IDBPDatabase<PlaygroundDB>, oldVersion: number, newVersion: number): void {
  if (oldVersion < 1) {
    db.createObjectStore('stories', { keyPath: 'id' }).createIndex('by-md5', 'md5');
    db.createObjectStore('settings', { keyPath: 'key' });
    db.createObjectStore('saves', { keyPath: ['storyMd5', 'name'] }).createIndex('by-story', 'storyMd5');
  }
  if (oldVersion < 2 && newVersion >= 2) {
    db.createObjectStore('runs', { keyPath: 'id' }).createIndex('by-kind', 'kind');
    db.createObjectStore('runEvents', { keyPath: ['runId', 'seq'] }).createIndex('by-run', 'runId');
    db.createObjectStore('metaPrompts', { keyPath: 'id' });
  }
}

const errorName = (error: unknown): string => (error as { name?: string } | null)?.name ?? '';

/** Map a DOMException of a failed write or read to the store's error taxonomy. */
function mapError(error: unknown, what: string): StorageError {
  if (error instanceof StorageError) return error;
  const name = errorName(error);
  if (name === 'QuotaExceededError') return new StorageFullError(what, { cause: error });
  if (name === 'InvalidStateError') {
    return new StorageBlockedError('The database connection was closed (another tab may have upgraded it). Reload the page.', { cause: error });
  }
  return new StorageError(`Could not access ${what}: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}

/**
 * Open (creating or upgrading) the database.
 * @throws StorageError when IndexedDB is unavailable or fails to open; StorageBlockedError when an
 *   older connection in another tab blocks the upgrade, the open times out, or the database has a
 *   newer version than this page knows.
 */
export function openIdbStore(options: IdbStoreOptions = {}): Promise<IdbStore> {
  const name = options.dbName ?? DB_NAME;
  const timeoutMs = options.openTimeoutMs ?? 10_000;
  if (typeof indexedDB === 'undefined') return Promise.reject(new StorageError('IndexedDB is not available in this browser.'));
  let store: IdbStore | undefined;
  return new Promise<IdbStore>((resolve, reject) => {
    let settled = false;
    const fail = (error: StorageError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    };
    const timer = setTimeout(() => fail(new StorageBlockedError(`The saved-data database did not open within ${timeoutMs} ms. Close other tabs of the Playground and reload.`)), timeoutMs);
    openDB<PlaygroundDB>(name, options.version ?? DB_VERSION, {
      upgrade: (db, oldVersion, newVersion) => upgrade(db, oldVersion, newVersion ?? DB_VERSION),
      blocked: () => fail(new StorageBlockedError(BLOCKED_MESSAGE)),
      blocking: () => store?.release('This tab closed its database connection so another tab could upgrade it. Reload the page.'),
      terminated: () => store?.release('The browser closed the database connection. Reload the page.'),
    }).then(
      (db) => {
        if (settled) {
          db.close();
          return;
        }
        settled = true;
        clearTimeout(timer);
        store = new IdbStore(db);
        resolve(store);
      },
      (error: unknown) => {
        if (errorName(error) === 'VersionError') {
          fail(new StorageBlockedError('The saved-data database was written by a newer version of the Playground. Reload the page to get it.', { cause: error }));
        } else fail(new StorageError(`IndexedDB could not be opened: ${(error as Error)?.message ?? String(error)}`, { cause: error }));
      },
    );
  });
}

/** Copy of `bytes` that owns exactly its data (a view would store its whole buffer). */
const ownBytes = (bytes: Uint8Array): Uint8Array =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();

type WriteTx<N extends StoreNames<PlaygroundDB>> = IDBPTransaction<PlaygroundDB, [N], 'readwrite'>;

export class IdbStore implements Store {
  readonly kind = 'indexeddb';
  readonly persistent = true;
  private closedReason: string | null = null;

  constructor(private readonly db: IDBPDatabase<PlaygroundDB>) {}

  /** Close the connection and refuse further calls with `reason`. */
  release(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    this.db.close();
  }

  close(): void {
    this.release('The store is closed.');
  }

  async listStories(): Promise<StorySummary[]> {
    const all = await this.read('the story shelf', () => this.open().getAll('stories'));
    return all.map(summariseStory).sort(byAddedAt);
  }

  getStory(id: string): Promise<StoredStory | undefined> {
    return this.read('the story shelf', () => this.open().get('stories', id));
  }

  putStory(story: StoredStory): Promise<void> {
    const record = { ...story, bytes: ownBytes(story.bytes) };
    return this.write(`the story "${story.name}"`, 'stories', (tx) => tx.store.put(record));
  }

  setStoryMaxScore(id: string, maxScore: number | null): Promise<void> {
    return this.write('the max score', 'stories', async (tx) => {
      const story = await tx.store.get(id);
      if (!story) throw new StorageError(`No stored story with id "${id}".`);
      await tx.store.put({ ...story, maxScore });
    });
  }

  deleteStory(id: string): Promise<void> {
    return this.write('the story shelf', 'stories', (tx) => tx.store.delete(id));
  }

  async getSetting(key: string): Promise<SettingValue | undefined> {
    return (await this.read('settings', () => this.open().get('settings', key)))?.value;
  }

  setSetting(key: string, value: SettingValue): Promise<void> {
    return this.write(`the setting "${key}"`, 'settings', (tx) => tx.store.put({ key, value }));
  }

  deleteSetting(key: string): Promise<void> {
    return this.write(`the setting "${key}"`, 'settings', (tx) => tx.store.delete(key));
  }

  async listSaves(storyMd5: string): Promise<SaveSlotSummary[]> {
    const all = await this.read('save slots', () => this.open().getAllFromIndex('saves', 'by-story', storyMd5));
    return all.map(summariseSave).sort(bySavedAtDesc);
  }

  getSave(storyMd5: string, name: string): Promise<SaveSlot | undefined> {
    return this.read('save slots', () => this.open().get('saves', [storyMd5, name.trim()]));
  }

  async putSave(slot: SaveSlot): Promise<void> {
    const name = checkSlotName(slot.name);
    const record = { ...slot, name };
    return this.write(`the save slot "${name}"`, 'saves', (tx) => tx.store.put(record));
  }

  deleteSave(storyMd5: string, name: string): Promise<void> {
    return this.write('save slots', 'saves', (tx) => tx.store.delete([storyMd5, name.trim()]));
  }

  async listRuns(kind: RunKind): Promise<RunSummary[]> {
    const all = await this.read('runs', () => this.open().getAllFromIndex('runs', 'by-kind', kind));
    return all.map(summariseRun).sort(byUpdatedAtDesc);
  }

  async getRun(id: string): Promise<StoredRun | undefined> {
    const where = `IndexedDB “${this.db.name}”, object store runEvents (run ${id})`;
    return this.read('runs', async () => {
      const tx = this.open().transaction(['runs', 'runEvents'], 'readonly');
      const [record, events] = await Promise.all([tx.objectStore('runs').get(id), tx.objectStore('runEvents').index('by-run').getAll(id)]);
      if (!record) return undefined;
      const { $events: expected, ...header } = record;
      events.sort((a, b) => a.seq - b.seq);
      let damage: RunDamage | null = null;
      const good: RunEvent[] = [];
      for (const event of events) {
        const intact = event.sum === undefined || event.sum === eventSum(id, event.seq, event.data);
        if (!intact) {
          damage = { where, record: `seq ${event.seq}`, problem: 'its checksum does not fit: the record is garbled, cut short or was moved from another seq' };
          break;
        }
        good.push({ seq: event.seq, data: event.data });
      }
      if (!damage && expected !== undefined && events.length < expected) {
        damage = { where, record: events.length === 0 ? 'all records' : `after seq ${events.at(-1)!.seq}`, problem: `the run has ${events.length} event records but had ${expected} when it was last saved: records were lost` };
      }
      return { header, events: good, damage, where };
    });
  }

  putRun(rawHeader: RunHeader): Promise<void> {
    const header = scrubSecrets(rawHeader);
    return this.writeMany(`the run "${header.id}"`, ['runs', 'runEvents'], async (tx) => {
      const count = await tx.objectStore('runEvents').index('by-run').count(header.id);
      await tx.objectStore('runs').put({ ...header, $events: count });
    });
  }

  async appendRunEvents(runId: string, rawEvents: RunEvent[], rawHeader?: RunHeader): Promise<void> {
    const events = scrubSecrets(rawEvents);
    const header = scrubSecrets(rawHeader);
    const records = events.map((e) => ({ runId, seq: e.seq, data: e.data, sum: eventSum(runId, e.seq, e.data) }));
    await this.writeMany(`the run "${runId}"`, ['runs', 'runEvents'], async (tx) => {
      const runs = tx.objectStore('runs');
      if (!header && !(await runs.getKey(runId))) throw new StorageError(`No run with id "${runId}".`);
      const store = tx.objectStore('runEvents');
      await Promise.all(records.map((r) => store.put(r)));
      if (header) await runs.put({ ...header, $events: await store.index('by-run').count(runId) });
    });
  }

  async rewriteRun(rawHeader: RunHeader, rawEvents: RunEvent[]): Promise<void> {
    const header = scrubSecrets(rawHeader);
    const events = scrubSecrets(rawEvents);
    const id = header.id;
    const records = events.map((e) => ({ runId: id, seq: e.seq, data: e.data, sum: eventSum(id, e.seq, e.data) }));
    await this.writeMany(`the run "${id}"`, ['runs', 'runEvents'], async (tx) => {
      const store = tx.objectStore('runEvents');
      await store.delete(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
      await Promise.all(records.map((r) => store.put(r)));
      await tx.objectStore('runs').put({ ...header, $events: records.length });
    });
  }

  async deleteRun(id: string): Promise<void> {
    await this.writeMany('runs', ['runs', 'runEvents'], async (tx) => {
      await tx.objectStore('runs').delete(id);
      await tx.objectStore('runEvents').delete(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
    });
  }

  async listMetaPrompts(): Promise<StoredMetaPrompt[]> {
    return (await this.read('the meta-prompt library', () => this.open().getAll('metaPrompts'))).sort(byCreatedAt);
  }

  putMetaPrompt(entry: StoredMetaPrompt): Promise<void> {
    const record = scrubSecrets(entry);
    return this.write('the meta-prompt library', 'metaPrompts', (tx) => tx.store.put(record));
  }

  deleteMetaPrompt(id: string): Promise<void> {
    return this.write('the meta-prompt library', 'metaPrompts', (tx) => tx.store.delete(id));
  }

  private open(): IDBPDatabase<PlaygroundDB> {
    if (this.closedReason) throw new StorageBlockedError(this.closedReason);
    return this.db;
  }

  private async read<T>(what: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      throw mapError(error, what);
    }
  }

  /**
   * Run `body` in one readwrite transaction on `name` and wait for it to commit. If anything fails
   * the transaction is aborted, so nothing of it is written; the transaction's own error (e.g.
   * QuotaExceededError at commit) wins over the request's AbortError.
   */
  private write<N extends StoreNames<PlaygroundDB>>(what: string, name: N, body: (tx: WriteTx<N>) => Promise<unknown>): Promise<void> {
    return this.writeMany(what, [name], body as (tx: IDBPTransaction<PlaygroundDB, N[], 'readwrite'>) => Promise<unknown>);
  }

  /** `write` over several object stores in one transaction. */
  private async writeMany<N extends StoreNames<PlaygroundDB>>(
    what: string, names: N[], body: (tx: IDBPTransaction<PlaygroundDB, N[], 'readwrite'>) => Promise<unknown>,
  ): Promise<void> {
    let tx: IDBPTransaction<PlaygroundDB, N[], 'readwrite'> | undefined;
    try {
      tx = this.open().transaction(names, 'readwrite');
      const done = tx.done;
      done.catch(() => undefined); // observed below; never an unhandled rejection
      await body(tx);
      await done;
    } catch (error) {
      const cause = tx?.error ?? error;
      try {
        tx?.abort();
      } catch {
        // already finished or aborted
      }
      throw mapError(cause, what);
    }
  }
}
