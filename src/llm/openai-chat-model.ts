/**
 * Chat models over any OpenAI-compatible chat-completions endpoint, through the `openai` SDK —
 * the only module that imports it. The SDK builds and sends requests (its own retries are off);
 * we bound every attempt as a whole (`requestTimeoutMs`: connecting, headers and the entire body
 * or stream, plus `streamIdleTimeoutMs` between chunks), read the body ourselves (reply-body.ts,
 * sse-reader.ts) so that no unparsable, cut-off, empty or error-signalling reply is ever used,
 * adapt rejected parameters (adaptations.ts) and raise the budget of a model that spends it all
 * on reasoning (once, then a low reasoning effort; a third such reply stops the run with the fix), retry by one policy (retry-policy.ts),
 * send a copy beside an attempt that has had no response for far longer than this role's recent
 * replies took (hedge.ts: a hang costs that, not the whole request timeout), make every
 * call abortable at once, bound the requests in flight (per run, and per (base URL, model) under the
 * provider's rate limits: rate-scheduler.ts admits every attempt), account usage (counted locally and
 * marked as estimated when the provider sends none or none believable, usage-check.ts), enforce the run's caps, and map every fault
 * once into `LlmError`. The key never leaves the Authorization header.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import pLimit from 'p-limit';
import { AdaptationMemory, budgetOf, describeAdaptation, rejectedParameter, sharedAdaptations, type RequestBody } from './adaptations.ts';
import { corsAdvice, LlmError, roomRefusalMessage, scrub } from './errors.ts';
import type { ChatMessage, ChatModel, CompleteOptions, Completion, LlmSettings, Role, RoleSettings } from './interface.ts';
import { completionFromJson, errorInReply, looksLikeSse, ReplyFaultError, UnusableReplyError, type RawCompletion, type RawUsage } from './reply-body.ts';
import { openAiErrorBody, providerErrorOf } from './provider-error.ts';
import { retryAfterHeaderMs, sharedRateSchedulers, type RateScheduler, type RateSchedulers } from './rate-scheduler.ts';
import { withRetries } from './retry-policy.ts';
import { hedged, ModelLatencies, type AttemptCopy, type LatencyHistory } from './hedge.ts';
import { BUDGET_SETTING, raisedBudget, spentOnReasoning } from './reasoning-budget.ts';
import { readChatStream } from './sse-reader.ts';
import { countChatTokens, loadTokenCounter } from './token-count.ts';
import { trustedUsage } from './usage-check.ts';
import type { UsageMeter } from './usage-meter.ts';

/** The SDK's optional telemetry headers, dropped on request (some servers' CORS rejects them). */
const STAINLESS_HEADERS = ['x-stainless-lang', 'x-stainless-package-version', 'x-stainless-os', 'x-stainless-arch', 'x-stainless-runtime', 'x-stainless-runtime-version', 'x-stainless-retry-count', 'x-stainless-timeout'];

/** Default silence allowed between two chunks of a stream, ms (capped to the request timeout). */
export const DEFAULT_STREAM_IDLE_MS = 30_000;

export interface ChatModelDeps {
  /** fetch to use (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /** The page's origin, for CORS advice (null in Node). */
  origin?: string | null;
  /** Monotonic clock in ms (default performance.now). */
  now?: () => number;
  /** Where rejected parameters are remembered (default: the page's / process's `sharedAdaptations`). */
  adaptations?: AdaptationMemory;
  /** Rate-limit schedulers, one per (base URL, model) (default: the process's / page's `sharedRateSchedulers`). */
  rateSchedulers?: RateSchedulers;
  /** Least ms without a response before an attempt is hedged (default hedge.ts HEDGE_FLOOR_MS). */
  hedgeFloorMs?: number;
}

/** Times to a response per rate scheduler (one per base URL and model), by role: hedge.ts. */
const latencies = new WeakMap<RateScheduler, ModelLatencies>();

