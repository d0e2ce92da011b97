/**
 * The student's room, its pure parts and its state against fakes: the join link and when the page
 * asks its origin, the kept identity, the outbox (kept before sending, sent once on reconnect,
 * refused ones dropped with their reason), the standing (my versions, best per participant ranked,
 * timer and score words), refusals in plain words, and the state's join → submit offline →
 * reconnect → sent once, with the page's LLM settings switched to the room and back.
 */
import { describe, expect, it } from 'vitest';
import type { RoomConnection, RoomConnectionOptions } from '../../room/room-client.ts';
import type { RoomState } from '../../room/room-doc.ts';
import type { JoinReply, ParticipantPublic, RoundPublic, ScoreState, SubmissionPublic, SubmitRequest } from '../../room/protocol.ts';
import type { RoomProvider } from '../shared/state/llm-settings.ts';
import { RoomApi, RoomCallError, type Fetch } from './room-api.ts';
import { IDENTITY_KEY, loadIdentity, roomCodeOf, saveIdentity, shouldProbe, socketUrlOf } from './room-identity.ts';
import { Outbox, OUTBOX_KEY } from './room-outbox.ts';
import { leaderboard } from '../../room/leaderboard.ts';
import { mySubmissions, practiceTarget, roundHeading, roundTimerText, scoreStateText, scoreText, timerText } from './room-standing.ts';
import { RoomStudentState, type PracticeRequest } from './room.svelte.ts';

function memoryStorage(): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get length() { return data.size; },
    key: (i) => [...data.keys()][i] ?? null,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
    clear: () => data.clear(),
  };
}

const ROUND: RoundPublic = { id: 'r1', index: 1, title: 'Levers', practiceTasks: ['lever-room:1'], hiddenTasks: null, hiddenTaskCount: 3, episodes: 3, steps: 15, repeats: 2, state: 'open', openedAt: '2026-01-01T10:00:00.000Z', endsAt: '2026-01-01T10:15:00.000Z' };
const person = (id: string, name: string, removed = false): ParticipantPublic => ({ id, name, joinedAt: `2026-01-01T10:0${id.length}:00.000Z`, removed, killed: false });
const sub = (id: string, participantId: string, version: number): SubmissionPublic => ({ id, participantId, roundId: 'r1', version, submittedAt: `2026-01-01T10:1${version}:00.000Z`, chars: 10, source: 'written' });
const scored = (wauc: number): ScoreState => ({ status: 'scored', done: 6, total: 6, score: { wauc, low: wauc - 0.1, high: wauc + 0.1, n: 6, curve: [0.2, 0.5, 0.8] }, message: null });
const roomState = (patch: Partial<RoomState> = {}): RoomState => ({ settings: null, currentRoundId: 'r1', ended: false, participants: [], rounds: [ROUND], submissions: [], scores: {}, evolution: null, ...patch });

describe('room identity and detection', () => {
  it('reads ?room=, asks /api/info only at the origin’s root, and maps http to ws', () => {
    expect(roomCodeOf(new URL('http://10.0.0.5:8080/?room=%20ABC123%20'))).toBe('ABC123');
    expect(roomCodeOf(new URL('http://10.0.0.5:8080/?room='))).toBeNull();
    expect(roomCodeOf(new URL('http://h/?room=ABCDEFGHIJKLMNOP'))).toBe('ABCDEFGHIJKL');
    expect(shouldProbe(new URL('http://10.0.0.5:8080/'))).toBe(true);
    expect(shouldProbe(new URL('http://10.0.0.5:8080/?view=learn'))).toBe(true);
    expect(shouldProbe(new URL('http://127.0.0.1:4317/sub/path/'))).toBe(false);
    expect(shouldProbe(new URL('http://10.0.0.5:8080/?kiosk=1'))).toBe(false);
    expect(socketUrlOf('http://10.0.0.5:8080')).toBe('ws://10.0.0.5:8080');
    expect(socketUrlOf('https://room.example')).toBe('wss://room.example');
  });

  it('keeps the identity per origin and forgets it; an unreadable one is none', () => {
    const storage = memoryStorage();
    expect(loadIdentity(storage)).toBeNull();
    const identity = { participantId: 'p1', token: 'fake-test-key-token-1', name: 'Ada', code: 'ABC123' };
    saveIdentity(storage, identity);
    expect(loadIdentity(storage)).toEqual(identity);
    storage.setItem(IDENTITY_KEY, '{"participantId":1}');
    expect(loadIdentity(storage)).toBeNull();
    saveIdentity(storage, null);
    expect(storage.data.has(IDENTITY_KEY)).toBe(false);
  });
});

