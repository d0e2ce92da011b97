/**
 * Every header address is checked against the file at load: broken files
 * derived at test time from the real stories in ../shared/stories (never committed) are refused
 * with the address named, and every real story still loads. Addresses follow the Z-Machine
 * Standard 1.1 §11.
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoryFileError } from '../src/engine/errors.ts';
import { headerChecksum, identifyStory } from '../src/engine/story-file.ts';
import { readShared, sharedDir } from './support/shared.ts';

const stories = readdirSync(resolve(sharedDir(), 'stories')).filter((f) => /\.z[358]$/.test(f));
const load = (name: string): Uint8Array => new Uint8Array(readShared(`stories/${name}`));
const word = (b: Uint8Array, at: number): number => (b[at]! << 8) | b[at + 1]!;
const withWord = (b: Uint8Array, at: number, value: number): Uint8Array => {
  const copy = b.slice();
  copy[at] = (value >> 8) & 0xff;
  copy[at + 1] = value & 0xff;
  return copy;
};
const fileEnd = (b: Uint8Array): number => word(b, 0x1a) * (b[0] === 3 ? 2 : b[0] === 8 ? 8 : 4) || b.length;
const hex = (n: number): string => `0x${n.toString(16).padStart(4, '0')}`;

/** The refusal for `bytes`, or a failure when it is accepted. */
function refusal(bytes: Uint8Array): StoryFileError {
  try {
    identifyStory(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(StoryFileError);
    return error as StoryFileError;
  }
  throw new Error('the broken file was accepted');
}

describe('header addresses checked against the file', () => {
  it('finds the real stories to derive from', () => {
    expect(stories.length).toBeGreaterThanOrEqual(5);
    expect(stories.some((f) => f.endsWith('.z3'))).toBe(true);
  });

  const FIELDS: readonly [string, number][] = [
    ['high memory base', 0x04],
    ['initial program counter', 0x06],
    ['dictionary', 0x08],
    ['object table', 0x0a],
    ['global variables table', 0x0c],
    ['static memory base', 0x0e],
    ['abbreviations table', 0x18],
  ];
  for (const name of stories) {
    it(`${name}: loads, and with each header address moved past the end is refused with it named`, () => {
      const good = load(name);
      expect(identifyStory(good).warnings).toEqual([]);
      // A copy cut to 0xc000 bytes (its length field cleared), so a 16-bit address can point past its end.
      const cut = withWord(good.slice(0, 0xc000), 0x1a, 0);
      expect(() => identifyStory(cut)).not.toThrow();
      const past = cut.length + 0x10;
      for (const [field, at] of FIELDS) {
        const error = refusal(withWord(cut, at, past));
        expect(error.code, field).toBe('bad_header');
        expect(error.message, field).toContain(`its ${field} (header byte 0x${at.toString(16).padStart(2, '0')}) is ${hex(past)}`);
      }
    });
  }

  it('a static memory base beyond the end is refused, named (a file cut to below its static base)', () => {
    const good = load('minizork.z3');
    const staticBase = word(good, 0x0e);
    const cut = withWord(good.slice(0, staticBase - 16), 0x1a, 0);
    const error = refusal(cut);
    expect(error.code).toBe('bad_header');
    expect(error.message).toBe(`The story file's header is damaged: its static memory base (header byte 0x0e) is ${hex(staticBase)}, beyond the end of the file (${hex(staticBase - 16)} bytes). The file cannot run; get a fresh copy.`);
  });

  it('globals or objects past dynamic memory are refused, named; high memory below the static base is not (real files do it)', () => {
    const good = load('zork1.z5');
    const staticBase = word(good, 0x0e);
    expect(() => identifyStory(withWord(good, 0x04, staticBase - 2))).not.toThrow();
    expect(refusal(withWord(good, 0x0c, staticBase - 100)).message).toContain('its global variables table (header byte 0x0c)');
    expect(refusal(withWord(good, 0x0a, staticBase - 10)).message).toContain('its object table (header byte 0x0a)');
  });

  for (const name of stories) {
    it(`${name}: a dictionary entry length of 0, 2 or one byte short of the encoded text is refused, even with a correct checksum`, () => {
      const good = load(name);
      const dictionary = word(good, 0x08);
      const at = dictionary + 1 + good[dictionary]!;
      const textBytes = good[0]! <= 3 ? 4 : 6;
      for (const length of [0, 2, textBytes - 1]) {
        const bad = good.slice();
        bad[at] = length;
        // Give the damaged copy the checksum of its contents, so only the dictionary gives it away.
        const sum = headerChecksum(bad, bad[0]!)!;
        bad[0x1c] = sum.actual >> 8;
        bad[0x1d] = sum.actual & 0xff;
        expect(headerChecksum(bad, bad[0]!)).toEqual({ expected: sum.actual, actual: sum.actual });
        const error = refusal(bad);
        expect(error.code).toBe('bad_header');
        expect(error.message).toBe(`The story file's header is damaged: its dictionary (header byte 0x08) is ${hex(dictionary)}, whose entries are ${length} bytes long, shorter than the ${textBytes} bytes of a word's encoded text (Z-Machine Standard §13.3), so the game could recognise no word. The file cannot run; get a fresh copy.`);
      }
      expect(good[at]).toBeGreaterThanOrEqual(textBytes);
    });
  }

  it('a dictionary whose entries run past the end, an abbreviation, the v5 tables and the file length', () => {
    const advent = load('advent.z5');
    const end = fileEnd(advent);
    const dictionary = word(advent, 0x08);
    const separators = advent[dictionary]!;
    const hugeCount = withWord(advent, dictionary + 2 + separators, 0x7fff);
    expect(refusal(hugeCount).message).toContain(`its dictionary (header byte 0x08) is ${hex(dictionary)}, so its`);
    const abbreviations = word(advent, 0x18);
    const shortFile = withWord(advent.slice(0, 0x8000), 0x1a, 0);
    const badAbbreviation = withWord(shortFile, abbreviations + 2 * 7, 0x7fff);
    expect(refusal(badAbbreviation).message).toContain(`its abbreviation 7 (header byte 0x18) is ${hex(0xfffe)}`);
    for (const [field, at] of [['terminating characters table', 0x2e], ['alphabet table', 0x34], ['header extension table', 0x36]] as const) {
      expect(refusal(withWord(shortFile, at, 0x8010)).message, field).toContain(`its ${field} (header byte 0x${at.toString(16)}) is 0x8010`);
    }
    const tooLong = withWord(advent, 0x1a, (advent.length + 4) / 4);
    const error = refusal(tooLong);
    expect(error.code).toBe('truncated');
    expect(error.message).toContain(`but its header (byte 0x1a) says ${advent.length + 4}`);
    expect(end).toBeLessThanOrEqual(advent.length);
  });
});
