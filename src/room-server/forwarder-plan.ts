/**
 * One forwarded call's plan and its accounting: the student's request with the model pinned to the
 * room's, one choice, the completion bounded by what the caps leave (the reservation taken before
 * forwarding, so concurrent calls cannot pass a cap), and afterwards the usage to add — the
 * provider's `usage` when believable (llm/usage-check.ts), else a local estimate (⌈chars / 4⌉, said
 * to be one) — priced from the price table (USD per million tokens; a model without a row: null,
 * never 0). Pure functions; no Node API.
 */
import type { ChatMessage, ModelPrice } from '../llm/interface.ts';
import { approximateTokens } from '../llm/token-count.ts';
import { trustedUsage } from '../llm/usage-check.ts';
import type { RawUsage } from '../llm/reply-body.ts';
import type { ParticipantView, RoomUsage } from '../room/protocol.ts';
import { badRequest, promptTooLong, type InFlight, type Refusal } from './forwarder-refusals.ts';

/** Tokens of chat framing per message (OpenAI's cookbook: ~4). */
const MESSAGE_OVERHEAD = 4;

/** A call ready to forward. */
export interface CallPlan {
  /** The request body to send (model pinned, `n` 1, completion bounded, usage asked for when streamed). */
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
  /** The messages as plain text (for a local model and the estimate). */
  messages: ChatMessage[];
  /** The local estimate of the prompt, tokens. */
  promptTokens: number;
  /** The completion bound sent (tokens), or null when neither the request nor a cap set one. */
  maxTokens: number | null;
  /** What the call holds against the caps while in flight. */
  reserved: InFlight;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** A message's content as text: a string, or the text parts of an array of parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
  return '';
}

/** The request's messages as ChatMessages (`developer` as system, any other role as user). */
function chatMessages(raw: unknown[]): ChatMessage[] {
  return raw.map((m) => {
    const role = isObject(m) ? m.role : undefined;
    const mapped = role === 'system' || role === 'developer' ? 'system' : role === 'assistant' ? 'assistant' : 'user';
    return { role: mapped, content: isObject(m) ? contentText(m.content) : '' };
  });
}

/** The cost of `prompt` + `completion` tokens at `price`, USD. */
export function usdOf(price: ModelPrice, promptTokens: number, completionTokens: number, cachedPromptTokens = 0): number {
  const cached = Math.max(0, Math.min(cachedPromptTokens, promptTokens));
  return ((promptTokens - cached) * price.inputPerMTokUsd + cached * (price.cachedInputPerMTokUsd ?? price.inputPerMTokUsd) + completionTokens * price.outputPerMTokUsd) / 1e6;
}

/**
 * What a participant has left before its caps, after its usage and its calls in flight: tokens
 * (null: no token cap) and USD (null: no USD cap, or no price to hold it with).
 */
function leftOf(participant: ParticipantView, inFlight: InFlight, price: ModelPrice | null): { tokens: number | null; usd: number | null } {
  const { usage, caps } = participant;
  return {
    tokens: caps.maxTokens === null ? null : caps.maxTokens - usage.tokens - inFlight.tokens,
    usd: caps.maxUsd === null || price === null || usage.usd === null ? null : caps.maxUsd - usage.usd - inFlight.usd,
  };
}

/**
 * The plan of one `POST /v1/chat/completions`, or the refusal: 400 for a body that is not a chat
 * request, 429 when the prompt leaves no reply within what the caps leave.
 * @param parsed the request body as parsed JSON
 * @param models the room's models (the first is the default); a model not offered is replaced by it
 * @param prices USD per million tokens by model
 */
