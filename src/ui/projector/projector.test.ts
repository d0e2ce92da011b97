import { describe, expect, it } from 'vitest';
import type { LeaderboardRow } from '../../room/protocol.ts';
import { NEW_BEST_MS, newBestMoments } from './projector.svelte.ts';

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
