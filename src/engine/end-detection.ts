/**
 * End-of-game detection from the text a step printed. A game is over when the VM quits, when a
 * catalog (Jericho) victory or game-over text appears (Jericho ends the episode there), or when a
 * generic death or victory banner is followed by the restart/restore/quit question or by a wait
 * for a single key ("--end of session--", press any key) while the VM waits for input.
 */
import type { EndReason, StoryRules } from './interface.ts';

const GENERIC_DEATH = /\*{2,}\s*(?:You have died|You have lost|You have failed|You are dead)\s*\*{2,}/i;
/** "*** You have won ***", also with a tail ("*** You have won... for now ***"). */
const GENERIC_VICTORY = /\*{2,}\s*You have won\b[^*\n]{0,40}\*{2,}/i;
/** The restart question, in Inform's and Infocom's wordings. */
const RESTART_QUESTION = /\brestart\b[\s\S]{0,160}\b(?:restore|quit|end this session)\b|\bplay again\b/i;

export interface EndCheck {
  victory: boolean;
  death: boolean;
  restartQuestion: boolean;
  /** A catalog (Jericho) victory or game-over text appeared: Jericho ends the episode there. */
  catalogEnd: boolean;
}

/** The alternatives of a catalog text field. */
function alternatives(field: string | string[] | null | undefined): string[] {
  if (!field) return [];
  return (Array.isArray(field) ? field : [field]).filter((t) => t !== '');
}

/** What one step's text (status line and upper window included) says about the end of the game. */
export function checkEnd(text: string, rules: StoryRules | undefined): EndCheck {
  const catalogVictory = alternatives(rules?.victoryText).some((t) => text.includes(t));
  const gameOver = alternatives(rules?.gameOverText).some((t) => text.includes(t));
  const victory = GENERIC_VICTORY.test(text) || catalogVictory;
  const death = GENERIC_DEATH.test(text) || (gameOver && !victory);
  // The question must come after the last thing printed, i.e. near the end of the text.
  const tail = text.slice(-400);
  return { victory, death, restartQuestion: RESTART_QUESTION.test(tail), catalogEnd: catalogVictory || gameOver };
}

/** The end reason once the game is over, given everything seen so far. */
export function endReasonFor(victorySeen: boolean, deathSeen: boolean, quit: boolean): EndReason {
  if (victorySeen) return 'victory';
  if (deathSeen) return 'death';
  return quit ? 'quit' : 'unknown';
}
