/**
 * The room server's HTTP routes (src/room/protocol.ts) against a real server on 127.0.0.1: every
 * route's answer and refusals, the token rules (a participant on a teacher route → 403, no token →
 * 401), idempotent resubmission, the rate limit, bounds and sanitising of untrusted text, the
 * model routes handed to the forwarder, the scorer fed with the hidden tasks, exports, the end; the
 * printed addresses at a LAN host, an IPv6 one, or the origin of a reverse proxy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOM_LIMITS, type EvolveTogetherRequest, type RoomEvolution, type RoomSnapshot, type ScoreState, type SubmissionText } from '../src/room/protocol.ts';
import { roomAddresses } from '../src/room-server/room-server.ts';
import type { ForwarderDeps, RoomForwarder, RoomScorer, RoundWithId, ScorerDeps } from '../src/room-server/seams.ts';
import { startTestRoom, type TestRoom } from './support/room.ts';

const ROUND = { title: 'Round one', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2', 'lever-room:3'], episodes: 3, steps: 20, repeats: 2, minutes: 15 };

/** A scorer that records what the server hands it and reports through its deps when told. */
function recordingScorer(): { make: (deps: Omit<ScorerDeps, 'llm'>) => RoomScorer; enqueued: [SubmissionText, RoundWithId][]; evolved: [EvolveTogetherRequest, SubmissionText[]][]; deps: () => Omit<ScorerDeps, 'llm'>; stopped: number; wiped: number } {
  const rec = { enqueued: [] as [SubmissionText, RoundWithId][], evolved: [] as [EvolveTogetherRequest, SubmissionText[]][], stopped: 0, wiped: 0, saved: null as Omit<ScorerDeps, 'llm'> | null };
  return {
    enqueued: rec.enqueued,
    evolved: rec.evolved,
    get stopped() {
      return rec.stopped;
    },
    get wiped() {
      return rec.wiped;
    },
    deps: () => rec.saved!,
    make: (deps) => {
      rec.saved = deps;
      return {
        enqueue: (sub, round) => void rec.enqueued.push([sub, round]),
        evolve: async (req, seeds) => void rec.evolved.push([req, seeds]),
        stopEvolution: () => void rec.stopped++,
        wipe: async () => void rec.wiped++,
        close: async () => {},
      };
    },
  };
}

const scored = (wauc: number): ScoreState => ({ status: 'scored', done: 4, total: 4, score: { wauc, low: wauc - 0.1, high: wauc + 0.1, n: 4, curve: [wauc, wauc, wauc] }, message: null });

let t: TestRoom;
let teacher: string;
let scorer: ReturnType<typeof recordingScorer>;
let forwarderCalls: { participantId: string; path: string }[];
let forwarderDeps: ForwarderDeps | null;

beforeEach(async () => {
  scorer = recordingScorer();
  forwarderCalls = [];
  forwarderDeps = null;
  const makeForwarder = (deps: ForwarderDeps): RoomForwarder => {
    forwarderDeps = deps;
    return {
      async handle(req: IncomingMessage, res: ServerResponse, participantId: string) {
        forwarderCalls.push({ participantId, path: req.url ?? '' });
        deps.addUsage(participantId, { calls: 1, tokens: 42, usd: 0.001 });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'room-model' }] }));
      },
    };
  };
  t = await startTestRoom({ makeScorer: scorer.make, makeForwarder, caps: { maxCalls: 30 }, title: 'Tuesday class' });
  teacher = t.room.teacherToken;
});

afterEach(async () => {
  await t.room.close();
});

async function join(name: string): Promise<{ participantId: string; token: string; name: string }> {
  const r = await t.call('POST', '/api/join', { body: { code: t.room.addresses.code, name } });
  expect(r.status).toBe(200);
  return r.json as { participantId: string; token: string; name: string };
}

async function openRound(): Promise<string> {
  const r = await t.call('POST', '/api/rounds', { token: teacher, body: ROUND });
  expect(r.status).toBe(200);
  return r.json.id as string;
}

