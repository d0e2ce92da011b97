/**
 * The game's answer to each step's command. A recorded step's `observation` is the text *before*
 * its command (what the actor read); its answer is the next step's `observation`, and for the
 * last step the trajectory's `finalObservation`. Shared by the page's transcripts and the CLI's
 * `play --json`. Pure; imports no DOM.
 */
import type { TrajectoryStep } from './trajectory.ts';

/**
 * One answer per step, in order: step i's is step i+1's `observation`, the last step's is
 * `lastObservation` (null while not known, e.g. a running episode). A step that sent no command
 * (`action === null`) has answer null.
 */
export function stepAnswers(steps: readonly TrajectoryStep[], lastObservation: string | null): (string | null)[] {
  return steps.map((step, i) => (step.action === null ? null : (steps[i + 1]?.observation ?? lastObservation)));
}
