/**
 * Chat models over any OpenAI-compatible chat-completions endpoint, through the `openai` SDK —
 * the only module that imports it. The SDK does the retries (408/409/429/5xx, timeouts,
 * Retry-After); we cap long Retry-After waits, make every call abortable at once, bound the
 * number of requests in flight, account usage, enforce the run's caps, and map every fault once
 * into `LlmError`. The key never leaves the Authorization header.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import pLimit from 'p-limit';
import { corsAdvice, LlmError, scrub } from './errors.ts';
import type { ChatMessage, ChatModel, CompleteOptions, Completion, LlmSettings, Role, RoleSettings } from './interface.ts';
import type { UsageMeter } from './usage-meter.ts';

/** The SDK's optional telemetry headers, dropped on request (some servers' CORS rejects them). */
const STAINLESS_HEADERS = ['x-stainless-lang', 'x-stainless-package-version', 'x-stainless-os', 'x-stainless-arch', 'x-stainless-runtime', 'x-stainless-runtime-version', 'x-stainless-retry-count', 'x-stainless-timeout'];

export interface ChatModelDeps {
  /** fetch to use (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /** The page's origin, for CORS advice (null in Node). */
  origin?: string | null;
  /** Monotonic clock in ms (default performance.now). */
  now?: () => number;
}

type Body = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/**
 * The three role models of a run, sharing one concurrency limit and one usage meter.
 * @throws nothing; each `complete` throws LlmError / BudgetReachedError.
 */
export function createChatModels(settings: LlmSettings, meter: UsageMeter, deps: ChatModelDeps = {}): Record<Role, ChatModel> {
  const limit = pLimit(Math.max(1, settings.maxConcurrent));
  const make = (role: Role): ChatModel => ({
    role,
    settings: settings.roles[role],
    complete: (messages, options = {}) => limit(() => completeOnce(settings, role, settings.roles[role], messages, options, meter, deps)),
  });
  return { actor: make('actor'), metaAgent: make('metaAgent'), proposer: make('proposer') };
}

/**
 * List the provider's models (GET /models).
 * @throws LlmError mapped like a completion fault
 */
export async function listModels(settings: LlmSettings, deps: ChatModelDeps = {}, signal?: AbortSignal): Promise<string[]> {
  const client = makeClient(settings, deps, undefined);
  try {
    const ids: string[] = [];
    for await (const model of client.models.list({ signal })) ids.push(model.id);
    return ids.sort();
  } catch (error) {
    throw mapError(error, settings, deps, signal);
  }
}

/** Fields in which providers report a model's context window in GET /models (OpenRouter,
 * Together: context_length; Groq: context_window; vLLM: max_model_len; LM Studio:
 * max_context_length). */
const WINDOW_FIELDS = ['context_length', 'context_window', 'max_model_len', 'max_context_length'] as const;

/**
 * The context window (tokens) the provider reports for `model` in GET /models, or null when it
 * reports none or the listing fails (never throws: the caller falls back to a default).
 */
export async function reportedContextWindow(settings: LlmSettings, model: string, deps: ChatModelDeps = {}, signal?: AbortSignal): Promise<number | null> {
  try {
    const client = makeClient(settings, deps, undefined);
    for await (const entry of client.models.list({ signal })) {
      if (entry.id !== model) continue;
      const raw = entry as unknown as Record<string, unknown> & { top_provider?: Record<string, unknown> };
      for (const value of [...WINDOW_FIELDS.map((f) => raw[f]), raw.top_provider?.context_length]) {
        if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
      }
      return null;
    }
    return null;
  } catch {
    return null;
  }
}

function makeClient(settings: LlmSettings, deps: ChatModelDeps, onRetryWait: ((ms: number) => void) | undefined): OpenAI {
  const baseFetch = deps.fetch ?? globalThis.fetch.bind(globalThis);
  const cappedFetch: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    const waitMs = retryAfterMs(response.headers);
    if (response.ok || waitMs === null) return response;
    const capped = Math.min(waitMs, settings.maxRetryWaitMs);
    onRetryWait?.(capped);
    const headers = new Headers(response.headers);
    headers.delete('retry-after');
    headers.set('retry-after-ms', String(capped));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
  const defaultHeaders = settings.dropStainlessHeaders ? Object.fromEntries(STAINLESS_HEADERS.map((h) => [h, null])) : undefined;
  return new OpenAI({
    apiKey: settings.provider.apiKey || 'none',
    baseURL: settings.provider.baseUrl,
    dangerouslyAllowBrowser: true,
    maxRetries: settings.maxRetries,
    timeout: settings.requestTimeoutMs,
    fetch: cappedFetch,
    defaultHeaders,
    logLevel: 'off',
  });
}

/** Retry-After / retry-after-ms of a response, in ms; null when absent or unparsable. */
function retryAfterMs(headers: Headers): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms && !Number.isNaN(Number(ms))) return Number(ms);
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

