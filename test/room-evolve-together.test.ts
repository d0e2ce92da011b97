/**
 * "Evolve together": the class's submissions seed one evolution as human candidates whose origin
 * is their participant; credit follows the lineage through a mutation and a merge; the run trains
 * on the practice tasks and validates on the hidden ones against the deterministic mock, publishes
 * after every event, refuses a budget too small in plain words, and a stopped run continues to
 * the uninterrupted run's end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshEvolutionState } from '../src/evolve/fresh-state.ts';
import type { Candidate, EvolutionState } from '../src/evolve/interface.ts';
import { bestSoFarCurve, roomEvolutionOf } from '../src/room/evolution-credit.ts';
import type { RoomEvolution } from '../src/room/protocol.ts';
import { loadEvolutionState } from '../src/evolve/evolution-store.ts';
import { evolutionRunId, evolveTogetherMinimumBudget } from '../src/room-server/evolve-together.ts';
import { createScorer } from '../src/room-server/scoring.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { LEVER_COMMANDS, Published, ROOM_KEY, roomLlm, round, submission } from './support/room-scoring.ts';
import { scriptedConfig } from './support/scripted-evolution.ts';

const candidate = (id: string, parentId: string | null, status: Candidate['status'], valScores: Record<string, number>, o: Partial<Candidate> = {}): Candidate => ({
  id, parentId, iteration: 0, strategy: id, status, reason: '', proposerReply: null, valScores, minibatch: null, triggeredBy: null, ...o,
});

describe('credit in the class\'s lineage', () => {
  it('a human candidate is its participant\'s; a mutation credits its parent\'s; a merge credits both parents\' lines', () => {
    const state: EvolutionState = freshEvolutionState('evo', scriptedConfig(['T'], ['A', 'B'], { budgetMetricCalls: 40 }), new Date(0));
    state.candidates = [
      candidate('c0', null, 'seed', { A: 0.1, B: 0.1 }),
      candidate('c1', 'c0', 'accepted', { A: 0.4, B: 0.2 }, { origin: 'human' }),
      candidate('c2', 'c0', 'accepted', { A: 0.2, B: 0.5 }, { origin: 'human' }),
      candidate('c3', 'c0', 'rejected', {}, { origin: 'human' }),
      candidate('c4', 'c1', 'accepted', { A: 0.5, B: 0.3 }, { iteration: 1 }),
      candidate('c5', 'c2', 'accepted', { A: 0.6, B: 0.6 }, { iteration: 2, merge: { parentIds: ['c2', 'c4'], ancestorId: 'c0', textFrom: 'c4', parentSums: [1, 1] } }),
      candidate('c6', 'c5', 'rejected', {}, { iteration: 3 }),
    ];
    state.metricCallsUsed = 9;
    state.progress = [{ metricCallsUsed: 2, bestMeanVal: 0.1 }, { metricCallsUsed: 5, bestMeanVal: 0.35 }, { metricCallsUsed: 8, bestMeanVal: 0.6 }];
    state.best = { byMean: 'c5', byZScore: 'c5' };
    const room = roomEvolutionOf(state, 'r1', ['ada', 'grace', 'alan'], 'running');
    expect(room.candidates.map((c) => [c.id, c.parentIds, c.originParticipantId, c.creditParticipantIds, c.accepted])).toEqual([
      ['c0', [], null, [], true],
      ['c1', ['c0'], 'ada', ['ada'], true],
      ['c2', ['c0'], 'grace', ['grace'], true],
      ['c3', ['c0'], 'alan', ['alan'], false],
      ['c4', ['c1'], null, ['ada'], true], // a mutation of Ada's
      ['c5', ['c2', 'c4'], null, ['ada', 'grace'], true], // a merge of Grace's and (through c4) Ada's
      ['c6', ['c5'], null, ['ada', 'grace'], false],
    ]);
    expect(room.candidates.map((c) => c.wauc)).toEqual([0.1, 0.30000000000000004, 0.35, null, 0.4, 0.6, null]);
    expect(room).toMatchObject({ roundId: 'r1', state: 'running', budget: 40, used: 9, bestCandidateId: 'c5', message: null });
    // One point per metric call from the seed's validation (call 2) to call 9.
    expect(bestSoFarCurve(state)).toEqual([0.1, 0.1, 0.1, 0.35, 0.35, 0.35, 0.6, 0.6]);
  });
});

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: LEVER_COMMANDS, proposerRules: [{ whenParentIncludes: '', strategy: 'Pull the levers in the order the last episode found; keep what scored.' }] });
});
afterAll(() => mock.close());

const small = () => round({ hiddenTasks: ['lever-room:2'], repeats: 1, episodes: 2, steps: 5 });
const seeds = [submission('s1', 'ada', 'Write down each lever pulled and the score after it.'), submission('s2', 'grace', 'Tell the actor to try every lever once, then repeat the best.'), submission('s3', 'alan', '  ')];

async function evolveWith(store: MemoryStore, stopAfter?: number): Promise<Published> {
  const seen = new Published();
  const scorer = createScorer({ llm: roomLlm(mock.baseUrl), onScore: seen.onScore, onEvolution: (e: RoomEvolution) => {
    seen.onEvolution(e);
    if (stopAfter !== undefined && e.used >= stopAfter) scorer.stopEvolution();
  }, contextWindow: 8000, store });
  await scorer.evolve({ roundId: 'r1', budget: 10 }, seeds, small());
  await scorer.close();
  return seen;
}

describe('the class\'s evolution against the mock', () => {
  it('seeds the pool with the submissions (origin = participant), trains on practice, validates on hidden, publishes each event', async () => {
    expect(evolveTogetherMinimumBudget(2, 1, 1)).toBe(10);
    const store = new MemoryStore();
    const seen = await evolveWith(store);
    const last = seen.evolutions.at(-1)!;
    const run = (await loadEvolutionState(store, evolutionRunId('r1', seeds.slice(0, 2))))!;
    expect(run.config.train.map((t) => t.id)).toEqual(['lever-room:1']);
    expect(run.config.val.map((t) => t.id)).toEqual(['lever-room:2']);
    expect(run.config.humanCandidates!.map((h) => [h.parentId, h.strategy, h.minibatch])).toEqual([['c0', seeds[0]!.text, ['lever-room:1']], ['c0', seeds[1]!.text, ['lever-room:1']]]);
    // Minibatches on the practice task, validations on the hidden one.
    for (const call of run.metricCalls) expect(call.taskId).toBe(/-mb$/.test(call.purpose) ? 'lever-room:1' : 'lever-room:2');
    expect(run.metricCalls.filter((c) => c.purpose.startsWith('human')).map((c) => c.candidateId)).toContain('c1');
    expect(last.candidates.map((c) => [c.id, c.accepted])).toEqual(run.candidates.map((c) => [c.id, c.status === 'seed' || c.status === 'accepted']));
    expect(last).toMatchObject({ roundId: 'r1', state: 'done', budget: 10 });
    expect(last.used).toBeLessThanOrEqual(10);
    expect(seen.evolutions.slice(0, -1).every((e) => e.state === 'running')).toBe(true);
    expect(seen.evolutions.length).toBeGreaterThan(10);
    expect(seen.evolutions.map((e) => e.used)).toEqual([...seen.evolutions.map((e) => e.used)].sort((a, b) => a - b));
    // The empty submission seeds nothing; the others are c1 and c2, children of the naive seed c0.
    expect(last.candidates.slice(0, 3).map((c) => [c.id, c.parentIds, c.originParticipantId])).toEqual([['c0', [], null], ['c1', ['c0'], 'ada'], ['c2', ['c0'], 'grace']]);
    for (const c of last.candidates.slice(3)) {
      expect(c.originParticipantId).toBeNull();
      const parents = c.parentIds.map((p) => last.candidates.find((x) => x.id === p)!);
      expect(c.creditParticipantIds).toEqual([...new Set(parents.flatMap((p) => p.creditParticipantIds))].sort((a, b) => ['ada', 'grace'].indexOf(a) - ['ada', 'grace'].indexOf(b)));
    }
    expect(last.candidates.length).toBeGreaterThan(3);
    expect(last.curve.length).toBeGreaterThan(0);
    expect(last.curve).toEqual([...last.curve].sort((a, b) => a - b));
    expect(last.bestCandidateId).not.toBeNull();
    expect(JSON.stringify(seen.evolutions)).not.toContain(ROOM_KEY);
  });

  it('refuses a budget too small for the seeds in plain words', async () => {
    const seen = new Published();
    const scorer = createScorer({ llm: roomLlm(mock.baseUrl), onScore: seen.onScore, onEvolution: seen.onEvolution, contextWindow: 8000 });
    await scorer.evolve({ roundId: 'r1', budget: 9 }, seeds, small());
    await scorer.close();
    expect(seen.evolutions).toEqual([{
      roundId: 'r1', state: 'failed', budget: 9, used: 0, candidates: [], curve: [], bestCandidateId: null,
      message: 'A budget of 9 metric calls is too small for 2 submissions on 1 hidden task: at least 10 are needed (the naive seed\'s validation, each submission\'s minibatch and validation, and one proposal).',
    }]);
  });

  it('stopped, then evolved again with the same seeds, it continues to the uninterrupted run\'s end', async () => {
    const whole = (await evolveWith(new MemoryStore())).evolutions.at(-1)!;
    const store = new MemoryStore();
    const cut = (await evolveWith(store, 3)).evolutions.at(-1)!;
    expect(cut.state).toBe('stopped');
    expect(cut.used).toBeLessThan(whole.used);
    const resumed = (await evolveWith(store)).evolutions.at(-1)!;
    expect(resumed).toEqual(whole);
  });
});
