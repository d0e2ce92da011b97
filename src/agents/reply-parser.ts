/**
 * Parsing the actor's reply — the one place it is done. Contract (method.md, "Actor prompt"): two
 * lines `REASONING: …` and `ACTION: …`; only the action reaches the game. When a reply has several
 * ACTION lines the last one is taken, as the reference does (a model that drafts and then corrects
 * itself ends with its final choice). Text inside `<think>…</think>` is never used; an unclosed
 * `<think>` means the reply was cut off.
 */
import { isCutOff } from '../llm/finish-reason.ts';

/** How a reply was understood. `parse_failure`: no action found (the fallback is used);
 * `truncated`: the reply was cut off (a finish_reason that is not a natural end, or an unclosed
 * `<think>`); nothing of it is played. */
export type ParseStatus = 'ok' | 'parse_failure' | 'truncated';

export interface ParsedReply {
  /** The command to send, or null when none could be parsed. */
  action: string | null;
  status: ParseStatus;
  reasoning: string | null;
  /** The earlier ACTION lines, when there were several (ignored, but kept for the log). */
  extraActions: string[];
}

/** The command sent when no action can be parsed (the reference implementation's choice). */
export const FALLBACK_ACTION = 'look';

const ACTION_LINE = /^[\s>*_#-]*action[\s*_]*[:：][\s*_]*(.*)$/gim;
const REASONING_LINE = /^[\s>*_#-]*reasoning[\s*_]*[:：][\s*_]*(.*)$/im;

/** Strip quotes, backticks and emphasis around a command, and a trailing full stop. */
function cleanAction(raw: string): string {
  let s = raw.trim();
  for (let i = 0; i < 3; i++) {
    s = s.replace(/^[`"'*_\u201C\u201D\u2018\u2019]+|[`"'*_\u201C\u201D\u2018\u2019]+$/g, '').trim();
  }
  return s.replace(/\.$/, '').trim();
}

/**
 * Parse an actor reply.
 * @param content the reply text as received ('' when the provider sent none)
 * @param finishReason the provider's finish_reason: a reason that is not a natural end ('length',
 *   'content_filter', an unknown one — llm/finish-reason.ts) marks the reply cut off, and a
 *   cut-off reply is never played, even when it holds an ACTION line ('truncated')
 */
export function parseActorReply(content: string, finishReason: string | null): ParsedReply {
  const failed = (status: ParseStatus): ParsedReply => ({ action: null, status, reasoning: null, extraActions: [] });
  if (isCutOff(finishReason)) return failed('truncated');
  let text = content.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const unclosed = text.search(/<think>/i);
  if (unclosed >= 0) {
    text = text.slice(0, unclosed);
    if (!ACTION_LINE.test(text)) return failed('truncated');
    ACTION_LINE.lastIndex = 0;
  }
  if (text.trim() === '') return failed('parse_failure');
  text = text.replace(/^\s*```[\w-]*\s*$/gm, '');
  const actions = [...text.matchAll(ACTION_LINE)].map((m) => cleanAction(m[1] ?? '')).filter((a) => a !== '');
  const reasoning = REASONING_LINE.exec(text)?.[1]?.trim() || null;
  if (actions.length === 0) return { ...failed('parse_failure'), reasoning };
  return { action: actions.at(-1)!, status: 'ok', reasoning, extraActions: actions.slice(0, -1) };
}
