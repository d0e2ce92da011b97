/**
 * What the student's Room view shows of the shared document (src/room/room-doc.ts `RoomState`):
 * the current round, my submissions with their scoring progress, the timer and a score in words
 * (the leaderboard is src/room/leaderboard.ts, shared with the server and the projector). W-AUC is a fraction of the
 * game's max score (0–1; docs/glossary.md), with its 95 % interval and n sessions. Pure.
 */
import type { RoomScore, RoundPublic, ScoreState, SubmissionPublic } from '../../room/protocol.ts';
import type { RoomState } from '../../room/room-doc.ts';

/** The round the teacher has open (or last opened), or null before the first. */
export function currentRound(state: RoomState): RoundPublic | null {
  return state.rounds.find((r) => r.id === state.currentRoundId) ?? null;
}

/** One of my submissions as the view lists it (newest first). */
export interface MySubmission {
  submission: SubmissionPublic;
  score: ScoreState | null;
}

/** My submissions of `roundId`, newest version first. */
export function mySubmissions(state: RoomState, participantId: string, roundId: string): MySubmission[] {
  return state.submissions
    .filter((s) => s.participantId === participantId && s.roundId === roundId)
    .sort((a, b) => b.version - a.version)
    .map((submission) => ({ submission, score: state.scores[submission.id] ?? null }));
}

const fixed = (x: number): string => x.toFixed(2);

/** A score in words: "W-AUC 0.62 of the max score (95 % interval 0.55–0.70, n = 6 sessions)";
 * one session has no interval: "(n = 1 session, no interval)", as the projector says. */
export function scoreText(score: RoomScore): string {
  if (score.n < 2) return `W-AUC ${fixed(score.wauc)} of the max score (n = ${score.n} session, no interval)`;
  return `W-AUC ${fixed(score.wauc)} of the max score (95 % interval ${fixed(score.low)}–${fixed(score.high)}, n = ${score.n} sessions)`;
}

/** A submission's scoring in words: queued, "scoring 3 / 6 sessions", its score, or why it failed. */
export function scoreStateText(state: ScoreState | null): string {
  if (state === null || state.status === 'queued') return 'waiting to be scored';
  if (state.status === 'scoring') return `scoring: ${state.done} / ${state.total} sessions`;
  if (state.status === 'removed') return 'removed by the teacher';
  if (state.status === 'failed') return `scoring failed${state.message ? `: ${state.message}` : ''}`;
  return state.score ? scoreText(state.score) : 'scored';
}

/** The timer: "12:05 left" (minutes:seconds; hours as 1:02:05), "time is up", or null without a timer. */
export function timerText(endsAt: string | null, nowMs: number): string | null {
  if (endsAt === null) return null;
  const left = Math.ceil((Date.parse(endsAt) - nowMs) / 1000);
  if (!Number.isFinite(left)) return null;
  if (left <= 0) return 'time is up';
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = String(left % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s} left` : `${m}:${s} left`;
}

/** The round's timer as the student sees it: running only while the round is open (locked, revealed or closed: none). */
export function roundTimerText(round: Pick<RoundPublic, 'state' | 'endsAt'>, nowMs: number): string | null {
  return round.state === 'open' ? timerText(round.endsAt, nowMs) : null;
}

/** A practice task (`lever-room:1`, `zork1:12`, `web:shop/t12:3`) as Learn opens it: the story id and seed (a web task is its own id, seed 0). */
export function practiceTarget(task: string): { story: string; seed: number } {
  if (task.startsWith('web:')) return { story: task, seed: 0 };
  const m = /^(.*):(\d+)$/.exec(task);
  return m ? { story: m[1]!, seed: Number(m[2]) } : { story: task, seed: 0 };
}

/** A round's heading: "Round 2: Levers", or the title alone when it already says "Round 2" (the default title). */
export function roundHeading(round: Pick<RoundPublic, 'index' | 'title'>): string {
  return /^round\s*\d*$/i.test(round.title.trim()) ? `Round ${round.index}` : `Round ${round.index}: ${round.title}`;
}
