import { describe, expect, it } from 'vitest';
import type { Comparison, EvaluationReport } from '../../../eval/interface.ts';
import { armName, findPair, pairChoices, pairLabel, policyNamesOfReport } from './comparisons-view.ts';

const comparison = (a: string, b: string, step: string, mean: number, declared: boolean): Comparison & { step: string } => ({
  a, b, taskSet: 'ID', step, declared, sessions: 6, delta: { mean, low: mean - 0.1, high: mean + 0.2 }, perGame: [{ game: 'g1', mean, low: mean - 0.3, high: mean + 0.1, sessions: 2 }],
  gameLevel: { tLow: mean - 0.5, tHigh: mean + 0.4, tP: 0.3, signFlipP: 0.25, minP: 0.25, games: 3, exact: true }, holmP: declared ? 0.5 : null, positive: false,
  power: { delta: 0.05, sessionSd: 0.1, tau: 0, seedsPerGame: 1, repeatsNow: 2, repeatsNeeded: 40, powerNow: 0.1, reason: null },
});

describe('comparison picker', () => {
  const all = [comparison('evolved', 'naive', 'eval-ID', 0.1, true), comparison('random-evolved', 'evolved', 'eval-ID', -0.04, false), comparison('evolved', 'naive', 'eval-OOD', 0.02, true)];

  it('offers every arm and step that was compared', () => {
    expect(pairChoices(all)).toEqual({ arms: ['evolved', 'naive', 'random-evolved'], scopes: ['eval-ID', 'eval-OOD'] });
  });

  it('finds a pair in either orientation, mirroring every interval, and marks a mirrored pair exploratory', () => {
    expect(findPair(all, 'evolved', 'naive', 'eval-OOD')!.delta.mean).toBe(0.02);
    const flipped = findPair(all, 'evolved', 'random-evolved', 'eval-ID')!;
    expect([flipped.a, flipped.b, flipped.step, flipped.declared, flipped.holmP]).toEqual(['evolved', 'random-evolved', 'eval-ID', false, null]);
    expect(flipped.delta.mean).toBeCloseTo(0.04, 12);
    expect(flipped.delta.low).toBeCloseTo(-0.16, 12);
    expect(flipped.delta.high).toBeCloseTo(0.14, 12);
    expect(flipped.gameLevel.tLow).toBeCloseTo(-0.36, 12);
    expect(flipped.perGame[0]).toMatchObject({ game: 'g1' });
    expect(flipped.perGame[0]!.low).toBeCloseTo(-0.06, 12);
    expect(findPair(all, 'naive', 'naive', 'eval-ID')).toBeNull();
    expect(findPair(all, 'random-evolved', 'naive', 'eval-OOD')).toBeNull();
  });
});

describe('comparison names', () => {
  const id = 'user-34a87735-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
  const report = { policies: [
    { policyId: id, policyName: 'Map first' }, { policyId: id, policyName: 'Map first' }, { policyId: 'naive', policyName: 'naive' }, { policyId: 'static' },
  ] } as unknown as Pick<EvaluationReport, 'policies'>;
  const names = policyNamesOfReport(report);

  it('maps each policy id to its name once; a policy with no name is left to its id', () => {
    expect([...names]).toEqual([[id, 'Map first'], ['naive', 'naive']]);
    expect(armName('static', names)).toBe('static');
    expect(armName(id, names)).toBe('Map first');
  });

  it('labels a pair by name, with the ids for the title; no names gives the ids', () => {
    expect(pairLabel({ a: id, b: 'naive' }, names)).toEqual({ label: 'Map first − naive', ids: `${id} − naive` });
    expect(pairLabel({ a: id, b: 'static' })).toEqual({ label: `${id} − static`, ids: `${id} − static` });
  });
});
