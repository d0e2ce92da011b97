import { describe, expect, it } from 'vitest';
import { checkEnd, endReasonFor } from './end-detection.ts';

describe('end of game', () => {
  it('sees Inform death and the restart question', () => {
    const end = checkEnd('You fall.\n\n    *** You have died ***\n\nWould you like to RESTART, RESTORE a saved game or QUIT?\n>', undefined);
    expect(end).toEqual({ victory: false, death: true, restartQuestion: true, catalogEnd: false });
    expect(endReasonFor(false, end.death, false)).toBe('death');
  });

  it('uses catalog texts (zork1: "Inside the Barrow" is victory)', () => {
    const end = checkEnd('Inside the Barrow\nAs you enter...', { victoryText: 'Inside the Barrow' });
    expect(end.victory).toBe(true);
    expect(end.restartQuestion).toBe(false);
  });

  it('catalog texts may hold alternatives; any of them ends the game (anchor)', () => {
    const rules = { gameOverText: ['Do you want me to try to reincarnate you?', 'Would you like to RESTART, RESTORE a saved game, UNDO'] };
    expect(checkEnd('Would you like to RESTART, RESTORE a saved game, UNDO your last move', rules).catalogEnd).toBe(true);
    expect(checkEnd('Do you want me to try to reincarnate you?', rules)).toMatchObject({ catalogEnd: true, death: true });
    expect(checkEnd('Nothing happens.', rules).catalogEnd).toBe(false);
  });

  it('"You have won" banners with a tail are victories', () => {
    expect(checkEnd('    *** You have won... for now ***', undefined).victory).toBe(true);
    expect(checkEnd('You have won the lottery.', undefined).victory).toBe(false);
  });

  it('a question that is not about restarting does not end the game', () => {
    expect(checkEnd('Do you want me to try to reincarnate you?\n>', undefined).restartQuestion).toBe(false);
  });
});
