/**
 * Test support: a room's document snapshot (room-doc.ts `RoomState`) built from short descriptions
 * — participants, one round, submissions with their scores — for the leaderboard and export tests.
 */
import type { ParticipantPublic, RoomScore, RoundPublic, ScoreState, SubmissionPublic } from '../../src/room/protocol.ts';
import type { RoomState } from '../../src/room/room-doc.ts';

export const ROUND: RoundPublic = {
  id: 'r1', index: 1, title: 'Levers', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2', 'vault:1'], hiddenTaskCount: 2,
  episodes: 3, steps: 10, repeats: 2, state: 'open', openedAt: '2026-12-06T21:00:00.000Z', endsAt: null,
};

export const person = (id: string, name: string, removed = false): ParticipantPublic => ({ id, name, joinedAt: `2026-12-06T21:00:0${id.slice(-1)}.000Z`, removed, killed: false });

export const score = (wauc: number, n = 4): RoomScore => ({ wauc, low: Math.max(0, wauc - 0.1), high: Math.min(1, wauc + 0.1), n, curve: [wauc / 2, wauc, wauc * 1.5] });

/** A submission of `participantId` at minute `minute` past 21:10 with `state` (a number: scored with that W-AUC). */
export function submitted(id: string, participantId: string, version: number, minute: number, state: number | ScoreState['status']): { sub: SubmissionPublic; score: ScoreState } {
  const sub: SubmissionPublic = { id, participantId, roundId: 'r1', version, submittedAt: `2026-12-06T21:${String(10 + minute).padStart(2, '0')}:00.000Z`, chars: 20, source: 'written' };
  const scoreState: ScoreState = typeof state === 'number'
    ? { status: 'scored', done: 4, total: 4, score: score(state), message: null }
    : { status: state, done: 0, total: 4, score: null, message: state === 'failed' ? 'The provider refused the key.' : null };
  return { sub, score: scoreState };
}

export function roomState(participants: ParticipantPublic[], subs: ReturnType<typeof submitted>[], rounds: RoundPublic[] = [ROUND]): RoomState {
  return {
    settings: { title: 'Friday class', namesHidden: false, caps: { maxCalls: null, maxTokens: null, maxUsd: null, opensAt: null, closesAt: null }, killedAll: false },
    currentRoundId: 'r1', ended: false, participants, rounds, submissions: subs.map((s) => s.sub),
    scores: Object.fromEntries(subs.map((s) => [s.sub.id, s.score])), evolution: null,
  };
}
