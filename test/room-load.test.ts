/**
 * One room server holds a class of 100: 100 Yjs clients (`connectRoom`, Node's WebSocket) join by
 * POST /api/join, each submits once, and every client's document ends with all 100 participants,
 * 100 submissions and their scores, and draws from them the teacher's leaderboard (every
 * participant ranked); no request fails. Correctness only: `npm run bench`
 * (bench/room-load-bench.ts) times the same run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomConnection } from '../src/room/room-client.ts';
import { readRoom } from '../src/room/room-doc.ts';
import type { RoundPublic } from '../src/room/protocol.ts';
import { startRoomServer } from '../src/room-server/room-server.ts';
import type { RunningRoom } from '../src/room-server/seams.ts';
import { apiOk, boardOf, connectObserver, instantScorer, joinStudents, LOAD_ROUND, originOf, seesScoredBoard, snapshotOf, submitAll, until, type LoadStudent } from './support/room-load.ts';

const CLASS = 100;
let room: RunningRoom;
let origin: string;
let observer: RoomConnection;
let students: LoadStudent[] = [];

beforeAll(async () => {
  room = await startRoomServer({ port: 0, listenHost: '127.0.0.1', publicHost: '127.0.0.1', makeScorer: instantScorer });
  origin = originOf(room.addresses.joinUrl);
  observer = await connectObserver(origin, room.teacherToken);
});
afterAll(async () => {
  for (const s of students) s.connection.close();
  observer?.close();
  await room?.close();
});

describe('a room of 100', () => {
  it('shows every join, every submission and its score to every client', async () => {
    const round = await apiOk<RoundPublic>(origin, '/api/rounds', room.teacherToken, LOAD_ROUND);
    students = await joinStudents([origin], room.addresses.code, CLASS, 10, observer);
    expect(students).toHaveLength(CLASS);
    expect(new Set(students.map((s) => s.join.participantId)).size).toBe(CLASS);
    const present = readRoom(observer.doc).participants;
    expect(present.map((p) => p.name).sort()).toEqual(students.map((s) => s.join.name).sort());
    await until(() => observer.presences().filter((p) => p.role === 'student').length === CLASS, 'every student present to the observer');
    expect(new Set(observer.presences().map((p) => p.participantId).filter((id) => id !== null))).toEqual(new Set(students.map((s) => s.join.participantId)));

    const submitted = await submitAll([origin], students, round);
    expect(submitted.map((s) => s.participantId)).toEqual(students.map((s) => s.join.participantId));
    expect(submitted.every((s) => s.version === 1 && s.roundId === round.id)).toBe(true);
    await until(() => [observer, ...students.map((s) => s.connection)].every((c) => seesScoredBoard(c, CLASS)), 'all 100 scored submissions in every client');

    const mine = readRoom(students[41]!.connection.doc);
    expect(mine.participants).toHaveLength(CLASS);
    expect(new Set(mine.submissions.map((s) => s.id))).toEqual(new Set(submitted.map((s) => s.id)));
    const snapshot = await snapshotOf(origin, room.teacherToken);
    expect(snapshot.participants).toHaveLength(CLASS);
    expect(snapshot.submissions).toHaveLength(CLASS);
    expect(snapshot.leaderboard).toHaveLength(CLASS);
    expect(snapshot.leaderboard.map((r) => r.rank)[0]).toBe(1);
    // Every client draws the teacher's leaderboard from its own document, row for row in the same order.
    for (const s of students) expect(boardOf(s.connection)).toEqual(snapshot.leaderboard);
    expect(new Set(snapshot.leaderboard.map((r) => r.participantId))).toEqual(new Set(students.map((s) => s.join.participantId)));
  }, 120_000);
});
