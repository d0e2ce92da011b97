/**
 * Storage seen coming to its end: a Store wrapper that asks how much of the origin's quota is left
 * (an injected `StorageGauge` — in the page `navigator.storage`, see ui/shared/state/services.ts)
 * before writes, and refuses a write with `StorageLowError` while more than a reserve is still
 * free, so a run stops (resumable: every earlier write is whole) before the browser fails a write
 * mid-transaction — after which Chromium may close the database and, on the next open, wipe it.
 * Every failed write (low, full, or the connection closed) is also reported to `onFailure`, so the
 * page can offer to export everything before any reload. Pure: no DOM or Node APIs.
 */
import { StorageFullError, type Store } from './interface.ts';

/** How much the origin uses and may use, bytes (the shape of `navigator.storage.estimate()`). */
export interface StorageGauge {
  estimate(): Promise<{ usage?: number; quota?: number }>;
}

const MIB = 1024 * 1024;

/** The bytes kept free: a tenth of the quota, at least 1 MiB, at most 64 MiB. */
export function reserveBytes(quota: number): number {
  return Math.min(64 * MIB, Math.max(MIB, Math.floor(quota / 10)));
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** Storage is nearly full: the write was refused before it could fail, nothing of it was written. */
export class StorageLowError extends StorageFullError {
  override name = 'StorageLowError';
  constructor(readonly usage: number, readonly quota: number) {
    super('it', undefined, 'storage_low');
    this.message = `This page's storage is almost full (${mb(usage)} used of the ${mb(quota)} the browser allows it; the next save would leave less than the ${mb(reserveBytes(quota))} kept free), so the run was stopped before a save could fail; everything saved so far is kept. Export everything now, then delete old runs or stories (or free disk space) and resume.`;
  }
}

/** The Store methods that write (guarded); the rest pass through. */
const WRITES = new Set(['putStory', 'setStoryMaxScore', 'setSetting', 'putSave', 'putRun', 'appendRunEvents', 'rewriteRun', 'putMetaPrompt']);

export interface StorageWatchOptions {
  /** Told of every write that failed: StorageLowError, StorageFullError, or any other store error. */
  onFailure?: (error: unknown) => void;
  /** Ms an estimate is trusted for (default 1,000); bytes written since are added to its usage. */
  maxAgeMs?: number;
  /** Clock, ms (default Date.now). */
  now?: () => number;
}

/**
 * `store` with its writes checked against `gauge` (see module doc): a write is refused with
 * StorageLowError when the estimated usage plus the write's size leaves less than
 * `reserveBytes(quota)` free. An estimate is trusted for `maxAgeMs`, with the JSON size of the
 * writes since added to it, to admit writes; a refusal always asks the gauge afresh first; a later estimate reporting less (browsers report late) does not undo
 * that count until a delete. A gauge that fails or reports no quota checks nothing. Writes start
 * in the order they were called (a slow estimate never lets a later write overtake an earlier one).
 */
export function watchStorage(store: Store, gauge: StorageGauge, options: StorageWatchOptions = {}): Store {
  const now = options.now ?? (() => Date.now());
  const maxAge = options.maxAgeMs ?? 1000;
  let known: { usage: number; quota: number; at: number } | null = null;
  /** Settles once the last write asked for has started (or was refused). */
  let dispatched: Promise<void> = Promise.resolve();
  const sizeOf = (args: unknown[]): number => {
    try {
      return JSON.stringify(args, (_k, v: unknown) => (v instanceof Uint8Array ? v.byteLength : v))?.length ?? 0;
    } catch {
      return 0;
    }
  };
  const refresh = async (): Promise<void> => {
    const e = await gauge.estimate().catch(() => ({}) as { usage?: number; quota?: number });
    // Browsers update the usage they report late (after their own flushes): the bytes this
    // watch has written count until the report catches up (a delete starts the count afresh).
    known = e.quota && e.quota > 0 ? { usage: Math.max(e.usage ?? 0, known?.usage ?? 0), quota: e.quota, at: now() } : null;
  };
  const tooBig = (k: { usage: number; quota: number }, bytes: number): boolean => k.usage + bytes > k.quota - reserveBytes(k.quota);
  const check = async (bytes: number): Promise<void> => {
    let fresh = false;
    if (!known || now() - known.at > maxAge) {
      await refresh();
      fresh = true;
    }
    // Only a fresh estimate refuses: the quota may have grown since the cached one (room freed
    // elsewhere, the browser granting more), and a resume right after a refusal must see it.
    if (known && !fresh && tooBig(known, bytes)) await refresh();
    if (!known) return;
    if (tooBig(known, bytes)) throw new StorageLowError(known.usage, known.quota);
    known.usage += bytes;
  };
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      if (typeof prop === 'string' && prop.startsWith('delete')) {
        return async (...args: unknown[]) => {
          known = null;
          return method.apply(target, args);
        };
      }
      if (typeof prop !== 'string' || !WRITES.has(prop)) return method.bind(target);
      return async (...args: unknown[]) => {
        // Writes start in the order they were asked for: a check that waits for a fresh estimate
        // must not let a later write overtake it (the older value of a setting or record would
        // land last and win). Only the start is ordered; the writes themselves still overlap.
        const started = dispatched.then(() => check(sizeOf(args))).then(() => ({ result: method.apply(target, args) }));
        dispatched = started.then(() => undefined, () => undefined);
        try {
          return await (await started).result;
        } catch (error) {
          options.onFailure?.(error);
          throw error;
        }
      };
    },
  });
}

/**
 * Everything the store holds, as one JSON-ready object (format "metattl-everything-1"): every
 * run (header and events), the user's meta-prompts, and the stories' list (their bytes are the
 * user's own files and are not repeated). Reads only; a run that cannot be read is listed with
 * its error instead.
 */
export async function exportEverything(store: Store, now: number): Promise<Record<string, unknown>> {
  const runs: unknown[] = [];
  for (const kind of ['session', 'evolution', 'evaluation'] as const) {
    for (const summary of await store.listRuns(kind)) {
      try {
        const run = await store.getRun(summary.id);
        runs.push(run ? { header: run.header, events: run.events } : { id: summary.id, error: 'no longer stored' });
      } catch (error) {
        runs.push({ id: summary.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return { format: 'metattl-everything-1', exportedAt: new Date(now).toISOString(), runs, metaPrompts: await store.listMetaPrompts(), stories: await store.listStories() };
}