export function planCall(parsed: unknown, models: readonly string[], prices: Record<string, ModelPrice>, participant: ParticipantView, inFlight: InFlight): CallPlan | Refusal {
  if (!isObject(parsed) || !Array.isArray(parsed.messages) || parsed.messages.length === 0) return badRequest('The request needs a JSON body with a non-empty "messages" list.');
  const model = typeof parsed.model === 'string' && models.includes(parsed.model) ? parsed.model : models[0]!;
  const stream = parsed.stream === true;
  const messages = chatMessages(parsed.messages);
  const promptTokens = messages.reduce((n, m) => n + approximateTokens(m.content) + MESSAGE_OVERHEAD, 0);
  const price = prices[model] ?? null;
  const left = leftOf(participant, inFlight, price);
  const asked = [parsed.max_completion_tokens, parsed.max_tokens].filter(isCount).filter((n) => n > 0);
  const bounds = [...asked];
  if (left.tokens !== null) bounds.push(left.tokens - promptTokens);
  if (left.usd !== null && price !== null && price.outputPerMTokUsd > 0) bounds.push(Math.floor((left.usd * 1e6 - promptTokens * price.inputPerMTokUsd) / price.outputPerMTokUsd));
  const maxTokens = bounds.length === 0 ? null : Math.min(...bounds);
  if (maxTokens !== null && maxTokens < 1) return promptTooLong(promptTokens, left, participant.usage);
  const body: Json = { ...parsed, model };
  delete body.n;
  if (maxTokens !== null) {
    // The field the request used (both when it sent both: servers read one or the other).
    if ('max_completion_tokens' in body) body.max_completion_tokens = maxTokens;
    if ('max_tokens' in body || !('max_completion_tokens' in body)) body.max_tokens = maxTokens;
  }
  if (stream) body.stream_options = { ...(isObject(parsed.stream_options) ? parsed.stream_options : {}), include_usage: true };
  else delete body.stream_options;
  const reservedTokens = promptTokens + (maxTokens ?? 0);
  return {
    body, model, stream, messages, promptTokens, maxTokens,
    reserved: { calls: 1, tokens: reservedTokens, usd: price === null ? 0 : usdOf(price, promptTokens, maxTokens ?? 0) },
  };
}

/** The provider's usage object read into counts, or null when absent or unusable. */
export function usageOf(u: unknown): RawUsage | null {
  if (!isObject(u) || !isCount(u.prompt_tokens) || !isCount(u.completion_tokens)) return null;
  const details = isObject(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  const cached = isCount(details.cached_tokens) && details.cached_tokens <= u.prompt_tokens ? details.cached_tokens : 0;
  return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, reasoningTokens: 0, ...(cached > 0 ? { cachedPromptTokens: cached } : {}) };
}

/** One call's usage to add to the participant's total, and whether its tokens are an estimate. */
export interface CallAccount {
  usage: RoomUsage;
  promptTokens: number;
  completionTokens: number;
  estimated: boolean;
}

/**
 * The usage of a finished call: the provider's `reported` counts when believable, else the estimate
 * from the plan's prompt and the `replyChars` characters of the reply; priced at `price` (null: no
 * price, so `usd` null).
 */
export function accountCall(plan: CallPlan, reported: RawUsage | null, replyChars: number, price: ModelPrice | null): CallAccount {
  const estimate: RawUsage = { promptTokens: plan.promptTokens, completionTokens: Math.ceil(replyChars / 4), reasoningTokens: 0 };
  const { usage, estimated } = trustedUsage(reported, estimate, plan.maxTokens ?? Number.MAX_SAFE_INTEGER);
  const usd = price === null ? null : usdOf(price, usage.promptTokens, usage.completionTokens, usage.cachedPromptTokens ?? 0);
  return { usage: { calls: 1, tokens: usage.promptTokens + usage.completionTokens, usd, ...(estimated ? { estimatedCalls: 1 } : {}) }, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, estimated };
}

/**
 * The body to send again when the provider refused (400/422) a parameter the forwarder sets, as
 * its words (`providerWords`) name it: `stream_options` dropped (the stream's usage is then
 * estimated), `max_tokens` renamed to `max_completion_tokens` (OpenAI's reasoning models), or
 * dropped when both were sent. Null when none applies (the refusal stands).
 */
export function adaptedBody(body: Record<string, unknown>, providerWords: string): Record<string, unknown> | null {
  if (/stream_options/.test(providerWords) && 'stream_options' in body) {
    const next = { ...body };
    delete next.stream_options;
    return next;
  }
  if (/max_tokens/.test(providerWords) && 'max_tokens' in body) {
    const next = { ...body };
    if (!('max_completion_tokens' in next)) next.max_completion_tokens = next.max_tokens;
    delete next.max_tokens;
    return next;
  }
  return null;
}
