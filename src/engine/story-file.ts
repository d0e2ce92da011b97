/**
 * Story-file identification: raw Z-code or a Blorb container (Blorb spec 2.0, chunk "ZCOD"),
 * header sanity checks (Z-Machine Standard 1.1, §11 "The format of the header"), and md5.
 * Everything that is not a runnable Z-code file becomes a `StoryFileError` with a clear message.
 */
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { StoryFileError } from './errors.ts';
import { checkHeaderAddresses } from './story-header.ts';

/** Z-machine versions ifvms runs. */
export const SUPPORTED_VERSIONS: readonly number[] = [3, 4, 5, 8];

/** A validated story file. */
export interface IdentifiedStory {
  /** The Z-code image (extracted from the Blorb when `fromBlorb`). */
  zcode: Uint8Array;
  fromBlorb: boolean;
  version: number;
  /** Lower-case hex md5 of `zcode` (what Jericho's table is keyed by). */
  md5: string;
  /** Problems that do not stop the story from running but deserve a word to the user (a header
   * checksum that does not match the contents); empty when none. */
  warnings: string[];
}

const ascii = (bytes: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(at, at + length));

/** Hex md5 of bytes. */
export function md5Hex(bytes: Uint8Array): string {
  return bytesToHex(md5(bytes));
}

/**
 * Extract the Z-code chunk of a Blorb file (IFF "FORM" of type "IFRS").
 * @throws StoryFileError `glulx` when the Blorb holds Glulx, `blorb_without_zcode`, `truncated`.
 */
export function extractFromBlorb(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at, 4);
    const length = view.getUint32(at + 4);
    const dataStart = at + 8;
    if (dataStart + length > bytes.length) {
      throw new StoryFileError('truncated', `The Blorb file is truncated: chunk "${id}" runs past the end of the file.`);
    }
    if (id === 'ZCOD') {
      if (length === 0) throw new StoryFileError('blorb_without_zcode', 'The Blorb file\'s Z-code chunk ("ZCOD") is empty: there is no game in it.');
      return bytes.slice(dataStart, dataStart + length);
    }
    if (id === 'GLUL') {
      throw new StoryFileError('glulx', 'This Blorb holds a Glulx game; only Z-machine games (versions 3, 4, 5, 8) are supported.');
    }
    at = dataStart + length + (length % 2);
  }
  throw new StoryFileError('blorb_without_zcode', 'This Blorb file contains no Z-code chunk ("ZCOD"): it is not a Z-machine game.');
}

/**
 * Identify and validate story-file bytes.
 * @throws StoryFileError with codes `empty`, `truncated`, `not_zcode`, `glulx`,
 *   `unsupported_version`, `blorb_without_zcode`, `bad_header` (an address outside the file, named).
 */
export function identifyStory(input: Uint8Array): IdentifiedStory {
  if (input.length === 0) throw new StoryFileError('empty', 'The story file is empty (0 bytes).');
  let zcode = input;
  let fromBlorb = false;
  if (input.length >= 12 && ascii(input, 0, 4) === 'FORM' && ascii(input, 8, 4) === 'IFRS') {
    zcode = extractFromBlorb(input);
    fromBlorb = true;
  } else if (input.length >= 4 && ascii(input, 0, 4) === 'Glul') {
    throw new StoryFileError('glulx', 'This is a Glulx story file; only Z-machine games (versions 3, 4, 5, 8) are supported.');
  }
  const version = zcode[0] ?? 0;
  if (version < 1 || version > 8) {
    const kind = kindOf(zcode);
    throw new StoryFileError('not_zcode', fromBlorb
      ? `The Blorb file's Z-code chunk ("ZCOD") is not a Z-machine game${kind ? `: it looks like ${kind}` : ` (its first byte, the version, is ${version}; expected 1–8)`}.`
      : `This is not a Z-machine story file${kind ? `: it looks like ${kind}` : ''}.`);
  }
  if (zcode.length < 64) {
    throw new StoryFileError('truncated', `The story file is truncated: ${zcode.length} bytes, shorter than the 64-byte Z-machine header.`);
  }
  if (!SUPPORTED_VERSIONS.includes(version)) {
    throw new StoryFileError('unsupported_version', `Z-machine version ${version} is not supported (supported: 3, 4, 5, 8).`);
  }
  checkHeader(zcode, version);
  const sum = headerChecksum(zcode, version);
  const warnings = sum && sum.expected !== sum.actual
    ? [`The story file's header checksum (0x${hex4(sum.expected)}) does not match its contents (0x${hex4(sum.actual)}): the file may be damaged or modified. It may still run; if it misbehaves, get a fresh copy.`]
    : [];
  return { zcode, fromBlorb, version, md5: md5Hex(zcode), warnings };
}

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

/**
 * The header checksum (Z-Machine Standard 1.1 §11, byte 0x1c, versions 3+): the sum of the bytes
 * from 0x40 to the file length the header declares (0x1a × 2, 4 or 8), mod 0x10000.
 * @returns the recorded (`expected`) and computed (`actual`) sums; null when the header records
 *   none (0, as early compilers left it) or the version has no checksum
 */
export function headerChecksum(zcode: Uint8Array, version: number): { expected: number; actual: number } | null {
  if (version < 3 || zcode.length < 64) return null;
  const expected = (zcode[0x1c]! << 8) | zcode[0x1d]!;
  if (expected === 0) return null;
  const multiplier = version === 3 ? 2 : version === 8 ? 8 : 4;
  const end = Math.min(zcode.length, ((zcode[0x1a]! << 8) | zcode[0x1b]!) * multiplier || zcode.length);
  let actual = 0;
  for (let i = 0x40; i < end; i++) actual = (actual + zcode[i]!) & 0xffff;
  return { expected, actual };
}

/** Well-known non-story formats, by their first bytes (magic numbers), for a clear refusal. */
const MAGIC: readonly [number[], string][] = [
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive'],
  [[0x1f, 0x8b], 'a gzip archive'],
];

/** What the bytes look like when they are not Z-code ("a JPEG image", "a web page (HTML)", "a text
 * file"), or null when unknown. Text: the first 512 bytes are printable ASCII/UTF-8 or whitespace. */
export function kindOf(bytes: Uint8Array): string | null {
  const magic = MAGIC.find(([head]) => head.every((b, i) => bytes[i] === b));
  if (magic) return magic[1];
  const head = bytes.subarray(0, 512);
  const texty = head.every((b) => b === 9 || b === 10 || b === 13 || b >= 32);
  if (!texty) return null;
  const start = String.fromCharCode(...head).trimStart().slice(0, 100).toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head')) return 'a web page (HTML)';
  if (start.startsWith('{') || start.startsWith('[')) return 'a JSON or text file';
  return 'a text file';
}

/** Header sanity (Standard §11): a plausible layout, then every address inside the file (story-header.ts). */
function checkHeader(zcode: Uint8Array, version: number): void {
  const view = new DataView(zcode.buffer, zcode.byteOffset, zcode.byteLength);
  const staticBase = view.getUint16(0x0e);
  const globals = view.getUint16(0x0c);
  const dictionary = view.getUint16(0x08);
  const objects = view.getUint16(0x0a);
  const initialPc = view.getUint16(0x06);
  const sane =
    staticBase >= 64 && globals >= 64 && objects >= 64 && dictionary >= 64 && initialPc >= 64;
  if (!sane) {
    throw new StoryFileError('not_zcode', 'This is not a Z-machine story file: its header addresses are inconsistent.');
  }
  checkHeaderAddresses(zcode, version);
}
