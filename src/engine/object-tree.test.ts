/**
 * The object tree and Z-text readers on hand-built memory, one form at a time (Z-Machine Standard
 * 1.1 §3 and §12): v3 byte links and v4+ word links, alphabets and shifts, the 10-bit ZSCII escape,
 * the default and a story's own Unicode table, a custom alphabet, abbreviations (expanded; dropped
 * the way Jericho's get_text drops them), and addresses outside memory (null, never a throw).
 */
import { describe, expect, it } from 'vitest';
import { bytesMemory, decodeZString, objectParent, objectShortName, playerLocation } from './object-tree.ts';

/** Pack Z-characters three to a word (padded with 5s), the last word with its end bit. */
function zwords(zchars: number[]): number[] {
  const padded = [...zchars];
  while (padded.length % 3 || padded.length === 0) padded.push(5);
  const bytes: number[] = [];
  for (let i = 0; i < padded.length; i += 3) {
    const w = (padded[i]! << 10) | (padded[i + 1]! << 5) | padded[i + 2]! | (i + 3 >= padded.length ? 0x8000 : 0);
    bytes.push(w >> 8, w & 0xff);
  }
  return bytes;
}

/** Z-characters of lower-case letters and spaces in the default alphabet A0. */
const a0 = (text: string): number[] => [...text].map((c) => (c === ' ' ? 0 : c.charCodeAt(0) - 97 + 6));

/** A story memory of `size` bytes with a version byte, an object table at 0x100 and writers. */
function story(version: number, size = 0x800) {
  const bytes = new Uint8Array(size);
  bytes[0] = version;
  const setWord = (addr: number, value: number) => { bytes[addr] = value >> 8; bytes[addr + 1] = value & 0xff; };
  setWord(0x0a, 0x100);
  const v3 = version <= 3;
  const first = 0x100 + 2 * (v3 ? 31 : 63);
  const entry = v3 ? 9 : 14;
  let next = 0x400;
  /** Object `n` with `parent` and a short name of the given Z-characters. */
  const object = (n: number, parent: number, zchars: number[]) => {
    const at = first + entry * (n - 1);
    if (v3) bytes[at + 4] = parent;
    else setWord(at + 6, parent);
    setWord(at + entry - 2, next);
    const text = zchars.length ? zwords(zchars) : [];
    bytes[next] = text.length / 2;
    bytes.set(text, next + 1);
    next += 1 + text.length + 1;
  };
  return { bytes, setWord, object, mem: bytesMemory(bytes) };
}

describe('object parents and short names', () => {
  it('v3: byte links, 9-byte entries; v5: word links, 14-byte entries', () => {
    for (const version of [3, 5]) {
      const s = story(version);
      s.object(1, 0, a0('kitchen'));
      s.object(2, 1, a0('you'));
      expect(objectParent(s.mem, version, 2)).toBe(1);
      expect(objectParent(s.mem, version, 1)).toBe(0);
      expect(objectShortName(s.mem, version, 1)).toBe('kitchen');
      expect(playerLocation(s.mem, version, 2)).toEqual({ id: 1, name: 'kitchen' });
      // A player with no parent has no location.
      expect(playerLocation(s.mem, version, 1)).toBeNull();
    }
  });

  it('object numbers outside memory or outside the Standard give null, never a throw', () => {
    const s = story(5, 0x600);
    s.object(1, 0, a0('hall'));
    expect(objectParent(s.mem, 5, 0)).toBeNull();
    expect(objectParent(s.mem, 5, 1.5)).toBeNull();
    expect(objectParent(s.mem, 5, 5000)).toBeNull();
    expect(objectShortName(s.mem, 5, 5000)).toBeNull();
    expect(objectParent(s.mem, 3, 256)).toBeNull();
    // A parent whose property table points past the end of memory: no location.
    s.object(2, 3, a0('me'));
    s.setWord(0x100 + 126 + 14 * 2 + 12, 0xfff0);
    expect(playerLocation(s.mem, 5, 2)).toBeNull();
  });

  it('an object with an empty name is named \'\' (Jericho refuses it: null in its mode)', () => {
    const s = story(5);
    s.object(1, 0, []);
    s.object(2, 1, a0('me'));
    expect(playerLocation(s.mem, 5, 2)).toEqual({ id: 1, name: '' });
    expect(objectShortName(s.mem, 5, 1, { jericho: true })).toBeNull();
  });
});

