/**
 * Read-only views of the Z-machine object tree and of Z-encoded text: an object's parent and short
 * name (Z-Machine Standard 1.1 §12 "The object table", §3 "How text and characters are encoded"),
 * and the player's location = the player object's parent, the way Jericho's
 * `FrotzEnv.get_player_location()` defines it. Pure functions over a byte reader: no ifvms import,
 * never writes memory, never throws on a bad address (the answer is then null or '').
 */
import type { PlayerLocation } from './interface.ts';

/** Big-endian reads of the story's memory (the running VM's, or the story file's bytes). */
export interface ZMemory {
  /** Unsigned byte at a byte address. */
  uint8(addr: number): number;
  /** Number of readable bytes (addresses 0 … size − 1). */
  readonly size: number;
}

/** A reader over plain bytes (a story file, or a copy of memory). */
export function bytesMemory(bytes: Uint8Array): ZMemory {
  return { uint8: (addr) => bytes[addr]!, size: bytes.length };
}

const word = (mem: ZMemory, addr: number): number => (mem.uint8(addr) << 8) | mem.uint8(addr + 1);
const inside = (mem: ZMemory, addr: number, length: number): boolean => addr >= 0 && addr + length <= mem.size;

/** Object-table layout by version (§12.1–12.3): v1–3 have 31 default properties and 9-byte
 * entries with byte links; v4+ 63 defaults and 14-byte entries with word links. */
function layout(version: number): { defaults: number; entry: number; links: number; wide: boolean } {
  return version <= 3 ? { defaults: 31, entry: 9, links: 4, wide: false } : { defaults: 63, entry: 14, links: 6, wide: true };
}

/** Byte address of object `obj`'s entry, or null when it is not a possible object number. */
function entryAddress(mem: ZMemory, version: number, obj: number): number | null {
  const { defaults, entry, wide } = layout(version);
  if (!Number.isInteger(obj) || obj < 1 || obj > (wide ? 0xffff : 0xff) || !inside(mem, 0x0a, 2)) return null;
  const addr = word(mem, 0x0a) + 2 * defaults + entry * (obj - 1);
  return inside(mem, addr, entry) ? addr : null;
}

/**
 * The parent of object `obj` (§12.3.1 / §12.3.2), 0 for none.
 * @returns the parent's object number, or null when `obj` lies outside the object table's memory
 */
export function objectParent(mem: ZMemory, version: number, obj: number): number | null {
  const addr = entryAddress(mem, version, obj);
  if (addr === null) return null;
  const { links, wide } = layout(version);
  return wide ? word(mem, addr + links) : mem.uint8(addr + links);
}

/** Address of an object's property table (whose first byte is the short name's length in words). */
function propertyTable(mem: ZMemory, version: number, obj: number): number | null {
  const addr = entryAddress(mem, version, obj);
  if (addr === null) return null;
  const { entry } = layout(version);
  const table = word(mem, addr + entry - 2);
  return inside(mem, table, 1) ? table : null;
}

/** How to decode text. `jericho`: the way Jericho 3.3.1's `get_text` (frotz_interface's object
 * names) does it — abbreviations dropped (its recursive call writes at a pointer it does not
 * advance, so what follows overwrites them and the final terminator erases a trailing one), the
 * A2 newline dropped, characters above U+00FF as '?', at most 64 characters (its 64-byte name field). */
export interface DecodeOptions {
  jericho?: boolean;
}

/** Standard alphabets (§3.5.3); A2 positions 0 and 1 (Z-characters 6 and 7) are the ZSCII escape
 * and the newline, never looked up. */
const DEFAULT_ALPHABETS = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', ' \n0123456789.,!?_#\'"/\\-:()'];
/** The default Unicode translation table for ZSCII 155–223 (§3.8.5.3, Table 1). */
const DEFAULT_UNICODE = 'äöüÄÖÜß»«ëïÿËÏáéíóúýÁÉÍÓÚÝàèìòùÀÈÌÒÙâêîôûÂÊÎÔÛåÅøØãñõÃÑÕæÆçÇþðÞÐ£œŒ¡¿';

/** The alphabet table's ZSCII code for (alphabet, Z-character 6–31). */
function alphabetCode(mem: ZMemory, version: number, alphabet: number, zchar: number): number {
  const custom = version >= 5 && inside(mem, 0x34, 2) ? word(mem, 0x34) : 0;
  if (custom && inside(mem, custom, 78)) return mem.uint8(custom + 26 * alphabet + zchar - 6);
  return DEFAULT_ALPHABETS[alphabet]!.charCodeAt(zchar - 6);
}

