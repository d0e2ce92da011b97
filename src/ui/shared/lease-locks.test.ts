/** The run guard without Web Locks: localStorage leases shared by the tabs of an origin. */
import { describe, expect, it } from 'vitest';
import { isRunLocked, runLockName, withRunLock } from './state/run-services.ts';
import { LEASE_PREFIX, leaseLocks, type LeaseStorage } from './lease-locks.ts';

/** A Map-backed localStorage (one per origin: the tabs below share it). */
function memoryStorage(): LeaseStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    key: (index) => [...map.keys()][index] ?? null,
    get length() {
      return map.size;
    },
  };
}

/** Renewals a test fires by hand (no timers). */
function manualTimer() {
  const renewals = new Set<() => void>();
  return {
    every: (_ms: number, renew: () => void) => (renewals.add(renew), () => void renewals.delete(renew)),
    fire: () => renewals.forEach((renew) => renew()),
    get running() {
      return renewals.size;
    },
  };
}

describe('leaseLocks', () => {
  it('one tab runs a run; another tab sees it held and gets null; after the run either may run it', async () => {
    const storage = memoryStorage();
    const timer = manualTimer();
    const clock = { t: 1_000 };
    const tabA = leaseLocks({ storage, owner: 'A', now: () => clock.t, ttlMs: 9_000, every: timer.every });
    const tabB = leaseLocks({ storage, owner: 'B', now: () => clock.t, ttlMs: 9_000, every: timer.every });
    const result = await withRunLock('r1', async () => {
      expect(JSON.parse(storage.map.get(LEASE_PREFIX + runLockName('r1'))!)).toEqual({ owner: 'A', until: 10_000 });
      expect(await isRunLocked('r1', tabB)).toBe(true);
      expect(await withRunLock('r1', async () => 'B ran it', tabB)).toBeNull();
      // The same tab asking again (a second view of the same run) is refused too, as with Web Locks.
      expect(await withRunLock('r1', async () => 'A twice', tabA)).toBeNull();
      // A long run: the renewal moves the lease on, so it never lapses while the run lasts.
      clock.t = 8_000;
      timer.fire();
      clock.t = 12_000;
      expect(await withRunLock('r1', async () => 'B ran it', tabB)).toBeNull();
      return 'A ran it';
    }, tabA);
    expect(result).toBe('A ran it');
    expect(storage.map.size).toBe(0);
    expect(timer.running).toBe(0);
    expect(await isRunLocked('r1', tabA)).toBe(false);
    expect(await withRunLock('r1', async () => 'B ran it', tabB)).toBe('B ran it');
  });

  it('a lease left by a tab that died lapses after its time; release() drops a page\'s leases at once', async () => {
    const storage = memoryStorage();
    const timer = manualTimer();
    const clock = { t: 0 };
    storage.setItem(LEASE_PREFIX + runLockName('r2'), JSON.stringify({ owner: 'gone', until: 5_000 }));
    const tab = leaseLocks({ storage, owner: 'T', now: () => clock.t, every: timer.every });
    expect(await isRunLocked('r2', tab)).toBe(true);
    expect(await withRunLock('r2', async () => 'ran', tab)).toBeNull();
    clock.t = 5_001;
    expect(await isRunLocked('r2', tab)).toBe(false);
    expect(await withRunLock('r2', async () => 'ran', tab)).toBe('ran');

    const other = leaseLocks({ storage, owner: 'O', now: () => clock.t, every: timer.every });
    let releasedInside = false;
    await withRunLock('r3', async () => {
      tab.release(); // the page goes away (pagehide) while the run is under way
      releasedInside = !(await isRunLocked('r3', other));
    }, tab);
    expect(releasedInside).toBe(true);
  });

  it('releases the lease when the run throws; a damaged lease counts as none', async () => {
    const storage = memoryStorage();
    const tab = leaseLocks({ storage, owner: 'T', every: manualTimer().every });
    await expect(withRunLock('r4', async () => { throw new Error('boom'); }, tab)).rejects.toThrow('boom');
    expect(storage.map.size).toBe(0);
    storage.setItem(LEASE_PREFIX + runLockName('r5'), '{not json');
    expect(await isRunLocked('r5', tab)).toBe(false);
    expect(await withRunLock('r5', async () => 'ran', tab)).toBe('ran');
  });
});