describe('the outbox', () => {
  const request = (clientId: string): SubmitRequest => ({ roundId: 'r1', text: `text ${clientId}`, clientId, source: 'written' });
  const reply = (r: SubmitRequest, version: number): SubmissionPublic => ({ ...sub(`s-${r.clientId}`, 'p1', version) });

  it('keeps a submission the network did not carry and sends it once when it is back', async () => {
    const storage = memoryStorage();
    const outbox = new Outbox(storage);
    outbox.add({ request: request('c1'), madeAt: '2026-01-01T10:00:00.000Z', participantId: 'p1' });
    outbox.add({ request: request('c1'), madeAt: '2026-01-01T10:00:01.000Z', participantId: 'p1' });
    const offline = await outbox.flush('p1', async () => Promise.reject(new RoomCallError('offline', null)));
    expect(offline).toEqual({ sent: [], refused: [], waiting: 1 });
    // A reload reads it back from storage.
    const reloaded = new Outbox(storage);
    expect(reloaded.items().map((i) => i.request.clientId)).toEqual(['c1']);
    const sent: string[] = [];
    const [a, b] = await Promise.all([
      reloaded.flush('p1', async (r) => (sent.push(r.clientId), reply(r, 1))),
      reloaded.flush('p1', async (r) => (sent.push(r.clientId), reply(r, 1))),
    ]);
    expect(sent).toEqual(['c1']);
    expect(a).toBe(b);
    expect(a.sent.map((s) => s.version)).toEqual([1]);
    expect(JSON.parse(storage.getItem(OUTBOX_KEY)!)).toEqual([]);
  });

  it('drops a submission the room refuses, with its reason, and sends only the participant’s own', async () => {
    const outbox = new Outbox(memoryStorage());
    outbox.add({ request: request('c1'), madeAt: 'x', participantId: 'p1' });
    outbox.add({ request: request('c2'), madeAt: 'x', participantId: 'p2' });
    outbox.add({ request: request('c3'), madeAt: 'x', participantId: 'p1' });
    const result = await outbox.flush('p1', async (r) => {
      if (r.clientId === 'c1') throw new RoomCallError('The round is not open.', 409);
      return reply(r, 2);
    });
    expect(result.refused.map((x) => [x.item.request.clientId, x.message])).toEqual([['c1', 'The round is not open.']]);
    expect(result.sent.map((s) => s.id)).toEqual(['s-c3']);
    expect(outbox.items().map((i) => i.request.clientId)).toEqual(['c2']);
  });
});

describe('the standing', () => {
  it('lists my versions newest first and ranks each participant’s best scored submission', () => {
    const state = roomState({
      participants: [person('p1', 'Ada'), person('p22', 'Bo'), person('p333', 'Cy', true)],
      submissions: [sub('a1', 'p1', 1), sub('a2', 'p1', 2), sub('b1', 'p22', 1), sub('c1', 'p333', 1), { ...sub('x', 'p1', 3), roundId: 'r0' }],
      scores: { a1: scored(0.7), a2: { status: 'scoring', done: 2, total: 6, score: null, message: null }, b1: scored(0.7), c1: scored(0.9) },
    });
    expect(mySubmissions(state, 'p1', 'r1').map((m) => [m.submission.version, m.score?.status])).toEqual([[2, 'scoring'], [1, 'scored']]);
    const rows = leaderboard(state, 'r1');
    expect(rows.map((r) => [r.name, r.version, r.rank, r.score.wauc])).toEqual([['Ada', 1, 1, 0.7], ['Bo', 1, 1, 0.7]]);
    const better = leaderboard({ ...state, scores: { ...state.scores, a2: scored(0.8) } }, 'r1');
    expect(better.map((r) => [r.name, r.version, r.rank])).toEqual([['Ada', 2, 1], ['Bo', 1, 2]]);
  });

  it('says scores, progress and the timer in words', () => {
    expect(scoreText(scored(0.625).score!)).toBe('W-AUC 0.63 of the max score (95 % interval 0.53–0.72, n = 6 sessions)');
    expect(scoreText({ wauc: 0, low: 0, high: 0, n: 1, curve: [0] })).toBe('W-AUC 0.00 of the max score (n = 1 session, no interval)');
    expect([roundHeading({ index: 1, title: 'Round 1' }), roundHeading({ index: 2, title: 'Round' }), roundHeading({ index: 2, title: 'Levers' }), roundHeading({ index: 3, title: 'Round 2: the Vault' })])
      .toEqual(['Round 1', 'Round 2', 'Round 2: Levers', 'Round 3: Round 2: the Vault']);
    expect(scoreStateText(null)).toBe('waiting to be scored');
    expect(scoreStateText({ status: 'scoring', done: 2, total: 6, score: null, message: null })).toBe('scoring: 2 / 6 sessions');
    expect(scoreStateText({ status: 'failed', done: 0, total: 6, score: null, message: 'the story did not load' })).toBe('scoring failed: the story did not load');
    const end = Date.parse('2026-01-01T10:15:00.000Z');
    expect(timerText(null, end)).toBeNull();
    expect(timerText('2026-01-01T10:15:00.000Z', end - 125_000)).toBe('2:05 left');
    expect(timerText('2026-01-01T10:15:00.000Z', end - 3_725_000)).toBe('1:02:05 left');
    expect(timerText('2026-01-01T10:15:00.000Z', end)).toBe('time is up');
    expect(roundTimerText({ state: 'open', endsAt: '2026-01-01T10:15:00.000Z' }, end - 125_000)).toBe('2:05 left');
    for (const state of ['locked', 'revealed', 'closed'] as const) expect(roundTimerText({ state, endsAt: '2026-01-01T10:15:00.000Z' }, end - 125_000)).toBeNull();
    expect(practiceTarget('zork1:12')).toEqual({ story: 'zork1', seed: 12 });
    expect(practiceTarget('web:shop/t12:3')).toEqual({ story: 'web:shop/t12:3', seed: 0 });
  });
});

