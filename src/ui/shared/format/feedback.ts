/**
 * What the Learn view shows between episodes (method.md, "Meta-agent"): per ended episode, the
 * policy's exchanges — the reply split into its <think> analysis, its <learn> guide and any other
 * text —, the context-window notices, and a line diff (jsdiff) of the guiding prompt against the
 * one the episode used, with the changed words highlighted inside a changed line. Pure; the texts stay raw here (they are rendered sanitised by markdown.ts).
 */
import { diffLines, diffWordsWithSpace } from 'diff';
import type { PolicyExchange } from '../../../ttl/policy.ts';
import type { SessionRecord } from '../../../ttl/session-record.ts';

/** A run of text in a diff line: unchanged, or the words that changed. */
export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };
/** One line of a line diff (no newline): kept, or removed / added, with its parts (changed
 * words highlighted when the line replaces a similar one; else one part, the whole line); or
 * `omitted`: a note (its one part) that the prompts are too large or too different to diff. */
export type DiffLine = { kind: 'same' | 'added' | 'removed' | 'omitted'; parts: DiffPart[] };

/** Most lines (each side) and characters (each side) diffed line by line; larger prompts get a note. */
export const MAX_DIFF_LINES = 3_000;
export const MAX_DIFF_CHARS = 300_000;
/** Most changed lines jsdiff may find (its `maxEditLength`: Myers' O(N·D) work stays bounded). */
export const MAX_DIFF_EDITS = 400;
/** How many added lines after the last pair a removed line is compared with for word marks. */
const PAIR_WINDOW = 4;

/** Lines of a diff chunk's value (its final newline dropped). */
const linesOf = (value: string): string[] => value.replace(/\n$/, '').split('\n');

/** Share of the two lines' non-space characters in unchanged words (0…1). */
function similarity(a: string, b: string): number {
  const chars = (text: string): number => text.replace(/\s/g, '').length;
  const same = diffWordsWithSpace(a, b).filter((c) => !c.added && !c.removed).reduce((n, c) => n + chars(c.value), 0);
  return (2 * same) / Math.max(1, chars(a) + chars(b));
}

/**
 * Line diff of two guiding prompts; a removed line followed by an added line that shares at least
 * half its words (by characters) is word-diffed, so only the words that changed are highlighted,
 * and unrelated lines are never paired word by word. The work is bounded (a guide of many lines
 * imported in Learn must not block the page): prompts over MAX_DIFF_LINES / MAX_DIFF_CHARS, or
 * differing in more than MAX_DIFF_EDITS lines, give one `omitted` line saying so; a removed line
 * is compared with at most PAIR_WINDOW added lines. Never throws.
 */
export function diffPrompts(before: string, after: string): DiffLine[] {
  const lineCount = (text: string): number => text.split('\n').length;
  const omitted = (text: string): DiffLine[] => [{ kind: 'omitted', parts: [{ kind: 'same', text }] }];
  const size = (text: string) => `${lineCount(text).toLocaleString('en')} lines, ${text.length.toLocaleString('en')} characters`;
  if (before.length > MAX_DIFF_CHARS || after.length > MAX_DIFF_CHARS || lineCount(before) > MAX_DIFF_LINES || lineCount(after) > MAX_DIFF_LINES) {
    return omitted(`The guiding prompts are too large to compare line by line (before: ${size(before)}; after: ${size(after)}; at most ${MAX_DIFF_LINES.toLocaleString('en')} lines or ${MAX_DIFF_CHARS.toLocaleString('en')} characters each). Both are in the session's export.`);
  }
  // Every line ends with a newline, so a last line without one still matches itself.
  const ended = (text: string): string => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  const chunks = diffLines(ended(before), ended(after), { maxEditLength: MAX_DIFF_EDITS });
  if (!chunks) return omitted(`The guiding prompts differ in more than ${MAX_DIFF_EDITS.toLocaleString('en')} lines: too many changes to show line by line.`);
  const out: DiffLine[] = [];
  const whole = (kind: 'added' | 'removed', text: string): DiffLine => ({ kind, parts: [{ kind, text }] });
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if (!chunk.added && !chunk.removed) {
      for (const line of linesOf(chunk.value)) out.push({ kind: 'same', parts: [{ kind: 'same', text: line }] });
      continue;
    }
    const next = chunks[i + 1];
    if (chunk.removed && next?.added) {
      const removed = linesOf(chunk.value);
      const added = linesOf(next.value);
      // Pair each removed line with the first similar added line after the last pair (in order).
      const partner = new Map<number, number>();
      let from = 0;
      removed.forEach((a, k) => {
        let j = -1;
        for (let m = from; m < Math.min(added.length, from + PAIR_WINDOW) && j < 0; m++) if (similarity(a, added[m]!) >= 0.5) j = m;
        if (j >= 0) {
          partner.set(k, j);
          from = j + 1;
        }
      });
      const pairedAdded = new Map([...partner].map(([k, j]) => [j, k]));
      const gone: DiffLine[] = removed.map((a, k) => {
        const j = partner.get(k);
        if (j === undefined) return whole('removed', a);
        return { kind: 'removed', parts: diffWordsWithSpace(a, added[j]!).filter((w) => !w.added).map((w) => ({ kind: w.removed ? 'removed' : 'same', text: w.value })) };
      });
      const come: DiffLine[] = added.map((b, j) => {
        const k = pairedAdded.get(j);
        if (k === undefined) return whole('added', b);
        return { kind: 'added', parts: diffWordsWithSpace(removed[k]!, b).filter((w) => !w.removed).map((w) => ({ kind: w.added ? 'added' : 'same', text: w.value })) };
      });
      // One push per line: spreading a long chunk into push() overflows the call stack.
      for (const line of gone) out.push(line);
      for (const line of come) out.push(line);
      i++;
      continue;
    }
    for (const line of linesOf(chunk.value)) out.push(whole(chunk.added ? 'added' : 'removed', line));
  }
  return out;
}

