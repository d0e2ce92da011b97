import { describe, expect, it } from 'vitest';
import { chooseScoreSource, parseStatusNumbers, readScore, wordAddress, type MemoryReader } from './scoring.ts';

/** A memory of signed 16-bit globals at address 100. */
const memory = (globals: Record<number, number>): MemoryReader => ({
  globalsAddr: 100,
  int16: (addr) => globals[(addr - 100) / 2] ?? 0,
});

describe('score reading', () => {
  it('reads the whole signed word containing a 1-byte Jericho read', () => {
    expect(wordAddress({ addr: 3610, bytes: 1 })).toBe(3609);
    expect(wordAddress({ addr: 6801, bytes: 2 })).toBe(6801);
    const source = chooseScoreSource(5, { scoreRead: { addr: 101, bytes: 1 }, movesRead: { addr: 102, bytes: 2 } });
    expect(readScore(source, memory({ 0: -2, 1: 7 }), '', 0)).toMatchObject({ score: -2, moves: 7 });
  });

  it('v3 stories use globals 1 and 2, signed (−2 stays −2)', () => {
    expect(readScore(chooseScoreSource(3, undefined), memory({ 1: -2, 2: 5 }), '', 0)).toMatchObject({ score: -2, moves: 5 });
  });

  it('v4+ stories follow the status line to the right globals and keep them', () => {
    const first = readScore(chooseScoreSource(5, undefined), memory({ 1: 99, 9: 15, 10: 3 }), 'Hall  Score: 15  Moves: 3', 0);
    expect(first).toMatchObject({ score: 15, moves: 3, source: { scoreGlobal: 9, movesGlobal: 10 } });
    const later = readScore(first.source, memory({ 1: 99, 9: 20, 10: 4 }), '', 0);
    expect(later).toMatchObject({ score: 20, moves: 4 });
  });

  it('games without a RAM score report the victory score', () => {
    const source = chooseScoreSource(5, { scoreRead: null, movesRead: null });
    expect(readScore(source, memory({}), '', 0).score).toBe(0);
    expect(readScore(source, memory({}), '', 1).score).toBe(1);
  });

  it('parses status lines', () => {
    expect(parseStatusNumbers('At End Of Road  Score: 36  Moves: 0')).toEqual({ score: 36, moves: 0 });
    expect(parseStatusNumbers('West of House  Score: -5  Turns: 12')).toEqual({ score: -5, moves: 12 });
    expect(parseStatusNumbers('Hall   10/4')).toEqual({ score: 10, moves: 4 });
    expect(parseStatusNumbers('Hall  12:30 PM')).toEqual({ score: null, moves: null });
  });
});
