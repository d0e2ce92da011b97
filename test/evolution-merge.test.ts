/**
 * The outer loop with GEPA's merge proposer and several proposals per iteration, in a
 * scripted world: a merge worked out by hand (accepted and rejected), P×N proposals with their
 * lineage and budget, results independent of completion order, and an interrupted run resumed
 * from its cache equal to an uninterrupted one.
 */
import { describe, expect, it } from 'vitest';
import { evolutionStateSchema } from '../src/evolve/evolution-io.ts';
import type { EvolutionDeps } from '../src/evolve/evolution-runner.ts';
import { candidateRows, strategyText } from '../src/ui/shared/evolution/dashboard.ts';
import type { EvolutionState, EvolutionTask } from '../src/evolve/interface.ts';
import type { ChatModel } from '../src/llm/interface.ts';
import { SeededRng } from '../src/ttl/rng.ts';
import { failedSearch, mergeConfig, scriptedRng, world } from './support/merge-world.ts';
import { fakeSession, MemoryCache, runScripted, scriptedConfig, type ScriptedWorld } from './support/scripted-evolution.ts';

describe('the merge proposer in the loop', () => {
  it('iteration 4 merges c2 (kept c0\'s text) and c3 (changed it) via c0, and rejects it on the subsample [B, C, A, B, C]', async () => {
    // It. 1: c1 = S1 from c0; it. 2: no merge (a pool of 2), c2 = S0 from c1 (c1 is best);
    // it. 3: merge candidates c1, c2 (C's front keeps c2 over its equal c0) but c1 is c2's ancestor,
    // so c3 = S3 from c1; it. 4: fronts A c3, B c1, C c2. Pair draws 0.5, 0.9 → c2, c3; ancestor c0
    // (c1 scores above c2). Subsample: c2 is better on B and C (both drawn), c3 on A, then two
    // with replacement: ⌊0.5·3⌋ = B, ⌊0.9·3⌋ = C. c2: 0.1+0.6+0.1+0.1+0.6 = 1.5; c3 (= the merge,
    // S3): 0+0.3+0.7+0+0.3 = 1.3 < 1.5.
    const run = await runScripted(world, mergeConfig(24), { rng: scriptedRng([...failedSearch(), 0.5, 0.9, 0, 0, 0, 0, 0.5, 0.9]) });
    const merge = run.state.candidates[4]!;
    expect(merge).toMatchObject({
      id: 'c4', parentId: 'c2', iteration: 4, strategy: 'S3', status: 'rejected', proposerReply: null, triggeredBy: null,
      merge: { parentIds: ['c2', 'c3'], ancestorId: 'c0', textFrom: 'c3' }, minibatch: { taskIds: ['B', 'C', 'A', 'B', 'C'] },
    });
    expect(merge.merge!.parentSums[0]).toBeCloseTo(1.5, 12);
    expect(merge.merge!.parentSums[1]).toBeCloseTo(1.3, 12);
    expect(merge.minibatch!.childSum).toBeCloseTo(1.3, 12);
    expect(merge.reason).toBe("merge of c2 and c3 (ancestor c0, text of c3): subsample sum 1.3000 < the better parent's 1.5000");
    // Each distinct subsample task is one metric call; 3 × (1 + 1 + 3) + 3 = 18 + 3 = 21; the next
    // iteration's worst case (5) does not fit in 24.
    expect(run.state.metricCalls.filter((c) => c.purpose === 'merge-mb').map((c) => c.key)).toEqual(['4:merge-mb:c4:B:0', '4:merge-mb:c4:C:0', '4:merge-mb:c4:A:0']);
    expect(run.state).toMatchObject({ metricCallsUsed: 21, iteration: 4, stopReason: 'budget', status: 'complete' });
    expect(run.events.find((e) => e.type === 'iteration_started' && e.iteration === 4)).toEqual({ type: 'iteration_started', iteration: 4, parentId: 'c2', minibatch: ['B', 'C', 'A', 'B', 'C'], mergeOf: ['c2', 'c3'] });
  });

  it('the same merge with the extra draws A, A is accepted (its 2.4 ≥ max(1.0, 2.4)), validated, and joins the pool', async () => {
    // c2: 0.1+0.6+0.1+0.1+0.1 = 1.0; c3 and the merge: 0+0.3+0.7+0.7+0.7 = 2.4 (GEPA accepts ≥ the better parent).
    const run = await runScripted(world, mergeConfig(24), { rng: scriptedRng([...failedSearch(), 0.5, 0.9, 0, 0, 0, 0, 0, 0]) });
    const merge = run.state.candidates[4]!;
    expect(merge).toMatchObject({ status: 'accepted', minibatch: { taskIds: ['B', 'C', 'A', 'A', 'A'] }, valScores: { A: 0.7, B: 0, C: 0.3 } });
    expect(merge.merge!.parentSums[0]).toBeCloseTo(1.0, 12);
    expect(merge.minibatch!.parentSum).toBeCloseTo(2.4, 12);
    expect(merge.minibatch!.childSum).toBeCloseTo(2.4, 12);
    // 18 + 3 subsample calls + 3 validation calls.
    expect(run.state.metricCallsUsed).toBe(24);
    // The merge repeats c3's text, so its scores equal c3's: of exact duplicates the front keeps one.
    expect(run.state.fronts.A).toEqual(['c4']);
  });

  it('interrupted after any metric call and resumed from its cache, the merging run ends equal to an uninterrupted one', async () => {
    const draws = () => [...failedSearch(), 0.5, 0.9, 0, 0, 0, 0, 0.5, 0.9];
    // The scripted proposer answers the k-th proposal of the run, k = the proposals cached so far.
    const depsFor = (cache: MemoryCache): Partial<EvolutionDeps> => ({
      cache, rng: scriptedRng(draws()),
      proposer: { ...echoProposer, complete: async () => ({ content: `<strategy>${world.proposals[cache.proposals.size]}</strategy>`, finishReason: 'stop', model: 'p', usage: null as never }) },
    });
    const full = await runScripted(world, mergeConfig(24), depsFor(new MemoryCache()));
    expect(full.state.candidates[4]!.merge).toBeDefined();
    for (let stopAfter = 1; stopAfter < full.state.metricCalls.length; stopAfter++) {
      const cache = new MemoryCache();
      const controller = new AbortController();
      let done = 0;
      const cut = await runScripted(world, mergeConfig(24), { ...depsFor(cache), signal: controller.signal, onEvent: (e) => void (e.type === 'metric_call_done' && ++done >= stopAfter && controller.abort()) });
      expect(cut.state.status, `stop after ${stopAfter}`).toBe('stopped');
      const resumed = await runScripted(world, mergeConfig(24), depsFor(cache));
      expect(timeless(resumed.state), `stop after ${stopAfter}`).toEqual(timeless(full.state));
    }
  });

  it('the run imports with its merge (both parents, ancestor) and options; a merge naming a later candidate is refused; the dashboard shows them', async () => {
    const run = await runScripted(world, { ...mergeConfig(24), proposals: { parents: 1, mutations: 1 } }, { rng: scriptedRng([...failedSearch(), 0.5, 0.9, 0, 0, 0, 0, 0.5, 0.9]) });
    const parsed = evolutionStateSchema.parse(JSON.parse(JSON.stringify(run.state)));
    expect(parsed.candidates[4]!.merge).toEqual(run.state.candidates[4]!.merge);
    expect(parsed.config).toMatchObject({ merge: { maxMerges: 5 }, proposals: { parents: 1, mutations: 1 } });
    const bad = structuredClone(run.state);
    bad.candidates[4]!.merge!.ancestorId = 'c9';
    expect(evolutionStateSchema.safeParse(bad).error?.issues[0]).toMatchObject({ path: ['candidates', 4, 'merge', 'ancestorId'], message: 'merge "c4" names "c9", which is not an earlier candidate' });
    expect(evolutionStateSchema.safeParse({ ...run.state, config: { ...run.state.config, proposals: { parents: 9, mutations: 9 } } }).success).toBe(false);
    expect(strategyText({ ...run.state.config, proposals: { parents: 2, mutations: 3 } })).toBe('parent: current_best · accept: improvement or equal · proposals: 2×3 (parents × mutations) · merge: up to 5');
    expect(candidateRows(run.state)[4]).toMatchObject({ id: 'c4', parentId: 'c2', mergeOf: ['c2', 'c3'] });
  });

  it('without --merge the same world never merges and draws nothing', async () => {
    // Iteration 4 is reflective: S0 from c3 (now the best), accepted; 18 + 5 = 23, then 23 + 5 > 24.
    const run = await runScripted({ ...world, proposals: [...world.proposals, 'S0'] }, { ...mergeConfig(24), merge: undefined }, { rng: scriptedRng([]) });
    expect(run.state).toMatchObject({ iteration: 4, metricCallsUsed: 23 });
    expect(run.state.candidates[4]).toMatchObject({ parentId: 'c3', strategy: 'S0', status: 'accepted' });
    expect(run.state.candidates.some((c) => c.merge)).toBe(false);
    expect(run.state.metricCalls.some((c) => c.purpose === 'merge-mb')).toBe(false);
  });
});

