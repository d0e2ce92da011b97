/**
 * A run's fresh state and a step's outcome are built once per run kind in the core
 * (evolve/fresh-state.ts, eval/fresh-state.ts, experiment/outcomes.ts) and every composition root
 * — the page's drivers, the CLI's commands, both experiment executors, branches and the loops
 * themselves — uses them: no other production module spells a state's format literal or an
 * outcome's fields.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluationJobs } from '../src/eval/evaluation-runner.ts';
import { freshEvaluationState, plannedSessions } from '../src/eval/fresh-state.ts';
import type { EvaluationConfig } from '../src/eval/interface.ts';
import { freshEvolutionState } from '../src/evolve/fresh-state.ts';
import type { EvolutionConfig } from '../src/evolve/interface.ts';
import { REPO_ROOT } from './support/shared.ts';

const SRC = join(REPO_ROOT, 'src');
/** Every production source file of src/ (tests aside), relative to src/. */
function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|svelte)$/.test(name) && !/\.test\.ts$/.test(name) ? [relative(SRC, path)] : [];
  });
}
const filesWith = (pattern: RegExp): string[] => sources().filter((f) => pattern.test(readFileSync(join(SRC, f), 'utf8'))).sort();

const task = (id: string) => ({ id, storyId: id.split(':')[0]!, title: id, seed: Number(id.split(':')[1]), md5: 'm', maxScore: 10 });
const EVOLUTION: EvolutionConfig = {
  train: [task('advent:0')], val: [task('advent:1')], repeats: 1, trainRepeats: 1, valRepeats: 1, episodes: 2, maxSteps: 3, initialGuidingPrompt: 'Explore.',
  seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 8, maxConsecutiveFailures: 5, proposer: 'llm', proposerInstruction: 'gepa', rngSeed: 0xfffffffe,
  concurrency: 1, models: { actor: 'a', metaAgent: 'm', proposer: 'p' }, contextWindow: 8000,
} as EvolutionConfig;
const EVALUATION: EvaluationConfig = {
  policies: [{ id: 'static', spec: { kind: 'static' }, selectedOn: [] }, { id: 'naive', spec: { kind: 'meta', name: 'naive', strategy: '' }, selectedOn: [] }],
  taskSets: [{ name: 'A', tasks: [task('advent:0'), task('advent:1')] }, { name: 'B', tasks: [task('advent:2')] }], repeats: 3, episodes: 2, maxSteps: 3,
  initialGuidingPrompt: 'Explore.', baselinePolicyId: 'naive', bootstrapSeed: 0, concurrency: 1, models: { actor: 'a', metaAgent: 'm' }, contextWindow: 8000,
} as EvaluationConfig;
const NOW = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));

describe('fresh state', () => {
  it('an evolution starts with nothing spent, its RNG state the seed as an unsigned integer, and the faults carried over', () => {
    const state = freshEvolutionState('run-1', EVOLUTION, NOW, 4);
    expect(state).toMatchObject({
      format: 'metattl-evolution-1', id: 'run-1', status: 'running', stopReason: null, candidates: [], metricCalls: [], metricCallsUsed: 0, sessionsPlayed: 0,
      faultedEpisodes: 4, failedProposals: 0, fronts: {}, iteration: 0, rngState: 0xfffffffe, best: { byMean: null, byZScore: null }, progress: [],
      startedAt: '2026-01-02T03:04:05.000Z', finishedAt: null,
    });
    expect(state.config).toBe(EVOLUTION);
    expect(freshEvolutionState('run-1', { ...EVOLUTION, rngSeed: -2 }, NOW).rngState).toBe(0xfffffffe);
    expect(freshEvolutionState('run-1', EVOLUTION, NOW).faultedEpisodes).toBe(0);
  });

  it('an evaluation plans every policy × task × repeat session', () => {
    expect(plannedSessions(EVALUATION)).toBe(2 * 3 * 3);
    expect(plannedSessions(EVALUATION)).toBe(evaluationJobs(EVALUATION).length);
    expect(freshEvaluationState('ev-1', EVALUATION, NOW, 2)).toEqual({
      format: 'metattl-evaluation-1', id: 'ev-1', config: EVALUATION, status: 'running', stopReason: null, stopMessage: null, results: [],
      totalSessions: 18, faultedEpisodes: 2, startedAt: '2026-01-02T03:04:05.000Z', finishedAt: null,
    });
  });
});

describe('built once', () => {
  it('only the core\'s fresh-state modules spell a new state', () => {
    expect(filesWith(/format: 'metattl-evolution-1',/)).toEqual(['evolve/fresh-state.ts']);
    expect(filesWith(/format: 'metattl-evaluation-1',/)).toEqual(['eval/fresh-state.ts']);
  });

  it('only experiment/outcomes.ts turns a run into a step\'s outcome', () => {
    expect(filesWith(/bestValWAuc: (?!number)/)).toEqual(['experiment/outcomes.ts']);
  });
});
