/**
 * The room's actions without a network: a round's timer locks it when it ends (and a submission
 * after its end is refused even before the timer fires), the leaderboard's ranks share ties (the
 * teacher's snapshot ranks as the clients' core leaderboard does, order included), and
 * the private state sums each server's usage counters.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readRoom, RoomDocWriter, RoomYDoc } from '../src/room/room-doc.ts';
import { leaderboard } from '../src/room/leaderboard.ts';
import { parseRoundConfig, RoomActions } from '../src/room-server/room-actions.ts';
import { RoomState } from '../src/room-server/room-state.ts';
import { memoryBackend } from '../src/room-server/sqlite-store.ts';
import type { ParticipantPublic, RoundPublic, ScoreState, SubmissionPublic } from '../src/room/protocol.ts';

const SETTINGS = { title: 'T', namesHidden: false, killedAll: false, caps: { maxCalls: null, maxTokens: null, maxUsd: null, opensAt: null, closesAt: null } };

async function actions(): Promise<{ a: RoomActions; state: RoomState; doc: InstanceType<typeof RoomYDoc> }> {
  const state = new RoomState(memoryBackend());
  await state.open();
  const { created } = await state.identity();
  const doc = new RoomYDoc();
  const a = new RoomActions({ state, writer: new RoomDocWriter(doc), disconnect: () => {}, log: () => {} });
  await a.start(SETTINGS, created);
  return { a, state, doc };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a round\'s timer', () => {
  it('locks the round when its minutes are up; a submission after the end is refused with 409', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
    const { a, state, doc } = await actions();
    const round = await a.openRound({ title: 'R', practiceTasks: [], hiddenTasks: ['lever-room:2'], episodes: 1, steps: 5, repeats: 1, minutes: 2 });
    expect(round.endsAt).toBe('2026-03-01T10:02:00.000Z');
    const joined = await a.join({ code: state.code, name: 'Ada' });
    await vi.advanceTimersByTimeAsync(60_000);
    await a.submit(joined.participantId, { roundId: round.id, text: 'in time', clientId: 'c1' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.round(round.id)!.public.state).toBe('locked');
    expect(readRoom(doc).rounds[0]!.state).toBe('locked');
    await expect(a.submit(joined.participantId, { roundId: round.id, text: 'late', clientId: 'c2' })).rejects.toMatchObject({ code: 'room_round_not_open', status: 409 });
    a.close();
  });
});

describe('opening a round, checked on the server', () => {
  const ROUND = { title: 'R', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2'], episodes: 1, steps: 5, repeats: 1, minutes: null };

  it('refuses a hidden set that repeats practice tasks, as the teacher page does', () => {
    expect(() => parseRoundConfig({ ...ROUND, hiddenTasks: ['lever-room:2', 'lever-room:1'] })).toThrow(expect.objectContaining({
      status: 400, message: 'The hidden set repeats practice tasks (lever-room:1): give it other seeds.',
    }));
    expect(parseRoundConfig(ROUND).hiddenTasks).toEqual(['lever-room:2']);
  });

  it('refuses a hidden task the scorer cannot play, before anything changes', async () => {
    const state = new RoomState(memoryBackend());
    await state.open();
    const { created } = await state.identity();
    const checked: string[][] = [];
    const scorer = {
      enqueue: () => {}, evolve: async () => {}, stopEvolution: () => {}, close: async () => {},
      checkTasks: async (tasks: readonly string[]) => {
        checked.push([...tasks]);
        if (tasks.includes('nosuch:1')) throw new Error('No story "nosuch" in the catalog (task nosuch:1).');
      },
    };
    const a = new RoomActions({ state, writer: new RoomDocWriter(new RoomYDoc()), scorer, disconnect: () => {}, log: () => {} });
    await a.start(SETTINGS, created);
    await expect(a.openRound({ ...ROUND, hiddenTasks: ['nosuch:1'] })).rejects.toMatchObject({
      status: 400, message: 'The hidden set cannot be scored: No story "nosuch" in the catalog (task nosuch:1).',
    });
    expect(state.rounds()).toEqual([]);
    await a.openRound(ROUND);
    expect(checked).toEqual([['nosuch:1'], ['lever-room:2']]);
    a.close();
  });

  it('closes the round that was current, so only one round takes submissions', async () => {
    const { a, state, doc } = await actions();
    const first = await a.openRound(ROUND);
    const joined = await a.join({ code: state.code, name: 'Ada' });
    const second = await a.openRound({ ...ROUND, title: 'R2' });
    expect(state.rounds().map((r) => [r.public.id, r.public.state])).toEqual([[first.id, 'closed'], [second.id, 'open']]);
    expect(readRoom(doc).currentRoundId).toBe(second.id);
    await expect(a.submit(joined.participantId, { roundId: first.id, text: 'to the old round', clientId: 'c1' })).rejects.toMatchObject({ code: 'room_round_not_open', status: 409 });
    a.close();
  });
});

describe('the leaderboard', () => {
  const round: RoundPublic = { id: 'r1', index: 1, title: 'R', practiceTasks: [], hiddenTasks: null, hiddenTaskCount: 1, episodes: 1, steps: 1, repeats: 1, state: 'open', openedAt: '', endsAt: null };
  const person = (id: string, removed = false): ParticipantPublic => ({ id, name: id.toUpperCase(), joinedAt: `2026-03-01T10:00:0${'abcd'.indexOf(id)}Z`, removed, killed: false });
  const sub = (id: string, participantId: string, minute: number): SubmissionPublic => ({ id, participantId, roundId: 'r1', version: 1, submittedAt: `2026-03-01T10:${String(10 + minute)}:00Z`, chars: 1, source: 'written' });
  const scored = (wauc: number | null): ScoreState => (wauc === null ? { status: 'scoring', done: 0, total: 1, score: null, message: null } : { status: 'scored', done: 1, total: 1, score: { wauc, low: wauc, high: wauc, n: 1, curve: [wauc] }, message: null });

  it('gives tied scores one rank (the earlier submission first) and leaves out unscored submissions and removed participants', () => {
    // b joined after a but submitted first: of two equal W-AUCs the earlier submission is listed first.
    const subs = [sub('s1', 'a', 5), sub('s2', 'b', 1), sub('s3', 'c', 2), sub('s4', 'c', 3), sub('s5', 'd', 0)];
    const scores = { s1: scored(0.5), s2: scored(0.5), s3: scored(0.2), s4: scored(null), s5: scored(0.9) };
    const state = { settings: SETTINGS, currentRoundId: 'r1', ended: false, participants: [person('a'), person('b'), person('c'), person('d', true)], rounds: [round], submissions: subs, scores, evolution: null };
    expect(leaderboard(state, 'r1').map((r) => [r.rank, r.participantId])).toEqual([[1, 'b'], [1, 'a'], [3, 'c']]);
  });

  it('the teacher\'s snapshot lists equal scores in the order every client computes from its document', async () => {
    const { a, state, doc } = await actions();
    const round = await a.openRound({ title: 'R', practiceTasks: [], hiddenTasks: ['lever-room:2'], episodes: 1, steps: 5, repeats: 1, minutes: null });
    const ada = await a.join({ code: state.code, name: 'Ada' });
    const bob = await a.join({ code: state.code, name: 'Bob' });
    const fromBob = await a.submit(bob.participantId, { roundId: round.id, text: 'first in', clientId: 'b1' });
    await new Promise((r) => setTimeout(r, 5));
    const fromAda = await a.submit(ada.participantId, { roundId: round.id, text: 'second in', clientId: 'a1' });
    state.setScoreSource(() => readRoom(doc).scores);
    a.reportScore(fromAda.id, scored(0.6));
    a.reportScore(fromBob.id, scored(0.6));
    const snapshot = state.snapshot();
    expect(snapshot.leaderboard.map((r) => [r.rank, r.name])).toEqual([[1, 'Bob'], [1, 'Ada']]);
    expect(leaderboard(readRoom(doc), round.id)).toEqual(snapshot.leaderboard);
    a.close();
  });
});

describe('usage across servers', () => {
  it('sums every server\'s counter of a participant (null dollars when any call had no price)', async () => {
    const state = new RoomState(memoryBackend());
    await state.open();
    await state.identity();
    await state.addUsage('p1', { calls: 1, tokens: 10, usd: 0.5 });
    await state.put({ kind: 'usage', id: 'p1:other-server', value: { calls: 2, tokens: 5, usd: 0.25 } });
    expect(state.usage('p1')).toEqual({ calls: 3, tokens: 15, usd: 0.75 });
    await state.addUsage('p1', { calls: 1, tokens: 1, usd: null });
    expect(state.usage('p1')).toEqual({ calls: 4, tokens: 16, usd: null });
  });
});
