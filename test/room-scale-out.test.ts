/**
 * Past one machine: two room servers behind one Redis (Debian's redis-server, started here on a
 * free port with nothing saved, killed after) serve one room. The Hocuspocus Redis extension
 * shares the document and presence; the Redis private state (src/room-server/redis-state.ts)
 * shares the code, tokens, submissions and usage. A participant joined on A submits, and a
 * participant on B sees that submission and A's participant's presence; the teacher on B sees A's
 * participant in GET /api/room; a participant's token works on both, and its model calls through
 * the forwarder (the mock LLM as provider) count against one cap across both; the teacher's kill
 * switch and a removal made on B hold on A (a removed participant's live connection on A closed); a
 * participant's submissions a minute are one limit across both. Every server stopped and started again comes back as
 * it was, with `--data` or without; `metattl room --redis` (a password in the URL) joins a running
 * room. No redis-server: the test fails, saying so.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomConnection } from '../src/room/room-client.ts';
import { connectRoom } from '../src/room/room-client.ts';
import { readRoom } from '../src/room/room-doc.ts';
import type { JoinReply, ParticipantView, RoomAddresses, RoundPublic, SubmissionPublic, SubmissionText } from '../src/room/protocol.ts';
import { startRoomServer } from '../src/room-server/room-server.ts';
import { createForwarder } from '../src/room-server/forwarder.ts';
import type { RunningRoom } from '../src/room-server/seams.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { BIN } from './support/cli.ts';
import { fakePageDir } from './support/room.ts';
import { REPO_ROOT } from './support/shared.ts';
import { startRedis, type RunningRedis } from './support/redis-server.ts';
import { api, apiOk, connectObserver, instantScorer, LOAD_ROUND, originOf, snapshotOf, until, wsOf } from './support/room-load.ts';

let redis: RunningRedis;
const rooms: RunningRoom[] = [];
const connections: RoomConnection[] = [];
/** The teacher's provider: the deterministic mock, with the teacher's (fake) key. */
let mock: MockLlm;
const FAKE_KEY = 'fake-test-key-conference-hall-4d2e';
const REDIS_PASSWORD = 'fake-test-key-redis-hall-9c1b';
/** Every server's log lines. */
const logs: string[] = [];

/** A room server on 127.0.0.1 sharing `redis` (document, presence and private state); `dataDir`: its copy of the document. */
async function startServer(name: string, dataDir?: string, redisUrl = redis.url): Promise<RunningRoom> {
  const room = await startRoomServer({
    ...(dataDir !== undefined ? { dataDir } : {}),
    port: 0,
    listenHost: '127.0.0.1',
    publicHost: '127.0.0.1',
    title: 'Conference hall',
    caps: { maxCalls: 2 },
    redisUrl,
    makeScorer: instantScorer,
    makeForwarder: (deps) => createForwarder({ ...deps, upstream: { kind: 'http', baseUrl: mock.baseUrl, apiKey: FAKE_KEY, models: ['mock-model'] }, prices: {} }),
    log: (line) => void logs.push(`${name}: ${line}`),
  });
  rooms.push(room);
  return room;
}

beforeAll(async () => {
  redis = await startRedis();
  mock = await startMockLlm({ apiKey: FAKE_KEY, log: () => {} });
});
/** Closes every connection and server started so far. */
async function closeAll(): Promise<void> {
  for (const c of connections.splice(0)) c.close();
  for (const room of rooms.splice(0).reverse()) await room.close();
}
/** Every server stopped, a fresh Redis, two new servers A and B of one room (with `dirs`: their `--data` folders), and a round opened on A. */
async function freshHall(dirs?: [string, string]): Promise<{ a: RunningRoom; b: RunningRoom; originA: string; originB: string; round: RoundPublic }> {
  await closeAll();
  await redis.stop();
  redis = await startRedis();
  const a = await startServer('A', dirs?.[0]);
  const b = await startServer('B', dirs?.[1]);
  const [originA, originB] = [originOf(a.addresses.joinUrl), originOf(b.addresses.joinUrl)];
  const round = await apiOk<RoundPublic>(originA, '/api/rounds', a.teacherToken, LOAD_ROUND);
  return { a, b, originA, originB, round };
}
afterAll(async () => {
  await closeAll();
  await redis?.stop();
  await mock?.close();
});