/** The Unicode code point of a ZSCII output character (§3.8), or null when it prints nothing. */
function zsciiToUnicode(mem: ZMemory, code: number): number | null {
  if (code === 13) return 10;
  if (code >= 32 && code <= 126) return code;
  if (code < 155 || code > 251) return null;
  // Header extension table (word 0x36): its word 3 is the Unicode translation table (§11.1.7.2).
  const ext = inside(mem, 0x36, 2) ? word(mem, 0x36) : 0;
  const table = ext && inside(mem, ext, 8) && word(mem, ext) >= 3 ? word(mem, ext + 6) : 0;
  if (table && inside(mem, table, 1)) {
    const n = mem.uint8(table);
    const at = table + 1 + 2 * (code - 155);
    return code - 155 < n && inside(mem, at, 2) ? word(mem, at) : null;
  }
  return code - 155 < DEFAULT_UNICODE.length ? DEFAULT_UNICODE.codePointAt(code - 155)! : null;
}

/**
 * Decode the Z-encoded string at byte address `addr` (§3): alphabets and shifts, abbreviations
 * (§3.3, one level), 10-bit ZSCII escapes and the Unicode translation table.
 * @param maxWords at most this many 2-byte words are read (a string with no end bit stops there)
 * @returns the text; '' when `addr` is outside memory
 */
export function decodeZString(mem: ZMemory, version: number, addr: number, maxWords = 1024, options: DecodeOptions = {}): string {
  const out = decode(mem, version, addr, maxWords, options, false);
  return options.jericho ? out.slice(0, 64) : out;
}

function decode(mem: ZMemory, version: number, addr: number, maxWords: number, options: DecodeOptions, nested: boolean): string {
  const zchars: number[] = [];
  for (let i = 0, a = addr; i < maxWords && inside(mem, a, 2); i++, a += 2) {
    const w = word(mem, a);
    zchars.push((w >> 10) & 0x1f, (w >> 5) & 0x1f, w & 0x1f);
    if (w & 0x8000) break;
  }
  let out = '';
  let alphabet = 0;
  for (let i = 0; i < zchars.length; i++) {
    const c = zchars[i]!;
    if (c === 0) out += ' ';
    else if (c <= 3) {
      const next = zchars[++i];
      if (next === undefined) break;
      // An abbreviation may not use abbreviations (§3.3.1): one level only.
      if (!options.jericho && !nested && inside(mem, 0x18, 2)) {
        const entry = word(mem, 0x18) + 2 * (32 * (c - 1) + next);
        if (inside(mem, entry, 2)) out += decode(mem, version, 2 * word(mem, entry), 256, options, true);
      }
    } else if (c === 4 || c === 5) {
      alphabet = c - 3;
      continue;
    } else if (alphabet === 2 && c === 6) {
      const hi = zchars[++i];
      const lo = zchars[++i];
      if (hi === undefined || lo === undefined) break;
      const code = options.jericho ? ((hi << 5) | lo) & 0xff : (hi << 5) | lo;
      const u = zsciiToUnicode(mem, code);
      if (u !== null) out += options.jericho && u > 0xff ? '?' : String.fromCodePoint(u);
    } else if (alphabet === 2 && c === 7) {
      if (!options.jericho) out += '\n';
    } else {
      const u = zsciiToUnicode(mem, alphabetCode(mem, version, alphabet, c));
      if (u !== null) out += options.jericho && u > 0xff ? '?' : String.fromCodePoint(u);
    }
    alphabet = 0;
  }
  return out;
}

/**
 * The short name of object `obj` (§12.4: the property table's header text).
 * @returns the name ('' for an object whose name is empty), or null when `obj` is not in memory
 *   (with `jericho`, also when Jericho reports no object: a name of 0 or more than 64 words)
 */
export function objectShortName(mem: ZMemory, version: number, obj: number, options: DecodeOptions = {}): string | null {
  const table = propertyTable(mem, version, obj);
  if (table === null) return null;
  const words = mem.uint8(table);
  // Jericho's get_object() refuses an object whose name is 0 or more than 64 words long.
  if (options.jericho && (words === 0 || words > 64)) return null;
  return words === 0 ? '' : decodeZString(mem, version, table + 1, words, options);
}

/**
 * Where the player is: the parent of the player object in the object tree, with its short name
 * (Jericho's `get_player_location()`: `get_object(get_player_object().parent)`). A parent that is
 * not a room (a chair, a vehicle, a basket) is reported as it is.
 * @param playerObject the player's object number (catalog `playerObject`, Jericho's
 *   `get_self_object_num`)
 * @returns `{id, name}`, or null when the player object has no parent or lies outside memory
 */
export function playerLocation(mem: ZMemory, version: number, playerObject: number): PlayerLocation | null {
  const parent = objectParent(mem, version, playerObject);
  if (!parent) return null;
  const name = objectShortName(mem, version, parent);
  return name === null ? null : { id: parent, name };
}
