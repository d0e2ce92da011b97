/**
 * `GET /api/projector`: the room code and join address the projector shows, for the projector's
 * token (and the teacher's, with the projector's link for "Open the projector"; the projector's own
 * token never gets it); a participant's token is refused (403), no token 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRoom, type TestRoom } from './support/room.ts';

let t: TestRoom;
let projectorToken: string;
beforeAll(async () => {
  t = await startTestRoom({ title: 'Projector route' });
  projectorToken = new URL(t.room.addresses.projectorUrl).searchParams.get('projector')!;
});
afterAll(() => t.room.close());

describe('GET /api/projector', () => {
  it('gives the projector and the teacher the code, the join address and the title; the teacher also the projector link', async () => {
    const expected = { code: t.room.addresses.code, joinUrl: t.room.addresses.joinUrl, title: 'Projector route' };
    expect((await t.call('GET', '/api/projector', { token: projectorToken })).json).toEqual(expected);
    expect((await t.call('GET', '/api/projector', { token: t.room.teacherToken })).json).toEqual({ ...expected, projectorUrl: t.room.addresses.projectorUrl });
    expect(t.room.addresses.projectorUrl).toBe(`${t.origin}/?view=projector&projector=${projectorToken}`);
    expect(t.room.addresses.joinUrl).toBe(`${t.origin}/?room=${t.room.addresses.code}`);
  });

  it('refuses a participant (403) and no token (401)', async () => {
    const joined = await t.call('POST', '/api/join', { body: { code: t.room.addresses.code, name: 'Ada' } });
    const asStudent = await t.call('GET', '/api/projector', { token: joined.json.token as string });
    expect([asStudent.status, asStudent.json.code]).toEqual([403, 'room_forbidden']);
    const anonymous = await t.call('GET', '/api/projector');
    expect([anonymous.status, anonymous.json.code]).toEqual([401, 'room_unauthorized']);
  });
});
