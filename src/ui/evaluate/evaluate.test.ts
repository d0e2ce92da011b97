/**
 * The Evaluate view's state in Node against the mock LLM (in-process engines on advent, a memory
 * store): an evolved library entry selected on advent warns of a leak before the run and in the
 * report; a tiny evaluation runs, is persisted, and its report exports in four formats with the
 * same numbers; stopped and resumed it reaches the same results, as it does after a save the browser
 * refused (then closed the database) and a reload. A finished session's detail opens from the
 * store with the rooms of its map.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../test/mock-llm/server.ts';
import { loadEvaluationState } from '../../eval/evaluation-store.ts';
import { reportToCsv } from '../../eval/report-csv.ts';
import type { Store } from '../../store/interface.ts';
import { MemoryStore } from '../../store/memory-store.ts';
import { diskFillingStore, manualSchedule, testTab } from '../../../test/support/ui/run-test-support.ts';
import { storedEntryOf } from '../shared/state/entry-io.ts';
import { buildRoomMap } from '../../agents/room-map.ts';
import { mapEpisodesOf } from '../shared/map/session-map.ts';
import { EvaluateState } from './evaluate.svelte.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'south', 'look'] });
});
afterAll(() => mock.close());

async function evaluation(id = 'eval-test', store: Store = new MemoryStore()) {
  await store.putMetaPrompt({
    id: 'evolved-r1-c2', createdAt: 1,
    entry: storedEntryOf({ id: 'evolved-r1-c2', name: 'Evolved c2', description: '', strategy: 'Replay what scored.', provenance: { kind: 'evolved', runId: 'r1', parentId: 'c0', iteration: 2 }, selectedOn: ['advent'], evaluations: [] }),
  });
  const tab = await testTab(mock.baseUrl, store);
  const state = new EvaluateState({ runs: tab.runs, settings: tab.settings, files: tab.services, newRunId: () => id, schedule: manualSchedule() });
  await state.enter();
  state.form.toggle('static', false);
  state.form.toggle('naive', true);
  state.form.toggle('evolved-r1-c2', true);
  state.form.baseline = 'naive';
  state.form.setCustom('advent', '0, 1');
  Object.assign(state.form, { repeats: 1, episodes: 2, maxSteps: 3 });
  return { state, tab, store };
}

describe('EvaluateState', () => {
  it('lists the library’s evolved entry and warns of its leak before the run', async () => {
    const { state } = await evaluation();
    expect(state.form.options.map((o) => o.id)).toEqual(['static', 'reflexion', 'memory', 'textgrad', 'naive', 'fact-bank', 'credit-assignment', 'route-script', 'evolved-r1-c2']);
    expect(state.form.leaks).toEqual([{ policyId: 'evolved-r1-c2', games: ['advent'], message: 'evolved-r1-c2 was selected on advent: its results there are not a held-out test.' }]);
    expect(state.estimate?.sessions).toBe(4);
    expect(state.form.problems).toEqual([]);
  });

  it('a contrast picked in the form (any pair, here evolved − static) is declared in the run and its report', async () => {
    const { state } = await evaluation('eval-contrast');
    state.form.toggle('static', true);
    state.form.setCustom('advent', '0');
    expect(state.form.addContrast('evolved-r1-c2', 'static')).toBeNull();
    await state.start();
    expect(state.error).toBeNull();
    expect(state.driver.state!.config.contrasts).toEqual([{ a: 'evolved-r1-c2', b: 'static' }]);
    const declared = state.report!.comparisons!.filter((c) => c.declared).map((c) => `${c.a} − ${c.b}`);
    expect(declared).toEqual(['static − naive', 'evolved-r1-c2 − naive', 'evolved-r1-c2 − static']);
    expect(state.report!.comparisons!.find((c) => c.a === 'evolved-r1-c2' && c.b === 'static')!.holmP).toEqual(expect.any(Number));
  });

  it('runs, persists, reports with the leak, and exports the same numbers in four formats', async () => {
    const { state, tab, store } = await evaluation();
    await state.start();
    expect(state.error).toBeNull();
    expect(state.driver.error).toBeNull();
    const run = state.driver.state!;
    expect(run.status).toBe('complete');
    expect(run.results).toHaveLength(4);
    expect((await loadEvaluationState(store, 'eval-test'))?.results).toHaveLength(4);
    const report = state.report!;
    expect(report.policies.map((p) => [p.policyId, p.sessions])).toEqual([['naive', 2], ['evolved-r1-c2', 2]]);
    expect(report.policies[1]!.leakWarning).toContain('advent');
    expect(report.policies[0]!.leakWarning).toBeNull();

    for (const format of ['json', 'csv', 'md', 'html'] as const) await state.exportReport(format);
    const files = tab.services.downloads.map((d) => d.fileName);
    expect(files).toEqual(['eval-test', 'eval-test', 'eval-test', 'eval-test'].map((n, i) => `evaluation-${n}.${['json', 'csv', 'md', 'html'][i]}`));
    const [json, csv, md, html] = tab.services.downloads.map((d) => d.text);
    expect(JSON.parse(json!).report.policies[1].wAuc.estimate).toBe(report.policies[1]!.wAuc.estimate);
    expect(csv).toBe(reportToCsv(report));
    const shown = report.policies[0]!.wAuc.estimate.toFixed(3);
    expect(md).toContain(`| ${shown} [`);
    expect(html).toContain(`<td>${shown} [`);
    // The same code version as results.json names.
    expect(md).toContain(`Code version: ${JSON.parse(json!).codeVersion}.`);
    expect(html).toContain(`Code version: ${JSON.parse(json!).codeVersion}.`);
    expect(json).not.toContain('sk-test-123456');
  });

  it('opens a finished session’s detail from the store — its record, with the rooms of its map — and closes it', async () => {
    const { state } = await evaluation('eval-sessions');
    await state.start();
    const run = state.driver.state!;
    const result = run.results[1]!;
    await state.showSession(result.key);
    expect(state.error).toBeNull();
    expect(state.shownSession?.key).toBe(result.key);
    const record = state.shownSession!.record;
    expect(record.id).toBe(result.sessionId);
    expect(record.episodes.map((e) => e.finalScore)).toEqual(result.scores);
    const map = buildRoomMap(mapEpisodesOf(record));
    expect(map.rooms.length).toBeGreaterThanOrEqual(1);
    expect(map.rooms[0]!.id).toBe(record.episodes[0]!.trajectory!.startLocation!.id);
    await state.showSession(result.key);
    expect(state.shownSession).toBeNull();
    await state.showSession('no-such-session');
    expect(state.error).toContain('The session no-such-session of evaluation eval-sessions has no record in this browser.');
    expect(state.shownSession).toBeNull();
  });

  it('stopped after its first session and resumed, it ends with the same results', async () => {
    const { state } = await evaluation('eval-stop');
    const from = mock.requests.length;
    const firstMeta = mock.waitForRequest((r) => r.role === 'metaAgent' && r.index >= from, 60_000);
    const running = state.start();
    await firstMeta;
    state.stop();
    await running;
    expect(state.driver.state?.status).toBe('stopped');
    await state.resume();
    expect(state.driver.state?.status).toBe('complete');
    expect(state.driver.state?.results.map((r) => r.key)).toEqual(['naive|custom|advent:0|0', 'naive|custom|advent:1|0', 'evolved-r1-c2|custom|advent:0|0', 'evolved-r1-c2|custom|advent:1|0']);
  });

  it('a save the browser refuses mid-run (then the connection closed) stops it in plain words with no uncaught error; a reload resumes it to the uninterrupted result', async () => {
    // Wall-clock fields differ between any two runs; everything else must not.
    const clockless = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (k, v: unknown) => (['startedAt', 'finishedAt', 'wallTimeMs', 'latencyMs', 'at'].includes(k) ? undefined : v)));
    const clean = await evaluation('eval-disk');
    await clean.state.start();
    expect(clean.state.driver.state?.status).toBe('complete');
    const memory = new MemoryStore();
    const disk = diskFillingStore(memory);
    const { state } = await evaluation('eval-disk', disk.store);
    disk.arm(8);
    await state.start();
    expect(disk.refused).toBeGreaterThan(0);
    expect(state.driver.error).toContain('Storage is full: could not save');
    expect(state.driver.mode).toBe('idle');
    expect((await loadEvaluationState(memory, 'eval-disk'))!.results.length).toBeLessThan(4);
    // The reload: a new tab on what was written (the store healthy again once room is made).
    const again = await evaluation('eval-disk', memory);
    await again.state.openRun('eval-disk');
    await again.state.resume();
    expect(again.state.driver.error).toBeNull();
    expect(clockless(again.state.driver.state)).toEqual(clockless(clean.state.driver.state));
  });

  it('a stored evaluation with a garbled record is not resumed; "continue from the last good record" finishes it', async () => {
    const { state, store } = await evaluation('eval-damaged');
    await state.start();
    expect(state.driver.state?.status).toBe('complete');
    const run = (await store.getRun('eval-damaged'))!;
    expect(run.events).toHaveLength(4);
    const events = structuredClone(run.events);
    (events[2]!.data as { result: { wAuc: number } }).result.wAuc = 1e9; // not its session's W-AUC
    await store.rewriteRun({ ...run.header, data: { ...(run.header.data as object), status: 'stopped' } }, events);
    await state.openRun('eval-damaged');
    await state.resume();
    expect(state.driver.error).toMatch(/^The stored evaluation "eval-damaged" is damaged, so it was not resumed: memory \(this tab\), seq 3: its W-AUC 1000000000 and scores .* Intact before it: records 1–2;/);
    expect(state.driver.damaged).toEqual({ keepCount: 2 });
    await state.resume(true);
    expect(state.driver.error).toBeNull();
    expect(state.driver.damaged).toBeNull();
    expect(state.driver.state?.status).toBe('complete');
    expect((await store.getRun('eval-damaged'))!.events.map((e) => (e.data as { result: { key: string } }).result.key)).toEqual(run.events.map((e) => (e.data as { result: { key: string } }).result.key));
  });
});
