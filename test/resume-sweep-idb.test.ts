/**
 * Nothing lost after any stop, in the page's store: the small session, evaluation and evolution of
 * the file-store sweep (test/resume-sweep.test.ts, runs shared in support/resume-runs.ts) over the
 * IndexedDB store (store/idb-store.ts, fake-indexeddb in Node), stopped at EVERY write — a page
 * closed before write N (every write from N on fails: nothing more reaches the database) and a
 * full disk at write N (write N and every later one fails with StorageFullError while the run goes
 * on, until it stops) — then resumed on the same database with a healthy store: the result is the
 * uninterrupted run's, field for field but wall-clock times. A write is one IndexedDB transaction,
 * which commits whole or not at all, so a stop in the middle of one leaves what a stop before it
 * does.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTokenCounter, type TokenCounter } from '../src/llm/token-count.ts';
import { openIdbStore } from '../src/store/idb-store.ts';
import { StorageFullError, type Store } from '../src/store/interface.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { resumeRuns, SWEEP_MOCK, type ResumeRun } from './support/resume-runs.ts';

let mock: MockLlm;
let countTokens: TokenCounter;
beforeAll(async () => {
  mock = await startMockLlm(SWEEP_MOCK);
  countTokens = await loadTokenCounter();
});
afterAll(async () => {
  await mock.close();
});

/** The Store methods that change the database (each one transaction). */
const WRITES = new Set(['putStory', 'setStoryMaxScore', 'deleteStory', 'setSetting', 'deleteSetting', 'putSave', 'deleteSave', 'putRun', 'appendRunEvents', 'rewriteRun', 'deleteRun', 'putMetaPrompt', 'deleteMetaPrompt']);

/** The switch of the failing wrapper: writes counted from 0, each from number `at` on fails. */
const faults = { at: Infinity, count: 0, kind: 'kill' as 'kill' | 'full' };
function arm(at: number, kind: 'kill' | 'full'): void {
  Object.assign(faults, { at, count: 0, kind });
}

/**
 * `store` with its writes counted and failed from write `faults.at` on: a closed page (an error,
 * nothing written) or a full disk (StorageFullError; deletes still succeed there and are not
 * counted, as on a full file system).
 */
function failing(store: Store): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (typeof prop !== 'string' || !WRITES.has(prop)) return method;
      const isDelete = prop.startsWith('delete');
      return async (...args: unknown[]) => {
        if (faults.kind === 'full' && isDelete) return method(...args);
        if (++faults.count >= faults.at) {
          throw faults.kind === 'full' ? new StorageFullError(`write ${faults.count}`) : new Error('the page was closed before this write');
        }
        return method(...args);
      };
    },
  });
}

let databases = 0;
const newDatabase = (): string => `metattl-sweep-${++databases}`;

const { sessionRun, evaluationRun, evolutionRun } = resumeRuns({
  baseUrl: () => mock.baseUrl, countTokens: () => countTokens, openStore: async (dbName) => failing(await openIdbStore({ dbName })),
});

/**
 * The sweep: the uninterrupted run with its W writes, then for every N in 1…W a fresh database
 * stopped at write N (see module doc) and resumed healthy; each must give the uninterrupted
 * result. Returns W.
 */
async function sweep(run: ResumeRun, kind: 'kill' | 'full'): Promise<number> {
  arm(Infinity, kind);
  const clean = await run(newDatabase());
  const writes = faults.count;
  for (let n = 1; n <= writes; n++) {
    const db = newDatabase();
    arm(n, kind);
    const stopped = await run(db).then(() => null, (error: unknown) => error as Error);
    if (kind === 'full') {
      expect(stopped, `write ${n} of ${writes} failed but the run did not stop`).not.toBeNull();
      expect(stopped!.name, `write ${n}: ${stopped!.message}`).toBe('StorageFullError');
    }
    arm(Infinity, kind);
    const resumed = await run(db).catch((error: unknown) => {
      throw new Error(`resume after ${kind} at write ${n} of ${writes}: ${(error as Error).name}: ${(error as Error).message}`);
    });
    expect(resumed, `resume after ${kind} at write ${n} of ${writes}`).toEqual(clean);
    indexedDB.deleteDatabase(db);
  }
  return writes;
}

describe('a run in the page\'s store stopped at any write resumes to the uninterrupted result', () => {
  // The sweeps run W + 1 to 2W + 1 small runs each: a minute allowed on a loaded machine.
  for (const kind of ['kill', 'full'] as const) {
    const what = kind === 'kill' ? 'page closed before' : 'disk full at';
    it(`session (naive, K = 2, S = 3): ${what} every write`, async () => {
      expect(await sweep(sessionRun, kind)).toBeGreaterThanOrEqual(8);
    }, 60_000);
    it(`evaluation (static and naive, 1 repeat): ${what} every write`, async () => {
      expect(await sweep(evaluationRun, kind)).toBeGreaterThanOrEqual(20);
    }, 60_000);
    it(`evolution (budget 4 metric calls): ${what} every write`, async () => {
      expect(await sweep(evolutionRun, kind)).toBeGreaterThanOrEqual(30);
    }, 60_000);
  }
});
