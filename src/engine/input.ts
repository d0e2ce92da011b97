/**
 * Input hygiene: every command goes through `normaliseCommand` before the game sees it, so the
 * same reply always becomes the same input and the transcript records what was really sent.
 * The Z-machine reads ZSCII (Standard §3.8): printable ASCII plus a few accented Latin letters;
 * anything else would arrive as '?'.
 */

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
 * space, accents stripped (NFKD), other non-printable-ASCII characters dropped, trimmed, cut to
 * MAX_COMMAND_LENGTH. Case is kept (the game folds it).
 */
export function normaliseCommand(command: string): string {
  let s = command;
  for (const [pattern, replacement] of REPLACEMENTS) s = s.replace(pattern, replacement);
  s = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  s = s.replace(/[^\x20-\x7E]/g, '');
  return s.trim().slice(0, MAX_COMMAND_LENGTH).trim();
}

/**
 * The keypress sent when the game waits for a single character: the first character of the
 * normalised command; a space for a command of only spaces; Glk's "return" key for an empty one.
 * @returns the Glk char-event value and what the transcript records ('' for Enter).
 */
export function keypressFor(command: string): { value: string; recorded: string } {
  const first = normaliseCommand(command).charAt(0);
  if (first) return { value: first, recorded: first };
  return command.includes(' ') ? { value: ' ', recorded: ' ' } : { value: 'return', recorded: '' };
}
