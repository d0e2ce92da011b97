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
  /** Per-request timeout, ms (default 60,000). */
  requestTimeoutMs: number;
  /** SDK retries for 408/409/429/5xx and timeouts (default 2). */
  maxRetries: number;
  /** Longest Retry-After wait honoured, ms; longer waits are capped to this (default 30,000). */
  maxRetryWaitMs: number;
  /** Most requests in flight at once (default 4). */
  maxConcurrent: number;
  /** Drop the SDK's optional x-stainless-* headers (helps servers whose CORS rejects them). */
  dropStainlessHeaders: boolean;
  /** Hard caps per run; `null` = no cap. */
  caps: { maxUsd: number | null; maxTokens: number | null };
  /** USD per million tokens, by model id; unknown models cost 0 (and say so). */
  prices: Record<string, { inputPerMTokUsd: number; outputPerMTokUsd: number }>;
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
  latencyMs: number;
  costUsd: number;
}

export interface Completion {
  /** The reply text ('' when the provider returned none). */
  content: string;
  /** 'stop', 'length', … as reported; null when absent. */
  finishReason: string | null;
  model: string;
  usage: CallUsage;
}

export type LlmErrorKind = 'auth' | 'rate_limit' | 'timeout' | 'network_or_cors' | 'bad_request' | 'server' | 'aborted' | 'truncated';

export interface CompleteOptions {
  signal?: AbortSignal;
  /** Stream the reply (`stream: true`); the result is the same Completion. */
  stream?: boolean;
  /** Called when the provider asked us to wait before a retry (429/503 Retry-After). */
  onRetryWait?: (waitMs: number) => void;
}

/** A chat model bound to one role's settings. */
export interface ChatModel {
  readonly role: Role;
  readonly settings: RoleSettings;
  /**
   * One chat completion.
   * @throws LlmError (typed kind) after the SDK's retries; BudgetReachedError before the call when
   *   the run's caps are reached.
   */
  complete(messages: ChatMessage[], options?: CompleteOptions): Promise<Completion>;
}