describe('joining', () => {
  it('answers /api/info without a token', async () => {
    const r = await t.call('GET', '/api/info');
    expect(r.json).toEqual({ room: true, joinable: true, title: 'Tuesday class' });
  });

  it('joins with the code (any case, spaces) and refuses a wrong code with 403', async () => {
    const code = t.room.addresses.code;
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    const ok = await t.call('POST', '/api/join', { body: { code: ` ${code.toLowerCase()} `, name: 'Ada' } });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ name: 'Ada', participantId: expect.stringMatching(/^p-/), token: expect.any(String) });
    const wrong = await t.call('POST', '/api/join', { body: { code: 'ZZZZZZ', name: 'Ada' } });
    expect(wrong.status).toBe(403);
    expect(wrong.json.code).toBe('room_wrong_code');
  });

  it('trims, bounds and cleans a name, makes it unique, and refuses an empty one', async () => {
    expect((await join('  Ada\u0000\u202e  Lovelace ')).name).toBe('Ada Lovelace');
    expect((await join('ada lovelace')).name).toBe('ada lovelace (2)');
    expect((await join('x'.repeat(200))).name).toBe('x'.repeat(ROOM_LIMITS.name));
    const empty = await t.call('POST', '/api/join', { body: { code: t.room.addresses.code, name: ' \u0007 ' } });
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ error: 'Type a display name.', code: 'room_bad_request' });
  });

  it('answers /api/me for a participant with usage and caps; 401 without a token; 403 for the teacher', async () => {
    const ada = await join('Ada');
    const me = await t.call('GET', '/api/me', { token: ada.token });
    expect(me.json).toMatchObject({ id: ada.participantId, name: 'Ada', removed: false, killed: false, usage: { calls: 0, tokens: 0, usd: 0 }, caps: { maxCalls: 30, maxTokens: null } });
    expect((await t.call('GET', '/api/me')).status).toBe(401);
    expect((await t.call('GET', '/api/me', { token: 'not-a-token' })).status).toBe(401);
    expect((await t.call('GET', '/api/me', { token: teacher })).status).toBe(403);
  });
});

describe('token rules on the teacher routes', () => {
  const teacherRoutes: [string, string, unknown?][] = [
    ['GET', '/api/room'], ['POST', '/api/rounds', ROUND], ['POST', '/api/rounds/r-x/lock'], ['POST', '/api/rounds/r-x/reveal'], ['POST', '/api/rounds/r-x/close'],
    ['POST', '/api/participants/p-x/remove'], ['POST', '/api/participants/p-x/kill', { killed: true }], ['POST', '/api/kill', { killed: true }],
    ['DELETE', '/api/submissions/s-x'], ['PATCH', '/api/settings', { namesHidden: true }], ['POST', '/api/evolution', { roundId: 'r-x', budget: 5 }],
    ['POST', '/api/evolution/stop'], ['GET', '/api/export?format=json'], ['POST', '/api/end'],
  ];

  it('refuses a participant (403), the projector (403), no token and a bad token (401) on every teacher route', async () => {
    const ada = await join('Ada');
    const projector = new URL(t.room.addresses.projectorUrl).searchParams.get('projector')!;
    for (const [method, path, body] of teacherRoutes) {
      expect((await t.call(method, path, { token: ada.token, body })).status, `${method} ${path} participant`).toBe(403);
      expect((await t.call(method, path, { token: projector, body })).status, `${method} ${path} projector`).toBe(403);
      expect((await t.call(method, path, { body })).status, `${method} ${path} none`).toBe(401);
      expect((await t.call(method, path, { token: 'fake-test-key-wrong', body })).status, `${method} ${path} bad`).toBe(401);
    }
    const room = await t.call('GET', '/api/room', { token: teacher });
    expect(room.status).toBe(200);
    expect((room.json as unknown as RoomSnapshot).settings.killedAll).toBe(false);
  });

  it('answers 404 for an unknown route and 405 for a wrong method, as { error, code }', async () => {
    expect(await t.call('GET', '/api/nothing')).toMatchObject({ status: 404, json: { code: 'room_not_found' } });
    expect(await t.call('DELETE', '/api/join')).toMatchObject({ status: 405, json: { code: 'room_method' } });
  });
});

