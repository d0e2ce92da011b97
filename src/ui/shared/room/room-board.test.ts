import { describe, expect, it } from 'vitest';
import type { ParticipantPublic, RoomScore, RoundPublic, ScoreState, SubmissionPublic } from '../../../room/protocol.ts';
import type { RoomState } from '../../../room/room-doc.ts';
import { currentRound, displayName, evolutionCredit, roundTasks, scoreText, scoringRows, timerText, usageCells } from './room-board.ts';

const person = (id: string, name: string, joinedAt: string, removed = false): ParticipantPublic => ({ id, name, joinedAt, removed, killed: false });
const sub = (id: string, participantId: string, version: number, at: string, roundId = 'r1'): SubmissionPublic => ({ id, participantId, roundId, version, submittedAt: at, chars: 10, source: 'written' });
const score = (wauc: number, curve: number[] = [wauc]): RoomScore => ({ wauc, low: wauc - 0.1, high: wauc + 0.1, n: 4, curve });
const scored = (wauc: number): ScoreState => ({ status: 'scored', done: 4, total: 4, score: score(wauc), message: null });
const round = (id: string, index: number, state: RoundPublic['state'] = 'open'): RoundPublic => ({
  id, index, title: `Round ${index}`, practiceTasks: ['lever-room:1'], hiddenTasks: null, hiddenTaskCount: 2, episodes: 3, steps: 10, repeats: 1, state, openedAt: '2026-01-01T10:00:00Z', endsAt: null,
});

function room(partial: Partial<RoomState>): RoomState {
  return { settings: null, currentRoundId: 'r1', ended: false, participants: [], rounds: [round('r1', 1)], submissions: [], scores: {}, evolution: null, ...partial };
}

describe('the projector words', () => {
  const people = [person('a', 'Ada', '1'), person('b', 'Bo', '2')];
  it('hides names as "Participant n" in join order', () => {
    expect(displayName(people, 'b', true)).toBe('Participant 2');
    expect(displayName(people, 'b', false)).toBe('Bo');
    expect(displayName(people, 'zz', true)).toBe('A participant');
  });

  it('says a score with its interval and n', () => {
    expect(scoreText({ wauc: 0.625, low: 0.5, high: 0.75, n: 6, curve: [] })).toBe('0.63 (95 % CI 0.50–0.75, n = 6 sessions)');
    expect(scoreText({ wauc: 1, low: 1, high: 1, n: 1, curve: [] })).toBe('1.00 (n = 1 session, no interval)');
  });

  it('counts the timer down in m:ss, never below 0:00', () => {
    const end = '2026-01-01T10:10:00.000Z';
    expect(timerText(end, Date.parse('2026-01-01T10:07:55.500Z'))).toBe('2:05');
    expect(timerText(end, Date.parse('2026-01-01T10:11:00Z'))).toBe('0:00');
    expect(timerText(null, 0)).toBeNull();
  });

  it('shows the current round, else the latest', () => {
    expect(currentRound(room({ rounds: [round('r1', 1), round('r2', 2)], currentRoundId: 'r1' }))?.id).toBe('r1');
    expect(currentRound(room({ rounds: [round('r1', 1), round('r2', 2)], currentRoundId: null }))?.id).toBe('r2');
    expect(currentRound(room({ rounds: [], currentRoundId: null }))).toBeNull();
  });

  it('lists the submissions queued or being scored with their progress and running curve', () => {
    const state = room({ participants: people, submissions: [sub('s1', 'a', 1, '1'), sub('s2', 'b', 1, '2'), sub('s3', 'b', 2, '3')],
      scores: { s1: scored(0.5), s2: { status: 'scoring', done: 2, total: 4, score: { ...score(0.3), curve: [0.2, 0.4] }, message: null }, s3: { status: 'queued', done: 0, total: 4, score: null, message: null } } });
    expect(scoringRows(state, 'r1')).toEqual([
      { submissionId: 's2', participantId: 'b', version: 1, status: 'scoring', done: 2, total: 4, curve: [0.2, 0.4] },
      { submissionId: 's3', participantId: 'b', version: 2, status: 'queued', done: 0, total: 4, curve: [] },
    ]);
  });

  it("credits the participants the evolution's best descends from, in join order", () => {
    const state = room({ participants: [...people, person('c', 'Cy', '3')], evolution: {
      roundId: 'r1', state: 'running', budget: 10, used: 3, curve: [0.4, 0.6], bestCandidateId: 'c3', message: null,
      candidates: [
        { id: 'c1', parentIds: [], originParticipantId: 'c', creditParticipantIds: ['c'], wauc: 0.4, accepted: true },
        { id: 'c2', parentIds: [], originParticipantId: 'a', creditParticipantIds: ['a'], wauc: 0.3, accepted: true },
        { id: 'c3', parentIds: ['c1', 'c2'], originParticipantId: null, creditParticipantIds: ['c', 'a'], wauc: 0.6, accepted: true },
      ] } });
    expect(evolutionCredit(state)).toEqual(['a', 'c']);
    expect(evolutionCredit(room({}))).toEqual([]);
  });
});

describe('roundTasks', () => {
  it('crosses stories with seeds and ranges, without repeats', () => {
    expect(roundTasks(['lever-room', 'vault'], '1, 3-4 3')).toEqual(['lever-room:1', 'lever-room:3', 'lever-room:4', 'vault:1', 'vault:3', 'vault:4']);
    expect(roundTasks([], '1')).toEqual([]);
  });

  it('names a bad part', () => {
    expect(() => roundTasks(['vault'], '1, x')).toThrow('"x" is not a seed');
    expect(() => roundTasks(['vault'], '5-2')).toThrow('runs backwards');
    expect(() => roundTasks(['vault'], '0-200')).toThrow('At most 100 seeds');
  });
});

describe("a participant's usage for the teacher", () => {
  it('shows calls, tokens and cost as they are when nothing was estimated, and "—" without a price', () => {
    expect(usageCells({ calls: 3, tokens: 1200, usd: 0.0125 })).toEqual({ calls: '3', tokens: '1200', cost: '$0.0125', estimated: null });
    expect(usageCells({ calls: 1, tokens: 10, usd: null }).cost).toBe('—');
  });

  it('marks tokens and cost with "~" and says how many calls were estimated', () => {
    expect(usageCells({ calls: 5, tokens: 900, usd: 0.002, estimatedCalls: 2 })).toEqual({ calls: '5', tokens: '~900', cost: '~$0.0020', estimated: '2 of 5 calls estimated' });
    expect(usageCells({ calls: 1, tokens: 40, usd: null, estimatedCalls: 1 }).estimated).toBe('1 of 1 call estimated');
  });
});