describe('two room servers behind one Redis', () => {
  it('serve one room: code, joins, submissions, presence, the teacher\'s view and actions, and caps are shared', async () => {
    const a = await startServer('A');
    const b = await startServer('B');
    const [originA, originB] = [originOf(a.addresses.joinUrl), originOf(b.addresses.joinUrl)];
    expect(originA).not.toBe(originB);
    expect(b.addresses.code).toBe(a.addresses.code);
    expect(b.teacherToken).toBe(a.teacherToken);

    const round = await apiOk<RoundPublic>(originA, '/api/rounds', a.teacherToken, LOAD_ROUND);
    const ada = await apiOk<JoinReply>(originA, '/api/join', null, { code: a.addresses.code, name: 'Ada' });
    const ben = await apiOk<JoinReply>(originB, '/api/join', null, { code: b.addresses.code, name: 'Ben' });
    const adaOnA = connectRoom({ url: wsOf(originA), token: ada.token, presence: { role: 'student', participantId: ada.participantId, name: ada.name } });
    const benOnB = connectRoom({ url: wsOf(originB), token: ben.token, presence: { role: 'student', participantId: ben.participantId, name: ben.name } });
    connections.push(adaOnA, benOnB);
    await Promise.all([adaOnA.synced, benOnB.synced]);

    const submitted = await apiOk<SubmissionPublic>(originA, '/api/submissions', ada.token, { roundId: round.id, text: 'Ada: repeat what scored.', clientId: 'ada-1' });
    await until(() => readRoom(benOnB.doc).submissions.some((s) => s.id === submitted.id), "Ada's submission (made on A) in Ben's document (on B)");
    const seenByBen = readRoom(benOnB.doc);
    // Where a text came from stays out of the shared document.
    expect(seenByBen.submissions).toEqual([{ ...submitted, source: '' }]);
    expect(seenByBen.participants.map((p) => p.name).sort()).toEqual(['Ada', 'Ben']);
    await until(() => readRoom(benOnB.doc).scores[submitted.id]?.status === 'scored', "Ada's score in Ben's document");
    await until(() => benOnB.presences().some((p) => p.participantId === ada.participantId), "Ada's presence (on A) seen by Ben (on B)");
    expect(benOnB.presences().find((p) => p.participantId === ada.participantId)).toMatchObject({ role: 'student', name: 'Ada' });

    const teacherOnB = await snapshotOf(originB, b.teacherToken);
    expect(teacherOnB.code).toBe(a.addresses.code);
    expect(teacherOnB.participants.map((p) => p.name).sort()).toEqual(['Ada', 'Ben']);
    expect(teacherOnB.submissions.map((s) => s.id)).toEqual([submitted.id]);
    const observerOnB = await connectObserver(originB, b.teacherToken);
    connections.push(observerOnB);
    await until(() => observerOnB.presences().filter((p) => p.role === 'student').length === 2, 'both students present to the teacher on B');

    // Ada's token works on B, and a resend on B of her submission is the first one (idempotent across servers).
    expect((await apiOk<ParticipantView>(originB, '/api/me', ada.token)).name).toBe('Ada');
    expect(await apiOk<SubmissionText>(originB, `/api/submissions/${submitted.id}`, ada.token)).toMatchObject({ id: submitted.id, text: 'Ada: repeat what scored.' });
    expect((await apiOk<SubmissionPublic>(originB, '/api/submissions', ada.token, { roundId: round.id, text: 'Ada: repeat what scored.', clientId: 'ada-1' })).id).toBe(submitted.id);
    expect((await api(originB, '/api/room', ada.token)).status).toBe(403);
    expect((await api(originB, '/api/join', null, { code: 'WRONG', name: 'Eve' })).status).toBe(403);

    // Caps counted across both servers (the forwarder, the mock LLM as the teacher's provider):
    // one call on A, one on B, and the third — on either — is past the cap of 2.
    const chat = { model: 'mock-model', messages: [{ role: 'user', content: 'look' }] };
    expect((await api(originA, '/v1/chat/completions', ada.token, chat)).status).toBe(200);
    await until(() => b.state.participant(ada.participantId)?.usage.calls === 1, "Ada's call on A counted on B");
    expect((await api(originB, '/v1/chat/completions', ada.token, chat)).status).toBe(200);
    await until(() => a.state.participant(ada.participantId)?.usage.calls === 2, "Ada's call on B counted on A");
    for (const origin of [originA, originB]) {
      const third = await api<{ error: { code: string; message: string } }>(origin, '/v1/chat/completions', ada.token, chat);
      expect(third.status).toBe(429);
      expect(third.body.error).toMatchObject({ code: 'call_cap_reached', message: 'You have used 2 of your 2 model calls. Ask the teacher if you need more.' });
    }
    expect((await api(originB, '/v1/chat/completions', ben.token, chat)).status).toBe(200);
    const adaOnTeacherB = (await snapshotOf(originB, b.teacherToken)).participants.find((p) => p.id === ada.participantId);
    expect(adaOnTeacherB?.usage.calls).toBe(2);
    expect(adaOnTeacherB?.usage.tokens).toBeGreaterThan(0);

    // The teacher's actions on B hold on A: the kill switch, and a removal.
    expect((await api(originB, '/api/kill', b.teacherToken, { killed: true })).status).toBe(200);
    await until(() => a.state.snapshot().settings.killedAll, "B's kill switch known to A");
    const paused = await api<{ error: { message: string } }>(originA, '/v1/chat/completions', ben.token, chat);
    expect(paused.status).toBe(429);
    expect(paused.body.error.message).toMatch(/^The teacher paused model calls\./);
    expect((await api(originB, `/api/participants/${ben.participantId}/remove`, b.teacherToken, {})).status).toBe(200);
    await until(() => a.state.participant(ben.participantId)?.removed === true, "Ben's removal (on B) known to A");
    expect((await api(originA, '/api/me', ben.token)).status).toBe(403);
    await until(() => readRoom(adaOnA.doc).participants.find((p) => p.id === ben.participantId)?.removed === true, "Ben's removal in Ada's document (on A)");
    // Cal, connected on A, removed by the teacher on B: A closes Cal's live connection, and the reconnect is refused.
    const cal = await apiOk<JoinReply>(originA, '/api/join', null, { code: a.addresses.code, name: 'Cal' });
    const refusals: string[] = [];
    const calOnA = connectRoom({ url: wsOf(originA), token: cal.token, presence: { role: 'student', participantId: cal.participantId, name: cal.name }, onRefused: (reason) => refusals.push(reason) });
    connections.push(calOnA);
    await calOnA.synced;
    expect((await api(originB, `/api/participants/${cal.participantId}/remove`, b.teacherToken, {})).status).toBe(200);
    await until(() => refusals.length > 0, "Cal's connection on A refused after the removal on B");
    expect((await api(originA, '/api/me', cal.token)).status).toBe(403);
    expect(logs.join('\n')).not.toContain(FAKE_KEY);
  }, 60_000);

  it('count one submission rate limit across both servers: the seventh in a minute is refused on either', async () => {
    const { a, b, originA, originB, round } = await freshHall();
    const dee = await apiOk<JoinReply>(originA, '/api/join', null, { code: a.addresses.code, name: 'Dee' });
    const eli = await apiOk<JoinReply>(originB, '/api/join', null, { code: a.addresses.code, name: 'Eli' });
    const submit = (origin: string, who: JoinReply, n: number) => api<{ error: string; code: string }>(origin, '/api/submissions', who.token, { roundId: round.id, text: `${who.name}'s try ${n}`, clientId: `${who.name}-${n}` });
    // Six in a minute, alternating servers: each server alone saw three.
    for (let n = 1; n <= 6; n++) expect((await submit(n % 2 ? originA : originB, dee, n)).status).toBe(200);
    for (const [origin, n] of [[originA, 7], [originB, 8]] as const) {
      const refused = await submit(origin, dee, n);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'room_too_fast' });
      expect(refused.body.error).toMatch(/^At most 6 submissions a minute: wait \d+ s\.$/);
    }
    // A resend of an accepted submission is not a new one, and another participant has their own limit.
    expect((await api<SubmissionPublic>(originB, '/api/submissions', dee.token, { roundId: round.id, text: "Dee's try 1", clientId: 'Dee-1' })).status).toBe(200);
    expect((await submit(originA, eli, 1)).status).toBe(200);
    expect((await snapshotOf(originB, b.teacherToken)).submissions.filter((s) => s.participantId === dee.participantId)).toHaveLength(6);
  }, 60_000);

  it('come back as they were when every server stops and starts again with --data (the private state in Redis)', async () => {
    const [dirA, dirB] = [mkdtempSync(join(tmpdir(), 'metattl-hall-a-')), mkdtempSync(join(tmpdir(), 'metattl-hall-b-'))];
    try {
      const { a, originA, originB, round } = await freshHall([dirA, dirB]);
      const cy = await apiOk<JoinReply>(originB, '/api/join', null, { code: a.addresses.code, name: 'Cy' });
      const sub = await apiOk<SubmissionPublic>(originB, '/api/submissions', cy.token, { roundId: round.id, text: 'Cy: keep notes.', clientId: 'cy-1' });
      const observer = await connectObserver(originA, a.teacherToken);
      await until(() => readRoom(observer.doc).scores[sub.id]?.status === 'scored', "Cy's score on A");
      observer.close();
      await closeAll();

      const again = await startServer('A again', dirA);
      expect(again.addresses.code).toBe(a.addresses.code);
      const origin = originOf(again.addresses.joinUrl);
      expect((await apiOk<ParticipantView>(origin, '/api/me', cy.token)).name).toBe('Cy');
      const back = await connectObserver(origin, again.teacherToken);
      connections.push(back);
      const room = readRoom(back.doc);
      expect(room.participants.map((p) => p.name)).toEqual(['Cy']);
      expect(room.submissions).toEqual([{ ...sub, source: '' }]);
      expect(room.scores[sub.id]?.status).toBe('scored');
      expect(room.rounds.map((r) => r.id)).toEqual([round.id]);
    } finally {
      for (const dir of [dirA, dirB]) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('metattl room --redis joins a running room: the same code and teacher link, a participant of the other server, the password never printed', async () => {
    await closeAll();
    await redis.stop();
    redis = await startRedis({ password: REDIS_PASSWORD });
    const url = `redis://:${REDIS_PASSWORD}@127.0.0.1:${redis.port}`;
    const a = await startServer('A', undefined, url);
    const eve = await apiOk<JoinReply>(originOf(a.addresses.joinUrl), '/api/join', null, { code: a.addresses.code, name: 'Eve' });
    const child = spawn(process.execPath, [BIN, 'room', '--json', '--port', '0', '--host', '127.0.0.1', '--page-dir', fakePageDir(), '--redis', url], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        void exited.then((code) => reject(new Error(`metattl room exited ${code}: ${stderr}`)));
      });
      const cli = JSON.parse(first) as RoomAddresses;
      expect(cli.code).toBe(a.addresses.code);
      expect(new URL(cli.teacherUrl).searchParams.get('teacher')).toBe(a.teacherToken);
      expect((await apiOk<ParticipantView>(`http://127.0.0.1:${cli.port}`, '/api/me', eve.token)).name).toBe('Eve');
      await until(() => stderr.includes('The room is kept in Redis'), 'the CLI saying where the room is kept');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).not.toContain(REDIS_PASSWORD);
  }, 60_000);

  it("each server's --data file keeps nothing about students after the room ends on another server", async () => {
    const [dirA, dirB] = [mkdtempSync(join(tmpdir(), 'metattl-hall-a-')), mkdtempSync(join(tmpdir(), 'metattl-hall-b-'))];
    const bytesOf = (dir: string): string => readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1')).join('');
    try {
      const { a, originA, originB, round } = await freshHall([dirA, dirB]);
      const zed = await apiOk<JoinReply>(originB, '/api/join', null, { code: a.addresses.code, name: 'Zelda Quokka' });
      await apiOk<SubmissionPublic>(originB, '/api/submissions', zed.token, { roundId: round.id, text: 'unforgettable-prompt-words', clientId: 'zed-1' });
      // Both servers have stored the document with the student in it before the end (the prompt's
      // text is not in the document: it is served over HTTP from the private state, in Redis).
      await until(() => [dirA, dirB].every((dir) => bytesOf(dir).includes('Zelda Quokka')), 'the document stored by both servers');
      expect((await api(originA, '/api/end', a.teacherToken, {})).status).toBe(200);
      await until(() => !bytesOf(dirB).includes('Zelda Quokka'), "the end reaching B, and B's file wiped");
      await closeAll();
      for (const dir of [dirA, dirB]) {
        const bytes = bytesOf(dir);
        expect(bytes).not.toContain('Zelda Quokka');
        expect(bytes).not.toContain('unforgettable-prompt-words');
      }
    } finally {
      for (const dir of [dirA, dirB]) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('write the document again from Redis when every server stopped without --data', async () => {
    const { a, originA, originB, round } = await freshHall();
    const dee = await apiOk<JoinReply>(originB, '/api/join', null, { code: a.addresses.code, name: 'Dee' });
    const kept = await apiOk<SubmissionPublic>(originB, '/api/submissions', dee.token, { roundId: round.id, text: 'Dee: one plan per episode.', clientId: 'dee-1' });
    const gone = await apiOk<SubmissionPublic>(originA, '/api/submissions', dee.token, { roundId: round.id, text: 'Dee: an aside.', clientId: 'dee-2' });
    expect(gone.version).toBe(2);
    expect((await api(originA, `/api/submissions/${gone.id}`, a.teacherToken, undefined, 'DELETE')).status).toBe(200);
    const observer = await connectObserver(originA, a.teacherToken);
    await until(() => readRoom(observer.doc).scores[kept.id]?.status === 'scored' && readRoom(observer.doc).scores[gone.id]?.status === 'removed', "Dee's scores on A");
    const before = readRoom(observer.doc);
    observer.close();
    await closeAll();

    const again = await startServer('A again');
    expect(again.addresses.code).toBe(a.addresses.code);
    const back = await connectObserver(originOf(again.addresses.joinUrl), again.teacherToken);
    connections.push(back);
    const after = readRoom(back.doc);
    expect(after.participants).toEqual(before.participants);
    expect(after.rounds).toEqual(before.rounds);
    expect(after.currentRoundId).toBe(round.id);
    expect(after.submissions).toEqual([kept, gone].map((s) => ({ ...s, source: '' })));
    expect(after.scores[kept.id]).toEqual(before.scores[kept.id]);
    expect(after.scores[gone.id]?.status).toBe('removed');
    expect(after.settings).toEqual(before.settings);
  }, 60_000);
});
