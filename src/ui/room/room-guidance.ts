/**
 * What the student's Room view says to guide them: why Submit is disabled, a practice task as a
 * reader names it (the story's title and seed), and what the room did to the name they joined with
 * (cut to `ROOM_LIMITS.name` characters, or made unique: "Alice (2)"). Pure.
 */
import { ROOM_LIMITS, type RoundPublic } from '../../room/protocol.ts';
import { practiceTarget } from './room-standing.ts';

/**
 * Why Submit is disabled, in plain words, or null when it is enabled.
 * @param round the current round (null: the teacher has not opened one)
 * @param draft the meta-prompt draft's text
 */
export function submitBlockedReason(round: Pick<RoundPublic, 'state'> | null, draft: string): string | null {
  if (round === null) return 'No round is open: wait for the teacher to open one.';
  if (round.state === 'locked') return 'The round is locked: submissions are closed.';
  if (round.state === 'revealed') return 'The round is revealed: submissions are closed.';
  if (round.state === 'closed') return 'The round is closed: wait for the teacher to open the next one.';
  if (draft.trim() === '') return 'Write a meta-prompt first (or start from a Library entry).';
  return null;
}

/**
 * A room task as a reader names it: "The Lever Room, seed 1" (the story's title from the shelf;
 * its id when the shelf does not have it), a web task as "web task shop/t12:3".
 * @param task the CLI's task id (`lever-room:1`, `zork1:12`, `web:shop/t12:3`)
 * @param titleOf the story's title by its id, or null when unknown
 */
export function taskLabel(task: string, titleOf: (storyId: string) => string | null): string {
  if (task.startsWith('web:')) return `web task ${task.slice('web:'.length)}`;
  const { story, seed } = practiceTarget(task);
  return `${titleOf(story) ?? story}, seed ${seed}`;
}

/**
 * What the room did to the name the student typed, or null when it kept it as typed.
 * "You are Alice (2): another participant has that name." / "You are … : names are cut to 40 characters."
 * @param asked the name as typed (trimmed)
 * @param given the name the room answered with
 */
export function joinedNameNote(asked: string, given: string): string | null {
  const typed = asked.trim();
  if (given === typed) return null;
  if (typed.length > ROOM_LIMITS.name && given.startsWith(typed.slice(0, ROOM_LIMITS.name).trimEnd())) {
    return `You are ${given}: names are cut to ${ROOM_LIMITS.name} characters.`;
  }
  if (/ \(\d+\)$/.test(given)) return `You are ${given}: another participant has that name.`;
  return `You are ${given}: the room changed the name you typed.`;
}
