/**
 * LearnState in Node: the real engine, the real chat models against the mock LLM, a memory store,
 * fake Web Locks. A naive meta-agent session end to end (persisted step by step), Stop then resume
 * to exactly K contiguous episodes, read-only while another tab holds the lock, a full storage
 * (a clear message, the live session still exportable), and the runs list's import and export.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../test/mock-llm/server.ts';
import { StorageFullError, type Store } from '../../store/interface.ts';
import { MemoryStore } from '../../store/memory-store.ts';
import { importSession } from '../../ttl/session-io.ts';
import { curveOfItems } from './curves.ts';
import { loadSession } from '../../ttl/session-store.ts';
import type { Schedule } from '../shared/state/retry-countdown.svelte.ts';
import { ApiKeyHolder } from '../shared/state/api-key.svelte.ts';
import { fakeLocks } from '../../../test/support/ui/fake-locks.ts';
import { fakeServices, type FakeServices } from '../../../test/support/ui/fake-services.ts';
import { createBrowserLlmServices } from '../shared/state/llm-services.ts';
import { MetaPromptCatalog } from '../shared/state/meta-prompt-catalog.svelte.ts';
import { RunServices, runLockName } from '../shared/state/run-services.ts';
import { SettingsState } from '../shared/state/settings.svelte.ts';
import { StoryShelf } from '../shared/state/story-shelf.svelte.ts';
import { LearnSetup } from './learn-setup.svelte.ts';
import { LearnState } from './learn.svelte.ts';
import { usageTotalsOf } from './progress.ts';
import { SessionRuns } from './session-runs.svelte.ts';

const KEY = 'sk-learn-123456';
let mock: MockLlm;
let services: FakeServices;
let scheduled: { callback: () => void; cancelled: boolean }[];
/** The settings of the last `makeLearn`. */
let lastSettings: SettingsState;
let currentSettings: SettingsState;

/** A LearnState on `store`, entered; `fill` sets the form to advent, seed 0, naive, K = 2, S = 3. */
async function makeLearn(store: Store = new MemoryStore(), locks = fakeLocks(), fill = true): Promise<LearnState> {
  services = fakeServices(store);
  const llm = createBrowserLlmServices('http://page.invalid');
  const shelf = new StoryShelf(services);
  const key = new ApiKeyHolder();
  const settings = new SettingsState(llm, key);
  lastSettings = settings;
  currentSettings = settings;
  await shelf.init();
  await settings.init(shelf.store);
  settings.selectPreset('custom');
  settings.setBaseUrl(mock.baseUrl);
  settings.changeRole('actor', { model: 'mock-model' });
  settings.changeRole('metaAgent', { model: 'mock-model' });
  key.set(KEY);
  const runs = new RunServices({ shelf, settings, llm, locks, loadEngine: (bytes, options) => services.loadEngine(bytes, options) });
  let n = 0;
  const catalog = new MetaPromptCatalog({ store: async () => shelf.store, now: () => 1, newId: () => `user-${++n}` });
  scheduled = [];
  const schedule: Schedule = (callback) => {
    const entry = { callback, cancelled: false };
    scheduled.push(entry);
    return () => void (entry.cancelled = true);
  };
  const learn = new LearnState(runs, new LearnSetup(runs, catalog, settings, services, async () => undefined), new SessionRuns(() => shelf.store, services), services, schedule);
  await learn.enter();
  if (!fill) return learn;
  learn.setup.selectStory('advent');
  learn.setup.change({ seed: 0, episodes: 2, maxSteps: 3, policyId: 'meta:naive' });
  return learn;
}

/** Wait until `condition` holds (polling the event loop). */
async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const contiguous = (steps: readonly { index: number }[]): boolean => steps.every((s, i) => s.index === i + 1);

beforeEach(async () => {
  mock = await startMockLlm({ script: ['east', 'get all', 'west'] });
});

afterEach(async () => {
  await mock.close();
});

