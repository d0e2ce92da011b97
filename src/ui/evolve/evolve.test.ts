/**
 * The Evolve view's state in Node against the mock LLM (in-process engines on advent, a memory
 * store): a tiny run completes and is persisted; stopped mid-run and resumed it ends equal to an
 * uninterrupted run, and so does a run whose save the browser refused (then closed the database),
 * after a reload; a second tab sees the run read-only while the first drives it; export →
 * delete → import round-trips; a candidate is saved to the library with its provenance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../test/mock-llm/server.ts';
import { loadEvolutionState } from '../../evolve/evolution-store.ts';
import type { EvolutionState } from '../../evolve/interface.ts';
import type { Store } from '../../store/interface.ts';
import { MemoryStore } from '../../store/memory-store.ts';
import type { RunLocks } from '../shared/state/run-services.ts';
import { EvolveDashboard } from './evolve.svelte.ts';
import { diskFillingStore, fakeLocks, manualSchedule, testTab } from '../../../test/support/ui/run-test-support.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'south', 'look'] });
});
afterAll(() => mock.close());

const timeless = (s: EvolutionState | null) => s && { ...s, startedAt: '', finishedAt: '' };

async function dashboard(store: Store = new MemoryStore(), locks: RunLocks | null = null, id = 'evo-test') {
  const tab = await testTab(mock.baseUrl, store, locks);
  const opened: string[] = [];
  const schedule = manualSchedule();
  const d = new EvolveDashboard({ runs: tab.runs, settings: tab.settings, files: tab.services, openLearn: (x) => opened.push(x), newRunId: () => id, schedule });
  await d.init();
  d.form.setRole('advent', 'both');
  d.form.setSeeds('advent', '0, 1');
  Object.assign(d.form, { episodes: 2, maxSteps: 3, budgetMetricCalls: 8 });
  return { d, tab, opened, schedule, store };
}

describe('EvolveDashboard', () => {
  let uninterrupted: EvolutionState;

  it('runs a tiny evolution to its budget, persisted after every event, with an estimate and a split warning', async () => {
    const { d, store } = await dashboard();
    expect(d.form.train.map((p) => `${p.storyId}:${p.seed}`)).toEqual(['advent:0', 'advent:1']);
    expect(d.form.splitWarning).toContain('advent is in both train and validation');
    expect(d.estimate?.counts.proposals.low).toBe(1);
    expect(d.estimate?.warnings[0]).toContain('guarantees only 1 proposal');
    await d.start();
    expect(d.error).toBeNull();
    expect(d.driver.error).toBeNull();
    const state = d.driver.state!;
    expect(state.status).toBe('complete');
    expect(state.metricCallsUsed).toBeLessThanOrEqual(8);
    expect(state.config.val.map((t) => t.id)).toEqual(['advent:0', 'advent:1']);
    expect(state.config.val[0]).toMatchObject({ storyId: 'advent', maxScore: 350 });
    expect(state.candidates[0]).toMatchObject({ id: 'c0', status: 'seed' });
    expect(state.candidates.length).toBeGreaterThanOrEqual(2);
    expect(timeless((await loadEvolutionState(store, 'evo-test'))!)).toEqual(timeless(state));
    expect(d.runList.map((r) => r.id)).toEqual(['evo-test']);
    expect(d.driver.tokens).toBeGreaterThan(0);
    // "mock-model" is unknown and the mock reports no window: the default, with a note.
    expect(state.config.contextWindow).toBe(32_000);
    expect(d.notice).toContain('“mock-model” is not known');
    uninterrupted = state;
  });

  it("the user's context window wins, with no note", async () => {
    const { d } = await dashboard(new MemoryStore(), null, 'evo-window');
    d.form.contextWindow = 12_000;
    await d.start();
    expect(d.driver.state!.config.contextWindow).toBe(12_000);
    expect(d.notice).toBeNull();
  });

  it('stopped at the first proposal and resumed, it ends equal to the uninterrupted run', async () => {
    const { d } = await dashboard();
    const from = mock.requests.length;
    const proposing = mock.waitForRequest((r) => r.role === 'proposer' && r.index >= from, 60_000);
    const running = d.start();
    await proposing;
    d.stop();
    await running;
    expect(d.driver.state?.status).toBe('stopped');
    expect(d.driver.state?.stopReason).toBe('stopped');
    await d.resume();
    expect(timeless(d.driver.state)).toEqual(timeless(uninterrupted));
  });

  it('a save the browser refuses mid-run (then the connection closed) stops it in plain words with no uncaught error; a reload resumes it to the uninterrupted result', async () => {
    const memory = new MemoryStore();
    const disk = diskFillingStore(memory);
    const { d } = await dashboard(disk.store);
    disk.arm(12);
    await d.start();
    expect(disk.refused).toBeGreaterThan(0);
    expect(d.driver.error).toContain('Storage is full: could not save');
    expect(d.driver.mode).toBe('idle');
    // The reload: a new tab on what was written (the store healthy again once room is made).
    const stored = (await loadEvolutionState(memory, 'evo-test'))!;
    expect(stored.metricCallsUsed).toBeLessThan(uninterrupted.metricCallsUsed);
    const again = await dashboard(memory);
    await again.d.openRun('evo-test');
    await again.d.resume();
    expect(again.d.driver.error).toBeNull();
    expect(timeless(again.d.driver.state)).toEqual(timeless(uninterrupted));
  });

  it('a second tab shows a running run read-only and lets go when the first tab finishes', async () => {
    const store = new MemoryStore();
    const locks = fakeLocks();
    const a = await dashboard(store, locks);
    const b = await dashboard(store, locks);
    const from = mock.requests.length;
    const firstCall = mock.waitForRequest((r) => r.role === 'actor' && r.index >= from, 60_000);
    const running = a.d.start();
    await firstCall;
    await b.d.refreshRuns();
    await b.d.openRun('evo-test');
    expect(b.d.driver.mode).toBe('watching');
    await b.d.resume();
    expect(b.d.driver.mode).toBe('watching');
    await running;
    b.schedule.flush();
    await expect.poll(() => b.d.driver.mode).toBe('idle');
    expect(b.d.driver.state?.status).toBe('complete');
  });

  it('export → delete → import round-trips; a bad file is refused with a reason', async () => {
    const { d, tab } = await dashboard();
    await d.start();
    const before = d.driver.state!;
    await d.exportRun('evo-test');
    const file = tab.services.downloads.at(-1)!;
    expect(file.fileName).toBe('evolution-evo-test.json');
    expect(file.text).not.toContain('sk-test-123456');
    await d.deleteRun('evo-test');
    expect(d.runList).toEqual([]);
    expect(d.driver.state).toBeNull();
    await d.importFile(new File(['{"format":"metattl-evolution-export-1","state":{}}'], 'bad.json'));
    expect(d.error).toMatch(/^This is not a valid evolution run: state\./);
    d.dismiss();
    await d.importFile(new File([file.text], 'run.json'));
    expect(d.error).toBeNull();
    expect(d.runList.map((r) => r.id)).toEqual(['evo-test']);
    expect(d.driver.state).toEqual(before);
    await d.importFile(new File([file.text], 'run.json'));
    expect(d.error).toContain('already in your list');
  });

  it('saves a candidate to the library with its provenance, and tries it in the Learn view', async () => {
    const { d, opened, store } = await dashboard();
    await d.start();
    const child = d.driver.state!.candidates[1]!;
    await d.tryMetaPrompt(child.id);
    expect(opened).toEqual([`evolved-evo-test-${child.id}`]);
    const [stored] = await store.listMetaPrompts();
    expect(stored?.entry).toMatchObject({
      id: `evolved-evo-test-${child.id}`, strategy: child.strategy, selectedOn: ['advent'],
      provenance: { kind: 'evolved', runId: 'evo-test', parentId: child.parentId, iteration: child.iteration },
    });
    await d.detail.select(d.driver.state!, child.id);
    expect(d.detail.trigger?.logs.length).toBe(2);
    expect(d.detail.trigger?.logs[0]?.text).toContain('=== EPISODE 1 ===');
  });
});
