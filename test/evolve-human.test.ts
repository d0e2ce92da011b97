/**
 * A human in the loop in the scripted world of support/human-world.ts, whose numbers
 * are hand-computed in the comments: pause at an iteration boundary and resume equals the unpaused
 * run; a human candidate is evaluated like a proposal (minibatch, acceptance, validation), charged
 * to the budget, marked `origin: 'human'`, and replayed identically; a branch from iteration 1
 * starts from the source's state after it (pool, budget spent, RNG state) with its own settings.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { branchConfig, configAt, createBranch, spentAfter } from '../src/evolve/branch.ts';
import { exportEvolution, importEvolution } from '../src/evolve/evolution-io.ts';
import { openEvolutionCache, loadEvolutionState, saveEvolutionState } from '../src/evolve/evolution-store.ts';
import { addHumanCandidate, feedbackMessages, HumanCandidateError, humanMinibatch, proposeFromFeedback } from '../src/evolve/human-candidate.ts';
import { freshEvolutionState } from '../src/evolve/fresh-state.ts';
import type { EvolutionState } from '../src/evolve/interface.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { MemoryCache, plusProposer, runWorld, timeless } from './support/human-world.ts';
import { scriptedConfig } from './support/scripted-evolution.ts';

const config = () => scriptedConfig(['T'], ['A'], { budgetMetricCalls: 10 });

// Unpaused (hand-computed): seed c0 '' has A 0.1 (1 call). Iteration 1: parent c0 (T 0.0), child
// c1 '+' (T 0.3 > 0.0: accepted, A 0.4) → 4 calls. Iteration 2: parent c1 (T 0.3), child c2 '+ +'
// (T 0.6: accepted, A 0.0) → 7. Iteration 3: parent c1 again, c3 '+ +' accepted → 10; no room for a 4th.
describe('pause and resume', () => {
  it('pausing after iteration 1 holds the run there; resuming ends equal to the unpaused run', async () => {
    const unpaused = await runWorld(config(), new MemoryCache());
    expect(unpaused.candidates.map((c) => [c.id, c.strategy, c.status])).toEqual([['c0', '', 'seed'], ['c1', '+', 'accepted'], ['c2', '+ +', 'accepted'], ['c3', '+ +', 'accepted']]);
    expect(unpaused.metricCallsUsed).toBe(10);
    const cache = new MemoryCache();
    const paused = await runWorld(config(), cache, { pauseRequested: (done) => done >= 1 });
    expect(paused).toMatchObject({ status: 'paused', stopReason: 'paused', stopMessage: null, iteration: 1, iterationsDone: 1, metricCallsUsed: 4 });
    expect(paused.candidates.map((c) => c.id)).toEqual(['c0', 'c1']);
    const played: string[] = [];
    const resumed = await runWorld(config(), cache, {}, played);
    expect(timeless(resumed)).toEqual(timeless(unpaused));
    // The resume replays iterations 0–1 from the cache: it plays only iterations 2 and 3.
    expect(played).toEqual(['+|T', '+ +|T', '+ +|A', '+|T', '+ +|T', '+ +|A']);
  });
});

describe('human candidates', () => {
  it('is evaluated at its boundary like a proposal, charged to the budget, marked human, and replayed identically', async () => {
    const cache = new MemoryCache();
    const paused = await runWorld(config(), cache, { pauseRequested: (done) => done >= 1 });
    const withHuman = addHumanCandidate(paused, { parentId: 'c0', strategy: '+ + +' });
    expect(withHuman.humanCandidates).toEqual([{ afterIteration: 1, parentId: 'c0', strategy: '+ + +', minibatch: ['T'] }]);
    const played: string[] = [];
    const evaluated = await runWorld(withHuman, cache, { pauseRequested: (done) => done >= 1 }, played);
    // '+ + +' (p = 3): T 0.2 > the parent c0's 0.0, accepted; A 0.3. Calls 4 + 2 + 1 = 7.
    expect(played).toEqual(['|T', '+ + +|T', '+ + +|A']);
    const human = evaluated.candidates[2]!;
    expect(human).toMatchObject({ id: 'c2', parentId: 'c0', iteration: 1, origin: 'human', status: 'accepted', valScores: { A: 0.3 }, minibatch: { taskIds: ['T'], parentSum: 0, childSum: 0.2 } });
    expect(human.reason).toBe("human candidate: minibatch sum 0.2000 > parent's 0.0000");
    expect(evaluated).toMatchObject({ status: 'paused', metricCallsUsed: 7 });
    expect(evaluated.metricCalls.filter((c) => c.purpose.startsWith('human')).map((c) => c.purpose)).toEqual(['human-parent-mb', 'human-mb', 'human-val']);
    // Then iteration 2: parent c1 (A 0.4 leads), child c3 '+ +' accepted → 10 calls, the budget.
    const finished = await runWorld(withHuman, cache);
    expect(finished.candidates.map((c) => [c.id, c.origin ?? 'proposer', c.status])).toEqual([['c0', 'proposer', 'seed'], ['c1', 'proposer', 'accepted'], ['c2', 'human', 'accepted'], ['c3', 'proposer', 'accepted']]);
    expect(finished.metricCallsUsed).toBe(10);
    // The same config from an empty cache reaches the same state: the human candidate is replayed.
    expect(timeless(await runWorld(withHuman, new MemoryCache()))).toEqual(timeless(finished));
  });

  it('a candidate that does not beat its parent on the minibatch is rejected and not validated', async () => {
    const cache = new MemoryCache();
    const paused = await runWorld(config(), cache, { pauseRequested: (done) => done >= 1 });
    // '+ + + + + + +' (p = 7): T 21 mod 7 = 0 → 0.0, not above c0's 0.0.
    const played: string[] = [];
    const state = await runWorld(addHumanCandidate(paused, { parentId: 'c0', strategy: '+ + + + + + +' }), cache, { pauseRequested: (d) => d >= 1 }, played);
    expect(played).toEqual(['|T', '+ + + + + + +|T']);
    expect(state.candidates[2]).toMatchObject({ origin: 'human', status: 'rejected', valScores: {} });
    expect(state.metricCallsUsed).toBe(6);
  });

  it('refuses a run inside an iteration, a parent outside the pool, an unchanged strategy and a budget that cannot pay', async () => {
    const paused = await runWorld(config(), new MemoryCache(), { pauseRequested: (done) => done >= 1 });
    const inside: EvolutionState = { ...paused, status: 'stopped', iteration: 2 };
    expect(() => addHumanCandidate(inside, { parentId: 'c0', strategy: 'x' })).toThrow(/stopped inside iteration 2/);
    expect(() => addHumanCandidate({ ...paused, status: 'running' }, { parentId: 'c0', strategy: 'x' })).toThrow(/pause it first/);
    expect(() => addHumanCandidate(paused, { parentId: 'c9', strategy: 'x' })).toThrow(/no candidate c9/);
    expect(() => addHumanCandidate(paused, { parentId: 'c1', strategy: ' + ' })).toThrow(/same as c1/);
    expect(() => addHumanCandidate({ ...paused, metricCallsUsed: 8 }, { parentId: 'c0', strategy: 'x' })).toThrow(HumanCandidateError);
    expect(() => addHumanCandidate({ ...paused, metricCallsUsed: 8 }, { parentId: 'c0', strategy: 'x' })).toThrow('The budget has 2 metric calls left; evaluating a candidate may need 3.');
  });

  it('draws its minibatch without the run RNG, deterministically per candidate', () => {
    const c = scriptedConfig(['T1', 'T2', 'T3'], ['A'], { minibatchSize: 2, rngSeed: 5 });
    expect(humanMinibatch(c, 0)).toEqual(humanMinibatch(c, 0));
    expect(humanMinibatch(c, 0)).toHaveLength(2);
    expect(new Set(humanMinibatch(c, 0)).size).toBe(2);
  });

  it('feedback goes to the proposer in place of the reflective dataset', async () => {
    const messages = feedbackMessages('Be careful.', 'Read every sign.', config());
    expect(messages[1]!.content).toContain('<feedback>\nRead every sign.\n</feedback>');
    expect(messages[1]!.content).toContain('<current_strategy>\nBe careful.\n</current_strategy>');
    const proposed = await proposeFromFeedback(plusProposer(), 'Be careful.', 'Read every sign.', config());
    expect(proposed).toEqual({ strategy: 'Be careful. +', reply: '<strategy>Be careful. +</strategy>' });
  });
});

describe('export and import', () => {
  it('keeps a paused state, human candidates (spec and origin) and a branch origin', async () => {
    const cache = new MemoryCache();
    const paused = await runWorld(config(), cache, { pauseRequested: (done) => done >= 1 });
    const withHuman = addHumanCandidate(paused, { parentId: 'c0', strategy: '+ + +', feedback: 'more plus signs', proposerReply: '<strategy>+ + +</strategy>' });
    const state = await runWorld({ ...withHuman, branchedFrom: { runId: 'older', iteration: 0, config: config() } }, cache, { pauseRequested: (done) => done >= 1 });
    const back = importEvolution(exportEvolution({ state, events: [] })).state;
    expect(back).toEqual(state);
    expect(back).toMatchObject({ status: 'paused', stopReason: 'paused', iterationsDone: 1 });
    expect(back.candidates[2]).toMatchObject({ origin: 'human', humanFeedback: 'more plus signs' });
    expect(back.config.humanCandidates?.[0]?.feedback).toBe('more plus signs');
    expect(back.config.branchedFrom).toEqual({ runId: 'older', iteration: 0, config: config() });
    expect(back.metricCalls.map((c) => c.purpose)).toContain('human-val');
  });
});

describe('branch', () => {
  it('a branch from iteration 1 starts from the source state after it and goes on with its own settings', async () => {
    const store = await openNodeStore(mkdtempSync(join(tmpdir(), 'metattl-branch-')));
    const sourceConfig = config();
    const fresh = (id: string, c = sourceConfig): EvolutionState => freshEvolutionState(id, c, new Date(0));
    const atOne = await runWorld(sourceConfig, new MemoryCache(), { pauseRequested: (d) => d >= 1 });
    const source = await runWorld(sourceConfig, await openEvolutionCache(store, 'src', () => fresh('src')), { onEvent: (e, st) => (e.type === 'finished' ? saveEvolutionState(store, st) : undefined) }, [], 'src');
    expect(spentAfter(source, 1)).toBe(4);
    expect(() => branchConfig(source, 4, {})).toThrow(/finished iterations 0–3/);
    expect(() => branchConfig(source, 1, { budgetMetricCalls: 4 })).toThrow(/spent 4 metric calls by iteration 1/);
    const branch = await createBranch(store, 'src', 'br', 1, { budgetMetricCalls: 13, acceptance: 'improvement_or_equal' }, new Date(0));
    expect(branch.branchedFrom).toEqual({ runId: 'src', iteration: 1, config: sourceConfig });
    expect(configAt(branch, 1).acceptance).toBeUndefined();
    expect(configAt(branch, 2).acceptance).toBe('improvement_or_equal');
    const stored = (await loadEvolutionState(store, 'br'))!;
    const cache = await openEvolutionCache(store, 'br', () => fresh('br', stored.config));
    const played: string[] = [];
    const held = await runWorld(stored.config, cache, { pauseRequested: (d) => d >= 1 }, played, 'br');
    expect(played).toEqual([]);
    expect({ candidates: held.candidates, metricCallsUsed: held.metricCallsUsed, rngState: held.rngState, fronts: held.fronts })
      .toEqual({ candidates: atOne.candidates, metricCallsUsed: 4, rngState: atOne.rngState, fronts: atOne.fronts });
    // With 13 calls: iterations 2, 3, 4 (parent c1 each time, child '+ +' accepted) → 13.
    const done = await runWorld(stored.config, cache, {}, played, 'br');
    expect(played.slice(0, 3)).toEqual(['+|T', '+ +|T', '+ +|A']);
    expect(done.candidates).toHaveLength(5);
    expect(done.metricCallsUsed).toBe(13);
    expect(done.config.branchedFrom?.runId).toBe('src');
    store.close();
  });
});