/** Scores for any strategy and task from a hash, and a proposer whose reply depends only on its
 * prompt, so interrupted and uninterrupted runs see the same world. */
const hashed = (text: string) => [...text].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0, 7);
const anyScores = new Proxy({}, { get: (_, strategy) => new Proxy({}, { get: (__, task) => (hashed(`${String(strategy)}|${String(task)}`) % 97) / 100 }) }) as ScriptedWorld['scores'];
const echoProposer: ChatModel = {
  role: 'proposer', settings: { model: 'p', temperature: 1, maxTokens: 100 },
  complete: async (messages) => ({
    content: `<strategy>rule ${hashed(messages[1]!.content) % 1000}</strategy>`, finishReason: 'stop', model: 'p',
    usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 0, costUsd: 0 },
  }),
};
/** Evaluations finishing in an order set by `delaySeed` (0: in call order). */
function delayedEvaluate(delaySeed: number): EvolutionDeps['evaluate'] {
  const delays = new SeededRng(delaySeed);
  return async (strategy: string, task: EvolutionTask, _repeat: number, sessionId: string) => {
    const wAuc = anyScores[strategy]![task.id]!;
    if (delaySeed) await new Promise((done) => setTimeout(done, delays.int(4)));
    const session = fakeSession(sessionId, task, wAuc);
    return { session, wAuc, scores: session.scores, faultedNow: 0 };
  };
}
const timeless = (s: EvolutionState) => ({ ...s, startedAt: '', finishedAt: '' });
const pxnConfig = (o = {}) => scriptedConfig(['T1', 'T2', 'T3'], ['A', 'B'], { budgetMetricCalls: 60, rngSeed: 5, concurrency: 4, proposals: { parents: 2, mutations: 2 }, merge: { maxMerges: 2 }, ...o });

