/**
 * The page's Evaluate and Evolve under provider faults, in Node on IndexedDB
 * (fake-indexeddb) against the mock LLM behind a fault proxy (a seeded 20 % of chat requests cut
 * by 429 + Retry-After, 500, a hang past the request timeout, malformed JSON or a body cut mid-way;
 * the default retries): a fault stops only its own session, finished episodes stay in IndexedDB,
 * and Resume continues each unfinished session from its last finished episode — done in ≤ 3
 * starts with ≤ 1.6× the requests of a clean run, and equal to it.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { manualSchedule, testTab } from './support/ui/run-test-support.ts';
import { loadEvaluationSessions } from '../src/eval/evaluation-store.ts';
import type { EvolutionState } from '../src/evolve/interface.ts';
import { openIdbStore } from '../src/store/idb-store.ts';
import type { Store } from '../src/store/interface.ts';
import { EvolveDashboard } from '../src/ui/evolve/evolve.svelte.ts';
import { EvaluateState } from '../src/ui/evaluate/evaluate.svelte.ts';

let mock: MockLlm;
let proxy: FaultProxy;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'south', 'look'] });
  // FAULT_SEED picks another draw of faults (the goal must hold for any; 7 by default).
  proxy = await startFaultProxy(mock.baseUrl, { rate: 0, seed: Number(process.env.FAULT_SEED ?? 7) });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

let db = 0;
async function tab(store: Store) {
  const t = await testTab(proxy.baseUrl, store);
  t.settings.form = { ...t.settings.form, requestTimeoutMs: 400, maxConcurrent: 4 };
  return t;
}

async function evaluation(id: string, store: Store) {
  const t = await tab(store);
  const state = new EvaluateState({ runs: t.runs, settings: t.settings, files: t.services, newRunId: () => id, schedule: manualSchedule() });
  await state.enter();
  state.form.toggle('static', true);
  state.form.toggle('naive', true);
  state.form.baseline = 'naive';
  state.form.setCustom('advent', '0, 1');
  Object.assign(state.form, { repeats: 2, episodes: 3, maxSteps: 4 });
  return state;
}

/** Every session's key, scores and actions, in job order. */
async function played(store: Store, id: string, results: { key: string; wAuc: number; scores: number[] }[]) {
  const sessions = await loadEvaluationSessions(store, id);
  return results.map((r) => ({ key: r.key, wAuc: r.wAuc, scores: r.scores, actions: sessions.get(r.key)!.episodes.map((e) => e.steps.map((s) => s.action)) }));
}

/** Resume `driver` until its run is complete or `max` starts were made; returns the starts made. */
async function resumeUntilComplete(driver: { state: { status: string } | null; resume(): Promise<unknown> }, starts: number, max: number): Promise<number> {
  while (driver.state?.status !== 'complete' && starts < max) {
    await driver.resume();
    starts++;
  }
  return starts;
}

