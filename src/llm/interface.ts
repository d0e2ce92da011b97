/**
 * Public types of the LLM layer: provider settings per role, chat messages, completions with
 * usage, and the typed fault set every provider error is mapped into (once, in errors.ts).
 * DOM-free; the key lives only in `ProviderSettings.apiKey` and is never serialised by us.
 */

/** The three LLM roles of Meta-TTL (method.md, "Roles"). */
export type Role = 'actor' | 'metaAgent' | 'proposer';
export const ROLES: readonly Role[] = ['actor', 'metaAgent', 'proposer'];

export interface RoleSettings {
  model: string;
  /** Sampling temperature; `null` = omit the parameter (some reasoning models reject it). */
  temperature: number | null;
  /** Completion token limit (`max_tokens`). */
  maxTokens: number;
}

/** The settings besides the models that change a run's results, as a run records them to check a
 * resume against: the provider's base URL and each role's temperature and completion limit. */
export interface RecordedLlmSettings {
  baseUrl: string;
  roles: Record<Role, { temperature: number | null; maxTokens: number }>;
}

/** A resume that was allowed to change the models or settings (`--allow-changed-settings`): when,
 * by which code (src/common/code-version.ts), and each change ("actor model: a → b"). */
export interface SettingsChangeRecord {
  at: string;
  codeVersion: string;
  changes: string[];
}

export interface ProviderSettings {
  /** Preset id (providers.ts) or 'custom'. */
  presetId: string;
  /** OpenAI-compatible base URL, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1. */
  baseUrl: string;
  /** The secret key; '' for keyless local servers. Never exported, logged or put in a URL. */
  apiKey: string;
}

export interface LlmSettings {
  provider: ProviderSettings;
  roles: Record<Role, RoleSettings>;
  /** Per-attempt timeout, ms, for the whole call: connecting, headers and the entire body or
   * stream (default 60,000). */
  requestTimeoutMs: number;
  /** Retries (ours; the SDK's own are off) after a timeout, 408/409/429 rate limit, 5xx, or a
   * reply that is unparsable, cut off or without content (default 2). */
  maxRetries: number;
  /** Longest wait before a retry, ms: a provider's Retry-After (seconds or HTTP date) is honoured
   * up to this and longer waits are capped to it; our own backoff (0.5 s, 1 s, 2 s …) too (default 30,000). */
  maxRetryWaitMs: number;
  /** Longest silence between two chunks of a streamed reply, ms, before the attempt fails as
   * `timeout` (default: min(requestTimeoutMs, 30,000)). Optional for older saved settings. */
  streamIdleTimeoutMs?: number;
  /** Most requests in flight at once (default 4). */
  maxConcurrent: number;
  /** Drop the SDK's optional x-stainless-* headers (helps servers whose CORS rejects them). */
  dropStainlessHeaders: boolean;
  /** Hard caps per run; `null` = no cap. */
  caps: { maxUsd: number | null; maxTokens: number | null };
  /** USD per million tokens, by model id; unknown models cost 0 (and say so). Cached input
   * (prompt tokens the provider served from its cache) costs `cachedInputPerMTokUsd`, or the
   * input price when a row has none. */
  prices: Record<string, ModelPrice>;
}

