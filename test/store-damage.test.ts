/**
 * A damaged session store never resumes silently. A naive session on Detective
 * (3 episodes × 5 steps, mock provider) is stopped in episode 3 after 2 steps, in the Node file
 * store and in IndexedDB (fake-indexeddb); then every kind of damage a crash or a disk can leave is
 * applied — a lost, cut, repeated, reordered or garbled record, an empty or missing events file,
 * a step whose score its action does not reproduce — and the resume must stop with a
 * `DamagedRunError` naming the file (or IndexedDB store) and the first bad record. Continuing from
 * the last good episode then ends exactly like an uninterrupted session.
 */
import 'fake-indexeddb/auto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { openIdbStore } from '../src/store/idb-store.ts';
import { DamagedRunError, type Store } from '../src/store/interface.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import { openStoredSession } from '../src/ttl/session-integrity.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { runSession } from '../src/ttl/session-runner.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { persistingSink, replaceSession } from '../src/ttl/session-store.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { readShared, REPO_ROOT } from './support/shared.ts';

const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
const catalog = parseCatalog(JSON.parse(readFileSync(`${REPO_ROOT}/public/stories/catalog.json`, 'utf8')));
const detective = new Uint8Array(readShared('stories/detective.z5'));
const entry = findByMd5(catalog, md5Hex(detective))!;
const engine = () => syncEngine(loadStory(detective, { seed: 0, rules: rulesFor(entry) }));

let mock: MockLlm;
let reference: SessionRecord;
const dirs: string[] = [];
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
  reference = await session(null, 'reference');
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Run (or resume) the session `id`; with a store it is persisted and stopped at episode 3 step 2. */
async function session(store: Store | null, id: string, resume?: SessionRecord): Promise<SessionRecord> {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'k' };
  s.roles.actor.model = 'mock-model';
  s.roles.metaAgent.model = 'mock-model';
  const parts = buildSession(
    { story: { id: 'detective', title: entry.title, md5: entry.md5, maxScore: 360 }, seed: 0, policy: { kind: 'meta', name: 'naive', strategy: '' }, episodes: 3, maxSteps: 5, initialGuidingPrompt: 'Explore systematically.', contextWindow: 8000 },
    s, createChatModels(s, new UsageMeter(s.caps, s.prices)), await loadTokenCounter(),
  );
  const controller = new AbortController();
  const stopAt = resume ? {} : { onStep: (e: number, step: { index: number }) => { if (e === 3 && step.index === 2) controller.abort(); } };
  return runSession({
    id, config: parts.config, engine: engine(), actor: parts.actor, policy: parts.policy, resume, signal: controller.signal,
    sink: store ? persistingSink(store, id, stopAt) : {},
  });
}

const actions = (r: SessionRecord) => r.episodes.map((e) => e.steps.map((s) => `${s.action}:${s.score}`));

/** Resume must refuse; returns the error. */
async function refused(store: Store, id: string): Promise<DamagedRunError> {
  const error = await openStoredSession(store, id, { engine: engine() }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DamagedRunError);
  return error as DamagedRunError;
}

/** Continue from the last good episode and finish: the result equals the uninterrupted run. */
async function continueFromLastGood(store: Store, id: string, keep: number): Promise<void> {
  const kept = (await openStoredSession(store, id, { engine: engine(), fromLastGood: true }))!;
  expect(kept.episodes.map((e) => e.index)).toEqual(Array.from({ length: keep }, (_, i) => i + 1));
  // What was kept is now stored whole: a second check passes.
  expect((await openStoredSession(store, id, { engine: engine() }))?.episodes).toHaveLength(keep);
  const done = await session(store, id, kept);
  expect(done.status).toBe('complete');
  expect(actions(done)).toEqual(actions(reference));
  expect(done.scores).toEqual(reference.scores);
  expect(done.wAuc).toBe(reference.wAuc);
}

