import { describe, expect, it } from 'vitest';
import { finalResults } from '../../room/leaderboard.ts';
import type { LeaderboardRow } from '../../room/protocol.ts';
import { person, roomState, ROUND, submitted } from '../../../test/support/room-state.ts';
import { ciText, NEW_BEST_MS, newBestMoments } from './projector.svelte.ts';

const row = (participantId: string, wauc: number): LeaderboardRow => ({ roundId: 'r1', participantId, name: participantId, submissionId: `${participantId}-${wauc}`, version: 1, score: { wauc, low: wauc, high: wauc, n: 1, curve: [] }, rank: 1 });

describe('newBestMoments', () => {
  it('marks improvements for NEW_BEST_MS, none on the first snapshot or a new round', () => {
    const before = { roundId: 'r1', rows: [row('a', 0.5)] };
    const after = { roundId: 'r1', rows: [row('a', 0.6), row('b', 0.2)] };
    expect(newBestMoments(before, after, 1000)).toEqual([{ participantId: 'a', wauc: 0.6, until: 1000 + NEW_BEST_MS }, { participantId: 'b', wauc: 0.2, until: 1000 + NEW_BEST_MS }]);
    expect(newBestMoments(null, after, 1000)).toEqual([]);
    expect(newBestMoments({ roundId: 'r0', rows: [] }, after, 1000)).toEqual([]);
    expect(newBestMoments(after, after, 1000)).toEqual([]);
  });
});

describe('ciText', () => {
  it('says "no interval" for one session and the interval with n otherwise', () => {
    expect(ciText({ wauc: 0.27, low: 0.27, high: 0.27, n: 1, curve: [] })).toBe('n = 1 (no interval)');
    expect(ciText({ wauc: 0.62, low: 0.55, high: 0.7, n: 6, curve: [] })).toBe('0.55–0.70 · n = 6');
  });
});

describe('finalResults (what the projector shows after the end)', () => {
  const people = [person('p1', 'Ada'), person('p2', 'Grace'), person('p3', 'Left early', true)];
  const subs = [submitted('s1', 'p1', 1, 0, 0.4), submitted('s2', 'p2', 1, 1, 0.6), submitted('s3', 'p3', 1, 2, 0.9), submitted('s4', 'p1', 2, 3, 'scoring')];
  it('keeps each round with scores, ranked, with names as shown and no text', () => {
    const state = roomState(people, subs, [ROUND, { ...ROUND, id: 'r2', index: 2, title: 'Unscored' }]);
    const final = finalResults(state, '2026-12-06T22:00:00.000Z');
    expect(final.rounds.map((r) => [r.id, r.title, r.rows.map((row) => [row.rank, row.name, row.score.wauc])])).toEqual([['r1', 'Levers', [[1, 'Grace', 0.6], [2, 'Ada', 0.4]]]]);
    expect(final).toMatchObject({ endedAt: '2026-12-06T22:00:00.000Z', names: { p1: 'Ada', p2: 'Grace' }, evolution: null, credit: [] });
  });
  it('shows "Participant n" when names are hidden', () => {
    const state = roomState(people, subs);
    const final = finalResults({ ...state, settings: { ...state.settings!, namesHidden: true } }, '2026-12-06T22:00:00.000Z');
    expect(final.rounds[0]!.rows.map((row) => row.name)).toEqual(['Participant 2', 'Participant 1']);
    expect(JSON.stringify(final)).not.toContain('Grace');
  });
});
