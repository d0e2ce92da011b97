/**
 * Reading a chat-completions reply body — a whole JSON object or the chunks of a stream — into
 * one `RawCompletion`, and refusing replies a run must not act on: unparsable or cut-off bodies
 * (`bad_response`), an error signalled inside a 200 (`server`, or `quota` / `rate_limit` when its
 * code says so), and replies without usable content (`bad_response`: no choices, null or empty
 * content, no message, only reasoning or tool calls, a refusal). An empty reply cut off by the
 * token limit (finish_reason "length") is the model's own outcome and is returned as such.
 */
import { LlmError } from './errors.ts';

/** A complete 200 reply without usable content: a `bad_response` that the provider may still have
 * billed (`usage`, when it reported one), so the run's meter counts it. */
export class UnusableReplyError extends LlmError {
  constructor(
    message: string,
    readonly usage: RawUsage | null,
  ) {
    super('bad_response', message);
  }
}

/** Token usage as the provider reported it. */
export interface RawUsage {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Prompt tokens the provider served from its prompt cache (part of promptTokens; OpenAI's
   * `usage.prompt_tokens_details.cached_tokens`); absent when it reported none. */
  cachedPromptTokens?: number;
}

/** A reply before accounting: text, finish reason, model and the provider's usage (null when none). */
export interface RawCompletion {
  content: string;
  finishReason: string | null;
  model: string;
  usage: RawUsage | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Accumulates a reply from a JSON body's first choice or from stream chunks. */
export class ReplyAccumulator {
  content = '';
  finishReason: string | null = null;
  model: string;
  usage: RawUsage | null = null;
  private sawChoice = false;
  private sawMessage = false;
  private sawNullContent = false;
  private reasoning = false;
  private toolCalls = false;
  private refusal = '';

  constructor(fallbackModel: string) {
    this.model = fallbackModel;
  }

  /**
   * Add one completion object or chunk (`part` is `message` for JSON, `delta` for chunks).
   * @throws LlmError when it carries an error object or an "error" finish reason
   */
  add(body: unknown, part: 'message' | 'delta'): void {
    if (!isObject(body)) throw new LlmError('bad_response', `The provider sent ${JSON.stringify(body)?.slice(0, 80)} where a completion object belongs.`);
    if (body.error !== undefined && body.error !== null) throw errorInReply(body.error);
    if (typeof body.model === 'string' && body.model) this.model = body.model;
    if (isObject(body.usage)) this.usage = { ...usageOf(body.usage), ...cachedUsageOf(body.usage) };
    const choices = Array.isArray(body.choices) ? body.choices : [];
    const choice = choices.find((c) => isObject(c) && (c.index === 0 || c.index === undefined)) ?? choices[0];
    if (!isObject(choice)) return;
    this.sawChoice = true;
    if (isObject(choice.error)) throw errorInReply(choice.error);
    const message = choice[part];
    if (isObject(message)) {
      this.sawMessage = true;
      if (typeof message.content === 'string') this.content += message.content;
      else if (Array.isArray(message.content)) this.content += textOfParts(message.content);
      else if (message.content === null && part === 'message') this.sawNullContent = true;
      if (typeof message.reasoning_content === 'string' || typeof message.reasoning === 'string') this.reasoning = true;
      if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) this.toolCalls = true;
      if (typeof message.refusal === 'string') this.refusal += message.refusal;
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      if (choice.finish_reason === 'error') throw new LlmError('server', 'The provider ended the reply with finish_reason "error" (the model failed mid-answer); nothing of it is used.');
    }
  }

  /**
   * The reply, once complete.
   * @throws LlmError('bad_response') when it has no usable content
   */
  finish(): RawCompletion {
    const done: RawCompletion = { content: this.content, finishReason: this.finishReason, model: this.model, usage: this.usage };
    if (this.content.trim() !== '' || this.finishReason === 'length') return done;
    throw new UnusableReplyError(`The provider's reply had no usable content (${this.why()}); it is not used as the model's answer.`, this.usage);
  }

  private why(): string {
    if (this.refusal) return `a refusal: “${this.refusal.slice(0, 160)}”`;
    if (this.toolCalls) return 'only tool calls';
    if (this.reasoning) return 'only reasoning';
    if (!this.sawChoice) return 'choices: []';
    if (!this.sawMessage) return 'a choice without a message';
    if (this.sawNullContent) return 'content: null';
    return 'empty content';
  }
}

/** The text of content given as parts (`[{ type: 'text', text }]`, as some servers send it). */
function textOfParts(parts: unknown[]): string {
  return parts.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : typeof p === 'string' ? p : '')).join('');
}

function usageOf(u: Json): RawUsage {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const details = isObject(u.completion_tokens_details) ? u.completion_tokens_details : {};
  return { promptTokens: num(u.prompt_tokens), completionTokens: num(u.completion_tokens), reasoningTokens: num(details.reasoning_tokens) };
}

/**
 * The cached share of a usage object: `prompt_tokens_details.cached_tokens` (OpenAI, and the
 * servers that copy its shape) as `{ cachedPromptTokens }`, capped at `prompt_tokens`; `{}` when
 * absent, not a finite number > 0, or the prompt count is missing (nothing to be part of).
 */
export function cachedUsageOf(u: Json): { cachedPromptTokens?: number } {
  const details = isObject(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  const cached = details.cached_tokens;
  const prompt = u.prompt_tokens;
  if (typeof cached !== 'number' || !Number.isFinite(cached) || cached <= 0) return {};
  if (typeof prompt !== 'number' || !Number.isFinite(prompt) || prompt <= 0) return {};
  return { cachedPromptTokens: Math.min(Math.round(cached), prompt) };
}

/** An error object found inside a 200 reply, mapped by its code or type. */
export function errorInReply(error: unknown): LlmError {
  const e = isObject(error) ? error : { message: String(error) };
  const code = `${String(e.code ?? '')} ${String(e.type ?? '')}`;
  const message = typeof e.message === 'string' && e.message ? e.message : JSON.stringify(error).slice(0, 200);
  if (/insufficient_quota|billing|credit/i.test(code)) return new LlmError('quota', `The account has no credit left: ${message}`);
  if (/rate_limit/i.test(code)) return new LlmError('rate_limit', `Rate limited by the provider: ${message}`);
  return new LlmError('server', `The provider signalled an error inside its reply: ${message}`);
}

/**
 * A whole (non-streamed) JSON reply.
 * @throws LlmError('bad_response') for a body that is not JSON or has no usable content;
 *   LlmError('server' | 'quota' | 'rate_limit') for an error inside it
 */
export function completionFromJson(text: string, fallbackModel: string): RawCompletion {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    throw new LlmError('bad_response', `The provider's reply was not valid JSON (cut off or not an API reply: ${JSON.stringify(shown)}).`);
  }
  const reply = new ReplyAccumulator(fallbackModel);
  reply.add(body, 'message');
  return reply.finish();
}
