/**
 * The episode log the meta-agent (and the baselines' reflection model) reads, in method.md's
 * format ("Inner loop", "Episode log"): a header with the episode index and the guiding prompt
 * used; one line per step `[STEP i] [OBS] … [ACTION] … [REWARD] r [CUM_REWARD] score`, where an
 * observation identical to the previous one becomes "(same as previous step)"; then the final
 * observation and how the episode ended with its final score. The actor's reasoning is left out.
 */
import type { Trajectory } from './trajectory.ts';

export const SAME_AS_PREVIOUS = '(same as previous step)';

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

const ENDINGS: Record<Trajectory['termination'], string> = {
  step_limit: 'the step limit was reached',
  game_over: 'the game ended',
  error: 'the actor model failed',
  aborted: 'the episode was stopped',
  interpreter_hang: 'the interpreter stopped responding',
  interpreter_error: 'the interpreter failed',
};

/** Format one episode's trajectory as the meta-agent's log. */
export function formatEpisodeLog(episodeIndex: number, trajectory: Trajectory): string {
  const lines = [`=== EPISODE ${episodeIndex} ===`, 'Guiding prompt used:', trajectory.guidingPrompt.trim() || '(none)', ''];
  let previous: string | null = null;
  for (const step of trajectory.steps) {
    const obs = oneLine(step.observation);
    const shown = obs === previous ? SAME_AS_PREVIOUS : obs;
    previous = obs;
    lines.push(`[STEP ${step.index}] [OBS] ${shown} [ACTION] ${step.action ?? '(none)'} [REWARD] ${step.reward} [CUM_REWARD] ${step.score ?? 'n/a'}`);
  }
  const finalObs = oneLine(trajectory.finalObservation);
  lines.push('', `[FINAL OBS] ${finalObs}`);
  const max = trajectory.story.maxScore === null ? '' : ` out of ${trajectory.story.maxScore}`;
  const outcome = trajectory.endReason && trajectory.termination === 'game_over' ? ` (${trajectory.endReason})` : '';
  // A web episode "ends the game" when the actor sends its message (send_msg_to_user).
  const ending = trajectory.task?.kind === 'web' && trajectory.termination === 'game_over' ? 'the actor sent its message to the user' : ENDINGS[trajectory.termination];
  lines.push(`[EPISODE END] ${ending}${outcome} after ${trajectory.steps.length} steps. Final score: ${trajectory.finalScore ?? 'n/a'}${max}.`);
  return lines.join('\n');
}