describe('the page under 20% mixed provider faults', () => {
  it('Evaluate: Resume continues each session from its last finished episode and ends equal to the clean run', async () => {
    proxy.setRate(0);
    const cleanStore = await openIdbStore({ dbName: `run-faults-${++db}` });
    const clean = await evaluation('clean', cleanStore);
    let from = proxy.requests;
    await clean.start();
    expect(clean.driver.state?.status).toBe('complete');
    const cleanRequests = proxy.requests - from;

    proxy.setRate(0.2);
    const store = await openIdbStore({ dbName: `run-faults-${++db}` });
    const faulted = await evaluation('faulted', store);
    from = proxy.requests;
    await faulted.start();
    let starts = 1;
    // Faulted sessions get further attempts inside the start (ttl/session-passes.ts), so the first
    // start usually completes; when it does not (the batch stopped progressing), the others are all
    // done, and the unfinished ones are in IndexedDB, as session runs of this evaluation.
    const first = faulted.driver.state!;
    const faultsAfterFirst = Object.values(proxy.faults).reduce((a, b) => a + b, 0);
    expect(faultsAfterFirst).toBeGreaterThan(5);
    const partial = (await store.listRuns('session')).filter((r) => r.id.startsWith('faulted:'));
    if (first.status === 'stopped') {
      expect(first.stopReason).toBe('provider_error');
      expect(first.results.length).toBeGreaterThan(0);
      expect(partial.length).toBe(8 - first.results.length);
    } else {
      expect([first.status, first.results.length, partial]).toEqual(['complete', 8, []]);
    }
    starts = await resumeUntilComplete(faulted.driver, starts, 3);
    const requests = proxy.requests - from;
    proxy.setRate(0);
    process.stdout.write(`page Evaluate (seed ${process.env.FAULT_SEED ?? 7}): starts ${starts}, requests ÷ clean ${(requests / cleanRequests).toFixed(2)} (${requests}/${cleanRequests})\n`);
    expect(faulted.driver.error).toBeNull();
    expect(faulted.driver.state?.status).toBe('complete');
    expect(starts).toBeLessThanOrEqual(3);
    expect(requests / cleanRequests).toBeLessThanOrEqual(1.6);
    expect(await played(store, 'faulted', faulted.driver.state!.results)).toEqual(await played(cleanStore, 'clean', clean.driver.state!.results));
    // Finished sessions live in the evaluation's record only.
    expect((await store.listRuns('session')).filter((r) => r.id.startsWith('faulted:'))).toEqual([]);
  }, 120_000);

  it('Evolve: Resume continues the iteration\'s sessions and ends equal to the clean run', async () => {
    const run = async (id: string, store: Store) => {
      const t = await tab(store);
      const d = new EvolveDashboard({ runs: t.runs, settings: t.settings, files: t.services, openLearn: () => undefined, newRunId: () => id, schedule: manualSchedule() });
      await d.init();
      d.form.setRole('advent', 'both');
      d.form.setSeeds('advent', '0, 1');
      Object.assign(d.form, { episodes: 3, maxSteps: 4, budgetMetricCalls: 8 });
      return d;
    };
    const same = (s: EvolutionState) => ({
      status: s.status, stopReason: s.stopReason, metricCallsUsed: s.metricCallsUsed, fronts: s.fronts, best: s.best,
      candidates: s.candidates.map((c) => [c.id, c.status, c.strategy, c.valScores]),
      calls: s.metricCalls.map((c) => [c.key, c.wAuc, c.scores]),
    });
    proxy.setRate(0);
    const clean = await run('evo-clean', await openIdbStore({ dbName: `run-faults-${++db}` }));
    let from = proxy.requests;
    await clean.start();
    expect(clean.driver.state?.status).toBe('complete');
    const cleanRequests = proxy.requests - from;

    proxy.setRate(0.2);
    const faulted = await run('evo-faulted', await openIdbStore({ dbName: `run-faults-${++db}` }));
    from = proxy.requests;
    await faulted.start();
    let starts = 1;
    // Faults hit parallel sessions in arrival order: a first start that stops stops for them.
    if (faulted.driver.state?.status === 'stopped') expect(faulted.driver.state.stopReason).toBe('provider_error');
    starts = await resumeUntilComplete(faulted.driver, starts, 3);
    const requests = proxy.requests - from;
    proxy.setRate(0);
    process.stdout.write(`page Evolve (seed ${process.env.FAULT_SEED ?? 7}): starts ${starts}, requests ÷ clean ${(requests / cleanRequests).toFixed(2)} (${requests}/${cleanRequests}), faults ${JSON.stringify(proxy.faults)}\n`);
    expect(faulted.driver.error).toBeNull();
    expect(starts).toBeLessThanOrEqual(3);
    expect(requests / cleanRequests).toBeLessThanOrEqual(1.6);
    expect(same(faulted.driver.state!)).toEqual(same(clean.driver.state!));
  }, 120_000);

  it('deleting an evaluation in the page also deletes the unfinished sessions kept for its resume, and only those', async () => {
    const store = await openIdbStore({ dbName: `run-faults-${++db}` });
    const state = await evaluation('gone', store);
    await store.putRun({ id: 'gone', kind: 'evaluation', updatedAt: 1, summary: {}, data: {} });
    for (const id of ['gone:naive|custom|advent:0|0', 'gone-too:x', 'learn-session']) await store.putRun({ id, kind: 'session', updatedAt: 1, summary: {}, data: {} });
    await state.deleteRun('gone');
    expect(state.error).toBeNull();
    expect((await store.listRuns('session')).map((r) => r.id).sort()).toEqual(['gone-too:x', 'learn-session']);
    expect(await store.getRun('gone')).toBeUndefined();
  });
});
