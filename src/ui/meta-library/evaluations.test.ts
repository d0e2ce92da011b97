import { describe, expect, it } from 'vitest';
import { withEvaluation, type LibraryMetaPrompt } from '../shared/state/entry-io.ts';

const entry: LibraryMetaPrompt = {
  id: 'mine', name: 'Mine', description: '', strategy: 'Keep facts.', provenance: { kind: 'hand-written' }, selectedOn: [], evaluations: [],
};
const row = (policyId: string, taskSet: string, estimate: number) => ({ policyId, taskSet, sessions: 6, wAuc: { estimate, low: estimate - 0.1, high: estimate + 0.1 } });

describe('library evaluations', () => {
  it('adds the rows of the entry, per task set, and replaces those of the same evaluation', () => {
    const once = withEvaluation(entry, 'eval-1', [row('mine', 'ID', 0.4), row('mine', 'OOD', 0.2), row('static', 'ID', 0.1)]);
    expect(once.evaluations).toEqual([
      { taskSet: 'ID', meanWAuc: 0.4, low: 0.30000000000000004, high: 0.5, evaluationId: 'eval-1', sessions: 6 },
      { taskSet: 'OOD', meanWAuc: 0.2, low: 0.1, high: 0.30000000000000004, evaluationId: 'eval-1', sessions: 6 },
    ]);
    const again = withEvaluation(once, 'eval-1', [row('mine', 'ID', 0.5)]);
    expect(again.evaluations.map((e) => e.meanWAuc)).toEqual([0.5]);
    const other = withEvaluation(again, 'eval-2', [row('mine', 'ID', 0.45)]);
    expect(other.evaluations.map((e) => e.evaluationId)).toEqual(['eval-1', 'eval-2']);
    expect(withEvaluation(entry, 'eval-3', [row('static', 'ID', 0.1)])).toBe(entry);
  });
});
