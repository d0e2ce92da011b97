/** Counted nouns: singular only for exactly 1. */
import { describe, expect, it } from 'vitest';
import { plural } from './plural.ts';

describe('plural', () => {
  it('says "1 point" but "0 points", "2 points", "1.5 points"; irregular plurals as given', () => {
    expect(plural(1, 'point')).toBe('1 point');
    expect(plural(0, 'point')).toBe('0 points');
    expect(plural(2, 'point')).toBe('2 points');
    expect(plural(1.5, 'point')).toBe('1.5 points');
    expect(plural(3, 'candidate')).toBe('3 candidates');
    expect(plural(2, 'reply', 'replies')).toBe('2 replies');
  });
});
