/** Leak warnings: planned from the form, and the badge of a report row; the status line. */
import { describe, expect, it } from 'vitest';
import type { EvaluationState } from '../../eval/interface.ts';
import { leakBadge, plannedLeaks } from '../shared/evaluation/leak.ts';
import { evaluationStatus } from './report-view.ts';

describe('leak warnings', () => {
  it('name each policy selected on a planned game, once per game', () => {
    const leaks = plannedLeaks(
      [{ id: 'evolved-run1-c3', selectedOn: ['detective', 'temple'] }, { id: 'naive', selectedOn: [] }],
      ['detective', 'zork1', 'detective', 'temple'],
    );
    expect(leaks).toEqual([{ policyId: 'evolved-run1-c3', games: ['detective', 'temple'], message: 'evolved-run1-c3 was selected on detective, temple: its results there are not a held-out test.' }]);
    expect(plannedLeaks([{ id: 'evolved', selectedOn: ['detective'] }], ['balances', 'zork3'])).toEqual([]);
  });

  it('show a report row’s warning as a "leak" badge with the full text', () => {
    expect(leakBadge('The evaluated meta-prompt was selected on these games: detective.')).toEqual({ label: 'leak', title: 'The evaluated meta-prompt was selected on these games: detective.' });
    expect(leakBadge(null)).toBeNull();
  });
});

describe('evaluation status line', () => {
  it('says how many sessions are done and counts faulted episodes', () => {
    const state = { status: 'stopped', stopReason: 'provider_error', stopMessage: 'Could not reach x', results: [], totalSessions: 4, faultedEpisodes: 1 } as unknown as EvaluationState;
    expect(evaluationStatus(state, false)).toBe('stopped — Could not reach x — 0 / 4 sessions, 1 faulted episode (not scored)');
  });
});
