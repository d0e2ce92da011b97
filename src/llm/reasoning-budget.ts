/**
 * Replies that spent the whole completion budget before any answer (a reasoning model thinking
 * until the token limit): how they are recognised and how far a budget is raised, shared by the
 * hosted chat model (openai-chat-model.ts) and the local ones (serial-role-models.ts: the CLI's
 * node-llama-cpp model and the page's wllama model). DOM-free.
 */
import type { Role } from './interface.ts';

/** The most completion tokens a raised budget asks for (a reply this long is minutes of output). */
export const MAX_RAISED_BUDGET = 32_768;

/**
 * True when the provider ended the reply at the token limit (finish_reason "length", or
 * "max_tokens" as some compatible endpoints name it) before any answer: no content, null content,
 * or only reasoning text inside `<think>` / `<thought>` tags (closed or not). Every shape reads to
 * content '' or tagged text (reply-body.ts: JSON, streams, and Gemini's thinking shape, a message
 * with no `content` key; the local models' replies likewise).
 */
export function spentOnReasoning(raw: { content: string; finishReason: string | null }): boolean {
  if (!/^(length|max_tokens)$/i.test(raw.finishReason ?? '')) return false;
  return raw.content.replace(/<(think|thought)>[\s\S]*?(?:<\/\1>|$)/gi, '').trim() === '';
}

/**
 * The raised budget after a reply that spent `tokens` on reasoning: min(max(4 × tokens, 4096),
 * MAX_RAISED_BUDGET, `room`), `room` being what the run's token cap leaves (null: no cap).
 * A result ≤ `tokens` means it cannot be raised.
 */
export function raisedBudget(tokens: number, room: number | null): number {
  return Math.min(Math.max(4 * tokens, 4096), MAX_RAISED_BUDGET, room ?? Infinity);
}

/** The CLI flag and the page's setting of each role's completion budget. */
export const BUDGET_SETTING: Record<Role, string> = {
  actor: "--actor-max-tokens (the page: Settings → the actor's max tokens)",
  metaAgent: "--meta-max-tokens (the page: Settings → the meta-agent's max tokens)",
  proposer: "--proposer-max-tokens (the page: Settings → the proposer's max tokens)",
};
