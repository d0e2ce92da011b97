/** Dashboard derivations: candidate rows, the best-so-far curve, the library entry of a candidate. */
import { describe, expect, it } from 'vitest';
import type { Candidate, EvolutionState } from '../../../evolve/interface.ts';
import { budgetText, candidateRows, evolvedEntry, progressSpec, reasoningOf, statusText, strategyText } from './dashboard.ts';

const task = (id: string, storyId: string) => ({ id, storyId, title: storyId, md5: '0'.repeat(32), seed: 0, maxScore: 10 });
const candidate = (id: string, parentId: string | null, status: Candidate['status'], valScores: Record<string, number> = {}): Candidate => ({
  id, parentId, iteration: Number(id.slice(1)), strategy: `strategy of ${id}`, status, reason: `${status} because`, proposerReply: null, valScores, minibatch: null, triggeredBy: null,
});

function state(): EvolutionState {
  return {
    format: 'metattl-evolution-1', id: 'run1', status: 'complete', stopReason: 'budget', stopMessage: 'no room', metricCallsUsed: 9, sessionsPlayed: 9, faultedEpisodes: 0, failedProposals: 1,
    config: {
      train: [task('local:detective.z5:0', 'detective')], val: [task('advent:0', 'advent'), task('local:temple.z5:0', 'temple')], repeats: 1, episodes: 3, maxSteps: 5,
      initialGuidingPrompt: 'go', seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 10, maxConsecutiveFailures: 3, proposer: 'llm', rngSeed: 0, concurrency: 2,
      models: { actor: 'm', metaAgent: 'm', proposer: 'm' }, contextWindow: 8000,
    },
    candidates: [
      candidate('c0', null, 'seed', { 'advent:0': 0.1, 'local:temple.z5:0': 0.3 }),
      candidate('c1', 'c0', 'accepted', { 'advent:0': 0.2, 'local:temple.z5:0': 0.1 }),
      candidate('c2', 'c1', 'rejected'),
    ],
    metricCalls: [], fronts: { 'advent:0': ['c1'], 'local:temple.z5:0': ['c0'] }, iteration: 2, rngState: 0, best: { byMean: 'c0', byZScore: 'c1' },
    progress: [{ metricCallsUsed: 2, bestMeanVal: 0.2 }, { metricCallsUsed: 6, bestMeanVal: 0.2 }], startedAt: '', finishedAt: '',
  };
}

describe('dashboard', () => {
  it('rows: per-task scores, the mean of validated candidates, Pareto fronts and best flags', () => {
    const rows = candidateRows(state());
    expect(rows.map((r) => r.id)).toEqual(['c0', 'c1', 'c2']);
    expect(rows[0]).toMatchObject({ mean: 0.2, frontTasks: ['local:temple.z5:0'], bestByMean: true, bestByZScore: false });
    expect(rows[1]!.mean).toBeCloseTo(0.15, 10);
    expect(rows[1]).toMatchObject({ frontTasks: ['advent:0'], bestByZScore: true });
    expect(rows[2]).toMatchObject({ mean: null, frontTasks: [], status: 'rejected' });
  });

  it('the best-so-far curve runs to the budget spent, stepped', () => {
    const spec = progressSpec(state());
    expect(spec.series[0]!.points).toEqual([{ x: 2, y: 0.2 }, { x: 6, y: 0.2 }, { x: 9, y: 0.2 }]);
    expect(spec.series[0]!.stepped).toBe(true);
    expect(spec.xMax).toBe(10);
  });

  it('an evolved candidate’s library entry names its run and parent and is selected on the run’s games', () => {
    const s = state();
    expect(evolvedEntry(s, s.candidates[1]!)).toMatchObject({
      id: 'evolved-run1-c1', strategy: 'strategy of c1', selectedOn: ['detective', 'advent', 'temple'],
      provenance: { kind: 'evolved', runId: 'run1', parentId: 'c0', iteration: 1 }, evaluations: [],
    });
    expect(evolvedEntry(s, s.candidates[1]!).description).toContain('Evolved in run run1 from parent c0');
  });

  it('status and budget texts', () => {
    const s = state();
    expect(budgetText(s)).toBe('9 / 10 metric calls (1 charged for failed proposals) · 9 sessions');
    expect(budgetText({ ...s, sessionsPlayed: 24, faultedEpisodes: 2 })).toBe('9 / 10 metric calls (1 charged for failed proposals) · 24 sessions · 2 faulted episodes (not scored)');
    expect(statusText(s, false)).toBe('complete — the budget cannot fit another iteration');
    expect(statusText({ ...s, status: 'running' }, false)).toMatch(/^interrupted/);
    expect(statusText({ ...s, status: 'running' }, true)).toBe('running');
    expect(statusText({ ...s, stopReason: 'no_improvement', stopMessage: 'No higher best validation W-AUC for 3 iterations (best 0.4000).' }, false))
      .toBe('complete — no better candidate for the set number of iterations (No higher best validation W-AUC for 3 iterations (best 0.4000).)');
  });

  it('the outer loop\'s options in words (GEPA\'s names; defaults when absent)', () => {
    const s = state();
    expect(strategyText(s.config)).toBe('parent: pareto · accept: strict improvement');
    expect(strategyText({ ...s.config, candidateSelection: 'top_k_pareto', topK: 3, acceptance: 'improvement_or_equal', stopConditions: { noImprovementIterations: 1, scoreThreshold: 0.8, timeLimitMinutes: 90, maxProposerUsd: 2 } }))
      .toBe('parent: top_k_pareto (k = 3) · accept: improvement or equal · stop after 1 iteration without improvement · stop at W-AUC ≥ 0.8 · stop after 90 min · proposer cap $2');
    expect(strategyText({ ...s.config, candidateSelection: 'epsilon_greedy' })).toBe('parent: epsilon_greedy (ε = 0.1) · accept: strict improvement');
    expect(strategyText({ ...s.config, optimizer: 'opro' })).toBe('optimizer: OPRO (scored history) · parent: pareto · accept: strict improvement');
    expect(strategyText({ ...s.config, optimizer: 'gepa' })).toBe('parent: pareto · accept: strict improvement');
  });
});

describe('the proposer’s reasoning', () => {
  it('drops the <strategy> block the diff already shows, whatever its case, also when cut off', () => {
    expect(reasoningOf('Episode 2 looped.\n<strategy>\n- Pull the red lever.\n</strategy>\nKeep it short.')).toBe('Episode 2 looped.\n\nKeep it short.');
    expect(reasoningOf('Why: loops. <STRATEGY>x</STRATEGY>')).toBe('Why: loops.');
    expect(reasoningOf('Notes first. <strategy>never closed')).toBe('Notes first.');
    expect(reasoningOf('<strategy>only</strategy>')).toBe('_(The reply was only the new strategy, shown above.)_');
    expect(reasoningOf(null)).toBe('_(The reply was only the new strategy, shown above.)_');
  });
});
