/**
 * Whether a provider's reported usage can be believed. Usage is replaced by the local estimate
 * (cl100k_base counts, token-count.ts) and marked estimated when it is missing or unusable
 * (reply-body.ts drops non-integer, string and negative counts), zero for a non-empty side of
 * the exchange, or absurd: above ABSURD_TOKENS, or above ABSURD_FACTOR × the estimate plus
 * TEMPLATE_SLACK_TOKENS (a chat template's overhead on short prompts) — for completion tokens
 * only when also above the requested max_tokens, since hidden reasoning is billed as completion.
 * So the run's token and USD caps hold against any server. DOM-free.
 */
import type { RawUsage } from './reply-body.ts';

/** A count above this is never real for one call (10 M tokens). */
export const ABSURD_TOKENS = 10_000_000;
/** How many times the local estimate a count may be before it is called absurd. */
export const ABSURD_FACTOR = 10;
/** Tokens a chat template may add to a short exchange (role markers, system preamble). */
export const TEMPLATE_SLACK_TOKENS = 64;

/**
 * The usage to account for one call.
 * @param reported the provider's usage (null when it sent none or none usable)
 * @param estimate the local count of the same exchange (prompt and reply text)
 * @param maxCompletionTokens the completion limit the request asked for, tokens
 * @returns the reported usage when plausible, else the estimate with `estimated: true`
 */
export function trustedUsage(reported: RawUsage | null, estimate: RawUsage, maxCompletionTokens: number): { usage: RawUsage; estimated: boolean } {
  if (reported === null) return { usage: estimate, estimated: true };
  const { promptTokens: p, completionTokens: c } = reported;
  const zeroForNonEmpty = (p === 0 && estimate.promptTokens > 0) || (c === 0 && estimate.completionTokens > 0);
  const absurdPrompt = p > ABSURD_TOKENS || p > ABSURD_FACTOR * estimate.promptTokens + TEMPLATE_SLACK_TOKENS;
  const absurdCompletion = c > ABSURD_TOKENS || (c > ABSURD_FACTOR * estimate.completionTokens + TEMPLATE_SLACK_TOKENS && c > maxCompletionTokens + TEMPLATE_SLACK_TOKENS);
  if (zeroForNonEmpty || absurdPrompt || absurdCompletion) return { usage: estimate, estimated: true };
  return { usage: reported, estimated: false };
}