export interface ReplyParts {
  /** Text inside <think>…</think> (joined), null when absent. */
  think: string | null;
  /** Text inside the last <learn>…</learn>, null when absent. */
  learn: string | null;
  /** Everything else, trimmed ('' when nothing). */
  rest: string;
}

/** Split a meta-agent / reflection reply into its parts (as parseLearn reads it). */
export function splitReply(reply: string): ReplyParts {
  const thinks = [...reply.matchAll(/<think>([\s\S]*?)<\/think>/gi)].map((m) => (m[1] ?? '').trim());
  const withoutThink = reply.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const learns = [...withoutThink.matchAll(/<learn>([\s\S]*?)<\/learn>/gi)];
  const rest = withoutThink.replace(/<learn>[\s\S]*?<\/learn>/gi, '').trim();
  return { think: thinks.length ? thinks.join('\n\n') : null, learn: learns.length ? (learns.at(-1)![1] ?? '').trim() : null, rest };
}

const KIND_LABELS: Record<string, string> = {
  meta_agent: 'Meta-agent', reflection: 'Reflection', summary: 'Episode summary', memory_rewrite: 'Memory rewrite',
  textual_gradient: 'Textual gradient (critique)', textgrad_update: 'TextGrad update', human: 'Your guide',
};

/** A heading for an exchange kind. */
export const exchangeLabel = (kind: PolicyExchange['kind']): string => KIND_LABELS[kind] ?? kind;

export interface ExchangeView {
  label: string;
  parts: ReplyParts;
  learnStatus: PolicyExchange['learnStatus'];
  notice: string | null;
  error: string | null;
}

export interface EpisodeFeedback {
  /** The episode (1-based) whose end triggered the exchanges. */
  afterEpisode: number;
  exchanges: ExchangeView[];
  /** The guiding prompt the episode used, and the one in force after the exchanges. */
  before: string;
  after: string;
  diff: DiffLine[];
}

/** The last DIFFS_MAX diffs made by `feedbackOf` (oldest dropped first), by their two prompts:
 * a running session's record changes at every step and exchange, its guiding prompts rarely, so
 * the same diff (the same object, which the view then leaves as it is) is returned again. */
const DIFFS_MAX = 100;
const diffs = new Map<string, DiffLine[]>();
function cachedDiff(before: string, after: string): DiffLine[] {
  const key = `${before}\u0000${after}`;
  const hit = diffs.get(key);
  if (hit) return hit;
  const diff = diffPrompts(before, after);
  if (diffs.size >= DIFFS_MAX) diffs.delete(diffs.keys().next().value as string);
  diffs.set(key, diff);
  return diff;
}

/** The feedback after each ended episode that had exchanges, in episode order. */
export function feedbackOf(record: SessionRecord): EpisodeFeedback[] {
  const byEpisode = new Map<number, PolicyExchange[]>();
  for (const e of record.exchanges) byEpisode.set(e.afterEpisode, [...(byEpisode.get(e.afterEpisode) ?? []), e]);
  return [...byEpisode.entries()]
    .sort(([a], [b]) => a - b)
    .map(([afterEpisode, exchanges]) => {
      const before = record.episodes.find((e) => e.index === afterEpisode)?.guidingPrompt ?? record.config.initialGuidingPrompt;
      const after = exchanges.at(-1)!.guidingPromptAfter;
      return {
        afterEpisode, before, after, diff: cachedDiff(before, after),
        exchanges: exchanges.map((e) => ({
          label: exchangeLabel(e.kind), parts: splitReply(e.reply), learnStatus: e.learnStatus, notice: e.notice,
          error: e.error ? `${e.error.kind}: ${e.error.message}` : null,
        })),
      };
    });
}

/** Every context-window notice of the session, oldest first, with its episode. */
export function noticesOf(record: SessionRecord): { afterEpisode: number; notice: string }[] {
  return record.exchanges.filter((e) => e.notice).map((e) => ({ afterEpisode: e.afterEpisode, notice: e.notice! }));
}
