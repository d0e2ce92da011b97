/**
 * The words a Z-machine story's parser knows: its dictionary table (the header word at 0x08),
 * decoded. Follows the Z-Machine Standard 1.1: §13.1–13.4 (dictionary layout: separators, entry
 * length, signed entry count, entries whose first 4 bytes (versions 1–3) or 6 bytes (4+) are the
 * word's encoded text), §3.2–3.5 (Z-characters, alphabets A0/A1/A2 and the version 5+ alphabet
 * table at header 0x34, the 10-bit ZSCII escape), §3.8 (ZSCII output, the default extra-character
 * table). The file is validated first by identifyStory (which checks every header address,
 * story-header.ts), so a damaged dictionary is refused with the same StoryFileError the engine
 * gives. Pure; no Node or DOM imports.
 */
import { identifyStory } from './story-file.ts';

/** A story's dictionary. */
export interface StoryDictionary {
  version: number;
  /** Characters a dictionary word keeps (6 in versions 1–3, 9 in 4+, §13.3): longer words are
   * cut to this length both in the table and in the player's input. */
  resolution: number;
  /** The decoded entries in table order (lower case as stored; duplicates kept, as the table has them). */
  words: string[];
}

const A0 = 'abcdefghijklmnopqrstuvwxyz';
const A1 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A2 from Z-character 6 on (6 is the ZSCII escape and 7 a new line in every table, §3.5.3). */
const A2 = ' \n0123456789.,!?_#\'"/\\-:()';
/** §3.8.7, Table 1: the default Unicode of ZSCII 155–223. */
const EXTRA = 'äöüÄÖÜß»«ëïÿËÏáéíóúýÁÉÍÓÚÝàèìòùÀÈÌÒÙâêîôûÂÊÎÔÛåÅøØãñõÃÑÕæÆçÇþðÞÐ£œŒ¡¿';

/** ZSCII code → text (§3.8): printable ASCII as itself, 155–223 from the default table, else "?". */
function zsciiChar(code: number): string {
  if (code >= 32 && code <= 126) return String.fromCharCode(code);
  if (code >= 155 && code < 155 + EXTRA.length) return EXTRA[code - 155]!;
  return '?';
}

/** The three alphabets as ZSCII-decoded strings of 26 characters each (index = Z-char − 6). */
function alphabets(zcode: Uint8Array, version: number): [string, string, string] {
  const table = version >= 5 ? (zcode[0x34]! << 8) | zcode[0x35]! : 0;
  if (!table) return [A0, A1, ` \n${A2.slice(2)}`];
  const row = (r: number) => Array.from(zcode.subarray(table + 26 * r, table + 26 * r + 26), zsciiChar).join('');
  const a2 = row(2);
  return [row(0), row(1), ` \n${a2.slice(2)}`];
}

/** Decode the Z-characters of one dictionary entry's text (§3.2–3.4; no abbreviations in a dictionary word). */
function decodeWord(zchars: number[], abc: [string, string, string]): string {
  let out = '';
  for (let i = 0; i < zchars.length; i++) {
    const c = zchars[i]!;
    if (c === 0) out += ' ';
    else if (c === 4 || c === 5) {
      const next = zchars[i + 1];
      if (next === undefined) break; // padding: a shift with nothing after it
      i++;
      if (c === 5 && next === 6) {
        const hi = zchars[i + 1];
        const lo = zchars[i + 2];
        if (hi === undefined || lo === undefined) break; // an escape cut by the entry's end
        out += zsciiChar((hi << 5) | lo);
        i += 2;
      } else if (next >= 6) out += abc[c === 4 ? 1 : 2][next - 6]!;
    } else if (c >= 6) out += abc[0][c - 6]!;
  }
  return out;
}

/**
 * The dictionary of a story file (raw Z-code or Blorb).
 * @returns the version, the word resolution (6 or 9 characters) and every entry's decoded text
 * @throws StoryFileError when the file is not a supported Z-code story or its header (dictionary
 *   included) points outside the file
 */
export function readStoryDictionary(file: Uint8Array): StoryDictionary {
  const { zcode, version } = identifyStory(file);
  const at = (zcode[0x08]! << 8) | zcode[0x09]!;
  const separators = zcode[at]!;
  const entryLength = zcode[at + 1 + separators]!;
  const raw = (zcode[at + 2 + separators]! << 8) | zcode[at + 3 + separators]!;
  const count = raw & 0x8000 ? 0x10000 - raw : raw; // §13.5: a negative count means unsorted
  const textBytes = version <= 3 ? 4 : 6;
  const abc = alphabets(zcode, version);
  const words: string[] = [];
  for (let e = 0, entry = at + 4 + separators; e < count; e++, entry += entryLength) {
    const zchars: number[] = [];
    for (let b = 0; b < textBytes; b += 2) {
      const w = (zcode[entry + b]! << 8) | zcode[entry + b + 1]!;
      zchars.push((w >> 10) & 31, (w >> 5) & 31, w & 31);
    }
    words.push(decodeWord(zchars, abc));
  }
  return { version, resolution: version <= 3 ? 6 : 9, words };
}