describe('Node file store: a damaged session is refused, naming the file and the first bad record', () => {
  async function stoppedRun(): Promise<{ store: Store; dir: string; file: string; lines: string[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-damage-'));
    dirs.push(dir);
    const store = await openNodeStore(dir);
    const stopped = await session(store, 'run-1');
    expect(stopped.status).toBe('stopped');
    const run = (await store.getRun('run-1'))!;
    expect(run.damage).toBeNull();
    const file = run.where;
    const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
    expect(lines).toHaveLength(12); // 5 + 5 steps of episodes 1–2, 2 of episode 3
    return { store, dir, file, lines };
  }

  const cases: { name: string; damage: (lines: string[]) => string | null; record: string; keep: number }[] = [
    { name: 'a deleted line in the middle', damage: (l) => l.filter((_, i) => i !== 6).join('\n') + '\n', record: 'line 7', keep: 1 },
    { name: 'a truncated last line', damage: (l) => l.join('\n').slice(0, -40), record: 'line 12', keep: 2 },
    { name: 'a duplicated line', damage: (l) => [...l.slice(0, 7), l[6], ...l.slice(7)].join('\n') + '\n', record: 'line 8', keep: 1 },
    { name: 'reordered lines', damage: (l) => [...l.slice(0, 6), l[7], l[6], ...l.slice(8)].join('\n') + '\n', record: 'line 7', keep: 1 },
    { name: 'garbage bytes inside a line', damage: (l) => l.map((x, i) => (i === 3 ? x.replace('"score":', '"sc\u0000\u00ffe":') : x)).join('\n') + '\n', record: 'line 4', keep: 0 },
    { name: 'an empty file', damage: () => '', record: 'the whole file', keep: 0 },
    { name: 'a missing file', damage: () => null, record: 'the whole file', keep: 0 },
  ];
  for (const c of cases) {
    it(`${c.name}: stops at ${c.record}, then continues from the last good episode (${c.keep})`, async () => {
      const { store, dir, file, lines } = await stoppedRun();
      const text = c.damage(lines);
      if (text === null) rmSync(file);
      else writeFileSync(file, text);
      const reopened = await openNodeStore(dir);
      const error = await refused(reopened, 'run-1');
      expect(error.damage.where).toBe(file);
      expect(error.damage.record).toBe(c.record);
      expect(error.keepCount).toBe(c.keep);
      expect(error.message).toContain(`${file}, ${c.record}: `);
      expect(error.message).toMatch(c.keep ? new RegExp(`Intact before it: episodes? 1(–${c.keep})?;`) : /Nothing before the damage can be kept/);
      await continueFromLastGood(reopened, 'run-1', c.keep);
      store.close();
    });
  }

  it('a step whose recorded score its action does not reproduce (rewritten consistently) is found by replaying', async () => {
    const { store } = await stoppedRun();
    const run = (await openStoredSession(store, 'run-1'))!;
    const forged = structuredClone(run);
    const step = forged.episodes[1]!.steps[0]!;
    step.score = (step.score ?? 0) + 10;
    step.reward += 10;
    forged.episodes[1]!.steps[1]!.reward -= 10;
    await replaceSession(store, forged);
    const error = await refused(store, 'run-1');
    expect(error.damage.record).toBe('episode 2 step 1 (seq 200001)');
    expect(error.damage.problem).toMatch(/^its action ".*" replays to score \d+, the record says \d+$/);
    expect(error.keepCount).toBe(1);
    // Without an engine the forged step is consistent on its own: only the replay can tell.
    expect(await openStoredSession(store, 'run-1')).toBeDefined();
    await continueFromLastGood(store, 'run-1', 1);
  });
});

describe('IndexedDB store: a damaged session is refused, naming the object store and the first bad record', () => {
  let n = 0;
  /** A raw IndexedDB transaction on the test database's runEvents. */
  async function rawEvents(dbName: string, change: (events: IDBObjectStore) => void): Promise<void> {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(dbName);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('runEvents', 'readwrite');
      change(tx.objectStore('runEvents'));
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }
  const get = (events: IDBObjectStore, seq: number, use: (record: { runId: string; seq: number; data: Record<string, unknown>; sum?: string }) => void) => {
    const request = events.get(['run-1', seq]);
    request.onsuccess = () => use(request.result);
  };

  const cases: { name: string; change: (events: IDBObjectStore) => void; record: string; keep: number }[] = [
    { name: 'a deleted record', change: (ev) => ev.delete(['run-1', 200002]), record: 'episode 2 step 2 (seq 200002)', keep: 1 },
    { name: 'a garbled record', change: (ev) => get(ev, 100003, (r) => ev.put({ ...r, data: { ...r.data, score: 99 } })), record: 'seq 100003', keep: 0 },
    { name: 'a truncated record', change: (ev) => get(ev, 300002, (r) => ev.put({ ...r, data: { ...r.data, observation: String(r.data.observation).slice(0, 5) } })), record: 'seq 300002', keep: 2 },
    { name: 'a record repeated at another seq', change: (ev) => get(ev, 200002, (r) => ev.put({ ...r, seq: 200003 })), record: 'seq 200003', keep: 1 },
    {
      name: 'two records swapped',
      change: (ev) => get(ev, 200002, (a) => get(ev, 200003, (b) => { ev.put({ ...a, data: b.data }); ev.put({ ...b, data: a.data }); })),
      record: 'seq 200002', keep: 1,
    },
    { name: 'every record lost', change: (ev) => ev.delete(IDBKeyRange.bound(['run-1', 0], ['run-1', Infinity])), record: 'all records', keep: 0 },
  ];
  for (const c of cases) {
    it(`${c.name}: stops at ${c.record}, then continues from the last good episode (${c.keep})`, async () => {
      const dbName = `damage-${++n}`;
      const store = await openIdbStore({ dbName });
      expect((await session(store, 'run-1')).status).toBe('stopped');
      await rawEvents(dbName, c.change);
      const error = await refused(store, 'run-1');
      expect(error.damage.where).toBe(`IndexedDB “${dbName}”, object store runEvents (run run-1)`);
      expect(error.damage.record).toBe(c.record);
      expect(error.keepCount).toBe(c.keep);
      await continueFromLastGood(store, 'run-1', c.keep);
      store.close();
    });
  }
});
