/** Leak warnings: planned from the form, and the badge of a report row. */
import { describe, expect, it } from 'vitest';
import { leakBadge, plannedLeaks } from './leak.ts';

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