/** A fake room server answering the page's routes; `offline` makes every request fail like a dropped network. */
function fakeRoom() {
  const joins: string[] = [];
  const submitted: SubmitRequest[] = [];
  const seen = new Map<string, SubmissionPublic>();
  const auth: (string | null)[] = [];
  const room = { offline: false, removed: false, joins, submitted, auth };
  const fetch: Fetch = async (input, init) => {
    if (room.offline) throw new TypeError('Failed to fetch');
    const url = new URL(input);
    const headers = new Headers(init?.headers);
    auth.push(headers.get('authorization'));
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.pathname === '/api/info') return json(200, { room: true, joinable: true, title: 'Friday class' });
    if (url.pathname === '/api/join') {
      const body = JSON.parse(String(init?.body)) as { code: string; name: string };
      joins.push(body.code);
      if (body.code !== 'ABC123') return json(403, { error: 'wrong code', code: 'wrong_code' });
      const reply: JoinReply = { participantId: 'p1', token: 'fake-test-key-participant-token', name: body.name };
      return json(200, reply);
    }
    if (url.pathname === '/api/me' && room.removed) return json(403, { error: 'removed', code: 'room_forbidden' });
    if (url.pathname === '/api/me') return json(200, { ...person('p1', 'Ada'), usage: { calls: 0, tokens: 0, usd: null }, caps: { maxCalls: null, maxTokens: null, maxUsd: null, opensAt: null, closesAt: null } });
    if (url.pathname === '/v1/models') return json(200, { object: 'list', data: [{ id: 'room-model' }] });
    if (url.pathname === '/api/submissions') {
      const body = JSON.parse(String(init?.body)) as SubmitRequest;
      submitted.push(body);
      const first = seen.get(body.clientId) ?? sub(`s${seen.size + 1}`, 'p1', seen.size + 1);
      seen.set(body.clientId, first);
      return json(200, first);
    }
    return json(404, { error: 'no such route' });
  };
  return { room, fetch };
}

function fakeConnection(options: RoomConnectionOptions, log: string[]): RoomConnection {
  return {
    doc: null as unknown as RoomConnection['doc'],
    presences: () => [],
    onPresence: () => () => undefined,
    setActivity: (activity) => void log.push(activity),
    synced: Promise.resolve(),
    close: () => void log.push('closed'),
  } satisfies RoomConnection & { doc: unknown } as RoomConnection;
}

