/** Task picks: game-level split warnings, seed lists, duplicates. */
import { describe, expect, it } from 'vitest';
import { parseSeeds, sharedGames, splitWarning, uniquePicks } from './task-picks.ts';

const gameOf = (storyId: string): string => ({ 'local:detective.z5': 'detective', 'user:abc': 'detective', advent: 'advent' })[storyId] ?? storyId;

describe('task picks', () => {
  it('warns when one game is on both sides, even through two copies of its file', () => {
    const train = [{ storyId: 'local:detective.z5', seed: 0 }, { storyId: 'advent', seed: 0 }];
    const val = [{ storyId: 'user:abc', seed: 1 }, { storyId: 'temple', seed: 0 }];
    expect(sharedGames(train, val, gameOf)).toEqual(['detective']);
    expect(splitWarning(train, val, gameOf)).toMatch(/^detective is in both train and validation/);
    expect(splitWarning([{ storyId: 'advent', seed: 0 }], val, gameOf)).toBeNull();
  });

  it('parses seed lists and rejects what is not a seed', () => {
    expect(parseSeeds('0, 1 5,1')).toEqual({ seeds: [0, 1, 5] });
    expect(parseSeeds('  ')).toEqual({ error: 'Enter at least one seed.' });
    expect(parseSeeds('1, -2')).toMatchObject({ error: expect.stringContaining('“-2” is not a seed') });
    expect(parseSeeds('4294967296')).toMatchObject({ error: expect.stringContaining('not a seed') });
  });

  it('drops duplicate picks', () => {
    expect(uniquePicks([{ storyId: 'a', seed: 0 }, { storyId: 'a', seed: 1 }, { storyId: 'a', seed: 0 }])).toEqual([{ storyId: 'a', seed: 0 }, { storyId: 'a', seed: 1 }]);
  });
});
