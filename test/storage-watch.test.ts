/**
 * Storage seen coming to its end (store/storage-watch.ts): writes through the watched store are
 * refused with StorageLowError while a reserve of the quota is still free — before the browser would
 * fail one mid-write —, every earlier write stays whole and readable, reads and deletes still work,
 * every failed write is reported, and "export everything" reads all of it back.
 */
import { describe, expect, it } from 'vitest';
import { StorageFullError } from '../src/store/interface.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { exportEverything, reserveBytes, StorageLowError, watchStorage, type StorageGauge } from '../src/store/storage-watch.ts';

const MIB = 1024 * 1024;
const header = (id: string) => ({ id, kind: 'session' as const, updatedAt: 1, summary: {}, data: { id } });

/** A gauge whose usage grows with what the store holds (JSON size) plus `base`. */
function gaugeOf(store: MemoryStore, quota: number, base: number): StorageGauge & { calls: number } {
  const g = {
    calls: 0,
    async estimate() {
      g.calls++;
      let used = base;
      for (const r of await store.listRuns('session')) used += JSON.stringify(await store.getRun(r.id)).length;
      return { usage: used, quota };
    },
  };
  return g;
}

describe('watched storage', () => {
  it('starts writes in the order they were asked for: a slow estimate never lets a later value of a setting land first', async () => {
    const inner = new MemoryStore();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    // The first estimate is slow (the cache is cold); the next ones answer at once.
    const gauge: StorageGauge = { estimate: async () => (++calls === 1 ? held.then(() => ({ usage: 0, quota: 100 * MIB })) : { usage: 0, quota: 100 * MIB }) };
    const store = watchStorage(inner, gauge, { maxAgeMs: 0 });
    const first = store.setSetting('form:learn', { maxSteps: 15 });
    const second = store.setSetting('form:learn', { maxSteps: 21 });
    await Promise.resolve();
    release();
    await Promise.all([first, second]);
    expect(await inner.getSetting('form:learn')).toEqual({ maxSteps: 21 });
    const events = [1, 2, 3, 4].map((seq) => store.appendRunEvents('r1', [{ seq, data: {} }], header('r1')));
    await Promise.all(events);
    expect((await inner.getRun('r1'))!.events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('the reserve is a tenth of the quota, within 1 and 64 MiB', () => {
    expect([reserveBytes(5 * MIB), reserveBytes(100 * MIB), reserveBytes(10_000 * MIB)]).toEqual([MIB, 10 * MIB, 64 * MIB]);
  });

  it('stops writes before the quota runs out, keeps every earlier write, reports the failure and exports everything', async () => {
    const inner = new MemoryStore();
    const quota = 4 * MIB;
    const failures: unknown[] = [];
    const store = watchStorage(inner, gaugeOf(inner, quota, 2 * MIB), { onFailure: (e) => failures.push(e), maxAgeMs: 0 });
    expect(store.persistent).toBe(false);
    const event = (seq: number) => ({ seq, data: { text: 'x'.repeat(100_000) } });
    let written = 0;
    let refused: unknown = null;
    for (let seq = 1; seq <= 40; seq++) {
      try {
        await store.appendRunEvents('r1', [event(seq)], header('r1'));
        written = seq;
      } catch (error) {
        refused = error;
        break;
      }
    }
    // 2 MiB used before and 1 MiB kept free: about 10 events of 100 kB fit, and the next is refused.
    expect(refused).toBeInstanceOf(StorageLowError);
    expect(refused).toBeInstanceOf(StorageFullError);
    expect((refused as Error).message).toMatch(/^This page's storage is almost full \(\d\.\d MB used of the 4\.2 MB the browser allows it; the next save would leave less than the 1\.0 MB kept free\), so the run was stopped before a save could fail; everything saved so far is kept\. Export everything now/);
    expect(written).toBeGreaterThanOrEqual(9);
    expect(written).toBeLessThanOrEqual(11);
    expect(failures).toEqual([refused]);
    const kept = await store.getRun('r1');
    expect(kept!.events.map((e) => e.seq)).toEqual(Array.from({ length: written }, (_, i) => i + 1));
    await store.deleteRun('r1');
    expect(await store.listRuns('session')).toEqual([]);
    await store.appendRunEvents('r2', [event(1)], header('r2'));
    const everything = await exportEverything(store, Date.UTC(2026, 0, 1));
    expect(everything).toMatchObject({ format: 'metattl-everything-1', exportedAt: '2026-01-01T00:00:00.000Z', runs: [{ header: { id: 'r2' }, events: [{ seq: 1 }] }], metaPrompts: [], stories: [] });
  });

  it('a gauge that fails or knows no quota checks nothing; a recent estimate is reused with the bytes written since', async () => {
    const inner = new MemoryStore();
    const failing = watchStorage(inner, { estimate: async () => Promise.reject(new Error('no')) });
    await failing.putRun(header('a'));
    const blind = watchStorage(inner, { estimate: async () => ({}) });
    await blind.putRun(header('b'));
    let t = 0;
    const gauge = { calls: 0, estimate: async () => (gauge.calls++, { usage: 0, quota: 2 * MIB }) };
    const store = watchStorage(inner, gauge, { now: () => t, maxAgeMs: 1000 });
    await store.setSetting('k', 'x'.repeat(400_000));
    await store.setSetting('k', 'x'.repeat(400_000));
    // Two writes of 0.4 MB on one estimate: the third would leave less than 1 MiB free.
    // The refusal asks afresh (one more estimate) before it refuses.
    await expect(store.setSetting('k', 'x'.repeat(400_000))).rejects.toBeInstanceOf(StorageLowError);
    expect(gauge.calls).toBe(2);
    await store.setSetting('k', 'small');
    expect(gauge.calls).toBe(2);
    t = 2000;
    await store.setSetting('k', 'small');
    expect(gauge.calls).toBe(3);
  });

  it('a refusal is never made on a cached estimate: room granted right after a refusal admits the next write (resume at once)', async () => {
    const inner = new MemoryStore();
    let quota = 1.2 * MIB;
    const gauge = { calls: 0, estimate: async () => (gauge.calls++, { usage: 100_000, quota }) };
    const store = watchStorage(inner, gauge, { now: () => 0, maxAgeMs: 1000 });
    await expect(store.setSetting('k', 'x'.repeat(200_000))).rejects.toBeInstanceOf(StorageLowError);
    quota = 1500 * MIB;
    // The same millisecond: the cached estimate (1.2 MiB) would refuse; the fresh one admits.
    await store.setSetting('k', 'x'.repeat(200_000));
    expect(await inner.getSetting('k')).toHaveLength(200_000);
    expect(gauge.calls).toBe(2);
    // Admitting reuses the cached estimate with the bytes written since.
    await store.setSetting('k2', 'y');
    expect(gauge.calls).toBe(2);
  });
});
