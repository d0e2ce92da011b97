import { describe, expect, it } from 'vitest';
import type { RoomSnapshot, RoundPublic } from '../../room/protocol.ts';
import type { RoomState } from '../../room/room-doc.ts';
import type { RoomApi } from '../shared/room/room-api.ts';
import type { RoomLive } from '../shared/room/room-live.svelte.ts';
import { nextRoundTitle, roundConfigOf, TeacherRoom, type RoundForm } from './teacher.svelte.ts';

const form: RoundForm = { title: ' Warm-up ', practiceStories: ['lever-room'], practiceSeeds: '1, 2', hiddenStories: ['lever-room', 'vault'], hiddenSeeds: '3', episodes: 3, steps: 12, repeats: 2, minutes: null };

describe('roundConfigOf', () => {
  it('makes the round request from the form', () => {
    expect(roundConfigOf(form)).toEqual({ title: 'Warm-up', practiceTasks: ['lever-room:1', 'lever-room:2'], hiddenTasks: ['lever-room:3', 'vault:3'], episodes: 3, steps: 12, repeats: 2, minutes: null });
  });

  it('refuses an empty hidden set and a hidden set that repeats practice tasks', () => {
    expect(() => roundConfigOf({ ...form, hiddenStories: [] })).toThrow('at least one story and one seed for the hidden set');
    expect(() => roundConfigOf({ ...form, hiddenSeeds: '2, 3' })).toThrow('repeats practice tasks (lever-room:2)');
  });
});

describe('TeacherRoom: the round title', () => {
  const roundOf = (index: number, state: RoundPublic['state']): RoundPublic => ({ id: `r${index}`, index, title: `Given ${index}`, practiceTasks: [], hiddenTasks: null, hiddenTaskCount: 1, episodes: 3, steps: 12, repeats: 1, state, openedAt: '2026-01-01T00:00:00Z', endsAt: null });

  /** A teacher view on a room whose document and snapshot hold `rounds` (a fake room: the document is a plain object, the API a recorder). */
  function teacherOn(rounds: RoundPublic[]) {
    const listeners: ((state: RoomState) => void)[] = [];
    const live = { state: { rounds, currentRoundId: rounds.at(-1)?.id ?? null } as unknown as RoomState, onChange: (l: (state: RoomState) => void) => listeners.push(l) };
    const opened: string[] = [];
    const api = {
      snapshot: async () => ({ rounds: live.state.rounds }) as RoomSnapshot,
      roundAction: async () => {},
      openRound: async (config: { title: string }) => {
        opened.push(config.title);
        live.state = { ...live.state, rounds: [...live.state.rounds, roundOf(live.state.rounds.length + 1, 'open')] } as RoomState;
        for (const l of listeners) l(live.state);
      },
    };
    const teacher = new TeacherRoom(api as unknown as RoomApi, live as unknown as RoomLive, { download: () => {}, setInterval: () => 0 });
    const change = (next: RoundPublic[]): void => {
      live.state = { ...live.state, rounds: next } as RoomState;
      for (const l of listeners) l(live.state);
    };
    return { teacher, opened, change };
  }

  it('defaults to "Round N" with N the next round\'s index, also when the page opens on a room that has rounds', async () => {
    expect(nextRoundTitle(0)).toBe('Round 1');
    const { teacher } = teacherOn([roundOf(1, 'closed'), roundOf(2, 'open')]);
    expect(teacher.form.title).toBe('Round 3');
    await teacher.refresh();
    expect(teacher.form.title).toBe('Round 3');
  });

  it('keeps a typed title until the round opens, then offers the next index', async () => {
    const { teacher, opened, change } = teacherOn([]);
    expect(teacher.form.title).toBe('Round 1');
    teacher.typeTitle('Warm-up');
    change([]);
    expect(teacher.form.title).toBe('Warm-up');
    await teacher.openRound(false);
    expect(opened).toEqual(['Warm-up']);
    expect(teacher.form.title).toBe('Round 2');
    teacher.typeTitle('');
    change([roundOf(1, 'open'), roundOf(2, 'open')]);
    expect(teacher.form.title).toBe('Round 3');
  });
});
