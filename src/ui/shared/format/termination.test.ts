/** How an episode ended, in words: a web task never "game over"s; a won game is "won". */
import { describe, expect, it } from 'vitest';
import { isWon, terminationText } from './termination.ts';

describe('terminationText', () => {
  it('says "task ended" for a web task and keeps the story words otherwise', () => {
    expect(terminationText('game_over', 'web')).toBe('task ended');
    expect(terminationText('game_over')).toBe('game over');
    expect(terminationText('step_limit', 'web')).toBe('step limit reached');
    expect(terminationText(null, 'web')).toBe('not ended');
  });
  it('says "won" when the game ended at the max score or in victory, never for a step limit', () => {
    expect(terminationText('game_over', 'zmachine', { finalScore: 5, maxScore: 5 })).toBe('won');
    expect(terminationText('game_over', 'zmachine', { finalScore: 3, maxScore: 5, endReason: 'victory' })).toBe('won');
    expect(terminationText('game_over', 'zmachine', { finalScore: 4, maxScore: 5, endReason: 'death' })).toBe('game over');
    expect(terminationText('game_over', 'zmachine', { finalScore: 0, maxScore: 0 })).toBe('game over');
    expect(terminationText('game_over', 'zmachine', { finalScore: 5, maxScore: null })).toBe('game over');
    expect(terminationText('step_limit', 'zmachine', { finalScore: 5, maxScore: 5 })).toBe('step limit reached');
    expect(terminationText('game_over', 'web', { finalScore: 1, maxScore: 1 })).toBe('task completed');
    expect(isWon('game_over', { finalScore: 6, maxScore: 5 })).toBe(true);
    expect(isWon(null, { finalScore: 5, maxScore: 5 })).toBe(false);
  });
});
