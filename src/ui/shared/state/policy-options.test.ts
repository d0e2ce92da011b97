/** Evaluate names its policies for people (the option's label: "Static", a meta-prompt's name, an
 * evolved entry's name) and keeps the ids for titles, also for states stored before names were kept. */
import { describe, expect, it } from 'vitest';
import type { EvaluationResult, EvaluationState } from '../../../eval/interface.ts';
import { buildReport } from '../../../eval/report.ts';
import type { LibraryMetaPrompt } from './entry-io.ts';
import { evaluatedPolicies, policyOptions, withPolicyNames } from './policy-options.ts';

const evolved: LibraryMetaPrompt = {
  id: 'evolved-evo-abc-c1', name: 'Evolved c1 (run evo-abc)', description: '', strategy: 'Keep facts.',
  provenance: { kind: 'evolved', runId: 'evo-abc', parentId: 'c0', iteration: 1 }, selectedOn: [], evaluations: [],
};
const mine: LibraryMetaPrompt = { ...evolved, id: 'user-c7e3aa', name: 'My route notes', provenance: 'hand-written' as unknown as LibraryMetaPrompt['provenance'] };

const result = (policyId: string, repeat: number, wAuc: number): EvaluationResult => ({
  key: `${policyId}|S|g:0|${repeat}`, policyId, taskId: 'g:0', storyId: 'g', taskSet: 'S', repeat, sessionId: 'x', wAuc, averageScore: 1, bestScore: 1, scores: [1], costUsd: 0,
});

function stateOf(policies: EvaluationState['config']['policies']): EvaluationState {
  const results = policies.flatMap((p, i) => [result(p.id, 0, 0.1 * i), result(p.id, 1, 0.1 * i + 0.05)]);
  return {
    format: 'metattl-evaluation-1', id: 'e', status: 'complete', stopReason: null, stopMessage: null, results, totalSessions: results.length, faultedEpisodes: 0, startedAt: '', finishedAt: null,
    config: { policies, taskSets: [{ name: 'S', tasks: [] }], repeats: 2, episodes: 1, maxSteps: 1, initialGuidingPrompt: '', baselinePolicyId: 'static', bootstrapSeed: 1, concurrency: 1, models: { actor: 'a', metaAgent: 'm' }, contextWindow: 1000 },
  } as EvaluationState;
}

describe('policy names in an evaluation', () => {
  const options = policyOptions([evolved, mine]);
  const ids = ['static', 'evolved-evo-abc-c1', 'user-c7e3aa'];

  it('the report names each policy as the picker does and keeps its id', () => {
    const report = buildReport(stateOf(evaluatedPolicies(options, ids)));
    expect(report.policies.map((p) => [p.policyId, p.policyName])).toEqual([
      ['static', 'Static'], ['evolved-evo-abc-c1', 'Evolved c1 (run evo-abc)'], ['user-c7e3aa', 'My route notes'],
    ]);
    expect(report.games.map((g) => g.policyName)).toEqual(['Static', 'Evolved c1 (run evo-abc)', 'My route notes']);
    expect(report.policies.map((p) => p.policyName)).toEqual(ids.map((id) => options.find((o) => o.id === id)!.label));
  });

  it('a chosen library meta-prompt marked raw is evaluated raw, named so in the report; raw means nothing for a baseline', () => {
    const policies = evaluatedPolicies(options, ids, ['user-c7e3aa', 'static']);
    expect(policies.map((p) => [p.id, p.name, p.spec])).toEqual([
      ['static', 'Static', { kind: 'static' }],
      ['evolved-evo-abc-c1', 'Evolved c1 (run evo-abc)', { kind: 'meta', name: 'evolved-evo-abc-c1', strategy: 'Keep facts.' }],
      ['user-c7e3aa', 'My route notes (raw)', { kind: 'meta', name: 'user-c7e3aa', strategy: 'Keep facts.', raw: true }],
    ]);
    const report = buildReport(stateOf(policies));
    expect(report.policies.map((p) => [p.policyId, p.rawMetaPrompt ?? false])).toEqual([['static', false], ['evolved-evo-abc-c1', false], ['user-c7e3aa', true]]);
  });

  it('a state stored without names gets them from the options; an unknown id stays its own name', () => {
    const old = stateOf([...evaluatedPolicies(options, ids), { id: 'gone', spec: { kind: 'static' as const }, selectedOn: [] as string[] }].map(({ name: _name, ...p }) => p));
    const named = withPolicyNames(old, options);
    expect(named.config.policies.map((p) => p.name)).toEqual(['Static', 'Evolved c1 (run evo-abc)', 'My route notes', 'gone']);
    expect(buildReport(old).policies.map((p) => p.policyName)).toEqual(['static', 'evolved-evo-abc-c1', 'user-c7e3aa', 'gone']);
    const already = stateOf(evaluatedPolicies(options, ids));
    expect(withPolicyNames(already, options)).toBe(already);
  });
});
