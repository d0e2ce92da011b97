/** How an episode ended, in words: a web task never "game over"s. */
import { describe, expect, it } from 'vitest';
import { terminationText } from './termination.ts';

describe('terminationText', () => {
  it('says "task ended" for a web task and keeps the story words otherwise', () => {
    expect(terminationText('game_over', 'web')).toBe('task ended');
    expect(terminationText('game_over')).toBe('game over');
    expect(terminationText('step_limit', 'web')).toBe('step limit reached');
    expect(terminationText(null, 'web')).toBe('not ended');
  });
});