describe('Z-text decoding', () => {
  it('shifts to A1 and A2 for one character, digits and punctuation, the A2 newline', () => {
    const s = story(5);
    // "Room 7." then newline then "x": 4 = shift A1, 5 = shift A2 (A2 8 = '0', 18 = '.', 7 = newline).
    s.bytes.set(zwords([4, 6 + 17, ...a0('oom '), 5, 8 + 7, 5, 18, 5, 7, ...a0('x')]), 0x300);
    expect(decodeZString(s.mem, 5, 0x300)).toBe('Room 7.\nx');
    expect(decodeZString(s.mem, 5, 0x300, 1024, { jericho: true })).toBe('Room 7.x');
  });

  it('10-bit ZSCII escapes: ASCII, the default Unicode table, and a story\'s own table', () => {
    const s = story(5);
    const escape = (code: number) => [5, 6, code >> 5, code & 0x1f];
    s.bytes.set(zwords([...escape(39), ...escape(155), ...escape(220)]), 0x300);
    // 39 = "'", 155 = ä, 220 = œ (U+0153: above U+00FF, Jericho's byte-wide text gives '?').
    expect(decodeZString(s.mem, 5, 0x300)).toBe("'äœ");
    expect(decodeZString(s.mem, 5, 0x300, 1024, { jericho: true })).toBe("'ä?");
    // Header extension table (0x36) word 3 → a Unicode table whose first entry (ZSCII 155) is Ω.
    s.setWord(0x36, 0x380);
    s.setWord(0x380, 3);
    s.setWord(0x386, 0x390);
    s.bytes[0x390] = 1;
    s.setWord(0x391, 0x3a9);
    expect(decodeZString(s.mem, 5, 0x300)).toBe("'Ω");
  });

  it('a v5 story\'s own alphabet table (header 0x34) replaces the default; v3 ignores the field', () => {
    const s = story(5);
    const custom = 0x500;
    for (let i = 0; i < 78; i++) s.bytes[custom + i] = 'zyxwvutsrqponmlkjihgfedcba'.charCodeAt(i % 26);
    s.bytes.set(zwords([6, 7, 8]), 0x300);
    expect(decodeZString(s.mem, 5, 0x300)).toBe('abc');
    s.setWord(0x34, custom);
    expect(decodeZString(s.mem, 5, 0x300)).toBe('zyx');
    expect(decodeZString(s.mem, 3, 0x300)).toBe('abc');
  });

  it('abbreviations are expanded (one level); Jericho\'s decoding drops them', () => {
    const s = story(3);
    // Abbreviation table at 0x40; entry 0 ("of ") at word address 0x180 (byte 0x300).
    s.setWord(0x18, 0x40);
    s.setWord(0x40, 0x300 / 2);
    s.bytes.set(zwords(a0('of ')), 0x300);
    s.object(1, 0, [...a0('west '), 1, 0, 4, 6 + 7, ...a0('ouse')]);
    s.object(2, 1, a0('me'));
    expect(playerLocation(s.mem, 3, 2)).toEqual({ id: 1, name: 'west of House' });
    expect(objectShortName(s.mem, 3, 1, { jericho: true })).toBe('west House');
  });

  it('a string with no end bit stops at maxWords or at the end of memory', () => {
    const s = story(5, 0x310);
    // 0x18c6 = Z-characters 6, 6, 6 ("aaa") with no end bit.
    s.bytes.set([0x18, 0xc6, 0x18, 0xc6, 0x18, 0xc6], 0x300);
    s.bytes.set([0x18, 0xc6], 0x30e);
    expect(decodeZString(s.mem, 5, 0x300, 2)).toBe('aaaaaa');
    expect(decodeZString(s.mem, 5, 0x30e)).toBe('aaa');
    expect(decodeZString(s.mem, 5, 0x2000)).toBe('');
  });
});
