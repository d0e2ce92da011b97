/**
 * The OpenAI chat-completions wire format as the mock writes it: completion objects, SSE chunks
 * (`data: {chunk}` … `data: [DONE]`), error bodies, usage (chars / 4, rounded up) and CORS
 * headers. Ids and `created` come from a hash of the body; nothing here reads a clock.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Fields shared by every object of one reply. */
export interface ReplyIds {
  id: string;
  created: number;
  model: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Only with MockOptions.promptCache. */
  prompt_tokens_details?: { cached_tokens: number };
}

/** Ids derived from the body hash: `chatcmpl-mock-<24 hex>`, created in [1.7e9, 1.7e9 + 2^24). */
export function replyIds(bodyHash: string, model: string): ReplyIds {
  return { id: `chatcmpl-mock-${bodyHash.slice(0, 24)}`, created: 1_700_000_000 + parseInt(bodyHash.slice(24, 30), 16), model };
}

/** prompt_tokens = ceil(message chars / 4), completion_tokens = ceil(reply chars / 4). */
export function usageOf(promptChars: number, replyText: string): Usage {
  const prompt = Math.ceil(promptChars / 4);
  const completion = Math.ceil(replyText.length / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** A non-streaming `chat.completion` body (without `usage` when it is null). */
export function completionJson(ids: ReplyIds, text: string, finishReason: string, usage: Usage | null): string {
  return completionWithChoices(ids, [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: finishReason }], usage);
}

/** A non-streaming `chat.completion` body with the given choices (any shape). */
export function completionWithChoices(ids: ReplyIds, choices: unknown[], usage: Usage | null): string {
  return JSON.stringify({
    id: ids.id,
    object: 'chat.completion',
    created: ids.created,
    model: ids.model,
    system_fingerprint: 'fp_mock',
    choices,
    ...(usage ? { usage } : {}),
  });
}

/** One `chat.completion.chunk` event with the given choices (any shape). */
export function chunkWithChoices(ids: ReplyIds, choices: unknown[]): string {
  return sseData({ id: ids.id, object: 'chat.completion.chunk', created: ids.created, model: ids.model, system_fingerprint: 'fp_mock', choices });
}

/** One SSE event line pair for a JSON payload. */
export function sseData(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** A chunk object with one choice (`usage: null` when the client asked for usage). */
export function chunk(ids: ReplyIds, delta: Record<string, unknown>, finishReason: string | null, withUsage: boolean): Record<string, unknown> {
  return {
    id: ids.id, object: 'chat.completion.chunk', created: ids.created, model: ids.model, system_fingerprint: 'fp_mock',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(withUsage ? { usage: null } : {}),
  };
}

/** The first chunk of a stream (the assistant role, empty content). */
export function firstChunk(ids: ReplyIds, withUsage: boolean): string {
  return sseData(chunk(ids, { role: 'assistant', content: '' }, null, withUsage));
}

/**
 * A whole stream: the role chunk, one chunk per word (with its leading spaces), a chunk with
 * the finish_reason, a `choices: []` chunk with usage when `usage` is given
 * (stream_options.include_usage), then `data: [DONE]`.
 */
export function sseStream(ids: ReplyIds, text: string, finishReason: string, usage: Usage | null): string[] {
  const withUsage = usage !== null;
  const events = [firstChunk(ids, withUsage)];
  for (const piece of text.match(/\s*\S+|\s+$/g) ?? []) events.push(sseData(chunk(ids, { content: piece }, null, withUsage)));
  events.push(sseData(chunk(ids, {}, finishReason, withUsage)));
  if (usage) events.push(sseData({ id: ids.id, object: 'chat.completion.chunk', created: ids.created, model: ids.model, system_fingerprint: 'fp_mock', choices: [], usage }));
  events.push('data: [DONE]\n\n');
  return events;
}

/** An OpenAI-style error body. */
export function errorJson(message: string, type: string, code: string | null, param: string | null = null): string {
  return JSON.stringify({ error: { message, type, param, code } });
}

/** Headers the SDKs send that a browser preflight may ask about (when it does not list them). */
const DEFAULT_ALLOWED_HEADERS =
  'authorization, content-type, accept, openai-organization, openai-project, openai-beta, x-api-key, ' +
  'x-stainless-lang, x-stainless-package-version, x-stainless-os, x-stainless-arch, x-stainless-runtime, ' +
  'x-stainless-runtime-version, x-stainless-retry-count, x-stainless-timeout, x-stainless-helper-method';

/**
 * CORS for any origin: the request's Origin is echoed (or `*`), every requested header is
 * allowed (a `*` wildcard would not cover Authorization), and Retry-After is exposed.
 */
export function corsHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const requested = headers['access-control-request-headers'];
  return {
    'access-control-allow-origin': typeof headers.origin === 'string' ? headers.origin : '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': typeof requested === 'string' && requested.trim() !== '' ? requested : DEFAULT_ALLOWED_HEADERS,
    'access-control-expose-headers': 'retry-after, retry-after-ms, x-request-id',
    'access-control-max-age': '600',
    vary: 'Origin, Access-Control-Request-Headers',
  };
}
