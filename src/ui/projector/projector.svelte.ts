/**
 * The projector's state (`?view=projector`): the room's live document (read-only), the round shown
 * and its leaderboard, and the "new best" moments — a participant whose best improves is highlighted
 * for `NEW_BEST_MS`. The first snapshot sets the baseline (a reload shows no moment). The clock ticks
 * once a second for the timer and the highlights' end.
 */
import type { LeaderboardRow, ProjectorInfo, RoomScore, RoundPublic } from '../../room/protocol.ts';
import type { RoomState } from '../../room/room-doc.ts';
import { leaderboard, newBests } from '../../room/leaderboard.ts';
import { currentRound, waucText } from '../shared/room/room-board.ts';
import type { RoomLive } from '../shared/room/room-live.svelte.ts';

/** How long a "new best" stays highlighted, ms. */
export const NEW_BEST_MS = 8000;

/** A "new best" moment: whose, the new W-AUC, until when (ms since the epoch). */
export interface NewBest {
  participantId: string;
  wauc: number;
  until: number;
}

/**
 * The moments to add after a change from `before` to `after` at `now` (pure). `before` null: the
 * first snapshot, none. A change of round resets the baseline.
 */
export function newBestMoments(before: { roundId: string; rows: readonly LeaderboardRow[] } | null, after: { roundId: string; rows: readonly LeaderboardRow[] }, now: number): NewBest[] {
  if (before === null || before.roundId !== after.roundId) return [];
  return newBests(before.rows, after.rows).map((best) => ({ participantId: best.participantId, wauc: best.wauc, until: now + NEW_BEST_MS }));
}

/** A score's interval in words: "0.55–0.70 · n = 6", or "n = 1 (no interval)" for one session. */
export function ciText(score: RoomScore): string {
  if (score.n < 2) return `n = ${score.n} (no interval)`;
  return `${waucText(score.low)}–${waucText(score.high)} · n = ${score.n}`;
}

/** What the projector draws: the live room, the join address, the round shown, its leaderboard, the new-best moments and the clock. */
export class ProjectorState {
  now = $state(Date.now());
  moments = $state<NewBest[]>([]);
  private baseline: { roundId: string; rows: LeaderboardRow[] } | null = null;

  constructor(readonly live: RoomLive, readonly join: ProjectorInfo | null, clock: { now(): number; setInterval(callback: () => void, ms: number): unknown }) {
    this.now = clock.now();
    const observe = (state: RoomState): void => {
      const round = currentRound(state);
      if (!round) return;
      const after = { roundId: round.id, rows: leaderboard(state, round.id) };
      const added = newBestMoments(this.baseline, after, clock.now());
      this.baseline = after;
      if (added.length > 0) this.moments = [...this.moments.filter((m) => !added.some((a) => a.participantId === m.participantId)), ...added];
    };
    if (live.state) observe(live.state);
    live.onChange(observe);
    clock.setInterval(() => {
      this.now = clock.now();
      if (this.moments.some((m) => m.until <= this.now)) this.moments = this.moments.filter((m) => m.until > this.now);
    }, 1000);
  }

  get state(): RoomState | null {
    return this.live.state;
  }

  get round(): RoundPublic | null {
    return this.live.state ? currentRound(this.live.state) : null;
  }

  get leaderboard(): LeaderboardRow[] {
    const round = this.round;
    return this.live.state && round ? leaderboard(this.live.state, round.id) : [];
  }

  get namesHidden(): boolean {
    return this.live.state?.settings?.namesHidden ?? false;
  }
}