describe('several proposals per iteration', () => {
  it('2×2: two parent draws, each with two minibatches; children in draw order; the budget rule holds', async () => {
    const run = await runScripted({ scores: anyScores, proposals: [] }, pxnConfig({ merge: undefined, concurrency: 1 }), { proposer: echoProposer });
    const first = run.state.candidates.filter((c) => c.iteration === 1);
    expect(first.map((c) => c.id)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(first.every((c) => c.parentId === 'c0')).toBe(true);
    expect(run.events.filter((e) => e.type === 'iteration_started' && e.iteration === 1).map((e) => e.type === 'iteration_started' && e.proposalIndex)).toEqual([0, 1, 2, 3]);
    // Minibatches of size 1 are drawn from epoch shuffles: four draws cover all three tasks.
    expect(new Set(first.map((c) => c.minibatch!.taskIds[0])).size).toBe(3);
    // The parent plays each distinct task of its minibatches once.
    expect(run.state.metricCalls.filter((c) => c.iteration === 1 && c.purpose === 'parent-mb').length).toBe(3);
    // Worst case of an iteration: 4 · (2 + 2) = 16; each started only with 16 left.
    expect(run.state.metricCallsUsed).toBeLessThanOrEqual(60);
    expect(run.state.candidates.length - 1).toBe(4 * run.state.iteration);
    expect(run.state.config.proposals).toEqual({ parents: 2, mutations: 2 });
  });

  it('results do not depend on the order sessions finish in', async () => {
    const inOrder = await runScripted({ scores: anyScores, proposals: [] }, pxnConfig(), { proposer: echoProposer, evaluate: delayedEvaluate(0) });
    const shuffled = await runScripted({ scores: anyScores, proposals: [] }, pxnConfig(), { proposer: echoProposer, evaluate: delayedEvaluate(9) });
    expect(timeless(shuffled.state)).toEqual(timeless(inOrder.state));
  });

  it('interrupted anywhere and resumed from its cache, a 2×2 run with merges ends equal to an uninterrupted one', async () => {
    const deps = { proposer: echoProposer, evaluate: delayedEvaluate(0) };
    const full = await runScripted({ scores: anyScores, proposals: [] }, pxnConfig(), deps);
    const total = full.state.metricCalls.length;
    for (const stopAfter of [1, 3, Math.floor(total / 2), total - 2]) {
      const cache = new MemoryCache();
      const controller = new AbortController();
      let done = 0;
      const cut = await runScripted({ scores: anyScores, proposals: [] }, pxnConfig(), {
        ...deps, cache, signal: controller.signal, onEvent: (e) => void (e.type === 'metric_call_done' && ++done >= stopAfter && controller.abort()),
      });
      expect(cut.state.status, `stop after ${stopAfter}`).toBe('stopped');
      const resumed = await runScripted({ scores: anyScores, proposals: [] }, pxnConfig(), { ...deps, cache });
      expect(timeless(resumed.state), `stop after ${stopAfter}`).toEqual(timeless(full.state));
    }
  });
});
