/**
 * What a transcript shows under each command: the game's answer to it (the observation the next
 * step read, or the episode's last text for the last step), and how the episode ended. A
 * recorded step's own `observation` is the text *before* its command (what the actor read).
 * Shared by Agent, Learn, episodes side by side and the report exports. Pure; imports no DOM.
 */
import type { Termination, TrajectoryStep } from '../../../agents/trajectory.ts';
import type { EndReason } from '../../../engine/interface.ts';
import { stepAnswers } from '../../../agents/step-answers.ts';
import { isWon, terminationText } from './termination.ts';

/** One step with the game's answer to its command. */
export interface TranscriptEntry {
  step: TrajectoryStep;
  /** The game's text after this step's command; null when no command was sent, or when the
   * answer is not known yet (the last step of a running episode before its result is in). */
  answer: string | null;
}

/**
 * Pair each step with the game's answer: step i's answer is step i+1's `observation` (the text
 * the actor read next), the last step's is `lastObservation` (a trajectory's `finalObservation`,
 * null while not known). A step that sent no command has no answer.
 */
export function transcriptEntries(steps: readonly TrajectoryStep[], lastObservation: string | null): TranscriptEntry[] {
  const answers = stepAnswers(steps, lastObservation);
  return steps.map((step, i) => ({ step, answer: answers[i] ?? null }));
}

/** How an episode ended, for the line under its last step. */
export interface EpisodeEnding {
  termination: Termination;
  finalScore: number | null;
  endReason: EndReason | null;
  /** What was played (a trajectory's `task`); a web task "ended", it was not a game. */
  task?: { kind: string } | null;
}

/** "Episode ended: game over (death), final score 0 of 7." or "Episode ended: won, final score 5
 * of 5." — one line, plain text. */
export function endingText(ending: EpisodeEnding, maxScore: number | null = null): string {
  const facts = { finalScore: ending.finalScore, maxScore, endReason: ending.endReason };
  // "won" needs no "(victory)" after it.
  const reason = ending.endReason !== null && ending.endReason !== 'unknown' && !isWon(ending.termination, facts) ? ` (${ending.endReason})` : '';
  const score = ending.finalScore === null ? 'no score kept' : `final score ${ending.finalScore}${maxScore !== null ? ` of ${maxScore}` : ''}`;
  return `Episode ended: ${terminationText(ending.termination, ending.task?.kind === 'web' ? 'web' : 'zmachine', facts)}${reason}, ${score}.`;
}
