/**
 * The room server's shared document through real Hocuspocus connections (src/room/room-client.ts
 * over Node's WebSocket): every client is read-only (its writes never reach anyone), presence
 * identity comes from the token, an unknown token is refused, hidden tasks and submission texts
 * stay out of the document until the reveal, a removed participant is disconnected, and a restart
 * with `--data` brings back the code, the tokens, participants, rounds and submissions; closing the
 * room closes its clients' connections at once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RoomPresence, RoomSnapshot } from '../src/room/protocol.ts';
import { connectRoom, type RoomConnection } from '../src/room/room-client.ts';
import { readRoom, RoomDocWriter } from '../src/room/room-doc.ts';
import { startTestRoom, type TestRoom } from './support/room.ts';

const ROUND = { title: 'R', practiceTasks: ['lever-room:1'], hiddenTasks: ['secret-story:7'], episodes: 2, steps: 10, repeats: 1, minutes: null };
const open: RoomConnection[] = [];
const rooms: TestRoom[] = [];

afterEach(async () => {
  for (const c of open.splice(0)) c.close();
  for (const r of rooms.splice(0)) await r.room.close();
});

async function room(options = {}): Promise<TestRoom> {
  const t = await startTestRoom(options);
  rooms.push(t);
  return t;
}

function connect(t: TestRoom, token: string, presence: RoomPresence, onRefused?: (reason: string) => void): RoomConnection {
  const c = connectRoom({ url: t.wsUrl, token, presence, ...(onRefused ? { onRefused } : {}) });
  open.push(c);
  return c;
}

const until = async (check: () => boolean, ms = 5000): Promise<void> => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function joinRoom(t: TestRoom, name: string): Promise<{ participantId: string; token: string }> {
  return (await t.call('POST', '/api/join', { body: { code: t.room.addresses.code, name } })).json as { participantId: string; token: string };
}

describe('the shared document', () => {
  it('is read-only for every client: a student\'s write reaches neither the server nor another client', async () => {
    const t = await room();
    const ada = await joinRoom(t, 'Ada');
    const student = connect(t, ada.token, { role: 'student', participantId: null, name: null });
    const projector = connect(t, new URL(t.room.addresses.projectorUrl).searchParams.get('projector')!, { role: 'projector', participantId: null, name: null });
    await Promise.all([student.synced, projector.synced]);
    expect(readRoom(student.doc).participants.map((p) => p.name)).toEqual(['Ada']);
    new RoomDocWriter(student.doc).putParticipant({ id: 'p-forged', name: 'Forged', joinedAt: '2020-01-01T00:00:00.000Z', removed: false, killed: false });
    new RoomDocWriter(student.doc).setSettings({ title: 'Hacked', namesHidden: false, killedAll: false, caps: { maxCalls: null, maxTokens: null, maxUsd: null, opensAt: null, closesAt: null } });
    await joinRoom(t, 'Bob');
    await until(() => readRoom(projector.doc).participants.length === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(readRoom(projector.doc).participants.map((p) => p.name)).toEqual(['Ada', 'Bob']);
    expect(readRoom(projector.doc).settings?.title).toBe('Workshop room');
    const late = connect(t, t.room.teacherToken, { role: 'teacher', participantId: null, name: null });
    await late.synced;
    expect(readRoom(late.doc).participants.map((p) => p.id)).not.toContain('p-forged');
  });

  it('refuses a connection with an unknown token', async () => {
    const t = await room();
    let refused = '';
    connect(t, 'fake-test-key-not-a-room-token', { role: 'student', participantId: null, name: null }, (reason) => (refused = reason));
    await until(() => refused !== '');
    expect(refused).not.toBe('');
  });

  it('overwrites presence identity from the token and keeps only a bounded activity', async () => {
    const t = await room();
    const ada = await joinRoom(t, 'Ada');
    const projector = connect(t, new URL(t.room.addresses.projectorUrl).searchParams.get('projector')!, { role: 'projector', participantId: null, name: null });
    const student = connect(t, ada.token, { role: 'teacher', participantId: 'p-someone-else', name: 'Mallory', activity: 'writing' });
    await Promise.all([student.synced, projector.synced]);
    await until(() => projector.presences().some((p) => p.role === 'student'));
    expect(projector.presences().find((p) => p.role === 'student')).toEqual({ role: 'student', participantId: ada.participantId, name: 'Ada', activity: 'writing' });
    expect(projector.presences().find((p) => p.role === 'projector')).toEqual({ role: 'projector', participantId: null, name: null });
    student.setActivity(`learn\u0000${'x'.repeat(100)}`);
    await until(() => projector.presences().find((p) => p.role === 'student')?.activity?.startsWith('learn') === true);
    expect(projector.presences().find((p) => p.role === 'student')!.activity).toBe(`learn ${'x'.repeat(34)}`);
  });

  it('holds no hidden task and no submission text before the reveal; the reveal adds the hidden tasks', async () => {
    const t = await room();
    const ada = await joinRoom(t, 'Ada');
    const roundId = (await t.call('POST', '/api/rounds', { token: t.room.teacherToken, body: ROUND })).json.id as string;
    await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'my very private idea', clientId: 'c1' } });
    const student = connect(t, ada.token, { role: 'student', participantId: null, name: null });
    await student.synced;
    await until(() => readRoom(student.doc).submissions.length === 1);
    const text = JSON.stringify(student.doc.toJSON());
    expect(text).not.toContain('secret-story');
    expect(text).not.toContain('my very private idea');
    expect(text).not.toContain(ada.token);
    await t.call('POST', `/api/rounds/${roundId}/reveal`, { token: t.room.teacherToken });
    await until(() => readRoom(student.doc).rounds[0]?.state === 'revealed');
    expect(readRoom(student.doc).rounds[0]!.hiddenTasks).toEqual(['secret-story:7']);
  });

  it('disconnects a removed participant and refuses its reconnection', async () => {
    const t = await room();
    const ada = await joinRoom(t, 'Ada');
    let refused = '';
    const student = connect(t, ada.token, { role: 'student', participantId: null, name: null }, (reason) => (refused = reason));
    await student.synced;
    await t.call('POST', `/api/participants/${ada.participantId}/remove`, { token: t.room.teacherToken });
    await until(() => refused !== '', 10_000);
    expect(refused).not.toBe('');
  });
});

describe('closing the room', () => {
  it('closes its clients\' connections at once (a room stopped with the class connected does not wait for their timeout)', async () => {
    const t = await startTestRoom();
    const ada = await joinRoom(t, 'Ada');
    const statuses: string[] = [];
    const student = connectRoom({ url: t.wsUrl, token: ada.token, presence: { role: 'student', participantId: null, name: null }, onStatus: (s) => statuses.push(s) });
    open.push(student);
    await student.synced;
    const started = Date.now();
    await t.room.close();
    expect(Date.now() - started).toBeLessThan(3000);
    await until(() => statuses.at(-1) === 'disconnected', 3000);
  });
});

describe('a restart with --data', () => {
  it('keeps the code, the tokens, participants, rounds, submissions, settings and the document', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'room-data-'));
    const first = await startTestRoom({ dataDir });
    const ada = await joinRoom(first, 'Ada');
    const roundId = (await first.call('POST', '/api/rounds', { token: first.room.teacherToken, body: ROUND })).json.id as string;
    const sub = (await first.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'kept across restarts', clientId: 'c1' } })).json;
    await first.call('PATCH', '/api/settings', { token: first.room.teacherToken, body: { namesHidden: true } });
    await first.call('POST', '/api/kill', { token: first.room.teacherToken, body: { killed: true } });
    const { code, teacherUrl, projectorUrl } = first.room.addresses;
    await first.room.close();

    const second = await room({ dataDir });
    expect(second.room.addresses.code).toBe(code);
    expect(new URL(second.room.addresses.teacherUrl).searchParams.get('teacher')).toBe(new URL(teacherUrl).searchParams.get('teacher'));
    expect(new URL(second.room.addresses.projectorUrl).searchParams.get('projector')).toBe(new URL(projectorUrl).searchParams.get('projector'));
    expect((await second.call('GET', '/api/me', { token: ada.token })).json).toMatchObject({ id: ada.participantId, name: 'Ada' });
    expect((await second.call('GET', `/api/submissions/${sub.id as string}`, { token: ada.token })).json.text).toBe('kept across restarts');
    const again = await second.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'resent after reconnect', clientId: 'c1' } });
    expect(again.json).toEqual(sub);
    const snap = (await second.call('GET', '/api/room', { token: second.room.teacherToken })).json as unknown as RoomSnapshot;
    expect(snap.rounds.map((r) => [r.id, r.state])).toEqual([[roundId, 'open']]);
    expect(snap.settings).toMatchObject({ namesHidden: true, killedAll: true });
    expect(snap.submissions.map((s) => s.id)).toEqual([sub.id]);
    const student = connect(second, ada.token, { role: 'student', participantId: null, name: null });
    await student.synced;
    await until(() => readRoom(student.doc).submissions.length === 1);
    expect(readRoom(student.doc)).toMatchObject({ currentRoundId: roundId, participants: [{ name: 'Ada' }], settings: { namesHidden: true } });
  });

  it('rebuilds the document from the private state when the stored document lags behind (a crash before its store)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'room-data-'));
    const first = await startTestRoom({ dataDir });
    const ada = await joinRoom(first, 'Ada');
    const roundId = (await first.call('POST', '/api/rounds', { token: first.room.teacherToken, body: ROUND })).json.id as string;
    const kept = (await first.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'one', clientId: 'c1' } })).json.id as string;
    const removed = (await first.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'two', clientId: 'c2' } })).json.id as string;
    await first.call('DELETE', `/api/submissions/${removed}`, { token: first.room.teacherToken });
    await first.room.close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(join(dataDir, 'room.sqlite'));
    db.exec('DELETE FROM documents');
    db.close();

    const second = await room({ dataDir });
    const student = connect(second, ada.token, { role: 'student', participantId: null, name: null });
    await student.synced;
    await until(() => readRoom(student.doc).submissions.length === 2);
    const state = readRoom(student.doc);
    expect(state).toMatchObject({ currentRoundId: roundId, participants: [{ name: 'Ada' }], rounds: [{ id: roundId, hiddenTasks: null }], settings: { title: 'Workshop room' } });
    expect(state.submissions.map((s) => s.id)).toEqual([kept, removed]);
    expect(state.scores[removed]?.status).toBe('removed');
  });

  it('after the end keeps nothing about students in the data folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'room-data-'));
    const first = await startTestRoom({ dataDir });
    const ada = await joinRoom(first, 'Zelda Quokka');
    const roundId = (await first.call('POST', '/api/rounds', { token: first.room.teacherToken, body: ROUND })).json.id as string;
    await first.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'unforgettable-prompt-words', clientId: 'c1' } });
    await first.call('POST', '/api/end', { token: first.room.teacherToken });
    await first.room.close();
    const { readFileSync, readdirSync } = await import('node:fs');
    const bytes = readdirSync(dataDir).map((f) => readFileSync(join(dataDir, f)).toString('latin1')).join('');
    expect(bytes).not.toContain('Zelda Quokka');
    expect(bytes).not.toContain('unforgettable-prompt-words');
  });

  it('started again on an ended room\'s data folder, opens a new room there with a new code and says so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'room-data-'));
    const first = await startTestRoom({ dataDir });
    const oldCode = first.room.addresses.code;
    await joinRoom(first, 'Ada');
    await first.call('POST', '/api/rounds', { token: first.room.teacherToken, body: ROUND });
    await first.call('POST', '/api/end', { token: first.room.teacherToken });
    await first.room.close();
    const lines: string[] = [];
    const second = await room({ dataDir, log: (line: string) => lines.push(line) });
    expect(second.room.addresses.code).not.toBe(oldCode);
    expect(second.room.teacherToken).not.toBe(first.room.teacherToken);
    expect(lines).toContain(`The room ${oldCode} kept in ${dataDir} has ended: starting a new room there, with a new code and new links.`);
    expect(lines).toContain(`room ${second.room.addresses.code} listening on port ${second.room.addresses.port}`);
    expect((await second.call('GET', '/api/info')).json).toMatchObject({ joinable: true });
    expect((await second.call('POST', '/api/join', { body: { code: oldCode, name: 'Bo' } })).status).toBe(403);
    const bo = (await second.call('POST', '/api/join', { body: { code: second.room.addresses.code, name: 'Bo' } })).json as { participantId: string };
    const snapshot = (await second.call('GET', '/api/room', { token: second.room.teacherToken })).json as unknown as RoomSnapshot;
    expect(snapshot.participants.map((p) => [p.id, p.name])).toEqual([[bo.participantId, 'Bo']]);
    expect(snapshot.rounds).toEqual([]);
    await second.room.close();
    // The new room is kept like any other: a third start restores it.
    const third = await room({ dataDir });
    expect(third.room.addresses.code).toBe(second.room.addresses.code);
  });
});
