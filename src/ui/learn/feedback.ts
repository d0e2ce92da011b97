/**
 * What the Learn view shows between episodes (method.md, "Meta-agent"): per ended episode, the
 * policy's exchanges — the reply split into its <think> analysis, its <learn> guide and any other
 * text —, the context-window notices, and a word diff (jsdiff) of the guiding prompt against the
 * one the episode used. Pure; the texts stay raw here (they are rendered sanitised by markdown.ts).
 */
import { diffWordsWithSpace } from 'diff';
import type { PolicyExchange } from '../../ttl/policy.ts';
import type { SessionRecord } from '../../ttl/session-record.ts';

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

/** Word diff of two guiding prompts (whitespace and newlines kept as tokens). */
export function diffPrompts(before: string, after: string): DiffPart[] {
  return diffWordsWithSpace(before, after).map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
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
  meta_agent: 'Meta-agent', reflection: 'Reflection', summary: 'Episode summary', memory_rewrite: 'Memory rewrite', human: 'Your guide',
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
  diff: DiffPart[];
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
        afterEpisode, before, after, diff: diffPrompts(before, after),
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
