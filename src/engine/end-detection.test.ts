import { describe, expect, it } from 'vitest';
import { checkEnd, endReasonFor } from './end-detection.ts';

describe('end of game', () => {
  it('sees Inform death and the restart question', () => {
    const end = checkEnd('You fall.\n\n    *** You have died ***\n\nWould you like to RESTART, RESTORE a saved game or QUIT?\n>', undefined);
    expect(end).toEqual({ victory: false, death: true, restartQuestion: true });
    expect(endReasonFor(false, end.death, false)).toBe('death');
  });

  it('uses catalog texts (zork1: "Inside the Barrow" is victory)', () => {
    const end = checkEnd('Inside the Barrow\nAs you enter...', { victoryText: 'Inside the Barrow' });
    expect(end.victory).toBe(true);
    expect(end.restartQuestion).toBe(false);
  });

  it('a question that is not about restarting does not end the game', () => {
    expect(checkEnd('Do you want me to try to reincarnate you?\n>', undefined).restartQuestion).toBe(false);
  });
});