describe('rounds and submissions', () => {
  it('opens a round without its hidden tasks in the public record, with the timer', async () => {
    const r = await t.call('POST', '/api/rounds', { token: teacher, body: ROUND });
    expect(r.json).toMatchObject({ index: 1, title: 'Round one', hiddenTasks: null, hiddenTaskCount: 2, state: 'open', practiceTasks: ['lever-room:1'] });
    expect(Date.parse(r.json.endsAt as string) - Date.parse(r.json.openedAt as string)).toBe(15 * 60_000);
    const bad = await t.call('POST', '/api/rounds', { token: teacher, body: { ...ROUND, hiddenTasks: [] } });
    expect(bad).toMatchObject({ status: 400, json: { code: 'room_bad_request' } });
    expect((await t.call('POST', '/api/rounds', { token: teacher, body: { ...ROUND, episodes: 0 } })).status).toBe(400);
    expect((await t.call('POST', '/api/rounds', { token: teacher, body: { ...ROUND, hiddenTasks: ['<script>'] } })).status).toBe(400);
  });

  it('keeps submissions idempotent on clientId, numbers versions, and hands each to the scorer with the hidden tasks', async () => {
    const roundId = await openRound();
    const ada = await join('Ada');
    const first = await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'Explore first.\n\tThen act.', clientId: 'c1', source: 'written' } });
    expect(first.json).toMatchObject({ participantId: ada.participantId, roundId, version: 1, chars: 'Explore first.\n\tThen act.'.length, source: 'written' });
    const again = await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'changed', clientId: 'c1' } });
    expect(again.json).toEqual(first.json);
    const second = await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'Second idea', clientId: 'c2' } });
    expect(second.json.version).toBe(2);
    expect(scorer.enqueued.map(([s]) => s.text)).toEqual(['Explore first.\n\tThen act.', 'Second idea']);
    expect(scorer.enqueued[0]![1]).toMatchObject({ id: roundId, hiddenTasks: ['lever-room:2', 'lever-room:3'], repeats: 2, episodes: 3, steps: 20 });
    const snap = (await t.call('GET', '/api/room', { token: teacher })).json as unknown as RoomSnapshot;
    expect(snap.submissions.map((s) => [s.version, s.score?.status, s.score?.total])).toEqual([[1, 'queued', 4], [2, 'queued', 4]]);
  });

  it('refuses an empty text (400), a too long one (413), an unknown round (404), a locked round (409), too many a minute (429)', async () => {
    const roundId = await openRound();
    const ada = await join('Ada');
    const send = (text: string, clientId: string, round = roundId) => t.call('POST', '/api/submissions', { token: ada.token, body: { roundId: round, text, clientId } });
    expect((await send(' \u0000 ', 'e')).status).toBe(400);
    expect(await send('x'.repeat(ROOM_LIMITS.submission + 1), 'long')).toMatchObject({ status: 413, json: { code: 'room_too_large' } });
    expect((await send('x'.repeat(ROOM_LIMITS.submission), 'max')).status).toBe(200);
    expect((await send('hi', 'nr', 'r-none')).status).toBe(404);
    for (let i = 1; i < ROOM_LIMITS.submissionsPerMinute; i++) expect((await send(`idea ${i}`, `c${i}`)).status).toBe(200);
    const fast = await send('one more', 'c-fast');
    expect(fast).toMatchObject({ status: 429, json: { code: 'room_too_fast' } });
    expect(fast.json.error).toMatch(/At most 6 submissions a minute/);
    await t.call('POST', `/api/rounds/${roundId}/lock`, { token: teacher });
    const bob = await join('Bob');
    const locked = await t.call('POST', '/api/submissions', { token: bob.token, body: { roundId, text: 'late', clientId: 'l1' } });
    expect(locked).toMatchObject({ status: 409, json: { code: 'room_round_not_open' } });
  });

  it('refuses a body over the limit (413) and one that is not JSON (400)', async () => {
    const roundId = await openRound();
    const ada = await join('Ada');
    const huge = await t.call('POST', '/api/submissions', { token: ada.token, raw: JSON.stringify({ roundId, clientId: 'h', text: 'y'.repeat(70_000) }) });
    expect(huge.status).toBe(413);
    expect((await t.call('POST', '/api/submissions', { token: ada.token, raw: '{not json' })).status).toBe(400);
    expect((await t.call('POST', '/api/submissions', { token: ada.token, raw: '[1,2]' })).status).toBe(400);
  });

  it('shows a submission text to its owner and the teacher, to others only after the reveal, which makes the hidden tasks public', async () => {
    const roundId = await openRound();
    const ada = await join('Ada');
    const bob = await join('Bob');
    const sub = (await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'Ada\'s idea', clientId: 'a1' } })).json;
    const path = `/api/submissions/${sub.id as string}`;
    expect((await t.call('GET', path, { token: ada.token })).json.text).toBe('Ada\'s idea');
    expect((await t.call('GET', path, { token: teacher })).json.text).toBe('Ada\'s idea');
    expect((await t.call('GET', path, { token: bob.token })).status).toBe(403);
    expect((await t.call('GET', path)).status).toBe(401);
    const revealed = await t.call('POST', `/api/rounds/${roundId}/reveal`, { token: teacher });
    expect(revealed.json).toMatchObject({ state: 'revealed', hiddenTasks: ['lever-room:2', 'lever-room:3'] });
    expect((await t.call('GET', path, { token: bob.token })).json.text).toBe('Ada\'s idea');
    const closed = await t.call('POST', `/api/rounds/${roundId}/close`, { token: teacher });
    expect(closed.json).toMatchObject({ state: 'closed', hiddenTasks: ['lever-room:2', 'lever-room:3'] });
    expect((await t.call('POST', '/api/rounds/r-none/lock', { token: teacher })).status).toBe(404);
  });

  it('ranks the scorer\'s reports on the leaderboard, each participant\'s best', async () => {
    const roundId = await openRound();
    const ada = await join('Ada');
    const bob = await join('Bob');
    const post = async (token: string, text: string, clientId: string) => (await t.call('POST', '/api/submissions', { token, body: { roundId, text, clientId } })).json.id as string;
    const a1 = await post(ada.token, 'a one', 'a1');
    const a2 = await post(ada.token, 'a two', 'a2');
    const b1 = await post(bob.token, 'b one', 'b1');
    scorer.deps().onScore(a1, scored(0.4));
    scorer.deps().onScore(a2, scored(0.7));
    scorer.deps().onScore(b1, scored(0.5));
    const snap = (await t.call('GET', '/api/room', { token: teacher })).json as unknown as RoomSnapshot;
    expect(snap.leaderboard.map((r) => [r.rank, r.name, r.version, r.score.wauc])).toEqual([[1, 'Ada', 2, 0.7], [2, 'Bob', 1, 0.5]]);
  });
});