function latenciesOf(scheduler: RateScheduler): ModelLatencies {
  let model = latencies.get(scheduler);
  if (!model) latencies.set(scheduler, (model = new ModelLatencies()));
  return model;
}

/**
 * The three role models of a run, sharing one concurrency limit and one usage meter.
 * @throws nothing; each `complete` throws LlmError / BudgetReachedError.
 */
export function createChatModels(settings: LlmSettings, meter: UsageMeter, deps: ChatModelDeps = {}): Record<Role, ChatModel> {
  const limit = pLimit(Math.max(1, settings.maxConcurrent));
  const client = clientCache(settings, deps);
  const make = (role: Role): ChatModel => ({
    role,
    settings: settings.roles[role],
    complete: (messages, options = {}) => limit(() => complete(client(), settings, role, settings.roles[role], messages, options, meter, deps)),
  });
  return { actor: make('actor'), metaAgent: make('metaAgent'), proposer: make('proposer') };
}

/**
 * List the provider's models (GET /models), one attempt within the request timeout.
 * @throws LlmError mapped like a completion fault
 */
export async function listModels(settings: LlmSettings, deps: ChatModelDeps = {}, signal?: AbortSignal): Promise<string[]> {
  const client = makeClient(settings, deps);
  const attempt = new AttemptSignal(signal, settings.requestTimeoutMs);
  try {
    const ids: string[] = [];
    for await (const model of client.models.list({ signal: attempt.signal })) ids.push(model.id);
    return ids.sort();
  } catch (error) {
    throw mapError(error, settings, deps, attempt);
  } finally {
    attempt.dispose();
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
    const client = makeClient(settings, deps);
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

/**
 * The run's SDK client, made once and made again only when what it is built from changed (the
 * provider's URL or key, the timeout, the header choice): building one per call cost about
 * 0.1 ms of CPU each (loop overhead).
 */
function clientCache(settings: LlmSettings, deps: ChatModelDeps): () => OpenAI {
  let made: { from: readonly unknown[]; client: OpenAI } | null = null;
  return () => {
    const from = [settings.provider.baseUrl, settings.provider.apiKey, settings.requestTimeoutMs, settings.dropStainlessHeaders === true];
    if (!made || from.some((v, i) => v !== made!.from[i])) made = { from, client: makeClient(settings, deps) };
    return made.client;
  };
}

function makeClient(settings: LlmSettings, deps: ChatModelDeps): OpenAI {
  const defaultHeaders = settings.dropStainlessHeaders ? Object.fromEntries(STAINLESS_HEADERS.map((h) => [h, null])) : undefined;
  return new OpenAI({
    apiKey: settings.provider.apiKey || 'none',
    baseURL: settings.provider.baseUrl,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    timeout: settings.requestTimeoutMs,
    fetch: reframingErrors(deps.fetch ?? globalThis.fetch.bind(globalThis)),
    defaultHeaders,
    logLevel: 'off',
  });
}

/**
 * `fetch` whose error responses (status ≥ 400) carry their error in OpenAI's framing, so that the
 * SDK reads its message, type, param and code whatever server sent it (provider-error.ts: vLLM's
 * `{"object":"error",…}`, Gemini's `[{"error":…}]`, Ollama's `{"error":"text"}`, …). Other
 * responses, and bodies that are not JSON (the SDK shows their text), pass unchanged.
 */
function reframingErrors(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok || response.status < 400) return response;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    const error = providerErrorOf(parsed);
    const body = error ? openAiErrorBody(error) : text;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * One attempt's abort signal: aborted by the caller's signal (Stop) or by the attempt's own
 * deadline, which covers the whole call. Short-lived, so no listener piles up on a run-long signal.
 */
class AttemptSignal {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  timedOut = false;
  private readonly forward = () => this.controller.abort();

  constructor(
    private readonly outer: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    outer?.addEventListener('abort', this.forward, { once: true });
    if (outer?.aborted) this.controller.abort();
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, timeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopped(): boolean {
    return this.outer?.aborted === true;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.forward);
  }
}

async function complete(
  client: OpenAI, settings: LlmSettings, role: Role, roleSettings: RoleSettings, messages: ChatMessage[],
  options: CompleteOptions, meter: UsageMeter, deps: ChatModelDeps,
): Promise<Completion> {
  meter.assertWithinCaps();
  if (options.signal?.aborted) throw new LlmError('aborted', 'The request was stopped before it was sent.');
  const now = deps.now ?? (() => performance.now());
  const memory = deps.adaptations ?? sharedAdaptations;
  const base: RequestBody = {
    model: roleSettings.model,
    messages,
    max_tokens: roleSettings.maxTokens,
    ...(roleSettings.temperature === null ? {} : { temperature: roleSettings.temperature }),
    ...(options.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
  const started = now();
  const count = await loadTokenCounter();
  const promptEstimate = countChatTokens(messages, count);
  // The completion budget the request is sent with (raised for a model that reasons it away).
  const budgetNow = (): number => budgetOf(memory.adapt(settings.provider.baseUrl, base))?.tokens ?? roleSettings.maxTokens;
  // A reply without usable content is not used, but what the provider billed for it still counts
  // (a reply that spent the whole budget on reasoning is counted as the whole budget when the
  // provider's usage is missing or unbelievable).
  const billed = (reported: RawUsage | null, spentTokens = 0): void => {
    const budget = budgetNow();
    const { usage, estimated } = trustedUsage(reported, { promptTokens: promptEstimate, completionTokens: spentTokens, reasoningTokens: spentTokens }, budget);
    meter.record(role, { ...usage, latencyMs: 0, costUsd: meter.costUsd(roleSettings.model, usage.promptTokens, usage.completionTokens, usage.cachedPromptTokens), ...(estimated ? { estimated: true } : {}) });
  };
  const scheduler = (deps.rateSchedulers ?? sharedRateSchedulers).for(settings.provider.baseUrl, roleSettings.model);
  const admission = { scheduler, tokens: promptEstimate + budgetNow() };
  const reasoning: ReasoningBudget = {
    role,
    room: () => (settings.caps.maxTokens === null ? null : settings.caps.maxTokens - meter.totalTokens - promptEstimate),
  };
  const modelLatencies = latenciesOf(scheduler);
  const latency = modelLatencies.of(role, roleSettings.maxTokens);
  const afterMs = () => modelLatencies.hedgeAfterMs(role, settings.requestTimeoutMs, deps.hedgeFloorMs);
  const raw = await withRetries(
    (retry) => {
      const send = (copy: AttemptCopy) => sendAdapting(client, settings, memory, base, retry, { ...options, signal: copy.signal }, deps, billed, admission, reasoning, { copy, latency, now });
      return hedged(send, { afterMs, recheckMs: deps.hedgeFloorMs, signal: options.signal, onHedge: () => options.onHedge?.(afterMs()) });
    },
    { maxRetries: settings.maxRetries, maxRetryWaitMs: settings.maxRetryWaitMs, signal: options.signal, onRetryWait: options.onRetryWait },
  );
  const latencyMs = Math.round(now() - started);
  const estimate: RawUsage = { promptTokens: promptEstimate, completionTokens: count(raw.content), reasoningTokens: 0 };
  const { usage, estimated } = trustedUsage(raw.usage, estimate, budgetNow());
  const completion: Completion = {
    content: raw.content,
    finishReason: raw.finishReason,
    model: raw.model || roleSettings.model,
    usage: {
      promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, reasoningTokens: usage.reasoningTokens,
      latencyMs, costUsd: meter.costUsd(roleSettings.model, usage.promptTokens, usage.completionTokens, usage.cachedPromptTokens),
      ...cachedOf(usage),
      ...(estimated ? { estimated: true } : {}),
    },
    ...(raw.providerModel ? { providerModel: raw.providerModel } : {}),
    ...(raw.systemFingerprint ? { systemFingerprint: raw.systemFingerprint } : {}),
  };
  meter.record(role, completion.usage);
  return completion;
}

/**
 * One attempt: send the body with every remembered adaptation; while the provider rejects a
 * parameter we can adapt, learn it and send again at once (not counted as a retry).
 * @throws LlmError (mapped)
 */
async function sendAdapting(
  client: OpenAI, settings: LlmSettings, memory: AdaptationMemory, base: RequestBody, retry: number,
  options: CompleteOptions, deps: ChatModelDeps, billed: (usage: RawUsage | null, spentTokens?: number) => void,
  admission: { scheduler: RateScheduler; tokens: number }, reasoning: ReasoningBudget,
  timing: { copy: AttemptCopy; latency: LatencyHistory; now: () => number },
): Promise<RawCompletion> {
  const baseUrl = settings.provider.baseUrl;
  for (;;) {
    const body = memory.adapt(baseUrl, base);
    // Waiting for admission is not part of the attempt's deadline; Stop ends it at once.
    const permit = await admission.scheduler.acquire(options.signal, admission.tokens, retry > 0 || timing.copy.hedge);
    const attempt = new AttemptSignal(options.signal, settings.requestTimeoutMs);
    // Released when the whole reply is read (it held a slot until then), with the response's headers.
    let seen: { status: number | null; headers?: Headers | null } = { status: null };
    let spent: RawCompletion;
    const sentAt = timing.now();
    timing.copy.sent();
    const responded = (status: number, headers: Headers) => {
      seen = { status, headers };
      if (status >= 400) return; // a refusal: this attempt ends now, it is not a reply on its way
      timing.copy.responded();
      timing.latency.add(timing.now() - sentAt);
    };
    try {
      const raw = await sendOnce(client, settings, body, retry, attempt, responded, deps.origin ?? null);
      if (!spentOnReasoning(raw)) return raw;
      spent = raw;
    } catch (error) {
      if (error instanceof APIError) seen = { status: error.status ?? null, headers: error.headers };
      if (error instanceof UnusableReplyError && error.usage) billed(error.usage);
      const parameter = rejectionOf(body, error);
      const learnt = parameter ? memory.learn(baseUrl, body, parameter, scrub(String((error as Error).message), settings.provider.apiKey)) : null;
      if (!learnt) throw mapError(error, settings, deps, attempt, body.model);
      options.onAdaptation?.(learnt.adaptation);
      continue;
    } finally {
      permit.release(seen);
      attempt.dispose();
    }
    // The whole budget went on reasoning: counted, never used; the budget is raised once, then the run stops.
    const budget = budgetOf(body);
    billed(spent.usage, budget?.tokens ?? 0);
    // Sent before another call adapted this model (raised its budget, lowered its effort): send again as adapted.
    if (JSON.stringify(memory.adapt(baseUrl, base)) !== JSON.stringify(body)) continue;
    const learnt = raiseReasoningBudget(memory, baseUrl, body, reasoning, spent);
    options.onAdaptation?.(learnt.adaptation);
  }
}

export { MAX_RAISED_BUDGET, spentOnReasoning } from './reasoning-budget.ts';

/** What a call needs to raise a reasoning model's budget within the run's token cap. */
interface ReasoningBudget {
  role: Role;
  /** Tokens the run's cap leaves for this call's reply (null: no token cap). */
  room: () => number | null;
}

/**
 * Adapt (baseUrl, model) after a reply that spent its whole budget on reasoning: first raise the
 * completion budget to min(max(4 × budget, 4096), MAX_RAISED_BUDGET, what the run's token cap
 * leaves); when it was raised before (or cannot be), ask for reasoning_effort low (dropped like
 * any parameter if the provider refuses it).
 * @throws LlmError('bad_request') — a refusal no later call fixes, so the run stops resumably — when
 *   both were tried, naming the settings that fix it
 */
function raiseReasoningBudget(memory: AdaptationMemory, baseUrl: string, body: RequestBody, reasoning: ReasoningBudget, spent: RawCompletion) {
  const tokens = budgetOf(body)?.tokens ?? 0;
  const room = reasoning.room();
  const raised = raisedBudget(tokens, room);
  const thought = spent.usage?.reasoningTokens ? ` (${spent.usage.reasoningTokens} reported as reasoning)` : '';
  const reason = `finish_reason "${spent.finishReason}" with no answer after the whole budget of ${tokens} tokens${thought}`;
  const learnt = (raised > tokens ? memory.raiseBudget(baseUrl, body, raised, reason) : null) ?? memory.lowerEffort(baseUrl, body, reason);
  if (learnt) return learnt;
  const mine = memory.list().filter((a) => a.baseUrl === baseUrl && a.model === body.model);
  const tried = mine.filter((a) => a.change === 'raised' || a.change === 'set').map(describeAdaptation);
  if (mine.some((a) => a.parameter === 'reasoning_effort' && a.change === 'dropped')) tried.push('reasoning_effort refused by the provider');
  const notRaised = raised > tokens ? null : room !== null && room <= tokens ? "the run's token cap leaves no room to raise its budget" : `${tokens} tokens is already the most raised automatically`;
  const why = [notRaised, tried.length > 0 ? `even after ${tried.join(', ')}` : null].filter((w) => w !== null).join('; ');
  throw new LlmError(
    'bad_request',
    `The model ${body.model} spent its whole completion budget (${tokens} tokens) on reasoning and wrote no answer (${why}). ` +
      `Give it a larger budget with ${BUDGET_SETTING[reasoning.role]}, lower its reasoning effort at the provider, or pick a model that does not reason; then resume.`,
  );
}

/** The adaptable parameter a rejection names: an HTTP 400/422 (any server's framing, reframed
 * for the SDK), or an error inside a 200 reply with such a status or none. */
function rejectionOf(body: RequestBody, error: unknown): string | null {
  if (error instanceof APIError) return rejectedParameter(body, error.status ?? null, String(error.message), error.param ?? null, error.code ?? null);
  if (error instanceof ReplyFaultError) {
    const p = error.provider;
    // An error inside a 200 names no status in some framings (Ollama's `{"error":"text"}`): its
    // words must then name the parameter as unsupported, as always.
    return rejectedParameter(body, p.status ?? 400, p.message, p.param, p.code);
  }
  return null;
}

/** Send one request and read its whole reply within the attempt's deadline. */
async function sendOnce(
  client: OpenAI, settings: LlmSettings, body: RequestBody, retry: number, attempt: AttemptSignal,
  onResponse: (status: number, headers: Headers) => void, origin: string | null,
): Promise<RawCompletion> {
  const headers = settings.dropStainlessHeaders ? undefined : { 'x-stainless-retry-count': String(retry) };
  const request = client.chat.completions.create(body as unknown as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, { signal: attempt.signal, headers });
  const response = await request.asResponse();
  onResponse(response.status, response.headers); // the provider's rate-limit headers
  const idle = Math.min(settings.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS, settings.requestTimeoutMs);
  // Read by what arrives, not by what was asked: SSE answered to a plain request is read as a stream.
  if (body.stream === true || /text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
    return readChatStream(response, { idleMs: idle, fallbackModel: body.model }).catch((error: unknown) => {
      throw unreadableBody(error, response, attempt, origin);
    });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw unreadableBody(error, response, attempt, origin);
  }
  if (looksLikeSse(text)) return readChatStream(new Response(text), { idleMs: idle, fallbackModel: body.model });
  return completionFromJson(text, body.model);
}

/**
 * A body that failed to read, named by its content-encoding when it has one (gzip, deflate, br:
 * a body labelled with a coding it is not in cannot be decoded — by fetch in the page, by
 * http-fetch.ts in the CLI); any other failure (a cut, Stop, a timeout, an error in the stream)
 * is passed on unchanged for mapError. In a page (`origin` set) CORS hides the header unless the
 * server exposes it, and Chromium says only "Failed to fetch" for both a broken connection and a
 * body it cannot decode: then the message names both causes and the codings.
 */
function unreadableBody(error: unknown, response: Response, attempt: AttemptSignal, origin: string | null): unknown {
  if (error instanceof LlmError || attempt.signal.aborted) return error;
  const coding = response.headers.get('content-encoding')?.trim();
  if (!coding && origin !== null && error instanceof TypeError) {
    return new LlmError(
      'bad_response',
      `The provider’s reply could not be read (${error.message}): the connection broke mid-body, or the body is labelled with a content-encoding (gzip, deflate or br) it is not really in — the browser cannot decode it and does not say which; nothing of it is used. If it persists, check a proxy between you and the provider.`,
      response.status,
    );
  }
  if (!coding || /^identity$/i.test(coding)) return error;
  const cause = (error as { cause?: unknown }).cause;
  const why = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return new LlmError(
    'bad_response',
    `The provider’s reply is labelled content-encoding: ${coding} but could not be decoded as ${coding} (${why}); nothing of it is used. A server or proxy that labels a body with a coding it is not in does this.`,
    response.status,
  );
}

/** Map anything an attempt threw into the typed fault set (once). `model`: the model called, for advice. */
function mapError(error: unknown, settings: LlmSettings, deps: ChatModelDeps, attempt: AttemptSignal, model?: string): LlmError {
  const clean = (m: string) => scrub(m, settings.provider.apiKey);
  const timeoutMessage = `No complete answer from ${settings.provider.baseUrl} within ${settings.requestTimeoutMs} ms.`;
  if (attempt.stopped) return new LlmError('aborted', 'The request was stopped.');
  if (error instanceof LlmError) return new LlmError(error.kind, clean(error.message), error.status, error.retryAfterMs);
  if (attempt.timedOut || error instanceof APIConnectionTimeoutError) return new LlmError('timeout', timeoutMessage);
  if (error instanceof APIUserAbortError) return new LlmError('aborted', 'The request was stopped.');
  if (error instanceof APIConnectionError) return new LlmError('network_or_cors', corsAdvice(settings.provider.baseUrl, deps.origin ?? null));
  if (error instanceof APIError) return mapStatus(error, clean, settings.provider.baseUrl, model);
  const message = clean(error instanceof Error ? error.message : String(error));
  // A body that broke off mid-read (connection reset, "terminated") is a cut-off reply.
  return new LlmError('bad_response', `The provider's reply broke off before it was complete: ${message}`);
}

/** `error.code`s of a workshop room's forwarder refusals (src/room/protocol.ts `ROOM_REFUSAL_CODES`). */
const ROOM_REFUSAL = /\b(?:call_cap_reached|token_cap_reached|usd_cap_reached|model_calls_paused|room_not_open|room_closed|participant_removed|unknown_participant)\b/;

/** An HTTP error status, by what it means for the user. */
function mapStatus(error: APIError, clean: (m: string) => string, baseUrl: string, model?: string): LlmError {
  const status = error.status ?? null;
  const detail = clean(String(error.message));
  const advice = requestAdvice(status, detail, baseUrl, model);
  if (advice) return new LlmError('bad_request', advice, status);
  const retryAfter = retryAfterMs(error.headers);
  const code = `${error.code ?? ''} ${error.type ?? ''}`;
  if (status === 402 || /insufficient_quota|billing_hard_limit|insufficient_credits/i.test(code)) {
    return new LlmError('quota', `The account has no credit left (HTTP ${status}): add credit or raise the limit in the provider's billing settings, then resume. ${detail}`, status);
  }
  if (status === 401 || status === 403) return new LlmError('auth', `The provider refused the key (HTTP ${status}): check the key and its permissions. ${detail}`, status);
  // A workshop room's forwarder refusing a participant (room/protocol.ts ROOM_REFUSAL_CODES): its
  // own words, and no retry (waiting does not lift a cap or the teacher's pause).
  const room = status === null ? null : ROOM_REFUSAL.exec(code);
  if (room) return new LlmError(status === 429 ? 'quota' : 'auth', roomRefusalMessage(room[0], detail.replace(/^\d{3}\s+/, '')), status);
  if (status === 429) return new LlmError('rate_limit', `Rate limited by the provider (HTTP 429). ${detail}`, status, retryAfter);
  if (status === 408 || status === 409) return new LlmError('timeout', `The provider gave up on the request (HTTP ${status}). ${detail}`, status, retryAfter);
  if (status !== null && status >= 500) return new LlmError('server', `The provider failed (HTTP ${status}). ${detail}`, status, retryAfter);
  if (status === null) return errorInReply(error.error ?? { message: detail });
  return new LlmError('bad_request', `The provider rejected the request (HTTP ${status}): ${detail}`, status);
}

/** Words of a provider saying the model is not served by /chat/completions (OpenAI: "This model is
 * only supported in v1/responses and not in v1/chat/completions."; "This is not a chat model and
 * thus not supported in the v1/chat/completions endpoint."). */
const NOT_A_CHAT_MODEL = /only supported in v1\/responses|v1\/responses|not a chat model|not supported in the v1\/chat\/completions/i;

/** Words of a 404 that mean the path does not exist (Ollama and Go servers: "404 page not found";
 * others: unknown URL / endpoint / route, Express's "Cannot POST"), not that the model is unknown. */
const NO_SUCH_PATH = /page not found|unknown (?:url|endpoint|route|path)|no route|cannot post|<title>404 not found<\/title>|^(?:404\s*)+(?:not found)?\s*$/i;

/**
 * A refusal whose fix is a setting the user must change, in words that name it — or null:
 * a model that only the Responses API serves (pick a chat-completions model); a 404 for the path
 * when the base URL lacks `/v1` (Ollama, LM Studio and vLLM serve it under /v1: suggest it).
 */
export function requestAdvice(status: number | null, detail: string, baseUrl: string, model?: string): string | null {
  const named = model ? `The model ${model}` : 'This model';
  if (status !== null && status >= 400 && status < 500 && NOT_A_CHAT_MODEL.test(detail)) {
    return `${named} is not served by the chat-completions API (/chat/completions), the only one the playground calls (HTTP ${status}: ${detail}). Pick a chat-completions model for this role.`;
  }
  if (status === 404 && NO_SUCH_PATH.test(detail)) {
    const trimmed = baseUrl.replace(/\/+$/, '');
    let path = '';
    try {
      path = new URL(trimmed).pathname;
    } catch {
      path = trimmed;
    }
    const hint = /\/v1(?:\/|$)/.test(path) ? 'Check the base URL.' : `The base URL usually ends in /v1: try ${trimmed}/v1.`;
    return `There is no chat-completions endpoint at ${trimmed}/chat/completions (HTTP 404: ${detail}). ${hint}`;
  }
  return null;
}

/** Retry-After (seconds or an HTTP date) or retry-after-ms of a response, in ms; null when absent or unparsable. */
export function retryAfterMs(headers: Headers | undefined, nowMs: number = Date.now()): number | null {
  return headers ? retryAfterHeaderMs(headers, nowMs) : null;
}

/** `{ cachedPromptTokens }` when the provider reported cached prompt tokens, else `{}` (so usage
 * records stay as they were for providers without prompt caching). */
function cachedOf(usage: RawUsage): { cachedPromptTokens?: number } {
  return usage.cachedPromptTokens ? { cachedPromptTokens: usage.cachedPromptTokens } : {};
}
