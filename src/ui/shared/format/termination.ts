/** How an episode ended, in words (method.md's termination vocabulary). Pure. */

/** What is known of an episode's end beyond its termination (all optional). */
export interface EndingFacts {
  /** Score at the end, score points (null: not kept). */
  finalScore?: number | null;
  /** The story's (or task's) max score, score points (null: unknown). */
  maxScore?: number | null;
  /** The engine's end reason ('victory', 'death', 'quit', 'unknown'). */
  endReason?: string | null;
}

/**
 * Whether a `game_over` episode was won: the engine saw the victory, or the final score reached a
 * known positive max score (a won game is never "game over").
 */
export function isWon(termination: string | null, facts: EndingFacts = {}): boolean {
  if (termination !== 'game_over') return false;
  if (facts.endReason === 'victory') return true;
  const { finalScore = null, maxScore = null } = facts;
  return finalScore !== null && maxScore !== null && maxScore > 0 && finalScore >= maxScore;
}

/**
 * "won" for a won `game_over` ("task completed" on a web task), "game over" for another
 * (`task ended` on a web task), and so on; "not ended" for null. Every view and export that words
 * a termination uses this (Learn, Agent, Replay, episodes side by side, the HTML/Markdown exports).
 */
export function terminationText(termination: string | null, kind: 'zmachine' | 'web' = 'zmachine', facts: EndingFacts = {}): string {
  if (isWon(termination, facts)) return kind === 'web' ? 'task completed' : 'won';
  if (kind === 'web' && termination === 'game_over') return 'task ended';
  const words: Record<string, string> = {
    step_limit: 'step limit reached', game_over: 'game over', error: 'the actor’s model failed', aborted: 'stopped',
    interpreter_hang: 'the interpreter hung', interpreter_error: 'the interpreter failed',
  };
  return termination === null ? 'not ended' : (words[termination] ?? termination);
}