describe('RoomStudentState', () => {
  it('joins (a wrong code in plain words), uses the room’s model, keeps a submission made offline and sends it once on reconnect', async () => {
    const { room, fetch } = fakeRoom();
    const storage = memoryStorage();
    const providers: (RoomProvider | null)[] = [];
    const activity: string[] = [];
    let options: RoomConnectionOptions | undefined;
    let ids = 0;
    const deps = {
      api: new RoomApi(fetch, 'http://classroom.test:8080'),
      storage,
      socketUrl: 'ws://classroom.test:8080',
      connect: (o: RoomConnectionOptions) => ((options = o), fakeConnection(o, activity)),
      useRoom: (p: RoomProvider | null) => void providers.push(p),
      openPractice: (p: PracticeRequest) => void activity.push(`open ${p.task} K=${p.episodes} S=${p.steps} ${p.draft === null ? 'policy as chosen' : `draft: ${p.draft}`}`),
      storyTitle: (id: string) => (id === 'lever-room' ? 'The Lever Room' : null),
      newId: () => `client-${++ids}`,
      now: () => Date.parse('2026-01-01T10:05:00.000Z'),
      libraryEntries: async () => [{ id: 'naive', name: 'Naive', strategy: '' }, { id: 'notes', name: 'Notes', strategy: 'Keep notes.' }],
    };
    const state = new RoomStudentState(deps);
    await state.start(new URL('http://classroom.test:8080/?room=ABC124'));
    expect(state.info?.title).toBe('Friday class');
    expect(state.code).toBe('ABC124');
    state.name = 'Ada';
    await state.join();
    expect(state.phase).toBe('join');
    expect(state.nameNote).toBeNull();
    expect(state.joinError).toBe('That room code is not this room’s. Check the code on the projector (or ask the teacher) and try again.');
    state.code = 'ABC123';
    await state.join();
    expect(state.phase).toBe('joined');
    expect(providers).toEqual([{ title: 'Friday class', baseUrl: 'http://classroom.test:8080/v1', token: 'fake-test-key-participant-token', model: 'room-model', price: null }]);
    expect(options?.token).toBe('fake-test-key-participant-token');
    expect(options?.url).toBe('ws://classroom.test:8080');
    expect(loadIdentity(storage)?.participantId).toBe('p1');
    options!.onState!(roomState({ participants: [person('p1', 'Ada')] }));
    options!.onStatus!('connected');
    expect(state.round?.title).toBe('Levers');

    state.pick(state.entries[1]!);
    expect([state.draft, state.draftSource]).toEqual(['Keep notes.', 'Notes']);
    room.offline = true;
    options!.onStatus!('disconnected');
    await state.submit();
    expect(state.waiting.map((w) => w.request.clientId)).toEqual(['client-1']);
    expect(state.notice).toContain('kept and will be sent when the connection is back');
    room.offline = false;
    options!.onStatus!('connected');
    await new Promise((resolve) => setTimeout(resolve, 0));
    await state.flush();
    expect(room.submitted.map((s) => [s.clientId, s.text, s.source])).toEqual([['client-1', 'Keep notes.', 'Notes']]);
    expect(state.waiting).toEqual([]);
    expect(state.notice).toBe('Submitted (version 1): the room scores it on the hidden tasks.');
    expect(activity).toContain('submitted');
    state.write('Keep notes. And read them.');
    expect(state.draftSource).toBe('Notes, edited');
    state.write('');
    expect(state.draftSource).toBe('written');
    state.practise('lever-room:1');
    expect(activity.slice(-2)).toEqual(['learn', 'open lever-room:1 K=3 S=15 policy as chosen']);
    state.write('Try every lever once.');
    state.practise('lever-room:1', true);
    expect(activity.at(-1)).toBe('open lever-room:1 K=3 S=15 draft: Try every lever once.');
    expect(state.taskLabel('lever-room:1')).toBe('The Lever Room, seed 1');
    expect(await state.allowance()).toEqual({ tokens: null, calls: null });
    // The token only ever travels in the Authorization header.
    expect(room.auth.filter((a) => a !== null).every((a) => a === 'Bearer fake-test-key-participant-token')).toBe(true);

    // A reload rejoins with the kept identity, without the form.
    const again = new RoomStudentState({ ...deps, connect: (o: RoomConnectionOptions) => fakeConnection(o, activity) });
    await again.start(new URL('http://classroom.test:8080/'));
    expect([again.phase, again.identity?.participantId, room.joins.length]).toEqual(['joined', 'p1', 2]);

    // Removed by the teacher: out, in plain words, the user's own settings back.
    options!.onState!(roomState({ participants: [person('p1', 'Ada', true)] }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.phase).toBe('out');
    expect(state.outReason).toBe('The teacher removed you from this room.');
    expect(providers.at(-1)).toBeNull();
    expect(loadIdentity(storage)).toBeNull();
  });
});

describe('RoomStudentState refused by the room', () => {
  it('asks the room why and says it in plain words; a reload then shows the join form', async () => {
    const { room, fetch } = fakeRoom();
    const storage = memoryStorage();
    const providers: (RoomProvider | null)[] = [];
    let options: RoomConnectionOptions | undefined;
    const deps = {
      api: new RoomApi(fetch, 'http://classroom.test:8080'),
      storage,
      socketUrl: 'ws://classroom.test:8080',
      connect: (o: RoomConnectionOptions) => ((options = o), fakeConnection(o, [])),
      useRoom: (p: RoomProvider | null) => void providers.push(p),
      openPractice: () => undefined,
      storyTitle: () => null,
      newId: () => 'client-1',
      now: () => 0,
      libraryEntries: async () => [],
    };
    const state = new RoomStudentState(deps);
    await state.start(new URL('http://classroom.test:8080/?room=ABC123'));
    state.name = 'Bo';
    await state.join();
    expect(state.phase).toBe('joined');
    room.removed = true;
    options!.onRefused!('permission denied');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([state.phase, state.outReason]).toEqual(['out', 'The teacher removed you from this room.']);
    expect(providers.at(-1)).toBeNull();
    const reloaded = new RoomStudentState(deps);
    await reloaded.start(new URL('http://classroom.test:8080/'));
    expect(reloaded.phase).toBe('join');
  });
});
