import { describe, expect, it } from 'vitest';
import { chooseScoreSource, lastNumberAfterColon, parseStatusNumbers, readScore, type MemoryReader } from './scoring.ts';

/** A memory of signed 16-bit globals at address 100 (bytes: big-endian halves of those words). */
const memory = (globals: Record<number, number>): MemoryReader => {
  const word = (addr: number): number => globals[(addr - 100) / 2] ?? 0;
  return {
    globalsAddr: 100,
    int16: word,
    uint8: (addr) => ((addr - 100) % 2 === 0 ? (word(addr) >> 8) & 0xff : word(addr - 1) & 0xff),
  };
};

describe('score reading', () => {
  it('reads exactly what Jericho reads: one unsigned byte (murdac: word 0xF80B, byte 11)', () => {
    const source = chooseScoreSource(5, { scoreRead: { addr: 101, bytes: 1 }, movesRead: { addr: 102, bytes: 2 } });
    expect(readScore(source, memory({ 0: 0xf80b - 0x10000, 1: 7 }), '', 0)).toMatchObject({ score: 11, moves: 7 });
  });

  it('signed bytes, signed words and move offsets', () => {
    const source = chooseScoreSource(5, { scoreRead: { addr: 101, bytes: 1, signed: true }, movesRead: { addr: 102, bytes: 2, offset: -545 } });
    expect(readScore(source, memory({ 0: 0x00fe, 1: 600 }), '', 0)).toMatchObject({ score: -2, moves: 55 });
    const words = chooseScoreSource(5, { scoreRead: { addr: 100, bytes: 2 }, movesRead: null });
    expect(readScore(words, memory({ 0: -2 }), '', 0)).toMatchObject({ score: -2, moves: null });
  });

  it('status-line scores: the number after the last colon, negated for games counting down (afflicted)', () => {
    expect(lastNumberAfterColon('Police Station  Rating: -3')).toBe(-3);
    expect(lastNumberAfterColon('Police Station')).toBeNull();
    const source = chooseScoreSource(8, { scoreRead: null, statusLineScore: { negate: true }, movesRead: { addr: 100, bytes: 2 } });
    const first = readScore(source, memory({ 0: 4 }), 'Kitchen  Rating: -3', null);
    expect(first).toMatchObject({ score: 3, moves: 4 });
    expect(readScore(first.source, memory({ 0: 5 }), '', null).score).toBe(3);
  });

  it('v3 time games (Flags 1 bit 1) have no score and no moves unless the catalog says so', () => {
    expect(readScore(chooseScoreSource(3, undefined, { v3TimeGame: true }), memory({ 1: 9, 2: 30 }), '', 0)).toMatchObject({ score: null, moves: null });
    const catalog = chooseScoreSource(3, { scoreRead: { addr: 102, bytes: 2 }, movesRead: null }, { v3TimeGame: true });
    expect(readScore(catalog, memory({ 1: 9 }), '', 0).score).toBe(9);
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
