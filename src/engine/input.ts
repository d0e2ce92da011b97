/**
 * Input hygiene: every command goes through `normaliseCommand` before the game sees it, so the
 * same reply always becomes the same input and the transcript records what was really sent.
 * The Z-machine reads ZSCII (Standard §3.8): printable ASCII plus the characters of the story's
 * Unicode translation table (§3.8.5; by default 69 accented Latin letters and signs); anything else
 * would arrive as '?', so it is mapped to ASCII or dropped.
 */

/** Whether the story can receive a (non-ASCII) character: its Unicode table holds it. */
export type CanEncode = (codePoint: number) => boolean;

const ASCII_ONLY: CanEncode = () => false;

/** Longest command sent, in characters (Inform's parser buffer holds 120). */
export const MAX_COMMAND_LENGTH = 120;

const REPLACEMENTS: [RegExp, string][] = [
  [/[\u2018\u2019\u201A\u201B\u2032\u00B4`]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"'],
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  [/[\s\u00A0\u2000-\u200B\u3000]+/g, ' '],
];

/**
 * Normalise one line of input: curly quotes → straight, dashes → '-', whitespace runs → one
 * space; a character the story can encode (`canEncode`, e.g. 'é' for a story with the default
 * Unicode table) is kept, any other accented letter loses its accents (NFKD), the remaining
 * non-printable-ASCII characters are dropped; trimmed, cut to MAX_COMMAND_LENGTH. Case is kept
 * (the game folds it).
 */
export function normaliseCommand(command: string, canEncode: CanEncode = ASCII_ONLY): string {
  let s = command;
  for (const [pattern, replacement] of REPLACEMENTS) s = s.replace(pattern, replacement);
  let out = '';
  for (const ch of s.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code > 0x7e && canEncode(code))) out += ch;
    else out += ch.normalize('NFKD').replace(/[^\x20-\x7E]/g, '');
  }
  return out.trim().slice(0, MAX_COMMAND_LENGTH).trim();
}

/**
 * The keypress sent when the game waits for a single character: the first character of the
 * normalised command; a space for a command of only spaces; Glk's "return" key for an empty one.
 * @returns the Glk char-event value and what the transcript records ('' for Enter).
 */
export function keypressFor(command: string, canEncode: CanEncode = ASCII_ONLY): { value: string; recorded: string } {
  const first = [...normaliseCommand(command, canEncode)][0] ?? '';
  if (first) return { value: first, recorded: first };
  return command.includes(' ') ? { value: ' ', recorded: ' ' } : { value: 'return', recorded: '' };
}