describe('moderation and settings', () => {
  it('removes a participant (then 403 on its routes) and a submission (hidden, score marked removed)', async () => {
    const roundId = await openRound();
    const ada = await join('Ada');
    const sub = (await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'idea', clientId: 'a1' } })).json.id as string;
    expect((await t.call('DELETE', `/api/submissions/${sub}`, { token: teacher })).json).toEqual({ removed: true });
    expect((await t.call('GET', `/api/submissions/${sub}`, { token: teacher })).status).toBe(404);
    scorer.deps().onScore(sub, scored(0.9));
    expect(((await t.call('GET', '/api/room', { token: teacher })).json as unknown as RoomSnapshot).submissions).toEqual([]);
    expect((await t.call('POST', `/api/participants/${ada.participantId}/remove`, { token: teacher })).json).toMatchObject({ removed: true });
    expect(await t.call('GET', '/api/me', { token: ada.token })).toMatchObject({ status: 403, json: { code: 'room_forbidden' } });
    expect((await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'again', clientId: 'a2' } })).status).toBe(403);
    expect((await t.call('POST', '/api/participants/p-none/remove', { token: teacher })).status).toBe(404);
  });

  it('kills one participant and everyone, and the forwarder sees both through its deps', async () => {
    const ada = await join('Ada');
    expect((await t.call('POST', `/api/participants/${ada.participantId}/kill`, { token: teacher, body: { killed: true } })).json).toMatchObject({ killed: true });
    expect(forwarderDeps!.participant(ada.participantId)).toMatchObject({ killed: true });
    expect((await t.call('POST', `/api/participants/${ada.participantId}/kill`, { token: teacher, body: { killed: 'yes' } })).status).toBe(400);
    expect((await t.call('POST', '/api/kill', { token: teacher, body: { killed: true } })).json).toMatchObject({ killedAll: true });
    expect(forwarderDeps!.settings().killedAll).toBe(true);
  });

  it('patches settings with checked values and refuses bad caps', async () => {
    const r = await t.call('PATCH', '/api/settings', { token: teacher, body: { title: ' Friday\u0000 ', namesHidden: true, caps: { maxTokens: 5000, closesAt: '2030-01-01T10:00:00Z' } } });
    expect(r.json).toEqual({ title: 'Friday', namesHidden: true, killedAll: false, caps: { maxCalls: 30, maxTokens: 5000, maxUsd: null, opensAt: null, closesAt: '2030-01-01T10:00:00.000Z' } });
    expect((await t.call('PATCH', '/api/settings', { token: teacher, body: { caps: { maxCalls: -1 } } })).status).toBe(400);
    expect((await t.call('PATCH', '/api/settings', { token: teacher, body: { caps: { opensAt: 'soon' } } })).status).toBe(400);
  });
});

