/**
 * The room scores submissions on the server: a submission's meta-prompt on the round's hidden
 * lever-room tasks × repeats against the deterministic mock, through the core's evaluation
 * service — its W-AUC equal to the core evaluation's for the same policy, tasks and seeds, its
 * interval and n sessions those of the evaluation report; progress after every session; failures
 * in plain words; removed submissions skipped; a restarted room resumes an unfinished scoring.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOrResumeEvaluation } from '../src/eval/evaluation-service.ts';
import { buildReport } from '../src/eval/report.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { resolveRoomTasks } from '../src/room-server/room-tasks.ts';
import { createScorer, scoreRunId, scoringConfig } from '../src/room-server/scoring.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { EnginePool } from '../src/ttl/engine-pool.ts';
import { evaluateSession } from '../src/ttl/session-evaluator.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { LEVER_COMMANDS, Published, ROOM_KEY, roomLlm, round, submission } from './support/room-scoring.ts';

const TEXT = 'After each episode, list the levers that were pulled and in which order; keep the order that scored.';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: LEVER_COMMANDS });
});
afterAll(() => mock.close());
beforeEach(() => mock.setOptions({ exploreCommands: LEVER_COMMANDS, faults: [] }));

/** The same evaluation run by the core alone (no room), as `metattl eval` runs it. */
async function coreEvaluation(contextWindow: number) {
  const llm = roomLlm(mock.baseUrl);
  const r = round();
  const tasks = await resolveRoomTasks(r.hiddenTasks);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const config = scoringConfig(submission('s1', 'p1', TEXT), r, tasks, llm, contextWindow);
  const pool = new EnginePool((key) => byId.get(key)!.open());
  const options = { settings: llm, models: createChatModels(llm, new UsageMeter(llm.caps, llm.prices)), countTokens: await loadTokenCounter(), pool, episodes: config.episodes, maxSteps: config.maxSteps, initialGuidingPrompt: config.initialGuidingPrompt, contextWindow };
  try {
    return await startOrResumeEvaluation(new MemoryStore(), 'core', config, { evaluate: (policy, task, repeat, sessionId, signal) => evaluateSession(options, policy, task, sessionId, signal, repeat) });
  } finally {
    pool.disposeAll();
  }
}

