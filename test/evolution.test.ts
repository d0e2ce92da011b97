/**
 * The outer loop against the mock on real stories (detective.z5, temple.z5; tiny K and S): it
 * completes within its budget and stores every candidate; a run interrupted after its third metric
 * call and resumed ends deep-equal to an uninterrupted run; random mutation runs; empty proposals
 * are rejected and charged; a strategy that passes a proven route on is accepted, validated and
 * selected as best.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheEventProblem, recordedUsage } from '../src/evolve/evolution-io.ts';
import { DamagedRunError } from '../src/store/interface.ts';
import { checkRunForResume } from '../src/store/run-check.ts';
import { loadEvolutionState } from '../src/evolve/evolution-store.ts';
import type { EvolutionState } from '../src/evolve/interface.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { config, evolve } from './support/evolution-harness.ts';

const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
});
afterAll(() => mock.close());

/** The state without wall-clock fields. */
const timeless = (s: EvolutionState) => ({ ...s, startedAt: '', finishedAt: '' });

describe('evolution', () => {
  let uninterrupted: EvolutionState;

  it('completes within its budget and stores accepted and rejected candidates', async () => {
    mock.setOptions({ proposerReply: 'build', metaAgentReply: 'build', exploreCommands: EXPLORE });
    const { state, store } = await evolve(mock, config());
    uninterrupted = state;
    expect(state.status).toBe('complete');
    expect(state.stopReason).toBe('budget');
    expect(state.metricCallsUsed).toBeLessThanOrEqual(10);
    expect(state.metricCalls).toHaveLength(state.metricCallsUsed - state.failedProposals);
    expect(state.candidates[0]).toMatchObject({ id: 'c0', status: 'seed' });
    expect(state.candidates.length).toBeGreaterThanOrEqual(2);
    for (const c of state.candidates.slice(1)) expect(['accepted', 'rejected', 'failed']).toContain(c.status);
    const stored = await loadEvolutionState(store, 'evo-1');
    expect(stored?.candidates.map((c) => [c.id, c.status])).toEqual(state.candidates.map((c) => [c.id, c.status]));
    expect(Object.keys(state.fronts).sort()).toEqual(['detective:0', 'temple:0']);
    // Proposer calls are stored with their usage, so a resumed run still counts them.
    const usage = recordedUsage((await store.getRun('evo-1'))!.events);
    expect(usage.proposer.calls).toBe(state.candidates.filter((c) => c.proposerReply !== null).length);
    expect(usage.proposer.promptTokens).toBeGreaterThan(0);
    expect(usage.actor.calls).toBeGreaterThan(0);
  });

  it('a strategy that passes a proven route on is accepted, validated and selected as best', () => {
    const accepted = uninterrupted.candidates.filter((c) => c.status === 'accepted');
    expect(accepted.length).toBeGreaterThan(0);
    const child = accepted[0]!;
    expect(child.strategy).toContain('PLAN PREFIX:');
    expect(child.minibatch!.childSum!).toBeGreaterThan(child.minibatch!.parentSum);
    expect(Object.keys(child.valScores).sort()).toEqual(['detective:0', 'temple:0']);
    const seedMean = (uninterrupted.candidates[0]!.valScores['detective:0']! + uninterrupted.candidates[0]!.valScores['temple:0']!) / 2;
    const childMean = (child.valScores['detective:0']! + child.valScores['temple:0']!) / 2;
    expect(childMean).toBeGreaterThan(seedMean);
    expect(uninterrupted.best.byMean).not.toBe('c0');
    expect(uninterrupted.fronts['detective:0']).not.toContain('c0');
  });

  it('interrupted after its third metric call and resumed, it ends deep-equal to the uninterrupted run', async () => {
    mock.setOptions({ proposerReply: 'build', metaAgentReply: 'build', exploreCommands: EXPLORE });
    const controller = new AbortController();
    const first = await evolve(mock, config(), {
      signal: controller.signal,
      onEvent: (e) => e.type === 'metric_call_done' && e.metricCallsUsed === 3 && controller.abort(),
    });
    expect(first.state.status).toBe('stopped');
    expect(first.state.metricCallsUsed).toBeLessThan(uninterrupted.metricCallsUsed);
    const resumed = await evolve(mock, config(), { dir: first.dir });
    expect(timeless(resumed.state)).toEqual(timeless(uninterrupted));
  });

  it('a damaged store stops the resume naming the file and first bad record; from the last good record it ends deep-equal', async () => {
    mock.setOptions({ proposerReply: 'build', metaAgentReply: 'build', exploreCommands: EXPLORE });
    const controller = new AbortController();
    const first = await evolve(mock, config(), {
      signal: controller.signal,
      onEvent: (e) => e.type === 'metric_call_done' && e.metricCallsUsed === 4 && controller.abort(),
    });
    const run = (await first.store.getRun('evo-1'))!;
    expect(run.damage).toBeNull();
    const lines = readFileSync(run.where, 'utf8').split('\n');
    expect(lines.length).toBeGreaterThan(3);
    writeFileSync(run.where, lines.filter((_, i) => i !== 1).join('\n')); // record 2 lost
    const error = await checkRunForResume(first.store, 'evo-1', 'evolution', cacheEventProblem).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DamagedRunError);
    expect((error as DamagedRunError).message).toContain(`The stored evolution run "evo-1" is damaged, so it was not resumed: ${run.where}, line 2: its checksum does not fit`);
    expect((error as DamagedRunError).keepCount).toBe(1);
    await checkRunForResume(first.store, 'evo-1', 'evolution', cacheEventProblem, true);
    expect((await first.store.getRun('evo-1'))!.events.map((e) => e.seq)).toEqual([1]);
    const resumed = await evolve(mock, config(), { dir: first.dir });
    expect(timeless(resumed.state)).toEqual(timeless(uninterrupted));

    // A metric call whose W-AUC is not its session's (rewritten with valid checksums) is found too.
    const whole = (await resumed.store.getRun('evo-1'))!;
    const forged = structuredClone(whole.events);
    const call = forged.find((e) => (e.data as { type: string }).type === 'call')!;
    (call.data as { call: { wAuc: number } }).call.wAuc = 0.99;
    await resumed.store.rewriteRun(whole.header, forged);
    const mismatch = await checkRunForResume(resumed.store, 'evo-1', 'evolution', cacheEventProblem).catch((e: unknown) => e);
    expect((mismatch as DamagedRunError).damage).toMatchObject({ record: `seq ${call.seq}`, problem: expect.stringMatching(/^its W-AUC 0\.99 and scores \[.*\] are not those of its recorded session/) });
  });

  it('random-mutation mode runs with the same budget and acceptance', async () => {
    const { state } = await evolve(mock, config({ proposer: 'random' }));
    expect(state.status).toBe('complete');
    expect(state.metricCallsUsed).toBeLessThanOrEqual(10);
    const children = state.candidates.slice(1);
    expect(children.length).toBeGreaterThan(0);
    expect(children.every((c) => c.proposerReply === null && c.strategy.length > 0)).toBe(true);
  });

  it('empty proposals are rejected and charged, and a run of them stops the loop', async () => {
    mock.setOptions({ proposerReply: 'empty' });
    const { state } = await evolve(mock, config({ budgetMetricCalls: 40, maxConsecutiveFailures: 2 }));
    expect(state.stopReason).toBe('failures');
    const failed = state.candidates.filter((c) => c.status === 'failed');
    expect(failed).toHaveLength(2);
    expect(failed.every((c) => c.reason === 'proposal empty')).toBe(true);
    // Seed validation (2) + per iteration: parent minibatch (1) + the charged failure (1).
    expect(state.metricCallsUsed).toBe(2 + 2 * 2);
    expect(state.failedProposals).toBe(2);
  });
});