describe('the model routes', () => {
  it('refuses /v1 without a participant token (401) and hands a participant\'s call to the forwarder, whose usage /api/me shows', async () => {
    const ada = await join('Ada');
    const none = await t.call('GET', '/v1/models');
    expect(none.status).toBe(401);
    expect((none.json.error as { message: string }).message).toMatch(/join the room/);
    expect((await t.call('GET', '/v1/models', { token: teacher })).status).toBe(401);
    const ok = await t.call('GET', '/v1/models', { token: ada.token });
    expect(ok.json).toEqual({ object: 'list', data: [{ id: 'room-model' }] });
    expect(forwarderCalls).toEqual([{ participantId: ada.participantId, path: '/v1/models' }]);
    expect((await t.call('GET', '/api/me', { token: ada.token })).json.usage).toEqual({ calls: 1, tokens: 42, usd: 0.001 });
  });

  it('answers 503 in OpenAI\'s error shape when the room has no model', async () => {
    const bare = await startTestRoom();
    try {
      const { token } = (await bare.call('POST', '/api/join', { body: { code: bare.room.addresses.code, name: 'Ada' } })).json as { token: string };
      const r = await bare.call('POST', '/v1/chat/completions', { token, body: { messages: [] } });
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ error: { message: 'This room has no model: the teacher started it without a provider.', type: 'invalid_request_error', code: 'room_no_model' } });
      expect((await bare.call('POST', '/api/evolution', { token: bare.room.teacherToken, body: { roundId: 'r', budget: 3 } })).status).toBe(503);
    } finally {
      await bare.room.close();
    }
  });
});

describe('evolution, export and the end', () => {
  it('starts the class\'s evolution with each participant\'s best submission and stops it', async () => {
    const roundId = await openRound();
    const ada = await join('Ada');
    const bob = await join('Bob');
    const post = async (token: string, text: string, clientId: string) => (await t.call('POST', '/api/submissions', { token, body: { roundId, text, clientId } })).json.id as string;
    const a1 = await post(ada.token, 'a best', 'a1');
    await post(ada.token, 'a worse', 'a2');
    const b1 = await post(bob.token, 'b only', 'b1');
    scorer.deps().onScore(a1, scored(0.8));
    const started = await t.call('POST', '/api/evolution', { token: teacher, body: { roundId, budget: 12 } });
    expect(started.json).toEqual({ started: true, seeds: 2 });
    expect(scorer.evolved[0]![0]).toEqual({ roundId, budget: 12, submissionIds: [a1, b1] });
    expect(scorer.evolved[0]![1].map((s) => s.text)).toEqual(['a best', 'b only']);
    expect((await t.call('POST', '/api/evolution', { token: teacher, body: { roundId, budget: 0 } })).status).toBe(400);
    expect((await t.call('POST', '/api/evolution/stop', { token: teacher })).json).toEqual({ stopped: true });
    expect(scorer.stopped).toBe(1);
    const evolution: RoomEvolution = { roundId, state: 'running', budget: 12, used: 1, candidates: [], curve: [0.8], bestCandidateId: null, message: null };
    scorer.deps().onEvolution(evolution);
  });

  it('exports json, both CSVs (formula-safe, with the model columns), md and html (escaped) with their content types', async () => {
    const roundId = await openRound();
    const ada = await join('<b>Ada</b>');
    await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: '=HYPERLINK("x")', clientId: 'a1' } });
    const json = await t.call('GET', '/api/export?format=json', { token: teacher });
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename="room-\d{8}-\d{4}\.json"$/);
    expect(json.json).toMatchObject({ format: 'metattl-room-export-1', title: 'Tuesday class', rounds: [{ hiddenTasks: ['lever-room:2', 'lever-room:3'], submissions: [{ text: '=HYPERLINK("x")', version: 1 }] }] });
    expect(json.text).not.toContain(teacher);
    expect(json.text).not.toContain(ada.token);
    const csv = await t.call('GET', '/api/export?format=csv', { token: teacher });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/-results\.csv"$/);
    expect(csv.text.split('\n')[0]).toBe('round,round_title,rank,name,participant_id,submission_id,version,wauc_mean,wauc_low_95,wauc_high_95,sessions,hidden_tasks,repeats_per_task,episodes_k,steps_s,model,model_caveat');
    const subs = await t.call('GET', '/api/export?format=submissions-csv', { token: teacher });
    expect(subs.headers.get('content-disposition')).toMatch(/-submissions\.csv"$/);
    expect(subs.text.split('\n')[0]).toMatch(/,text,model,model_caveat$/);
    expect(subs.text).toContain('"\'=HYPERLINK(""x"")"');
    const md = await t.call('GET', '/api/export?format=md', { token: teacher });
    expect(md.text).toMatch(/^# Tuesday class: results\n/);
    const html = await t.call('GET', '/api/export?format=html', { token: teacher });
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.text).toContain('&lt;b&gt;Ada&lt;/b&gt;');
    expect(html.text).not.toContain('<b>Ada</b>');
    expect((await t.call('GET', '/api/export?format=xls', { token: teacher })).status).toBe(400);
  });

  it('ends the room: answers the final export, wipes the data and the scorer\'s runs, refuses joins (410) and old tokens (401)', async () => {
    const roundId = await openRound();
    const ada = await join('Ada');
    await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: 'kept in the export', clientId: 'a1' } });
    const end = await t.call('POST', '/api/end', { token: teacher });
    expect(end.json).toMatchObject({ ended: true, export: { format: 'metattl-room-export-1', rounds: [{ submissions: [{ text: 'kept in the export' }] }] } });
    expect(scorer.wiped).toBe(1);
    expect((await t.call('GET', '/api/info')).json).toMatchObject({ joinable: false });
    expect((await t.call('POST', '/api/join', { body: { code: t.room.addresses.code, name: 'Late' } })).status).toBe(410);
    expect((await t.call('GET', '/api/me', { token: ada.token })).status).toBe(401);
    const snap = (await t.call('GET', '/api/room', { token: teacher })).json as unknown as RoomSnapshot;
    expect([snap.participants, snap.rounds, snap.submissions]).toEqual([[], [], []]);
    expect((await t.call('POST', '/api/rounds', { token: teacher, body: ROUND })).status).toBe(410);
  });
});

