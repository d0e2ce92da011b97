/** An evaluation file opened in Replay is untrusted: its comparisons and warnings are drawn only
 * when each has the panel's shape; a one-game t-interval read back from JSON (null) is kept. */
import { describe, expect, it } from 'vitest';
import { reportOf } from './replay-report.ts';

const iv = { estimate: 0.1, low: 0, high: 0.2, resamples: 2000, n: 2 };
const row = { policyId: 'naive', taskSet: 'ID', sessions: 2, games: 1, wAuc: iv, averageScore: iv, bestScore: iv, diffVsBaseline: null, beatsBaseline: false, leakWarning: null, curve: [] };
const comparison = {
  a: 'evolved', b: 'naive', taskSet: 'ID', declared: true, sessions: 2, delta: { mean: 0, low: 0, high: 0 }, perGame: [{ game: 'g1', mean: 0, low: 0, high: 0, sessions: 2 }],
  gameLevel: { tLow: null, tHigh: null, tP: null, signFlipP: 1, minP: 1, games: 1, exact: true }, holmP: 1, positive: false,
  power: { delta: 0.05, sessionSd: 0.1, tau: 0, repeatsNeeded: null, powerNow: 0, reason: '1 game: a game-level test needs at least 2' },
};
const file = (extra: Record<string, unknown>) => ({ report: { baselinePolicyId: 'naive', bootstrap: { resamples: 2000, seed: 0 }, policies: [row], ...extra } });

describe('Replay: a recorded evaluation report', () => {
  it('keeps well-formed comparisons and warnings', () => {
    const r = reportOf(file({ comparisons: [comparison], exploratoryComparisons: [], warnings: [{ code: 'few_games', message: '1 game …' }] }))!;
    expect(r.comparisons).toEqual([comparison]);
    expect(r.warnings).toEqual([{ code: 'few_games', message: '1 game …' }]);
  });

  it('leaves out a malformed list whole, keeping the results table', () => {
    const r = reportOf(file({ comparisons: [comparison, { ...comparison, gameLevel: 'x' }], warnings: [{ code: 1 }] }))!;
    expect(r.policies).toHaveLength(1);
    expect(r.comparisons).toBeUndefined();
    expect(r.warnings).toBeUndefined();
  });
});
