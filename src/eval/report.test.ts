import { describe, expect, it } from 'vitest';
import type { EvaluationConfig, EvaluationResult, EvaluationState } from './interface.ts';
import { hierarchicalBootstrapMean, nestedBootstrapMean } from '../ttl/metrics.ts';
import { buildReport, leakWarning } from './report.ts';

const result = (policyId: string, storyId: string, repeat: number, wAuc: number, scores: number[]): EvaluationResult => ({
  key: `${policyId}|s|${storyId}:0|${repeat}`, policyId, taskId: `${storyId}:0`, storyId, taskSet: 'S', repeat, sessionId: 'x', wAuc,
  averageScore: scores.reduce((a, b) => a + b, 0) / scores.length, bestScore: Math.max(...scores), scores, costUsd: 0,
});

const config = { policies: [{ id: 'base', spec: { kind: 'static' }, selectedOn: [] }, { id: 'new', spec: { kind: 'static' }, selectedOn: ['g2'] }], taskSets: [{ name: 'S', tasks: [] }], repeats: 2, episodes: 2, maxSteps: 1, initialGuidingPrompt: '', baselinePolicyId: 'base', bootstrapSeed: 1, concurrency: 1, models: { actor: 'm', metaAgent: 'm' }, contextWindow: 1 } as unknown as EvaluationConfig;

describe('evaluation report', () => {
  const results = [
    result('base', 'g1', 0, 0.1, [1, 2]), result('base', 'g1', 1, 0.2, [2, 2]), result('base', 'g2', 0, 0.3, [0, 4]), result('base', 'g2', 1, 0.4, [4, 4]),
    result('new', 'g1', 0, 0.3, [3, 4]), result('new', 'g1', 1, 0.4, [4, 4]), result('new', 'g2', 0, 0.5, [2, 6]), result('new', 'g2', 1, 0.6, [6, 6]),
  ];
  const state = { id: 'e', config, results } as unknown as EvaluationState;
  const report = buildReport(state);

  it('means equal the hand-computed means; a constant +0.2 shift gives a zero-width paired interval', () => {
    const base = report.policies.find((p) => p.policyId === 'base')!;
    const fresh = report.policies.find((p) => p.policyId === 'new')!;
    expect(base.wAuc.estimate).toBeCloseTo(0.25, 12);
    expect(fresh.wAuc.estimate).toBeCloseTo(0.45, 12);
    expect(fresh.averageScore.estimate).toBeCloseTo((3.5 + 4 + 4 + 6) / 4, 12);
    expect(fresh.bestScore.estimate).toBeCloseTo((4 + 4 + 6 + 6) / 4, 12);
    expect(fresh.diffVsBaseline!.low).toBeCloseTo(0.2, 12);
    expect(fresh.diffVsBaseline!.high).toBeCloseTo(0.2, 12);
    expect(fresh.beatsBaseline).toBe(true);
    expect(base.diffVsBaseline).toBeNull();
    expect(fresh.curve.map((c) => c.estimate)).toEqual([3.75, 5]);
    expect(report.games.filter((g) => g.policyId === 'new').map((g) => [g.storyId, g.sessions, g.wAuc.estimate])).toEqual([['g1', 2, 0.35], ['g2', 2, 0.55]]);
  });

  it('warns about games the meta-prompt was selected on', () => {
    expect(report.policies.find((p) => p.policyId === 'new')!.leakWarning).toContain('g2');
    expect(leakWarning([], results)).toBeNull();
  });

  it('with several seeds per game, intervals resample game → seed → repeat', () => {
    const seeded = (seed: number, repeat: number, wAuc: number): EvaluationResult => ({ ...result('base', 'g1', repeat, wAuc, [1]), taskId: `g1:${seed}`, key: `base|S|g1:${seed}|${repeat}` });
    const many = [seeded(0, 0, 0.1), seeded(0, 1, 0.12), seeded(1, 0, 0.6), seeded(1, 1, 0.62), { ...result('base', 'g2', 0, 0.3, [1]) }, { ...result('base', 'g2', 1, 0.35, [1]) }];
    const r = buildReport({ id: 'e', config: { ...config, policies: [config.policies[0]!] }, results: many } as unknown as EvaluationState);
    const expected = nestedBootstrapMean([[[0.1, 0.12], [0.6, 0.62]], [[0.3, 0.35]]], { seed: 1, resamples: 2000, level: 0.95 });
    expect(r.policies[0]!.wAuc).toEqual(expected);
    const sessionsOnly = hierarchicalBootstrapMean([[0.1, 0.12, 0.6, 0.62], [0.3, 0.35]], { seed: 1, resamples: 2000, level: 0.95 });
    expect(r.policies[0]!.wAuc).not.toEqual(sessionsOnly);
  });
});
