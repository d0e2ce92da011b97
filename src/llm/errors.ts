/**
 * The LLM fault taxonomy, mapped once from whatever the SDK or fetch threw. Messages are
 * actionable and never contain the key (it is scrubbed from anything a provider echoes back).
 */
import type { LlmErrorKind } from './interface.ts';

export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    /** HTTP status when there was a response. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** The run's USD or token cap is reached: no further calls are made. */
export class BudgetReachedError extends Error {
  override readonly name = 'BudgetReachedError';
  constructor(
    message: string,
    /** Which cap was reached. */
    readonly cap: 'usd' | 'tokens' = 'usd',
  ) {
    super(message);
  }
}

/** The message for a network failure: from a page (origin set) it may be CORS; from Node it is not. */
export function corsAdvice(baseUrl: string, origin: string | null): string {
  if (origin === null) {
    return `Could not reach ${baseUrl}: is the server running, and is the URL right (it usually ends in /v1)? For a local server check its port; for a remote one, the network.`;
  }
  const from = ` from ${origin}`;
  return (
    `Could not reach ${baseUrl}${from}: the server is down, the URL is wrong, or it does not allow this page's origin (CORS). ` +
    `Ollama: start it with OLLAMA_ORIGINS=${origin ?? '<this page origin>'} ollama serve. LM Studio: enable CORS in the server settings. ` +
    `llama.cpp server: it allows all origins by default. If the server rejects the SDK's x-stainless-* headers, tick "drop optional SDK headers".`
  );
}

/** Remove every occurrence of `secret` from `text`. */
export function scrub(text: string, secret: string): string {
  return secret.length >= 4 ? text.split(secret).join('[key hidden]') : text;
}
