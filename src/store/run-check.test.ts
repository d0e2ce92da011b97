/**
 * The resume check of sequentially numbered runs (evolution runs, evaluations) on IndexedDB
 * (fake-indexeddb) and memory: a missing seq, a record its validator refuses, and damage the store
 * itself found are each reported at the first bad record; `fromLastGood` keeps what comes before.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openIdbStore } from './idb-store.ts';
import { DamagedRunError, type RunHeader, type Store } from './interface.ts';
import { MemoryStore } from './memory-store.ts';
import { checkRunForResume } from './run-check.ts';

const header: RunHeader = { id: 'e1', kind: 'evaluation', updatedAt: 1, summary: null, data: { state: 'x' } };
const validate = (data: unknown) => ((data as { ok?: boolean }).ok ? null : 'it is not a result');

async function withRecords(store: Store, seqs: number[], bad: number[] = []): Promise<Store> {
  await store.appendRunEvents('e1', seqs.map((seq) => ({ seq, data: { ok: !bad.includes(seq), seq } })), header);
  return store;
}

let n = 0;
const stores: [string, () => Promise<Store>][] = [
  ['IndexedDB', () => openIdbStore({ dbName: `run-check-${++n}` })],
  ['memory', async () => new MemoryStore()],
];

describe.each(stores)('resume check of sequential runs (%s)', (_name, make) => {
  it('passes a whole run and changes nothing', async () => {
    const store = await withRecords(await make(), [1, 2, 3]);
    await checkRunForResume(store, 'e1', 'evaluation', validate);
    expect((await store.getRun('e1'))?.events.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('a missing seq: stops at it; from the last good record keeps 1–2', async () => {
    const store = await withRecords(await make(), [1, 2, 4, 5]);
    const error = (await checkRunForResume(store, 'e1', 'evaluation', validate).catch((e: unknown) => e)) as DamagedRunError;
    expect(error).toBeInstanceOf(DamagedRunError);
    expect(error.damage.record).toBe('seq 3');
    expect(error.damage.problem).toBe('it is missing (the next stored record is seq 4)');
    expect(error.message).toMatch(/^The stored evaluation "e1" is damaged, so it was not resumed: .*, seq 3: it is missing .* Intact before it: records 1–2;/);
    expect((await store.getRun('e1'))?.events).toHaveLength(4);
    await checkRunForResume(store, 'e1', 'evaluation', validate, true);
    const kept = (await store.getRun('e1'))!;
    expect(kept.events.map((e) => e.seq)).toEqual([1, 2]);
    expect(kept.header).toEqual(header);
    expect(kept.damage).toBeNull();
  });

  it('a record its validator refuses: stops at it', async () => {
    const store = await withRecords(await make(), [1, 2, 3], [2]);
    const error = (await checkRunForResume(store, 'e1', 'evaluation', validate).catch((e: unknown) => e)) as DamagedRunError;
    expect(error.damage).toMatchObject({ record: 'seq 2', problem: 'it is not a result' });
    expect(error.keepCount).toBe(1);
  });
});

describe('resume check of sequential runs: damage the IndexedDB store found', () => {
  it('a lost last record (the header counted it) is reported; from the last good record keeps the rest', async () => {
    const dbName = `run-check-${++n}`;
    const store = await withRecords(await openIdbStore({ dbName }), [1, 2, 3]);
    const db = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open(dbName);
      request.onsuccess = () => resolve(request.result);
    });
    await new Promise<void>((resolve) => {
      const tx = db.transaction('runEvents', 'readwrite');
      tx.objectStore('runEvents').delete(['e1', 3]);
      tx.oncomplete = () => resolve();
    });
    db.close();
    const error = (await checkRunForResume(store, 'e1', 'evaluation', validate).catch((e: unknown) => e)) as DamagedRunError;
    expect(error.damage).toEqual({ where: `IndexedDB “${dbName}”, object store runEvents (run e1)`, record: 'after seq 2', problem: 'the run has 2 event records but had 3 when it was last saved: records were lost' });
    await checkRunForResume(store, 'e1', 'evaluation', validate, true);
    expect((await store.getRun('e1'))?.damage).toBeNull();
  });
});