describe('scoring a submission on the hidden set', () => {
  it('gives the core evaluation\'s W-AUC, interval and n for the same policy, tasks and seeds, with monotone progress', async () => {
    const seen = new Published();
    const scorer = createScorer({ llm: roomLlm(mock.baseUrl), onScore: seen.onScore, onEvolution: seen.onEvolution, contextWindow: 8000 });
    scorer.enqueue(submission('s1', 'p1', TEXT), round());
    await seen.until(() => seen.last('s1')?.status === 'scored');
    await scorer.close();
    const states = seen.of('s1');
    expect(states[0]).toEqual({ status: 'queued', done: 0, total: 4, score: null, message: null });
    expect(states.map((s) => s.status)).toEqual(['queued', 'scoring', 'scoring', 'scoring', 'scoring', 'scoring', 'scored']);
    expect(states.slice(1, -1).map((s) => s.done)).toEqual([0, 1, 2, 3, 4]);
    expect(states.every((s) => s.total === 4)).toBe(true);
    const final = states.at(-1)!.score!;

    const core = await coreEvaluation(8000);
    const summary = buildReport(core).policies[0]!;
    expect(core.results.map((r) => r.wAuc).some((w) => w > 0)).toBe(true);
    expect(final.wauc).toBe(summary.wAuc.estimate);
    expect(final.wauc).toBeCloseTo(core.results.reduce((n, r) => n + r.wAuc, 0) / core.results.length, 12);
    expect([final.low, final.high, final.n]).toEqual([summary.wAuc.low, summary.wAuc.high, 4]);
    expect(final.low).toBeLessThanOrEqual(final.wauc);
    expect(final.high).toBeGreaterThanOrEqual(final.wauc);
    expect(final.curve).toEqual(summary.normalisedCurve!.map((i) => i.estimate));
    expect(final.curve).toHaveLength(3);
    // The partial scores the projector draws while it scores: n grows session by session.
    expect(states.slice(2, -1).map((s) => s.score!.n)).toEqual([1, 2, 3, 4]);
  });

  it('reports a failure in plain words: a provider that refuses the key, an unknown hidden task, an empty text; the key never appears', async () => {
    const seen = new Published();
    const scorer = createScorer({ llm: roomLlm(mock.baseUrl), onScore: seen.onScore, onEvolution: seen.onEvolution, contextWindow: 8000 });
    scorer.enqueue(submission('s2', 'p1', TEXT), round({ hiddenTasks: ['no-such-story:1'] }));
    scorer.enqueue(submission('s3', 'p1', '   '), round());
    await seen.until(() => seen.last('s2')?.status === 'failed' && seen.last('s3')?.status === 'failed');
    expect(seen.last('s2')!.message).toBe('No story "no-such-story" in the catalog (task no-such-story:1).');
    expect(seen.last('s3')!.message).toBe('The submission is empty: there is no meta-prompt to score.');
    mock.setOptions({ exploreCommands: LEVER_COMMANDS, faults: [{ kind: 'auth' }] });
    scorer.enqueue(submission('s4', 'p1', TEXT), round());
    await seen.until(() => seen.last('s4')?.status === 'failed');
    await scorer.close();
    const failed = seen.last('s4')!;
    expect(failed.message).toMatch(/^The room's model failed while scoring: .+\. The scoring continues when the room restarts\.$/);
    expect(failed.message).toMatch(/key|auth|401/i);
    expect(JSON.stringify(seen.scores)).not.toContain(ROOM_KEY);
    // A local model is loaded by whoever starts the room and passed in; without it the scorer says so.
    const local = roomLlm(mock.baseUrl);
    local.provider = { ...local.provider, presetId: 'local' };
    expect(() => createScorer({ llm: local, onScore: seen.onScore, onEvolution: seen.onEvolution })).toThrow('A room on a local model needs its loaded models passed to the scorer (ScoringDeps.models).');
  });

  it('skips a removed submission and stops one removed while it plays', async () => {
    const seen = new Published();
    const removed = new Set(['s5']);
    const scorer = createScorer({ llm: roomLlm(mock.baseUrl), onScore: seen.onScore, onEvolution: seen.onEvolution, contextWindow: 8000, isRemoved: (id) => removed.has(id) });
    scorer.enqueue(submission('s5', 'p1', TEXT), round());
    scorer.enqueue(submission('s6', 'p2', TEXT), round());
    await seen.until(() => (seen.last('s6')?.done ?? 0) >= 1);
    removed.add('s6');
    await scorer.close();
    expect(seen.of('s5')).toEqual([]);
    expect(seen.of('s6').map((s) => s.status)).not.toContain('scored');
  });
});

describe('a restarted room', () => {
  it('resumes an unfinished scoring from its store and ends with the uninterrupted score; the room\'s end wipes its runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-room-scoring-'));
    const first = new Published();
    const store1 = await openNodeStore(dir);
    const scorer1 = createScorer({ llm: roomLlm(mock.baseUrl), onScore: first.onScore, onEvolution: first.onEvolution, contextWindow: 8000, store: store1, concurrency: 1 });
    scorer1.enqueue(submission('s7', 'p1', TEXT), round());
    scorer1.enqueue(submission('s8', 'p2', TEXT), round()); // queued behind s7: only its header is stored
    await first.until(() => (first.last('s7')?.done ?? 0) >= 2);
    await scorer1.close();
    store1.close();
    expect(first.last('s7')!.status).toBe('scoring');
    expect(first.of('s8').map((s) => s.status)).toEqual(['queued']);

    const requestsBefore = mock.requests.length;
    const second = new Published();
    const store2 = await openNodeStore(dir);
    const scorer2 = createScorer({ llm: roomLlm(mock.baseUrl), onScore: second.onScore, onEvolution: second.onEvolution, contextWindow: 8000, store: store2 });
    await second.until(() => second.last('s7')?.status === 'scored' && second.last('s8')?.status === 'scored');
    await scorer2.close();
    const resumed = second.of('s7');
    // The sessions stored before the restart are not played again.
    expect(resumed.find((s) => s.status === 'scoring')!.done).toBeGreaterThanOrEqual(2);
    expect(resumed.map((s) => s.done)).toEqual([...resumed.map((s) => s.done)].sort((a, b) => a - b));
    const core = buildReport(await coreEvaluation(8000)).policies[0]!;
    expect(second.last('s7')!.score!.wauc).toBe(core.wAuc.estimate);
    expect(second.last('s8')!.score!.wauc).toBe(core.wAuc.estimate);
    expect(mock.requests.length).toBeGreaterThan(requestsBefore);
    // A third start finds both finished and publishes their scores again without playing.
    const third = new Published();
    const store3 = await openNodeStore(dir);
    const before = mock.requests.length;
    const scorer3 = createScorer({ llm: roomLlm(mock.baseUrl), onScore: third.onScore, onEvolution: third.onEvolution, contextWindow: 8000, store: store3 });
    await third.until(() => third.last('s7')?.status === 'scored' && third.last('s8')?.status === 'scored');
    await scorer3.close();
    store2.close();
    store3.close();
    expect(mock.requests.length).toBe(before);
    const store4 = await openNodeStore(dir);
    expect((await store4.getRun(scoreRunId('s7')))?.header.kind).toBe('evaluation');
    // The room's end: every run of the room leaves the store.
    const last = new Published();
    await createScorer({ llm: roomLlm(mock.baseUrl), onScore: last.onScore, onEvolution: last.onEvolution, contextWindow: 8000, store: store4 }).wipe();
    expect([...await store4.listRuns('evaluation'), ...await store4.listRuns('session')]).toEqual([]);
    store4.close();
  });
});
