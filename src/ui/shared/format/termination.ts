/** How an episode ended, in words (method.md's termination vocabulary). Pure. */

/** "game over" for `game_over` ("task ended" on a web task), and so on; "not ended" for null. */
export function terminationText(termination: string | null, kind: 'zmachine' | 'web' = 'zmachine'): string {
  if (kind === 'web' && termination === 'game_over') return 'task ended';
  const words: Record<string, string> = {
    step_limit: 'step limit reached', game_over: 'game over', error: 'the actor’s model failed', aborted: 'stopped',
    interpreter_hang: 'the interpreter hung', interpreter_error: 'the interpreter failed',
  };
  return termination === null ? 'not ended' : (words[termination] ?? termination);
}