/** One price row, USD per million tokens. */
export interface ModelPrice {
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
  /** Prompt tokens served from the provider's cache; absent = the input price (no discount known). */
  cachedInputPerMTokUsd?: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens and money of one call. */
export interface CallUsage {
  promptTokens: number;
  completionTokens: number;
  /** Reasoning tokens reported by the provider (part of completionTokens), 0 when not reported. */
  reasoningTokens: number;
  /** Prompt tokens served from the provider's prompt cache (part of promptTokens, priced at the
   * cached-input price); absent when the provider reported none. */
  cachedPromptTokens?: number;
  latencyMs: number;
  costUsd: number;
  /** True when the provider sent no usage, or none believable (usage-check.ts: non-numeric,
   * negative, zero or absurd), and the tokens were counted locally (cl100k_base, an estimate);
   * absent or false when they are the provider's figures. */
  estimated?: boolean;
}

/**
 * A request parameter changed because a (base URL, model) rejected it (HTTP 400/422 naming it):
 * remembered, so later calls send the adapted request at once. `to` is the new name for a rename,
 * null when the parameter is dropped.
 */
export interface ParameterAdaptation {
  baseUrl: string;
  model: string;
  parameter: string;
  /** 'dropped' (sent no more), 'renamed' (sent as `to`; a `role:<name>` parameter: messages in
   * that role are sent in role `to`), 'raised' (the completion budget is at least `to` tokens,
   * because the model spent the whole budget on reasoning) or 'set' (sent with the value `to`:
   * `reasoning_effort` low, when even the raised budget went on reasoning). */
  change: 'dropped' | 'renamed' | 'raised' | 'set';
  to: string | null;
  /** The provider's words (key scrubbed), shortened to 200 characters. */
  reason: string;
}

export interface Completion {
  /** The reply text; never empty except when the token limit cut it off (finishReason 'length') —
   * a reply without usable content is an LlmError('bad_response'), not a Completion. */
  content: string;
  /** 'stop', 'length', … as reported; null when absent. */
  finishReason: string | null;
  model: string;
  usage: CallUsage;
  /** The model the provider says it used (the reply's `model`); absent when the reply named none
   * (and for local models, which have no provider). */
  providerModel?: string;
  /** The reply's `system_fingerprint` (the provider's backend configuration); absent when not sent. */
  systemFingerprint?: string;
}

/**
 * What went wrong with a call (docs/providers.md says what each means for the user):
 * `auth` key refused (401/403); `quota` no credit left (429 insufficient_quota, 402); `rate_limit`
 * too many requests (429); `timeout` no complete answer in time (or a stream fell silent);
 * `network_or_cors` server unreachable or the page's origin not allowed; `bad_request` the
 * provider refused the request and no adaptation fixed it; `server` 5xx or an error signalled
 * inside the reply; `bad_response` a 200 whose body was unparsable, cut off or had no usable
 * content; `aborted` Stop; `truncated` reserved (kept for older records).
 */
export type LlmErrorKind = 'auth' | 'quota' | 'rate_limit' | 'timeout' | 'network_or_cors' | 'bad_request' | 'server' | 'bad_response' | 'aborted' | 'truncated';

export interface CompleteOptions {
  signal?: AbortSignal;
  /** Stream the reply (`stream: true`); the result is the same Completion. */
  stream?: boolean;
  /** Called before each wait for a retry, with the wait in ms: the provider's Retry-After (capped
   * to `maxRetryWaitMs`) or our backoff. */
  onRetryWait?: (waitMs: number) => void;
  /** Called when a rejected parameter is adapted for this (base URL, model). */
  onAdaptation?: (adaptation: ParameterAdaptation) => void;
  /** Called when a copy of an attempt with no response yet is sent beside it (hedge.ts), with the
   * ms it had waited. */
  onHedge?: (waitedMs: number) => void;
  /** Mixed into a local model's sampling seed (request-seed.ts): the repeat index of an evaluation
   * session, so repeats of one task sample differently (0 or absent = the request alone). */
  sampleSalt?: number;
}

/** A chat model bound to one role's settings. */
export interface ChatModel {
  readonly role: Role;
  readonly settings: RoleSettings;
  /** Whether the reply contracts are enforced with a grammar (reply-grammars.ts): set by models that
   * can take one (local models; on by default), absent for providers that take none (OpenAI-compatible). */
  readonly replyGrammar?: boolean;
  /**
   * One chat completion.
   * @throws LlmError (typed kind) after our retries; BudgetReachedError before the call when
   *   the run's caps are reached. Never resolves with a reply that has no usable content.
   */
  complete(messages: ChatMessage[], options?: CompleteOptions): Promise<Completion>;
}
