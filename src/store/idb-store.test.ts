import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_VERSION, openIdbStore } from './idb-store.ts';
import { StorageBlockedError, StorageFullError, type StoredStory } from './interface.ts';
import { describeStoreContract } from '../../test/support/store-contract.ts';

let counter = 0;
const freshName = (): string => `test-db-${++counter}`;
const nameOf = new WeakMap<object, string>();

describeStoreContract('IdbStore', {
  async make() {
    const dbName = freshName();
    const store = await openIdbStore({ dbName });
    nameOf.set(store, dbName);
    return store;
  },
  async reopen(store) {
    store.close();
    return openIdbStore({ dbName: nameOf.get(store)! });
  },
});

/** Open a raw connection (no versionchange handling: it never closes by itself). */
function rawOpen(name: string, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const story = (name: string): StoredStory => ({ id: 'user:q', name, bytes: new Uint8Array([5, 1]), md5: 'b'.repeat(32), addedAt: 1, maxScore: null });

describe('IdbStore schema', () => {
  it(`creates version ${DB_VERSION} with every object store`, async () => {
    const dbName = freshName();
    (await openIdbStore({ dbName })).close();
    const db = await rawOpen(dbName, DB_VERSION);
    expect(db.version).toBe(2);
    expect([...db.objectStoreNames]).toEqual(['metaPrompts', 'runEvents', 'runs', 'saves', 'settings', 'stories']);
    const tx = db.transaction(['stories', 'saves', 'runs', 'runEvents']);
    expect([...tx.objectStore('stories').indexNames]).toEqual(['by-md5']);
    expect(tx.objectStore('saves').keyPath).toEqual(['storyMd5', 'name']);
    expect([...tx.objectStore('saves').indexNames]).toEqual(['by-story']);
    expect([...tx.objectStore('runs').indexNames]).toEqual(['by-kind']);
    expect(tx.objectStore('runEvents').keyPath).toEqual(['runId', 'seq']);
    db.close();
  });

  it('upgrades a version-1 database (fixture written by the version-1 schema) and keeps its data', async () => {
    const dbName = freshName();
    const v1 = await openIdbStore({ dbName, version: 1 });
    await v1.putStory(story('kept.z5'));
    await v1.setSetting('theme', 'dark');
    await v1.putSave({ storyMd5: 'b'.repeat(32), name: 'slot', snapshot: { x: 1 }, savedAt: 5 });
    v1.close();
    const before = await rawOpen(dbName, 1);
    expect([...before.objectStoreNames]).toEqual(['saves', 'settings', 'stories']);
    before.close();
    const v2 = await openIdbStore({ dbName });
    expect((await v2.getStory('user:q'))?.name).toBe('kept.z5');
    expect(await v2.getSetting('theme')).toBe('dark');
    expect((await v2.listSaves('b'.repeat(32))).map((s) => s.name)).toEqual(['slot']);
    await v2.putRun({ id: 'r1', kind: 'session', updatedAt: 1, summary: null, data: { a: 1 } });
    expect((await v2.listRuns('session')).map((r) => r.id)).toEqual(['r1']);
    v2.close();
  });
});

describe('IdbStore when storage is full', () => {
  const originalPut = IDBObjectStore.prototype.put;
  afterEach(() => {
    IDBObjectStore.prototype.put = originalPut;
  });

  it('maps a transaction aborted with QuotaExceededError to StorageFullError, keeping the old record', async () => {
    const store = await openIdbStore({ dbName: freshName() });
    await store.putStory(story('old.z5'));
    // As browsers do at commit time: the request is accepted, then the transaction aborts.
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      const request = originalPut.apply(this, args);
      (this.transaction as unknown as { _abort(name: string): void })._abort('QuotaExceededError');
      return request;
    };
    const failed = store.putStory(story('new.z5'));
    await expect(failed).rejects.toBeInstanceOf(StorageFullError);
    await expect(failed).rejects.toThrow(/Storage is full: could not save the story "new.z5". Nothing was written/);
    IDBObjectStore.prototype.put = originalPut;
    expect((await store.getStory('user:q'))?.name).toBe('old.z5');
    store.close();
  });

  it('maps a QuotaExceededError thrown by put to StorageFullError', async () => {
    const store = await openIdbStore({ dbName: freshName() });
    IDBObjectStore.prototype.put = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
    await expect(store.putSave({ storyMd5: 'c'.repeat(32), name: 's', snapshot: {}, savedAt: 1 })).rejects.toBeInstanceOf(StorageFullError);
    IDBObjectStore.prototype.put = originalPut;
    expect(await store.listSaves('c'.repeat(32))).toEqual([]);
    await store.setSetting('after', 1);
    expect(await store.getSetting('after')).toBe(1);
    store.close();
  });
});

describe('IdbStore with other tabs', () => {
  it('rejects with StorageBlockedError (never hangs) when an old connection blocks the upgrade', async () => {
    const dbName = freshName();
    const old = await rawOpen(dbName, 1);
    // The open timeout is far beyond the test timeout: only the `blocked` event can settle this.
    await expect(openIdbStore({ dbName, version: DB_VERSION, openTimeoutMs: 3_600_000 })).rejects.toBeInstanceOf(StorageBlockedError);
    old.close();
  });

  it('closes its own connection when another tab upgrades, then refuses calls clearly', async () => {
    const dbName = freshName();
    const store = await openIdbStore({ dbName });
    const newer = await rawOpen(dbName, DB_VERSION + 1);
    await expect(store.listStories()).rejects.toThrow(StorageBlockedError);
    await expect(store.listStories()).rejects.toThrow(/another tab/);
    newer.close();
  });

  it('reports a database from a newer version as StorageBlockedError', async () => {
    const dbName = freshName();
    (await rawOpen(dbName, DB_VERSION + 1)).close();
    await expect(openIdbStore({ dbName })).rejects.toThrow(/newer version/);
  });
});
