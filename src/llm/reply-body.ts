/**
 * Reading a chat-completions reply body — a whole JSON object or the chunks of a stream — into
 * one `RawCompletion`, and refusing replies a run must not act on: unparsable or cut-off bodies
 * (`bad_response`), an error signalled inside a 200 (`server`, or `quota` / `rate_limit` when its
 * code says so), and replies without usable content (`bad_response`: no choices, null or empty
 * content, no message, only reasoning or tool calls, a refusal). An error is found in every
 * framing provider-error.ts reads (vLLM's `{"object":"error"}`, Gemini's `[{"error":…}]`, …).
 * A reply cut off by a finish_reason other than a natural end (finish-reason.ts) is returned with
 * that reason — the callers never act on it — except DeepSeek's "insufficient_system_resource",
 * a `server` fault (retried). Usage that is not a set of non-negative integers is dropped (null),
 * so the caller counts it locally. A body in the other framing is read when complete: SSE text
 * answered to a non-streamed request, JSON followed by `data: [DONE]`.
 */
import { LlmError } from './errors.ts';
import { providerErrorOf, type ProviderError } from './provider-error.ts';

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
  /** The `model` the provider's reply named (absent when it named none). */
  providerModel?: string;
  /** The reply's `system_fingerprint` (absent when not sent). */
  systemFingerprint?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Accumulates a reply from a JSON body's first choice or from stream chunks. */
export class ReplyAccumulator {
  content = '';
  finishReason: string | null = null;
  model: string;
  usage: RawUsage | null = null;
  providerModel: string | undefined;
  systemFingerprint: string | undefined;
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
    const error = providerErrorOf(body);
    if (error) throw errorInReply(error);
    if (!isObject(body)) throw new LlmError('bad_response', `The provider sent ${JSON.stringify(body)?.slice(0, 80)} where a completion object belongs.`);
    if (typeof body.model === 'string' && body.model) this.model = this.providerModel = body.model;
    if (typeof body.system_fingerprint === 'string' && body.system_fingerprint) this.systemFingerprint = body.system_fingerprint;
    if (body.usage !== undefined && body.usage !== null) this.usage = usageOf(body.usage);
    const choices = Array.isArray(body.choices) ? body.choices : [];
    // Only choice 0 is read: another choice (n > 1, or a server that sends one unasked) is a
    // different reply, never appended to the first. A choice without an index counts as 0.
    const choice = choices.find((c) => isObject(c) && (c.index === 0 || c.index === undefined || c.index === null));
    if (!isObject(choice)) return;
    this.sawChoice = true;
    if (isObject(choice.error)) throw errorInReply(choice.error);
    // A whole `message` where a `delta` belongs (a server streaming one completion object).
    const message = isObject(choice[part]) ? choice[part] : choice.message;
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
      if (choice.finish_reason === 'insufficient_system_resource') {
        throw new LlmError('server', 'The provider cut the reply off for lack of resources (finish_reason "insufficient_system_resource"); nothing of it is used.');
      }
    }
  }

  /**
   * The reply, once complete.
   * @throws LlmError('bad_response') when it has no usable content
   */
  finish(): RawCompletion {
    const done: RawCompletion = {
      content: this.content, finishReason: this.finishReason, model: this.model, usage: this.usage,
      ...(this.providerModel ? { providerModel: this.providerModel } : {}), ...(this.systemFingerprint ? { systemFingerprint: this.systemFingerprint } : {}),
    };
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

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The usage a provider reported, or null when it is not usable: not an object, counts missing,
 * not integers (e.g. strings), or negative. Plausibility against the exchange is the caller's. */
function usageOf(u: unknown): RawUsage | null {
  if (!isObject(u) || !isCount(u.prompt_tokens) || !isCount(u.completion_tokens)) return null;
  const details = isObject(u.completion_tokens_details) ? u.completion_tokens_details : {};
  const reasoning = isCount(details.reasoning_tokens) && details.reasoning_tokens <= u.completion_tokens ? details.reasoning_tokens : 0;
  return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, reasoningTokens: reasoning, ...cachedUsageOf(u) };
}

/** An error signalled inside a 200 reply (or by a status the SDK could not map), with the
 * provider's fields, so a rejected parameter can be adapted as for an HTTP 400. */
export class ReplyFaultError extends LlmError {
  constructor(
    kind: ConstructorParameters<typeof LlmError>[0],
    message: string,
    readonly provider: ProviderError,
  ) {
    super(kind, message, provider.status);
  }
}

/**
 * An error found inside a reply (any framing provider-error.ts reads, or a bare error object),
 * mapped by the HTTP status it names (else the status its type stands for: invalid_request_error,
 * BadRequestError, INVALID_ARGUMENT → 400; authentication / permission errors → 401; not found →
 * 404): 401/403 auth, 402 or a billing code quota, 429 or a rate-limit code rate_limit, other 4xx
 * bad_request, else server (retried).
 */
export function errorInReply(error: unknown): ReplyFaultError {
  const e = isProviderError(error) ? error : (providerErrorOf({ error }) as ProviderError);
  const code = `${e.code ?? ''} ${e.type ?? ''}`;
  const s = e.status ?? statusOfType(code);
  if (s === 402 || /insufficient_quota|billing|credit/i.test(code)) return new ReplyFaultError('quota', `The account has no credit left: ${e.message}`, e);
  if (s === 401 || s === 403) return new ReplyFaultError('auth', `The provider refused the key${s ? ` (${s})` : ''}: ${e.message}`, e);
  if (s === 429 || /rate_limit/i.test(code)) return new ReplyFaultError('rate_limit', `Rate limited by the provider: ${e.message}`, e);
  if (s !== null && s >= 400 && s < 500 && s !== 408 && s !== 409) return new ReplyFaultError('bad_request', `The provider rejected the request (${s}): ${e.message}`, e);
  return new ReplyFaultError('server', `The provider signalled an error inside its reply: ${e.message}`, e);
}

function statusOfType(code: string): number | null {
  if (/invalid_request|bad_?request|invalid_argument/i.test(code)) return 400;
  if (/authentication|permission|unauthenticated|invalid_api_key/i.test(code)) return 401;
  if (/not_?found/i.test(code)) return 404;
  return null;
}

const isProviderError = (v: unknown): v is ProviderError => isObject(v) && typeof v.message === 'string' && 'status' in v && 'param' in v && 'code' in v && 'type' in v;

/** Whether a body's text is server-sent events rather than one JSON value. */
export function looksLikeSse(text: string): boolean {
  return /^\s*(data|event|id|retry)\s*:|^\s*:/.test(text);
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

/**
 * A whole (non-streamed) JSON reply.
 * @throws LlmError('bad_response') for a body that is not JSON or has no usable content;
 *   LlmError('server' | 'quota' | 'rate_limit') for an error inside it
 */
export function completionFromJson(text: string, fallbackModel: string): RawCompletion {
  let body: unknown;
  try {
    // JSON followed by a stray `data: [DONE]` (some proxies append it to every reply).
    body = JSON.parse(text.replace(/\s*(?:data:\s*)?\[DONE\]\s*$/, ''));
  } catch {
    const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    throw new LlmError('bad_response', `The provider's reply was not valid JSON (cut off or not an API reply: ${JSON.stringify(shown)}).`);
  }
  const reply = new ReplyAccumulator(fallbackModel);
  reply.add(body, 'message');
  return reply.finish();
}