describe('LearnState', () => {
  it('runs a naive meta-agent session, persisting every step, and lists it', async () => {
    const learn = await makeLearn();
    await learn.start();
    expect(learn.error).toBeNull();
    const record = learn.record!;
    expect(record.status).toBe('complete');
    expect(record.episodes.map((e) => e.steps.length)).toEqual([3, 3]);
    expect(record.exchanges.map((e) => e.kind)).toEqual(['meta_agent']);
    expect(learn.tokens).toBeGreaterThan(0);
    const stored = await loadSession(learn.setup.shelf.store, record.id);
    expect(stored?.episodes.flatMap((e) => e.steps.map((s) => s.action))).toEqual(record.episodes.flatMap((e) => e.steps.map((s) => s.action)));
    expect(learn.sessions.items.map((i) => i.id)).toEqual([record.id]);
    expect(learn.sessions.unfinished).toEqual([]);
    expect(learn.phase).toBe('idle');
  });

  it('records the parameters adapted for a model that rejects temperature, and Settings lists them', async () => {
    mock.setOptions({ faults: [{ kind: 'bad_param', param: 'temperature' }] });
    const learn = await makeLearn();
    await learn.start();
    const record = learn.record!;
    expect(record.status).toBe('complete');
    const expected = [expect.objectContaining({ baseUrl: mock.baseUrl, model: 'mock-model', parameter: 'temperature', change: 'dropped', to: null })];
    expect(record.adaptations).toEqual(expected);
    expect((await loadSession(learn.setup.shelf.store, record.id))?.adaptations).toEqual(expected);
    expect(lastSettings.adaptations.list.filter((a) => a.baseUrl === mock.baseUrl)).toEqual(expected);
    const chats = mock.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats.filter((r) => r.outcome.status === 400)).toHaveLength(1);
  });

  it('stops during episode 2 and resumes to exactly K contiguous episodes without re-asking recorded steps', async () => {
    mock.setOptions({ faults: [{ kind: 'slow', delayMs: 150, role: 'actor' }] });
    const learn = await makeLearn();
    const running = learn.start();
    await until(() => learn.liveEpisode === 2 && learn.liveSteps.length === 1);
    learn.stop();
    await running;
    const id = learn.record!.id;
    expect(learn.record!.status).toBe('stopped');
    expect(learn.sessions.unfinished.map((i) => i.id)).toEqual([id]);
    await learn.resume(id);
    const record = learn.record!;
    expect(record.status).toBe('complete');
    expect(record.episodes.map((e) => e.index)).toEqual([1, 2]);
    for (const e of record.episodes) expect(contiguous(e.steps) && e.steps.length === 3).toBe(true);
    // The resume asked only for the steps not yet recorded: each of the 6 steps' requests was
    // answered, and only the one in flight at Stop (its reply, if it came, was never recorded) may
    // have been answered twice.
    const answered = mock.requests.filter((r) => r.role === 'actor' && r.outcome.status === 200 && !r.closedBeforeAnswer);
    const distinct = new Set(answered.map((r) => JSON.stringify(r.body)));
    expect(distinct.size).toBe(6);
    expect(answered.length - distinct.size).toBeLessThanOrEqual(1);
    const stored = await loadSession(learn.setup.shelf.store, id);
    expect(stored?.episodes.map((e) => e.steps.length)).toEqual([3, 3]);
  });

  it('entering the view again (a reload) shows an unfinished session as it is, its settings in a read-only form, until Resume or "New session"', async () => {
    mock.setOptions({ faults: [{ kind: 'slow', delayMs: 100, role: 'actor' }] });
    const store = new MemoryStore();
    const first = await makeLearn(store);
    first.setup.change({ episodes: 3, maxSteps: 4, seed: 2, policyId: 'reflexion', guidingPrompt: 'Go east first.' });
    const running = first.start();
    await until(() => first.liveEpisode === 2 && first.liveSteps.length === 2);
    first.stop();
    await running;
    const stopped = first.record!;
    expect(stopped.scores).toHaveLength(1);

    const learn = await makeLearn(store, fakeLocks(), false);
    expect(learn.held).toBe(stopped.id);
    expect(learn.holding).toBe(true);
    expect(learn.offered?.id).toBe(stopped.id);
    expect(learn.record?.id).toBe(stopped.id);
    expect(learn.record?.scores).toEqual(stopped.scores);
    expect(learn.record?.episodes.map((e) => e.steps.length)).toEqual(stopped.episodes.map((e) => e.steps.length));
    expect(learn.tokens).toBe(usageTotalsOf(stopped).tokens);
    expect(learn.setup.form).toMatchObject({ storyId: 'advent', seed: 2, seedRandom: false, policyId: 'reflexion', episodes: 3, maxSteps: 4, guidingPrompt: 'Go east first.' });

    // Visiting the view again keeps it; "New session" sets it aside, the form keeps its settings.
    await learn.enter();
    expect(learn.held).toBe(stopped.id);
    learn.newSession();
    expect(learn.holding).toBe(false);
    expect(learn.record).toBeNull();
    expect(learn.offered).toBeNull();
    expect(learn.setup.form).toMatchObject({ episodes: 3, maxSteps: 4 });
    await learn.enter();
    expect(learn.record).toBeNull();

    // Another page: Resume finishes it and lets the form go.
    const again = await makeLearn(store, fakeLocks(), false);
    expect(again.holding).toBe(true);
    await again.resume(stopped.id);
    expect(again.held).toBeNull();
    expect(again.record!.status).toBe('complete');
    expect(again.record!.scores).toHaveLength(3);
    expect(again.offered).toBeNull();
    const fresh = await makeLearn(store, fakeLocks(), false);
    expect(fresh.held).toBeNull();
    expect(fresh.record).toBeNull();
  });

  it('a shared setup loaded over a held unfinished session replaces it in the form; the session stays resumable', async () => {
    mock.setOptions({ faults: [{ kind: 'slow', delayMs: 100, role: 'actor' }] });
    const store = new MemoryStore();
    const first = await makeLearn(store);
    const running = first.start();
    await until(() => first.liveEpisode === 2);
    first.stop();
    await running;
    const learn = await makeLearn(store, fakeLocks(), false);
    expect(learn.holding).toBe(true);
    await learn.applySetup({ storyId: 'advent', storyMd5: 'ee2242e155fd8910921b0f8e04019a3a', storyTitle: 'Adventure', seed: 9, policy: { kind: 'static' }, episodes: 5, maxSteps: 7, models: { actor: 'mock-model', metaAgent: 'mock-model' } });
    expect(learn.holding).toBe(false);
    expect(learn.record).toBeNull();
    expect(learn.setup.form).toMatchObject({ seed: 9, policyId: 'static', episodes: 5, maxSteps: 7 });
    expect(learn.sessions.unfinished.map((s) => s.id)).toEqual([first.record!.id]);
  });

  it('a policy the picker lacks (an evolved meta-prompt) is shown from the stored session', async () => {
    const learn = await makeLearn();
    await learn.start();
    learn.setup.showSession({ ...learn.record!.config, policy: { kind: 'meta', name: 'Evolved 7', strategy: 'Only this session has it.' } });
    expect(learn.setup.selectedPolicy).toMatchObject({ id: 'session:1', group: 'From a stored session', spec: { kind: 'meta', name: 'Evolved 7' } });
  });

  it('a wrong base URL stops the session with nothing scored; with the URL fixed, Resume completes like a clean run and the old error is gone', async () => {
    const clean = await makeLearn();
    await clean.start();
    const cleanScores = clean.record!.scores;
    const learn = await makeLearn();
    currentSettings.setBaseUrl('http://127.0.0.1:9/v1');
    currentSettings.change({ maxRetries: 0 });
    await learn.start();
    const id = learn.record!.id;
    expect(learn.record!.status).toBe('stopped');
    expect(learn.record!.stopReason).toBe('provider');
    expect(learn.record!.stopMessage).toMatch(/Could not reach/);
    expect(learn.record!.scores).toEqual([]);
    expect(learn.record!.faultedEpisodes).toBe(1);
    currentSettings.setBaseUrl(mock.baseUrl);
    await learn.resume(id);
    expect(learn.error).toBeNull();
    expect(learn.record!.status).toBe('complete');
    expect(learn.record!.stopMessage).toBeNull();
    expect(learn.record!.scores).toEqual(cleanScores);
    expect(learn.record!.faultedEpisodes).toBe(1);
    expect((await loadSession(learn.setup.shelf.store, id))?.stopMessage).toBeNull();
  });

  it('a damaged stored session is not resumed: the error names the store and record, and "continue from the last good episode" finishes it', async () => {
    mock.setOptions({ faults: [{ kind: 'slow', delayMs: 150, role: 'actor' }] });
    const learn = await makeLearn();
    learn.setup.change({ episodes: 3 });
    const running = learn.start();
    await until(() => learn.liveEpisode === 3 && learn.liveSteps.length === 1);
    learn.stop();
    await running;
    const id = learn.record!.id;
    const store = learn.setup.shelf.store;
    const run = (await store.getRun(id))!;
    // Step 2 of episode 2 is lost (the memory store cannot lose records by itself; IndexedDB and
    // files are damaged byte-wise in test/store-damage.test.ts).
    await store.rewriteRun(run.header, run.events.filter((e) => e.seq !== 200_002));
    await learn.resume(id);
    expect(learn.error).toMatch(new RegExp(`^The stored session "${id}" is damaged, so it was not resumed: memory \\(this tab\\), episode 2 step 2 \\(seq 200002\\): it is missing \\(the next stored step is 3\\)\\. Intact before it: episode 1;`));
    expect(learn.damaged).toEqual({ id, keepEpisodes: 1 });
    expect((await store.getRun(id))!.events).toHaveLength(run.events.length - 1); // nothing changed
    await learn.resume(id, true);
    expect(learn.error).toBeNull();
    expect(learn.damaged).toBeNull();
    const record = learn.record!;
    expect(record.status).toBe('complete');
    expect(record.episodes.map((e) => e.steps.length)).toEqual([3, 3, 3]);
    for (const e of record.episodes) expect(contiguous(e.steps)).toBe(true);
  });

  it('shows a session held by another tab read-only, and lets go when that tab does', async () => {
    const locks = fakeLocks();
    const learn = await makeLearn(new MemoryStore(), locks);
    learn.setup.change({ episodes: 3 });
    const running = learn.start();
    await until(() => learn.liveEpisode === 2);
    learn.stop();
    await running;
    const id = learn.record!.id;
    locks.held.add(runLockName(id));
    await learn.resume(id);
    expect(learn.readOnly).toMatch(/running in another tab/);
    expect(learn.phase).toBe('idle');
    expect(scheduled.filter((s) => !s.cancelled)).toHaveLength(1);
    locks.held.delete(runLockName(id));
    scheduled.at(-1)!.callback();
    await until(() => learn.readOnly === null);
    await learn.resume(id);
    expect(learn.record!.status).toBe('complete');
  });

  it('a full storage stops the session with a clear message; the live session can still be exported', async () => {
    const store = new MemoryStore();
    let appends = 0;
    const full = new Proxy(store, {
      get(target, name, receiver) {
        if (name === 'appendRunEvents') {
          return async (...args: Parameters<Store['appendRunEvents']>) => {
            if (++appends > 2) throw new StorageFullError('a step of the session');
            return target.appendRunEvents(...args);
          };
        }
        const value = Reflect.get(target, name, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const learn = await makeLearn(full);
    await learn.start();
    expect(learn.storageFull).toBe(true);
    expect(learn.error).toMatch(/Storage is full.*Export this session/);
    learn.exportShown();
    const exported = importSession(services.downloads.at(-1)!.text);
    expect(exported.episodes[0]!.steps.length).toBeGreaterThanOrEqual(3);
    expect(services.downloads.at(-1)!.text).not.toContain(KEY);
  });

  it('imports an exported session as a new run and shows it; a bad file says why', async () => {
    const learn = await makeLearn();
    await learn.start();
    const id = learn.record!.id;
    await learn.sessions.exportRun(id);
    const text = services.downloads.at(-1)!.text;
    expect(text).not.toContain(KEY);
    await learn.importFile(new File([text], 'Alice K. — lever room.json'));
    expect(learn.sessions.items).toHaveLength(2);
    expect(learn.record!.id).not.toBe(id);
    expect(learn.record!.id).toMatch(new RegExp(`^${id}-imported-`));
    // Labelled by its file name (a participant's), in the list and in the compared curves' legend.
    const imported = learn.sessions.items.find((i) => i.id === learn.record!.id)!;
    expect([imported.source, learn.sessions.items.find((i) => i.id === id)!.source]).toEqual(['Alice K. — lever room', undefined]);
    expect(curveOfItems([imported]).series[0]!.label).toBe(`Alice K. — lever room · ${imported.policy}`);
    await learn.importFile(new File(['{"format":"metattl-session-1"}'], 'bad.json'));
    expect(learn.sessions.error).toMatch(/This is not a valid session file/);
    await learn.sessions.remove(id);
    expect(learn.sessions.items).toHaveLength(1);
  });

  it('preselects ?metaPrompt= and explains a missing story from a shared setup', async () => {
    const learn = await makeLearn();
    await learn.setup.applySetup({ storyId: 'gone', storyMd5: 'f'.repeat(32), storyTitle: 'Gone', seed: 4, policy: { kind: 'meta', name: 'X', strategy: 'unique strategy' }, episodes: 5, maxSteps: 6, models: { actor: 'other', metaAgent: 'mock-model' } });
    expect(learn.setup.form).toMatchObject({ seed: 4, episodes: 5, maxSteps: 6, policyId: 'shared:1' });
    expect(learn.setup.notice).toMatch(/“Gone” is not on your story shelf/);
    expect(learn.setup.notice).toMatch(/actor “other”/);
    expect(learn.setup.selectedPolicy?.spec).toEqual({ kind: 'meta', name: 'X', strategy: 'unique strategy' });
  });
});
