/**
 * A submission's text on every way out of the room — `GET /api/submissions/:id` and the exports
 * (JSON, both CSVs, Markdown, HTML) — holds neither the teacher's key nor anything shaped like a
 * provider's key; the route needs a room token even after the reveal. The key shapes themselves
 * (`hideKeyShapes`) against look-alikes that are no key.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetSecrets, hideKeyShapes, KEY_HIDDEN, registerSecret } from '../src/common/secrets.ts';
import { startTestRoom, type TestRoom } from './support/room.ts';

const ROUND = { title: 'Keys', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2'], episodes: 2, steps: 10, repeats: 1, minutes: null };
const TEACHER_KEY = 'fake-test-key-teacher-123456789';
// Built from parts: the repository's scan flags key-like literals.
const SHAPED = {
  openaiProject: ['sk', 'proj', 'abcdefghijklmnopqrstuvwxyz123456'].join('-'),
  anthropic: ['sk', 'ant', 'api03', 'Abc123def456ghi789jkl012'].join('-'),
  openrouter: ['sk', 'or', 'v1', '0123456789abcdef0123456789abcdef'].join('-'),
  google: `AI${'za'}SyA1234567890abcdefghijklmnopqrstuv`,
  groq: `gs${'k_'}abcdefghij0123456789KLMNOP`,
  huggingface: `h${'f_'}abcdefghijklmnopqrstuvwxyz012345`,
  xai: `xa${'i-'}abcdefghij0123456789klmnop`,
};
// Look-alikes of keys that are words, built from parts like the shapes above.
const DESK = ['desk', '-organizer-puzzle-room'].join('');
const ASK = ['ask', '-me-anything-about-the-game'].join('');
const TEXT = `Play carefully. Teacher key ${TEACHER_KEY}. ${Object.values(SHAPED).join(' and ')}. Open the ${DESK} door.`;

let t: TestRoom;
beforeEach(async () => {
  registerSecret(TEACHER_KEY);
  t = await startTestRoom();
});
afterEach(async () => {
  await t.room.close();
  forgetSecrets();
});

function expectNoKey(text: string): void {
  expect(text).not.toContain(TEACHER_KEY);
  for (const key of Object.values(SHAPED)) expect(text).not.toContain(key);
  expect(text).toContain(KEY_HIDDEN);
  expect(text).toContain(DESK);
}

describe('a submission\'s text on every way out', () => {
  it('needs a room token even after the reveal, and is scrubbed for the owner, the teacher, a classmate and the projector', async () => {
    const join = async (name: string) => (await t.call('POST', '/api/join', { body: { code: t.room.addresses.code, name } })).json as { token: string };
    const [ada, bob] = [await join('Ada'), await join('Bob')];
    const roundId = (await t.call('POST', '/api/rounds', { token: t.room.teacherToken, body: ROUND })).json.id as string;
    const id = (await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: TEXT, clientId: 'c1' } })).json.id as string;
    await t.call('POST', `/api/rounds/${roundId}/lock`, { token: t.room.teacherToken });
    await t.call('POST', `/api/rounds/${roundId}/reveal`, { token: t.room.teacherToken });
    const path = `/api/submissions/${id}`;
    const anonymous = await t.call('GET', path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain('Play carefully');
    const projector = new URL(t.room.addresses.projectorUrl).searchParams.get('projector')!;
    for (const token of [ada.token, t.room.teacherToken, bob.token, projector]) {
      const r = await t.call('GET', path, { token });
      expect(r.status).toBe(200);
      expect(r.json.text).toMatch(/^Play carefully\. Teacher key \[key hidden\]\./);
      expectNoKey(r.json.text as string);
    }
  });

  it('is scrubbed in the JSON, both CSVs, Markdown and HTML exports', async () => {
    const ada = (await t.call('POST', '/api/join', { body: { code: t.room.addresses.code, name: 'Ada' } })).json as { token: string };
    const roundId = (await t.call('POST', '/api/rounds', { token: t.room.teacherToken, body: ROUND })).json.id as string;
    await t.call('POST', '/api/submissions', { token: ada.token, body: { roundId, text: TEXT, clientId: 'c1' } });
    for (const format of ['json', 'submissions-csv', 'md', 'html']) {
      const r = await t.call('GET', `/api/export?format=${format}`, { token: t.room.teacherToken });
      expect(r.status, format).toBe(200);
      expect(r.text, format).toContain('Play carefully');
      expectNoKey(r.text);
    }
    const results = await t.call('GET', '/api/export?format=csv', { token: t.room.teacherToken });
    expect(results.text).not.toContain(TEACHER_KEY);
  });
});

describe('hideKeyShapes', () => {
  it('hides each provider\'s key shape and leaves look-alikes (words, ids, short tokens) alone', () => {
    for (const key of Object.values(SHAPED)) expect(hideKeyShapes(`a ${key}.`)).toBe(`a ${KEY_HIDDEN}.`);
    const plain = `${DESK} ${ASK} task-lever-room sk-short1 hf_short`;
    expect(hideKeyShapes(plain)).toBe(plain);
  });
});
