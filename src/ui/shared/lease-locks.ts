/**
 * The run guard where Web Locks are absent (a page on plain http from another machine):
 * exclusive leases in localStorage, which every tab of the origin shares. A tab that runs a run
 * writes `{ owner, until }` under the lock's name and renews it while the run lasts; another tab
 * sees the lease and shows the run read-only. A lease is released when the run ends and when the
 * page goes away (`pagehide`), and lapses by itself after `ttlMs` if the tab died without
 * either. Best effort: two tabs starting the same run within the same instant can both win
 * (localStorage has no compare-and-set); Web Locks, where present, have no such gap.
 */

/** The Web Locks surface we use (`navigator.locks`); absent in old browsers and in Node. */
export type RunLocks = Pick<LockManager, 'request' | 'query'>;

/** The localStorage surface used (a test passes a Map-backed stand-in). */
export type LeaseStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

export interface LeaseLockOptions {
  storage: LeaseStorage;
  /** This tab's id (default: a random one per page load). */
  owner: string;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** A lease lapses this long after its last renewal, ms (default 15 000). */
  ttlMs?: number;
  /** Renew a held lease this often, ms (default a third of `ttlMs`). */
  every?: (ms: number, renew: () => void) => () => void;
}

/** The key prefix of a lease in localStorage. */
export const LEASE_PREFIX = 'metattl.lease:';

interface Lease {
  owner: string;
  until: number;
}

function readLease(storage: LeaseStorage, name: string): Lease | null {
  try {
    const value = JSON.parse(storage.getItem(LEASE_PREFIX + name) ?? 'null') as Partial<Lease> | null;
    return value && typeof value.owner === 'string' && typeof value.until === 'number' ? { owner: value.owner, until: value.until } : null;
  } catch {
    return null;
  }
}

const interval = (ms: number, renew: () => void): (() => void) => {
  const id = setInterval(renew, ms);
  return () => clearInterval(id);
};

/**
 * Web Locks' `request(name, { ifAvailable: true }, callback)` and `query()` over localStorage
 * leases (see the module comment).
 * @returns the surface run-services.ts uses; `release()` drops every lease this tab holds (call it
 *   on `pagehide`)
 */
export function leaseLocks(options: LeaseLockOptions): RunLocks & { release(): void } {
  const { storage, owner } = options;
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? 15_000;
  const every = options.every ?? interval;
  const mine = new Set<string>();
  const write = (name: string): void => storage.setItem(LEASE_PREFIX + name, JSON.stringify({ owner, until: now() + ttl }));
  const drop = (name: string): void => {
    mine.delete(name);
    if (readLease(storage, name)?.owner === owner) storage.removeItem(LEASE_PREFIX + name);
  };
  const locks = {
    async request<T>(name: string, _options: { ifAvailable: true }, callback: (lock: { name: string; mode: 'exclusive' } | null) => Promise<T>): Promise<T> {
      const lease = readLease(storage, name);
      if (mine.has(name) || (lease !== null && lease.owner !== owner && lease.until > now())) return callback(null);
      try {
        write(name);
      } catch {
        return callback({ name, mode: 'exclusive' }); // storage refused: run unguarded, as without any lock
      }
      if (readLease(storage, name)?.owner !== owner) return callback(null);
      mine.add(name);
      const stop = every(Math.max(1, Math.floor(ttl / 3)), () => {
        if (mine.has(name)) write(name);
      });
      try {
        return await callback({ name, mode: 'exclusive' });
      } finally {
        stop();
        drop(name);
      }
    },
    async query() {
      const held: { name: string; mode: 'exclusive'; clientId: string }[] = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (!key?.startsWith(LEASE_PREFIX)) continue;
        const name = key.slice(LEASE_PREFIX.length);
        const lease = readLease(storage, name);
        if (lease && lease.until > now()) held.push({ name, mode: 'exclusive', clientId: lease.owner });
      }
      return { held, pending: [] };
    },
    release(): void {
      for (const name of [...mine]) drop(name);
    },
  };
  return locks as unknown as RunLocks & { release(): void };
}
