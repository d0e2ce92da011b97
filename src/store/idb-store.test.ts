import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_VERSION, openIdbStore } from './idb-store.ts';
import { StorageBlockedError, StorageFullError, type StoredStory } from './interface.ts';
import { describeStoreContract } from './store-contract.ts';

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
  it(`creates version ${DB_VERSION} with stories, settings and saves`, async () => {
    const dbName = freshName();
    (await openIdbStore({ dbName })).close();
    const db = await rawOpen(dbName, DB_VERSION);
    expect(db.version).toBe(1);
    expect([...db.objectStoreNames]).toEqual(['saves', 'settings', 'stories']);
    const tx = db.transaction(['stories', 'saves']);
    expect([...tx.objectStore('stories').indexNames]).toEqual(['by-md5']);
    expect(tx.objectStore('saves').keyPath).toEqual(['storyMd5', 'name']);
    expect([...tx.objectStore('saves').indexNames]).toEqual(['by-story']);
    db.close();
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
    const started = Date.now();
    await expect(openIdbStore({ dbName, version: 2, openTimeoutMs: 30_000 })).rejects.toBeInstanceOf(StorageBlockedError);
    expect(Date.now() - started).toBeLessThan(5_000);
    old.close();
  });

  it('closes its own connection when another tab upgrades, then refuses calls clearly', async () => {
    const dbName = freshName();
    const store = await openIdbStore({ dbName });
    const newer = await rawOpen(dbName, 2);
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
