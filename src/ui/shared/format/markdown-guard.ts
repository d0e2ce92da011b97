/**
 * Bounds on rendering untrusted Markdown: which texts marked must not parse,
 * because its cost or recursion depth grows without bound on them (marked #1462: deep `>` nesting
 * overflows the stack; runs of `_a*` make emphasis matching quadratic: 15 kB took 6.8 s). A text
 * refused here is shown as escaped plain text instead. Pure: imports nothing.
 */

/** Longest text rendered as Markdown, in characters (UTF-16 code units). */
export const MARKDOWN_MAX_CHARS = 20_000;
/** Deepest indentation of a line, in columns (a tab counts 4): lists nest by indentation too. */
export const MARKDOWN_MAX_INDENT = 64;
/** Deepest nesting of container markers (`>`, `-`, `*`, `+`, `1.`, `1)`) at the start of one line. */
export const MARKDOWN_MAX_NESTING = 16;
/** Most emphasis delimiters (`*`, `_`, `~`) in one paragraph (lines up to a blank line, a list
 * item, a heading or a quote, which each start a new one): marked's
 * emphasis matching is quadratic in them (1,000 `_a*` took ≈ 90 ms in Node, 4,000 ≈ 1.8 s). */
export const MARKDOWN_MAX_DELIMITERS_PER_PARAGRAPH = 500;
/** Most emphasis work in one text: the sum over its paragraphs of (delimiters in it)², the cost's
 * shape (40 paragraphs of 498 `_a*`-delimiters each took ≈ 550 ms; at this limit ≈ 60 ms). */
export const MARKDOWN_MAX_EMPHASIS_WORK = 1_000_000;
/** Longest run of one emphasis delimiter character (5,000 `*` around a word overflow marked's stack). */
export const MARKDOWN_MAX_DELIMITER_RUN = 64;

/** Why a text is shown as plain text: too long, nested too deep, or too many emphasis marks. */
export type MarkdownFallbackReason = 'too_long' | 'too_deep' | 'too_many_delimiters';

// A list marker is followed by a space or the line's end (so `----------` is a rule, not 10 lists).
const CONTAINER_PREFIX = /^[ \t]*(?:(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$))[ \t]*)+/;
const CONTAINER_MARKER = />|[-*+]|\d{1,9}[.)]/g;
const BLOCK_START = /^[ \t]*(?:>|#|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$))/;
const DELIMITER_RUN = new RegExp(`([*_~])\\1{${MARKDOWN_MAX_DELIMITER_RUN},}`);

/** Container markers at the start of `line` (`> > - x` has 3). */
function nestingOf(line: string): number {
  const prefix = CONTAINER_PREFIX.exec(line);
  return prefix ? (prefix[0].match(CONTAINER_MARKER)?.length ?? 0) : 0;
}

/** Columns of whitespace at the start of `line` (a tab counts 4). */
function indentOf(line: string): number {
  let columns = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) columns++;
    else if (c === 9) columns += 4;
    else break;
  }
  return columns;
}

/** Emphasis delimiters in `text` (one pass, no regular expression). */
function delimitersIn(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 42 || c === 95 || c === 126) count++;
  }
  return count;
}

/**
 * Why `text` must not go through marked, or undefined when it may. Linear in the text's length.
 * The limits are the constants above; a text within them renders in ≤ a few tens of ms.
 */
export function markdownFallbackReason(text: string): MarkdownFallbackReason | undefined {
  if (text.length > MARKDOWN_MAX_CHARS) return 'too_long';
  let paragraphDelimiters = 0;
  let finishedWork = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || BLOCK_START.test(line)) {
      finishedWork += paragraphDelimiters * paragraphDelimiters;
      paragraphDelimiters = 0;
    }
    if (nestingOf(line) > MARKDOWN_MAX_NESTING || indentOf(line) > MARKDOWN_MAX_INDENT) return 'too_deep';
    paragraphDelimiters += delimitersIn(line);
    if (paragraphDelimiters > MARKDOWN_MAX_DELIMITERS_PER_PARAGRAPH) return 'too_many_delimiters';
    if (finishedWork + paragraphDelimiters * paragraphDelimiters > MARKDOWN_MAX_EMPHASIS_WORK) return 'too_many_delimiters';
  }
  if (DELIMITER_RUN.test(text)) return 'too_many_delimiters';
  return undefined;
}

/** The plain-text fallback's note for each reason, shown above the text. */
export const FALLBACK_NOTES: Record<MarkdownFallbackReason | 'error', string> = {
  too_long: 'Shown as plain text: too long to format.',
  too_deep: 'Shown as plain text: nested too deeply to format.',
  too_many_delimiters: 'Shown as plain text: too many emphasis marks to format.',
  error: 'Shown as plain text: it could not be formatted.',
};
