/**
 * The scorer inside a running room: two students submit through the room's route, the room server
 * scores them on the hidden lever-room task against the deterministic mock (the scorer made by
 * `roomScorerMaker`, as `metattl room` makes it), and the teacher's leaderboard ranks them by the
 * scores the scorer published; a room restarted on the same data dir re-publishes them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomSnapshot } from '../src/room/protocol.ts';
import { roomScorerMaker } from '../src/room-server/scoring.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { startTestRoom, type TestRoom } from './support/room.ts';
import { LEVER_COMMANDS, roomLlm } from './support/room-scoring.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: LEVER_COMMANDS });
});
afterAll(() => mock.close());

const ROUND = { title: 'Levers', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2'], episodes: 3, steps: 6, repeats: 2, minutes: null };

async function until(t: TestRoom, teacher: string, test: (room: RoomSnapshot) => boolean): Promise<RoomSnapshot> {
  for (let i = 0; i < 600; i++) {
    const room = (await t.call('GET', '/api/room', { token: teacher })).json as unknown as RoomSnapshot;
    if (test(room)) return room;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('the room never got there');
}

describe('scoring in a running room', () => {
  it('scores both students\' submissions and ranks them on the teacher\'s leaderboard; a restart re-publishes the scores', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'metattl-room-data-'));
    const makeScorer = await roomScorerMaker({ llm: roomLlm(mock.baseUrl), contextWindow: 8000, dataDir });
    const t = await startTestRoom({ makeScorer, dataDir });
    const teacher = t.room.teacherToken;
    const join1 = async (name: string) => (await t.call('POST', '/api/join', { body: { code: t.room.addresses.code, name } })).json as { token: string; participantId: string };
    const [ada, alan] = [await join1('Ada'), await join1('Alan')];
    const roundId = (await t.call('POST', '/api/rounds', { token: teacher, body: ROUND })).json.id as string;
    for (const [who, text] of [[ada, 'Keep the lever order that scored and say it first.'], [alan, 'Try one new lever each episode.']] as const) {
      expect((await t.call('POST', '/api/submissions', { token: who.token, body: { roundId, text, clientId: `c-${who.participantId}` } })).status).toBe(200);
    }
    const room = await until(t, teacher, (r) => r.submissions.length === 2 && r.submissions.every((s) => s.score?.status === 'scored'));
    expect(room.submissions.map((s) => [s.score!.done, s.score!.total, s.score!.score!.n])).toEqual([[2, 2, 2], [2, 2, 2]]);
    const board = room.leaderboard.filter((r) => r.roundId === roundId);
    expect(board.map((r) => r.name).sort()).toEqual(['Ada', 'Alan']);
    for (const row of board) expect(row.score).toEqual(room.submissions.find((s) => s.id === row.submissionId)!.score!.score);
    expect(board[0]!.score.wauc).toBeGreaterThanOrEqual(board[1]!.score.wauc);
    await t.room.close();

    const again = await startTestRoom({ makeScorer: await roomScorerMaker({ llm: roomLlm(mock.baseUrl), contextWindow: 8000, dataDir }), dataDir });
    const calls = mock.requests.length;
    const restored = await until(again, again.room.teacherToken, (r) => r.submissions.length === 2 && r.submissions.every((s) => s.score?.status === 'scored'));
    expect(restored.leaderboard).toEqual(room.leaderboard);
    expect(mock.requests.length).toBe(calls);
    await again.room.close();
  });
});
