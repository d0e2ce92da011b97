/**
 * Test support: the room scorer against the deterministic mock provider on the teaching game
 * lever-room — its LLM settings, a round, submissions, and a recorder of what it publishes.
 */
import type { LlmSettings } from '../../src/llm/interface.ts';
import type { RoomEvolution, ScoreState, SubmissionText } from '../../src/room/protocol.ts';
import type { RoundWithId } from '../../src/room-server/seams.ts';
import { mockLlmSettings } from './mock-settings.ts';

/** A fake key, so the tests can check it never reaches what the scorer publishes. */
export const ROOM_KEY = 'fake-test-key-Rm7Sc0r1ngQx4';
/** What the mock's actor explores lever-room with (as test/teaching-sessions.test.ts). */
export const LEVER_COMMANDS = ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'];

export function roomLlm(baseUrl: string): LlmSettings {
  const s = mockLlmSettings(baseUrl, ROOM_KEY, {}, { maxConcurrent: 2 });
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role] = { ...s.roles[role], model: 'mock-model' };
  return s;
}

export const round = (o: Partial<RoundWithId> = {}): RoundWithId => ({
  id: 'r1', title: 'Levers', practiceTasks: ['lever-room:1'], hiddenTasks: ['lever-room:2', 'lever-room:3'], episodes: 3, steps: 6, repeats: 2, minutes: null, ...o,
});

export const submission = (id: string, participantId: string, text: string): SubmissionText => ({
  id, participantId, roundId: 'r1', version: 1, submittedAt: '2026-12-06T21:30:00.000Z', chars: text.length, source: 'written', text,
});

/** Everything the scorer published, in order. */
export class Published {
  scores: [string, ScoreState][] = [];
  evolutions: RoomEvolution[] = [];
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  onScore = (id: string, state: ScoreState) => {
    this.scores.push([id, structuredClone(state)]);
    this.wake();
  };
  onEvolution = (state: RoomEvolution) => {
    this.evolutions.push(structuredClone(state));
    this.wake();
  };
  of(id: string): ScoreState[] {
    return this.scores.filter(([x]) => x === id).map(([, s]) => s);
  }
  last(id: string): ScoreState | undefined {
    return this.of(id).at(-1);
  }
  /** Resolves once `test` holds after a publication (or now). */
  until(test: () => boolean, timeoutMs = 60_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for the scorer')), timeoutMs);
      this.waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
  private wake() {
    this.waiters = this.waiters.filter((w) => (w.test() ? (w.resolve(), false) : true));
  }
}