async function completeOnce(
  settings: LlmSettings, role: Role, roleSettings: RoleSettings, messages: ChatMessage[],
  options: CompleteOptions, meter: UsageMeter, deps: ChatModelDeps,
): Promise<Completion> {
  meter.assertWithinCaps();
  if (options.signal?.aborted) throw new LlmError('aborted', 'The request was stopped before it was sent.');
  const client = makeClient(settings, deps, options.onRetryWait);
  const now = deps.now ?? (() => performance.now());
  let body: Body = {
    model: roleSettings.model,
    messages,
    max_tokens: roleSettings.maxTokens,
    ...(roleSettings.temperature === null ? {} : { temperature: roleSettings.temperature }),
  };
  const started = now();
  // A short-lived signal per call, linked to the caller's: the SDK adds abort listeners to the
  // signal it is given and never removes them, which would pile up on a session-long signal.
  const local = new AbortController();
  const forward = () => local.abort();
  options.signal?.addEventListener('abort', forward, { once: true });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const raw = await abortable(options.stream ? streamed(client, body, local.signal) : plain(client, body, local.signal), local.signal);
        const latencyMs = Math.round(now() - started);
        const completion: Completion = {
          content: raw.content,
          finishReason: raw.finishReason,
          model: raw.model || roleSettings.model,
          usage: {
            promptTokens: raw.promptTokens, completionTokens: raw.completionTokens, reasoningTokens: raw.reasoningTokens,
            latencyMs, costUsd: meter.costUsd(roleSettings.model, raw.promptTokens, raw.completionTokens),
          },
        };
        meter.record(role, completion.usage);
        return completion;
      } catch (error) {
        const adapted = attempt === 0 ? adaptToUnsupportedParameter(error, body) : null;
        if (adapted) {
          body = adapted;
          continue;
        }
        throw mapError(error, settings, deps, local.signal);
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', forward);
  }
}

interface RawCompletion {
  content: string;
  finishReason: string | null;
  model: string;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
}

async function plain(client: OpenAI, body: Body, signal: AbortSignal | undefined): Promise<RawCompletion> {
  const response = await client.chat.completions.create(body, { signal });
  const choice = response.choices?.[0];
  return {
    content: choice?.message?.content ?? '',
    finishReason: choice?.finish_reason ?? null,
    model: response.model,
    promptTokens: response.usage?.prompt_tokens ?? 0,
    completionTokens: response.usage?.completion_tokens ?? 0,
    reasoningTokens: response.usage?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

async function streamed(client: OpenAI, body: Body, signal: AbortSignal | undefined): Promise<RawCompletion> {
  const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal });
  const out: RawCompletion = { content: '', finishReason: null, model: body.model, promptTokens: 0, completionTokens: 0, reasoningTokens: 0 };
  for await (const chunk of stream) {
    const choice = chunk.choices?.[0];
    if (choice?.delta?.content) out.content += choice.delta.content;
    if (choice?.finish_reason) out.finishReason = choice.finish_reason;
    if (chunk.model) out.model = chunk.model;
    if (chunk.usage) {
      out.promptTokens = chunk.usage.prompt_tokens;
      out.completionTokens = chunk.usage.completion_tokens;
      out.reasoningTokens = chunk.usage.completion_tokens_details?.reasoning_tokens ?? 0;
    }
  }
  return out;
}

/** Reject as soon as `signal` aborts, even while the SDK sleeps before a retry. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new APIUserAbortError());
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A 400 that names an unsupported parameter is retried once, adapted — not blindly: drop
 * `temperature`, or send `max_completion_tokens` instead of `max_tokens`.
 */
function adaptToUnsupportedParameter(error: unknown, body: Body): Body | null {
  if (!(error instanceof APIError) || error.status !== 400) return null;
  const message = String(error.message);
  if (!/unsupported|not supported|does not support|only the default/i.test(message)) return null;
  if (/temperature/i.test(message) && 'temperature' in body) {
    const { temperature: _t, ...rest } = body;
    return rest;
  }
  if (/max_tokens/i.test(message) && body.max_tokens !== undefined) {
    const { max_tokens, ...rest } = body;
    return { ...rest, max_completion_tokens: max_tokens };
  }
  return null;
}

function mapError(error: unknown, settings: LlmSettings, deps: ChatModelDeps, signal: AbortSignal | undefined): LlmError {
  const key = settings.provider.apiKey;
  const clean = (m: string) => scrub(m, key);
  if (error instanceof LlmError) return error;
  if (error instanceof APIUserAbortError || signal?.aborted) return new LlmError('aborted', 'The request was stopped.');
  if (error instanceof APIConnectionTimeoutError) {
    return new LlmError('timeout', `No answer from ${settings.provider.baseUrl} within ${settings.requestTimeoutMs} ms (after ${settings.maxRetries} retries).`);
  }
  if (error instanceof APIConnectionError) return new LlmError('network_or_cors', corsAdvice(settings.provider.baseUrl, deps.origin ?? null));
  if (error instanceof APIError) {
    const status = error.status ?? null;
    const detail = clean(String(error.message));
    if (status === 401 || status === 403) return new LlmError('auth', `The provider refused the key (HTTP ${status}): check the key and its permissions. ${detail}`, status);
    if (status === 429) return new LlmError('rate_limit', `Rate limited by the provider after ${settings.maxRetries} retries (HTTP 429). ${detail}`, status);
    if (status === 408) return new LlmError('timeout', `The provider timed out (HTTP 408). ${detail}`, status);
    if (status !== null && status >= 500) return new LlmError('server', `The provider failed (HTTP ${status}) after ${settings.maxRetries} retries. ${detail}`, status);
    if (status === undefined || status === null) return new LlmError('server', `The provider sent an error: ${detail}`);
    return new LlmError('bad_request', `The provider rejected the request (HTTP ${status}): ${detail}`, status);
  }
  const message = clean(error instanceof Error ? error.message : String(error));
  if (error instanceof SyntaxError) return new LlmError('server', `The provider's reply was not valid JSON: ${message}`);
  return new LlmError('server', `Unexpected failure talking to the provider: ${message}`);
}
