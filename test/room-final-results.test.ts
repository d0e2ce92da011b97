/**
 * The room's final results after the end: the server writes them into the shared document (each
 * round's leaderboard with names as the projector shows them, hidden names staying hidden, the
 * class evolution), a projector connecting after the end reads them, and they never reach the
 * `--data` folder (checked while the server still runs and after it stops). Also: where a
 * classmate's text came from (`source`) is never in the document.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RoomEvolution, RoomPresence, ScoreState } from '../src/room/protocol.ts';
import { connectRoom, type RoomConnection } from '../src/room/room-client.ts';
import { readRoom } from '../src/room/room-doc.ts';
import type { RoomScorer, ScorerDeps } from '../src/room-server/seams.ts';
import { startTestRoom, type TestRoom } from './support/room.ts';

const ROUND = { title: 'Lever practice', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2'], episodes: 2, steps: 10, repeats: 1, minutes: null };
const PROJECTOR: RoomPresence = { role: 'projector', participantId: null, name: null };
const open: RoomConnection[] = [];
const rooms: TestRoom[] = [];

afterEach(async () => {
  for (const c of open.splice(0)) c.close();
  for (const r of rooms.splice(0)) await r.room.close();
});

const until = async (check: () => boolean, ms = 5000): Promise<void> => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const scored = (wauc: number, n: number): ScoreState => ({ status: 'scored', done: n, total: n, score: { wauc, low: wauc - 0.1, high: wauc + 0.1, n, curve: [wauc, wauc] }, message: null });

/** A room with a scorer whose deps the test drives, a round, Zelda and Bob scored, and an evolution crediting Zelda. */
async function scoredRoom(dataDir: string): Promise<{ t: TestRoom; zelda: string; bob: string; deps: Omit<ScorerDeps, 'llm'> }> {
  let saved: Omit<ScorerDeps, 'llm'> | null = null;
  const makeScorer = (deps: Omit<ScorerDeps, 'llm'>): RoomScorer => {
    saved = deps;
    return { enqueue: () => {}, evolve: async () => {}, stopEvolution: () => {}, wipe: async () => {}, close: async () => {} };
  };
  const t = await startTestRoom({ dataDir, makeScorer });
  rooms.push(t);
  const join = async (name: string) => (await t.call('POST', '/api/join', { body: { code: t.room.addresses.code, name } })).json as { participantId: string; token: string };
  const [zelda, bob] = [await join('Zelda Quokka'), await join('Bob Marmot')];
  const roundId = (await t.call('POST', '/api/rounds', { token: t.room.teacherToken, body: ROUND })).json.id as string;
  const submit = async (token: string, text: string, source: string) => (await t.call('POST', '/api/submissions', { token, body: { roundId, text, clientId: text, source } })).json;
  const z = await submit(zelda.token, 'unforgettable-prompt-words', 'Library: Careful mapper');
  expect(z.source).toBe('Library: Careful mapper');
  const b = await submit(bob.token, 'another prompt', 'written');
  saved!.onScore(z.id as string, scored(0.62, 4));
  saved!.onScore(b.id as string, scored(0.27, 1));
  const evolution: RoomEvolution = {
    roundId, state: 'done', budget: 10, used: 10, curve: [0.5, 0.7], bestCandidateId: 'c1', message: null,
    candidates: [{ id: 'c0', parentIds: [], originParticipantId: zelda.participantId, creditParticipantIds: [zelda.participantId], wauc: 0.5, accepted: true },
      { id: 'c1', parentIds: ['c0'], originParticipantId: null, creditParticipantIds: [zelda.participantId], wauc: 0.7, accepted: true }],
  };
  saved!.onEvolution(evolution);
  return { t, zelda: zelda.participantId, bob: bob.participantId, deps: saved! };
}

const projectorOf = (t: TestRoom): RoomConnection => {
  const c = connectRoom({ url: t.wsUrl, token: new URL(t.room.addresses.projectorUrl).searchParams.get('projector')!, presence: PROJECTOR });
  open.push(c);
  return c;
};

const folderText = (dir: string): string => readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1')).join('');

describe('the room\'s final results', () => {
  it('are in the document after the end for a projector that connects then, and never in the data folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'room-final-'));
    const { t, zelda, bob } = await scoredRoom(dataDir);
    const before = projectorOf(t);
    await before.synced;
    await until(() => readRoom(before.doc).submissions.length === 2);
    expect(readRoom(before.doc).submissions.map((s) => s.source)).toEqual(['', '']);
    expect((await t.call('POST', '/api/end', { token: t.room.teacherToken })).status).toBe(200);
    const after = projectorOf(t);
    await after.synced;
    await until(() => readRoom(after.doc).final != null);
    const state = readRoom(after.doc);
    expect(state.ended).toBe(true);
    expect(state.participants).toEqual([]);
    expect(state.submissions).toEqual([]);
    const final = state.final!;
    expect(final.rounds.map((r) => [r.title, r.rows.map((row) => [row.rank, row.name, row.score.wauc, row.score.n])])).toEqual([['Lever practice', [[1, 'Zelda Quokka', 0.62, 4], [2, 'Bob Marmot', 0.27, 1]]]]);
    expect(final.names).toEqual({ [zelda]: 'Zelda Quokka', [bob]: 'Bob Marmot' });
    expect(final.credit).toEqual([zelda]);
    expect(final.evolution?.curve).toEqual([0.5, 0.7]);
    expect(JSON.stringify(final)).not.toContain('unforgettable-prompt-words');
    // Past the document's store debounce, while the server still runs, and after it stops.
    await new Promise((r) => setTimeout(r, 1200));
    expect(folderText(dataDir)).not.toContain('Zelda Quokka');
    await t.room.close();
    rooms.splice(0);
    const text = folderText(dataDir);
    expect(text).not.toContain('Zelda Quokka');
    expect(text).not.toContain('Bob Marmot');
  });

  it('keep hidden names hidden', async () => {
    const { t, zelda, bob } = await scoredRoom(mkdtempSync(join(tmpdir(), 'room-final-')));
    await t.call('PATCH', '/api/settings', { token: t.room.teacherToken, body: { namesHidden: true } });
    await t.call('POST', '/api/end', { token: t.room.teacherToken });
    const p = projectorOf(t);
    await p.synced;
    await until(() => readRoom(p.doc).final != null);
    const final = readRoom(p.doc).final!;
    expect(final.names).toEqual({ [zelda]: 'Participant 1', [bob]: 'Participant 2' });
    expect(final.rounds[0]!.rows.map((r) => r.name)).toEqual(['Participant 1', 'Participant 2']);
    expect(JSON.stringify(final)).not.toContain('Zelda');
  });
});
