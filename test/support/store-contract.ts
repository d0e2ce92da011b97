/**
 * Test-only: the behaviour every `Store` implementation must show, as a Vitest suite. Each store's
 * test file calls `describeStoreContract`. Uses a real engine snapshot of advent.z5 (glkote-term's
 * test copy) to prove snapshots survive a store round trip. Not imported by app code.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadStory } from '../../src/engine/zvm-engine.ts';
import type { EngineSnapshot } from '../../src/engine/interface.ts';
import { StorageBlockedError, StorageError, type Store, type StoredStory } from '../../src/store/interface.ts';

export interface ContractOptions {
  /** A fresh, empty store. */
  make(): Promise<Store>;
  /** Close `store` and open the same data again (persistent stores only). */
  reopen?(store: Store): Promise<Store>;
}

const MD5_A = '0123456789abcdef0123456789abcdef';
const MD5_B = 'fedcba9876543210fedcba9876543210';

export function adventBytes(): Uint8Array {
  return new Uint8Array(readFileSync(createRequire(import.meta.url).resolve('glkote-term/tests/advent.z5')));
}

function story(id: string, addedAt: number, bytes = new Uint8Array([5, 0, 1, 2, 3])): StoredStory {
  return { id, name: `${id}.z5`, bytes, md5: MD5_A, addedAt, maxScore: null };
}

