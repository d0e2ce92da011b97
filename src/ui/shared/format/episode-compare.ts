/**
 * Two episodes of a session side by side (the Learn and Replay views' "Episodes side by side"):
 * which episodes can be compared, the default pair (the first and the last), the steps aligned by
 * step number (step n of A beside step n of B, with the score after each step and its change), and
 * each episode's score by step for one chart. Faulted attempts (`record.faults`, cut short by a
 * provider fault and never scored) are not episodes and never appear here. Pure; texts stay raw
 * (the component renders actions as text and replies through the sanitising Markdown component).
 */
import { transcriptEntries, type TranscriptEntry } from './transcript.ts';
import type { TrajectoryStep } from '../../../agents/trajectory.ts';
import type { SessionRecord } from '../../../ttl/session-record.ts';

/** One episode as the comparison needs it. */
export interface ComparedEpisode {
  /** 1-based episode index. */
  index: number;
  /** The guiding prompt the episode was played with. */
  guidingPrompt: string;
  steps: readonly TrajectoryStep[];
  /** The game's score before the first step, score points (null: the game keeps none or unknown). */
  startScore: number | null;
  /** Score at the end, score points (null while it runs, or no score kept). */
  finalScore: number | null;
  /** How it ended (method.md vocabulary); null while it runs or when it was stopped mid-way. */
  termination: string | null;
  /** The game's text after the last step (the trajectory's `finalObservation`); null or absent: not known. */
  lastObservation?: string | null;
}

/** The steps of the episode being played live (the Learn view holds them apart from the record). */
export interface LiveEpisode {
  index: number;
  steps: readonly TrajectoryStep[];
}

/** The score before step 1: the trajectory's, else the first step's score minus its reward. */
function startScoreOf(steps: readonly TrajectoryStep[], recorded: number | null | undefined): number | null {
  if (recorded !== undefined && recorded !== null) return recorded;
  const first = steps[0];
  return first && first.score !== null ? first.score - first.reward : null;
}

/**
 * The episodes of `record` that can be compared, by index: every ended episode, and an unfinished
 * one with at least one step (with `live`'s steps when it is the episode being played). An episode
 * whose attempt faulted and was not played again has no steps and is left out; the faulted attempt
 * itself lives in `record.faults`, not here.
 */
export function comparableEpisodes(record: SessionRecord, live?: LiveEpisode | null): ComparedEpisode[] {
  return record.episodes
    .map((e): ComparedEpisode => {
      const steps = live && live.index === e.index && e.trajectory === null ? live.steps : e.steps;
      return {
        index: e.index, guidingPrompt: e.guidingPrompt, steps, startScore: startScoreOf(steps, e.trajectory?.startScore),
        finalScore: e.trajectory ? e.finalScore : null, termination: e.trajectory ? e.termination : null,
        lastObservation: e.trajectory ? e.trajectory.finalObservation : null,
      };
    })
    .filter((e) => e.termination !== null || e.steps.length > 0)
    .sort((a, b) => a.index - b.index);
}

/** The pair shown first: the first and the last comparable episode (e.g. 1 and K); null with fewer than two. */
export function defaultPair(episodes: readonly ComparedEpisode[]): [number, number] | null {
  return episodes.length < 2 ? null : [episodes[0]!.index, episodes.at(-1)!.index];
}

/** One side of an aligned row: what the episode did at that step. */
export interface StepCell {
  /** The command sent (null: none was sent, e.g. the call failed). */
  action: string | null;
  parseStatus: TrajectoryStep['parseStatus'];
  /** Score after the step, score points (null: no score kept). */
  score: number | null;
  /** Score change of the step (its reward), score points, signed. */
  change: number;
  step: TrajectoryStep;
  /** The game's answer to the command (`transcriptEntries`); null: none sent, or not known yet. */
  answer: string | null;
}

/** Step n of A beside step n of B; a side is null when that episode had ended by then. */
export interface AlignedRow {
  /** 1-based step number. */
  step: number;
  a: StepCell | null;
  b: StepCell | null;
  /** Both sides sent the same command (case and spacing ignored). */
  sameAction: boolean;
  /** Score of B minus score of A after this step (each episode's last score carried past its
   * end); null when either has no score yet. */
  scoreGap: number | null;
}

const cellOf = (entry: TranscriptEntry): StepCell => ({
  action: entry.step.action, parseStatus: entry.step.parseStatus, score: entry.step.score, change: entry.step.reward, step: entry.step, answer: entry.answer,
});
const norm = (action: string | null): string | null => (action === null ? null : action.trim().replace(/\s+/g, ' ').toLowerCase());

/**
 * Align two episodes by step number: one row per step up to the longer episode's length. Past the
 * shorter episode's end its side is null, and its last score (else its start score) stands for the
 * score gap.
 */
export function alignEpisodes(a: ComparedEpisode, b: ComparedEpisode): AlignedRow[] {
  const rows: AlignedRow[] = [];
  let scoreA = a.startScore;
  let scoreB = b.startScore;
  const entriesA = transcriptEntries(a.steps, a.lastObservation ?? null);
  const entriesB = transcriptEntries(b.steps, b.lastObservation ?? null);
  for (let n = 1; n <= Math.max(a.steps.length, b.steps.length); n++) {
    const sa = a.steps[n - 1];
    const sb = b.steps[n - 1];
    if (sa && sa.score !== null) scoreA = sa.score;
    if (sb && sb.score !== null) scoreB = sb.score;
    rows.push({
      step: n, a: sa ? cellOf(entriesA[n - 1]!) : null, b: sb ? cellOf(entriesB[n - 1]!) : null,
      sameAction: !!sa && !!sb && norm(sa.action) !== null && norm(sa.action) === norm(sb.action),
      scoreGap: scoreA === null || scoreB === null ? null : scoreB - scoreA,
    });
  }
  return rows;
}

/** A point of a score-by-step curve: step (0 = before the first step) and the score after it. */
export interface ScorePoint {
  x: number;
  y: number;
}

/** The score after each step, from step 0 (the start score, when known); steps with no score are skipped. */
export function scoreByStep(episode: ComparedEpisode): ScorePoint[] {
  const points: ScorePoint[] = episode.startScore === null ? [] : [{ x: 0, y: episode.startScore }];
  episode.steps.forEach((s, i) => {
    if (s.score !== null) points.push({ x: i + 1, y: s.score });
  });
  return points;
}

/** "+1", "−2" or "±0": a score change in score points. */
export const changeText = (change: number): string => (change > 0 ? `+${change}` : change < 0 ? `−${-change}` : '±0');
