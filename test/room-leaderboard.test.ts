/**
 * The room's leaderboard: each participant's best scored submission of a round, ranked with ties
 * sharing a rank and broken in order by the earlier submission; removed participants, removed or
 * unscored submissions left out; and the projector's "new best" moments.
 */
import { describe, expect, it } from 'vitest';
import { leaderboard, newBests } from '../src/room/leaderboard.ts';
import { person, roomState, ROUND, submitted } from './support/room-state.ts';

const people = [person('p1', 'Ada'), person('p2', 'Grace'), person('p3', 'Alan'), person('p4', 'Edsger', true)];

describe('the leaderboard', () => {
  it('keeps each participant\'s best scored submission and ranks 1…n, equal W-AUCs sharing a rank, the earlier submission first', () => {
    const state = roomState(people, [
      submitted('s1', 'p1', 1, 0, 0.2), submitted('s2', 'p1', 2, 5, 0.5), submitted('s3', 'p1', 3, 9, 0.3),
      submitted('s4', 'p2', 1, 3, 0.5), submitted('s5', 'p3', 1, 1, 0.7), submitted('s6', 'p3', 2, 8, 0.7),
    ]);
    const rows = leaderboard(state, 'r1');
    expect(rows.map((r) => [r.rank, r.name, r.submissionId, r.version, r.score.wauc])).toEqual([
      [1, 'Alan', 's5', 1, 0.7], // Alan's two 0.7s: the earlier (version 1) is his best
      [2, 'Grace', 's4', 1, 0.5], // Grace submitted her 0.5 at :13, before Ada's at :15
      [2, 'Ada', 's2', 2, 0.5],
    ]);
    expect(rows.every((r) => r.roundId === 'r1')).toBe(true);
  });

  it('leaves out removed participants, removed, failed, queued and scoring submissions, and other rounds', () => {
    const other = submitted('s9', 'p2', 1, 0, 0.99);
    other.sub.roundId = 'r2';
    const state = roomState(people, [
      submitted('s1', 'p1', 1, 0, 'removed'), submitted('s2', 'p2', 1, 0, 'failed'), submitted('s3', 'p3', 1, 0, 'scoring'),
      submitted('s4', 'p4', 1, 0, 0.9), submitted('s5', 'p1', 2, 1, 0.1), submitted('s6', 'p3', 2, 1, 'queued'), other,
    ], [ROUND, { ...ROUND, id: 'r2', index: 2 }]);
    expect(leaderboard(state, 'r1').map((r) => [r.rank, r.name, r.score.wauc])).toEqual([[1, 'Ada', 0.1]]);
    expect(leaderboard(state, 'r2').map((r) => [r.rank, r.name])).toEqual([[1, 'Grace']]);
    expect(leaderboard(state, 'nope')).toEqual([]);
  });

  it('three equal W-AUCs share rank 1 and the next is 4', () => {
    const state = roomState([...people.slice(0, 3), person('p5', 'Barbara')], [
      submitted('a', 'p1', 1, 2, 0.4), submitted('b', 'p2', 1, 1, 0.4), submitted('c', 'p3', 1, 3, 0.4), submitted('d', 'p5', 1, 0, 0.3),
    ]);
    expect(leaderboard(state, 'r1').map((r) => [r.rank, r.name])).toEqual([[1, 'Grace'], [1, 'Ada'], [1, 'Alan'], [4, 'Barbara']]);
  });
});

describe('new bests for the projector', () => {
  it('names a participant whose best rose, a newcomer, and the new leader; not a lower or unchanged one', () => {
    const before = leaderboard(roomState(people, [submitted('s1', 'p1', 1, 0, 0.4), submitted('s2', 'p2', 1, 1, 0.3)]), 'r1');
    const after = leaderboard(roomState(people, [
      submitted('s1', 'p1', 1, 0, 0.4), submitted('s2', 'p2', 1, 1, 0.3), submitted('s3', 'p2', 2, 2, 0.6), submitted('s4', 'p3', 1, 3, 0.2), submitted('s5', 'p1', 2, 4, 0.35),
    ]), 'r1');
    expect(newBests(before, after)).toEqual([
      { roundId: 'r1', participantId: 'p2', name: 'Grace', submissionId: 's3', wauc: 0.6, previousWauc: 0.3, top: true },
      { roundId: 'r1', participantId: 'p3', name: 'Alan', submissionId: 's4', wauc: 0.2, previousWauc: null, top: false },
    ]);
    expect(newBests(after, after)).toEqual([]);
    expect(newBests([], before).map((b) => [b.name, b.top])).toEqual([['Ada', true], ['Grace', false]]);
  });
});
