/**
 * End-of-game detection from the text a step printed. A game is over when the VM quits, or when a
 * death or victory message is followed by the restart/restore/quit question while the VM waits
 * for input. Catalog texts (Jericho's victory / game-over strings) add to the generic patterns.
 */
import type { EndReason, StoryRules } from './interface.ts';

const GENERIC_DEATH = /\*{2,}\s*(?:You have died|You have lost|You have failed|You are dead)\s*\*{2,}/i;
const GENERIC_VICTORY = /\*{2,}\s*You have won\s*\*{2,}/i;
/** The restart question, in Inform's and Infocom's wordings. */
const RESTART_QUESTION = /\brestart\b[\s\S]{0,160}\b(?:restore|quit|end this session)\b|\bplay again\b/i;

export interface EndCheck {
  victory: boolean;
  death: boolean;
  restartQuestion: boolean;
}

/** What one step's text says about the end of the game. */
export function checkEnd(text: string, rules: StoryRules | undefined): EndCheck {
  const victory = GENERIC_VICTORY.test(text) || (!!rules?.victoryText && text.includes(rules.victoryText));
  const gameOver = !!rules?.gameOverText && text.includes(rules.gameOverText);
  const death = GENERIC_DEATH.test(text) || (gameOver && !victory);
  // The question must come after the last thing printed, i.e. near the end of the text.
  const tail = text.slice(-400);
  return { victory, death, restartQuestion: RESTART_QUESTION.test(tail) };
}

/** The end reason once the game is over, given everything seen so far. */
export function endReasonFor(victorySeen: boolean, deathSeen: boolean, quit: boolean): EndReason {
  if (victorySeen) return 'victory';
  if (deathSeen) return 'death';
  return quit ? 'quit' : 'unknown';
}
