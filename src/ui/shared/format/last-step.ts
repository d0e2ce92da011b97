/**
 * The newest step of a running episode in one line, for the progress card ("Last step"), so a
 * presenter's Step has a visible effect even when the transcript is below the fold:
 * "#5 pull lever → +1, score 3". The command is model output: it is shown as text (never HTML),
 * its whitespace and control characters collapsed to single spaces and cut at a length. Pure.
 */
import type { TrajectoryStep } from '../../../agents/trajectory.ts';
import { changeText } from './episode-compare.ts';

/** Longest command shown, characters (a longer one ends in "…"). */
export const LAST_STEP_COMMAND_CHARS = 60;

/** A command as one short line of text: control characters and runs of whitespace become one
 * space, trimmed, cut to `maxChars` characters with "…". */
export function commandLine(action: string, maxChars = LAST_STEP_COMMAND_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const flat = action.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > maxChars ? `${chars.slice(0, maxChars - 1).join('').trimEnd()}…` : flat;
}

/**
 * "#5 pull lever → +1, score 3": step index, the command sent (or "(no action)"), the score change
 * (signed, score points) and the score after it ("no score kept" when the game keeps none).
 */
export function lastStepText(step: Pick<TrajectoryStep, 'index' | 'action' | 'reward' | 'score'>): string {
  const command = step.action === null || step.action.trim() === '' ? '(no action)' : commandLine(step.action);
  const score = step.score === null ? 'no score kept' : `score ${step.score}`;
  return `#${step.index} ${command} → ${changeText(step.reward)}, ${score}`;
}