export function describeStoreContract(name: string, options: ContractOptions): void {
  describe(`${name}: Store contract`, () => {
    it('round-trips stories, lists them without bytes, oldest first', async () => {
      const store = await options.make();
      await store.putStory(story('user:b', 2000, new Uint8Array([9, 8, 7])));
      await store.putStory(story('user:a', 1000));
      const list = await store.listStories();
      expect(list.map((s) => s.id)).toEqual(['user:a', 'user:b']);
      expect(list[0]).toEqual({ id: 'user:a', name: 'user:a.z5', md5: MD5_A, addedAt: 1000, maxScore: null, sizeBytes: 5 });
      expect(list[0]).not.toHaveProperty('bytes');
      const got = await store.getStory('user:b');
      expect(got?.bytes).toBeInstanceOf(Uint8Array);
      expect([...(got?.bytes ?? [])]).toEqual([9, 8, 7]);
      expect(await store.getStory('missing')).toBeUndefined();
      store.close();
    });

    it('stores only the bytes of a view, replaces by id, sets max score, deletes', async () => {
      const store = await options.make();
      const big = new Uint8Array(1000).fill(7);
      await store.putStory(story('user:v', 1, big.subarray(10, 14)));
      expect((await store.getStory('user:v'))?.bytes.byteLength).toBe(4);
      await store.putStory({ ...story('user:v', 1), name: 'renamed.z5' });
      expect((await store.listStories()).map((s) => s.name)).toEqual(['renamed.z5']);
      await store.setStoryMaxScore('user:v', 42);
      expect((await store.getStory('user:v'))?.maxScore).toBe(42);
      await expect(store.setStoryMaxScore('nope', 1)).rejects.toBeInstanceOf(StorageError);
      await store.deleteStory('user:v');
      await store.deleteStory('user:v');
      expect(await store.listStories()).toEqual([]);
      store.close();
    });

    it('returns copies', async () => {
      const store = await options.make();
      await store.putStory(story('user:c', 1));
      const first = await store.getStory('user:c');
      first!.bytes[0] = 99;
      first!.name = 'changed';
      const again = await store.getStory('user:c');
      expect(again?.bytes[0]).toBe(5);
      expect(again?.name).toBe('user:c.z5');
      store.close();
    });

    it('round-trips settings of every JSON shape', async () => {
      const store = await options.make();
      const value = { seed: 3, names: ['a', 'b'], on: true, none: null, nested: { x: 1.5 } };
      await store.setSetting('prefs', value);
      await store.setSetting('lastStory', 'advent');
      expect(await store.getSetting('prefs')).toEqual(value);
      expect(await store.getSetting('lastStory')).toBe('advent');
      expect(await store.getSetting('missing')).toBeUndefined();
      await store.setSetting('lastStory', 'zork1');
      expect(await store.getSetting('lastStory')).toBe('zork1');
      await store.deleteSetting('lastStory');
      expect(await store.getSetting('lastStory')).toBeUndefined();
      expect(await store.getSetting('prefs')).toEqual(value);
      store.close();
    });

    it('keeps save slots per story, newest first, replaces by name, trims names', async () => {
      const store = await options.make();
      const snapshot = { format: 'x', quetzal: new Uint8Array([1, 2, 3]), nested: { list: [1, 'two', null] } };
      await store.putSave({ storyMd5: MD5_A, name: ' first ', snapshot, savedAt: 10 });
      await store.putSave({ storyMd5: MD5_A, name: 'second', snapshot: { n: 2 }, savedAt: 20 });
      await store.putSave({ storyMd5: MD5_B, name: 'other', snapshot: { n: 3 }, savedAt: 30 });
      expect(await store.listSaves(MD5_A)).toEqual([
        { storyMd5: MD5_A, name: 'second', savedAt: 20 },
        { storyMd5: MD5_A, name: 'first', savedAt: 10 },
      ]);
      const slot = await store.getSave(MD5_A, 'first');
      expect(slot?.snapshot).toEqual(snapshot);
      expect((slot?.snapshot as typeof snapshot).quetzal).toBeInstanceOf(Uint8Array);
      await store.putSave({ storyMd5: MD5_A, name: 'first', snapshot: { n: 4 }, savedAt: 40 });
      expect((await store.listSaves(MD5_A)).map((s) => s.name)).toEqual(['first', 'second']);
      expect((await store.getSave(MD5_A, 'first'))?.snapshot).toEqual({ n: 4 });
      await expect(store.putSave({ storyMd5: MD5_A, name: '  ', snapshot: {}, savedAt: 1 })).rejects.toBeInstanceOf(StorageError);
      await store.deleteSave(MD5_A, 'first');
      expect((await store.listSaves(MD5_A)).map((s) => s.name)).toEqual(['second']);
      expect(await store.getSave(MD5_A, 'first')).toBeUndefined();
      expect(await store.listSaves('0'.repeat(32))).toEqual([]);
      store.close();
    });

    it('keeps a real engine snapshot restorable', async () => {
      const store = await options.make();
      const bytes = adventBytes();
      const engine = loadStory(bytes, { seed: 5 });
      const after = engine.step('east');
      await store.putSave({ storyMd5: engine.info.md5, name: 'inside', snapshot: engine.snapshot(), savedAt: 1 });
      const slot = await store.getSave(engine.info.md5, 'inside');
      const fresh = loadStory(bytes, { seed: 5 });
      const restored = fresh.restore(slot?.snapshot as EngineSnapshot);
      expect(restored.statusLine).toBe(after.statusLine);
      expect(fresh.step('look').text).toContain('Inside Building');
      store.close();
    });

    it('keeps runs: header replaced, events appended in seq order, listed by kind, deleted whole', async () => {
      const store = await options.make();
      const header = (id: string, kind: 'session' | 'evolution', updatedAt: number, data: unknown) => ({ id, kind, updatedAt, summary: { title: id }, data });
      await store.putRun(header('s1', 'session', 10, { v: 1 }));
      await store.appendRunEvents('s1', [{ seq: 2, data: { step: 'b' } }, { seq: 1, data: { step: 'a', bytes: new Uint8Array([1, 2]) } }]);
      await store.appendRunEvents('s1', [{ seq: 3, data: { step: 'c' } }], header('s1', 'session', 20, { v: 2 }));
      await store.appendRunEvents('s1', [{ seq: 2, data: { step: 'B' } }]);
      await store.putRun(header('e1', 'evolution', 15, null));
      await store.putRun(header('s0', 'session', 5, null));
      const run = await store.getRun('s1');
      expect(run?.header).toEqual(header('s1', 'session', 20, { v: 2 }));
      expect(run?.events.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(run?.events[1]?.data).toEqual({ step: 'B' });
      expect([...((run?.events[0]?.data as { bytes: Uint8Array }).bytes)]).toEqual([1, 2]);
      expect((await store.listRuns('session')).map((r) => r.id)).toEqual(['s1', 's0']);
      expect(await store.listRuns('session')).toContainEqual({ id: 's0', kind: 'session', updatedAt: 5, summary: { title: 's0' } });
      await expect(store.appendRunEvents('missing', [{ seq: 1, data: null }])).rejects.toBeInstanceOf(StorageError);
      await store.deleteRun('s1');
      expect(await store.getRun('s1')).toBeUndefined();
      await store.putRun(header('s1', 'session', 30, null));
      expect((await store.getRun('s1'))?.events).toEqual([]);
      store.close();
    });

    it('rewrites a run whole: afterwards it holds exactly the given events, undamaged', async () => {
      const store = await options.make();
      const header = (updatedAt: number) => ({ id: 'r', kind: 'session' as const, updatedAt, summary: null, data: { v: updatedAt } });
      await store.appendRunEvents('r', [1, 2, 3, 4].map((seq) => ({ seq, data: { seq } })), header(1));
      await store.appendRunEvents('r', [{ seq: 5, data: { seq: 5 } }]);
      await store.rewriteRun(header(2), [{ seq: 2, data: { kept: true } }, { seq: 1, data: { kept: true } }]);
      const run = await store.getRun('r');
      expect(run?.header).toEqual(header(2));
      expect(run?.events).toEqual([{ seq: 1, data: { kept: true } }, { seq: 2, data: { kept: true } }]);
      expect(run?.damage).toBeNull();
      await store.appendRunEvents('r', [{ seq: 3, data: { after: true } }], header(3));
      expect((await store.getRun('r'))?.events.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect((await store.getRun('r'))?.damage).toBeNull();
      store.close();
    });

    it('keeps meta-prompt library entries, oldest first', async () => {
      const store = await options.make();
      await store.putMetaPrompt({ id: 'b', createdAt: 2, entry: { name: 'B' } });
      await store.putMetaPrompt({ id: 'a', createdAt: 1, entry: { name: 'A', strategy: 'Keep facts.' } });
      expect((await store.listMetaPrompts()).map((m) => m.id)).toEqual(['a', 'b']);
      await store.deleteMetaPrompt('a');
      expect(await store.listMetaPrompts()).toEqual([{ id: 'b', createdAt: 2, entry: { name: 'B' } }]);
      store.close();
    });

    it('refuses calls after close', async () => {
      const store = await options.make();
      store.close();
      await expect(store.listStories()).rejects.toBeInstanceOf(StorageBlockedError);
      await expect(store.setSetting('a', 1)).rejects.toBeInstanceOf(StorageBlockedError);
    });

    if (options.reopen) {
      const reopen = options.reopen;
      it('keeps everything across a reopen', async () => {
        const store = await options.make();
        expect(store.persistent).toBe(true);
        await store.putStory(story('user:p', 5));
        await store.setSetting('k', 'v');
        await store.putSave({ storyMd5: MD5_A, name: 'slot', snapshot: { q: new Uint8Array([4]) }, savedAt: 5 });
        const again = await reopen(store);
        expect((await again.listStories()).map((s) => s.id)).toEqual(['user:p']);
        expect(await again.getSetting('k')).toBe('v');
        expect((await again.getSave(MD5_A, 'slot'))?.snapshot).toEqual({ q: new Uint8Array([4]) });
        again.close();
      });
    }
  });
}
