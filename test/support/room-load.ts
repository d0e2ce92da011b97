/**
 * A class of Yjs clients against a running room server, as the load test (test/room-load.test.ts),
 * the scale-out test (test/room-scale-out.test.ts) and `npm run bench` (bench/room-load-bench.ts)
 * drive it: students join by POST /api/join and connect read-only with `connectRoom`
 * (src/room/room-client.ts, Node's global WebSocket), submit by POST /api/submissions, and read
 * the leaderboard's inputs from their own copy of the document. An observer (the teacher's
 * connection) times when each join shows in its document.
 */
import { connectRoom, type RoomConnection } from '../../src/room/room-client.ts';
import { readRoom } from '../../src/room/room-doc.ts';
import type { JoinReply, LeaderboardRow, RoomPresence, RoundConfig, RoundPublic, RoomSnapshot, SubmissionPublic } from '../../src/room/protocol.ts';
import { leaderboard } from '../../src/room/leaderboard.ts';
import type { RoomScorer, ScorerDeps } from '../../src/room-server/seams.ts';

/** The room's HTTP origin (`http://127.0.0.1:PORT`) → its WebSocket address. */
export const wsOf = (origin: string): string => origin.replace(/^http/, 'ws');

/** The origin of a printed address (`joinUrl`). */
export const originOf = (url: string): string => new URL(url).origin;

/** A room route's reply: status and parsed JSON body. */
export interface ApiReply<T> {
  status: number;
  body: T;
}

/** Calls a room route with a bearer token (null: none) and a JSON body (`method` default: GET without a body, POST with one). */
export async function api<T>(origin: string, path: string, token: string | null, body?: unknown, method?: string): Promise<ApiReply<T>> {
  const response = await fetch(`${origin}${path}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { ...(token !== null ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T };
}

/** Same as `api`, failing on any status but 200 with the route's error text. */
export async function apiOk<T>(origin: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const reply = await api<T>(origin, path, token, body);
  if (reply.status !== 200) throw new Error(`${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** Polls `check` every 10 ms until it is true; throws `what` after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The round every load run opens: a small practice and hidden set of the teaching game. */
export const LOAD_ROUND: RoundConfig = {
  title: 'Load round',
  practiceTasks: ['lever-room:1'],
  hiddenTasks: ['lever-room:2', 'lever-room:3'],
  episodes: 2,
  steps: 4,
  repeats: 1,
  minutes: null,
};

/**
 * A scorer that scores a submission at once, W-AUC from its length (0.5 + chars / 20000), so the
 * leaderboard fills without model calls: the load runs time the room, not the evaluation runner.
 */
export function instantScorer(deps: Omit<ScorerDeps, 'llm'>): RoomScorer {
  return {
    enqueue(sub, round) {
      const n = round.hiddenTasks.length * round.repeats;
      const wauc = 0.5 + sub.text.length / 20_000;
      setImmediate(() => deps.onScore(sub.id, { status: 'scored', done: n, total: n, score: { wauc, low: wauc - 0.05, high: wauc + 0.05, n, curve: [wauc, wauc] }, message: null }));
    },
    async evolve() {},
    stopEvolution() {},
    async close() {},
  };
}

/** One joined student: its join reply, its connection, and when the observer saw it. */
export interface LoadStudent {
  join: JoinReply;
  connection: RoomConnection;
  /** ms from sending POST /api/join to the participant in the observer's document. */
  joinToVisibleMs: number;
}

/** The teacher's read-only connection, which sees every join. */
export async function connectObserver(origin: string, teacherToken: string): Promise<RoomConnection> {
  const observer = connectRoom({ url: wsOf(origin), token: teacherToken, presence: { role: 'teacher', participantId: null, name: null } });
  await observer.synced;
  return observer;
}

/**
 * Joins `count` students on `origins` (round robin), `parallel` at a time, each connected with
 * `connectRoom`; `observer` times each join's arrival in its document.
 * @throws Error when a join is refused or does not show within 30 s.
 */
export async function joinStudents(origins: string[], code: string, count: number, parallel: number, observer: RoomConnection, prefix = 'Student'): Promise<LoadStudent[]> {
  const students: LoadStudent[] = [];
  let next = 0;
  const joinOne = async (i: number): Promise<void> => {
    const origin = origins[i % origins.length]!;
    const started = performance.now();
    const join = await apiOk<JoinReply>(origin, '/api/join', null, { code, name: `${prefix} ${i + 1}` });
    await until(() => readRoom(observer.doc).participants.some((p) => p.id === join.participantId), `${join.name} in the observer's document`);
    const joinToVisibleMs = performance.now() - started;
    const presence: RoomPresence = { role: 'student', participantId: join.participantId, name: join.name };
    const connection = connectRoom({ url: wsOf(origin), token: join.token, presence });
    students[i] = { join, connection, joinToVisibleMs };
  };
  await Promise.all(Array.from({ length: parallel }, async () => {
    for (let i = next++; i < count; i = next++) await joinOne(i);
  }));
  await Promise.all(students.map((s) => s.connection.synced));
  return students;
}

/** Each student submits one text to `round` (on the origin it joined). Returns the replies in order. */
export async function submitAll(origins: string[], students: LoadStudent[], round: RoundPublic): Promise<SubmissionPublic[]> {
  return await Promise.all(students.map((s, i) =>
    apiOk<SubmissionPublic>(origins[i % origins.length]!, '/api/submissions', s.join.token, {
      roundId: round.id,
      text: `Meta-prompt of ${s.join.name}: after each episode, name the step that scored and repeat it first.`,
      clientId: `load-${s.join.participantId}`,
    }),
  ));
}

/** The leaderboard of every round as a client draws it from its own document (src/room/leaderboard.ts, the server's ranking too). */
export function boardOf(connection: RoomConnection): LeaderboardRow[] {
  const room = readRoom(connection.doc);
  return room.rounds.flatMap((round) => leaderboard(room, round.id));
}

/** True when `connection`'s document holds `submissions` submissions and its leaderboard ranks them all (each scored). */
export function seesScoredBoard(connection: RoomConnection, submissions: number): boolean {
  return readRoom(connection.doc).submissions.length === submissions && boardOf(connection).length === submissions;
}

/** The teacher's snapshot. */
export async function snapshotOf(origin: string, teacherToken: string): Promise<RoomSnapshot> {
  return await apiOk<RoomSnapshot>(origin, '/api/room', teacherToken);
}

/** The p-th percentile (0–100, nearest rank) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