describe('the built page', () => {
  it('serves index.html and assets with their types and the isolation headers, and any other path as the page', async () => {
    const index = await t.call('GET', '/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(index.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.text).toContain('<div id="app">');
    const asset = await t.call('GET', '/assets/app-1234.js');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.text).toBe('console.log("page");');
    const spa = await t.call('GET', '/?room=ABC&view=room');
    expect(spa.text).toContain('<div id="app">');
    expect((await t.call('GET', '/%2e%2e/%2e%2e/etc/passwd')).text).toContain('<div id="app">');
    expect((await t.call('GET', '/api/info')).headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect((await t.call('POST', '/index.html')).status).toBe(405);
  });

  it('says plainly to build the page when the folder has none', async () => {
    const bare = await startTestRoom({ pageDir: '/nonexistent-page-dir' });
    try {
      const r = await bare.call('GET', '/');
      expect(r.status).toBe(503);
      expect(r.text).toMatch(/run "npm run build"/);
    } finally {
      await bare.room.close();
    }
  });
});

describe('the printed addresses', () => {
  const identity = { code: 'K7P2QX', teacherToken: 'teacher-t', projectorToken: 'projector-t', createdAt: '2026-12-06T21:00:00.000Z' };
  it('name http://host:port on a LAN address, an IPv6 one in brackets, and an https origin (a reverse proxy) as given', () => {
    expect(roomAddresses('192.168.1.20', 8080, identity)).toEqual({
      joinUrl: 'http://192.168.1.20:8080/?room=K7P2QX', teacherUrl: 'http://192.168.1.20:8080/?view=room-teacher&teacher=teacher-t',
      projectorUrl: 'http://192.168.1.20:8080/?view=projector&projector=projector-t', code: 'K7P2QX', port: 8080,
    });
    expect(roomAddresses('fe80::1', 8080, identity).joinUrl).toBe('http://[fe80::1]:8080/?room=K7P2QX');
    expect(roomAddresses('https://room.example.org/', 8080, identity).joinUrl).toBe('https://room.example.org/?room=K7P2QX');
  });
});
