/**
 * The LLM fault taxonomy, mapped once from whatever the SDK or fetch threw. Messages are
 * actionable and never contain the key (it is scrubbed from anything a provider echoes back).
 */
import { MetattlError } from '../common/errors.ts';
import { hideKey } from '../common/secrets.ts';
import type { LlmErrorKind } from './interface.ts';

/**
 * A failed LLM call. `kind` is the fault taxonomy that run records carry (interface.ts); the
 * error's `code` is `llm_<kind>` (unique beside the other classes' codes, e.g. StoryFileError's
 * `truncated`).
 */
export class LlmError extends MetattlError {
  override readonly name = 'LlmError';
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    /** HTTP status when there was a response. */
    readonly status: number | null = null,
    /** The wait the provider asked for before a retry (Retry-After / retry-after-ms), ms; null when none. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`llm_${kind}`, message);
  }
}

/**
 * Kinds worth another attempt: the same request may succeed later (timeouts, rate limits, 5xx,
 * replies that were cut off, unparsable or empty). Never retried: auth, quota, bad_request,
 * aborted, and network_or_cors (a refused connection or a CORS block does not heal in seconds;
 * the advice is shown at once).
 */
export const RETRYABLE_KINDS: ReadonlySet<LlmErrorKind> = new Set<LlmErrorKind>(['timeout', 'rate_limit', 'server', 'bad_response']);

/**
 * Kinds that no later call of the same run can fix without the user acting (key, billing, URL or
 * CORS, a request the provider refuses): a run stops — resumably — instead of going on.
 */
export const SYSTEMIC_KINDS: ReadonlySet<LlmErrorKind> = new Set<LlmErrorKind>(['auth', 'quota', 'network_or_cors', 'bad_request']);

/** How a workshop room's refusal of a call begins (its forwarder's own words follow): a view shows
 * the whole message as the headline of a stopped run. */
export const ROOM_REFUSAL_PREFIX = 'The workshop room refused the call: ';

/** A workshop room's refusal as an error message: `The workshop room refused the call (<code>): <words>`,
 * `code` the forwarder's `error.code` (src/room/protocol.ts ROOM_REFUSAL_CODES), `words` its message. */
export const roomRefusalMessage = (code: string, words: string): string => `The workshop room refused the call (${code}): ${words}`;

/**
 * The code and words of a room refusal's message (`roomRefusalMessage`), or of one stored before
 * refusals carried their code (`ROOM_REFUSAL_PREFIX` + words: code null); null for any other message.
 */
export function parseRoomRefusal(message: string): { code: string | null; words: string } | null {
  const coded = /^The workshop room refused the call \(([a-z_]+)\): ([\s\S]*)$/.exec(message);
  if (coded) return { code: coded[1]!, words: coded[2]!.trim() };
  return message.startsWith(ROOM_REFUSAL_PREFIX) ? { code: null, words: message.slice(ROOM_REFUSAL_PREFIX.length).trim() } : null;
}

/** The run's USD or token cap is reached: no further calls are made. */
export class BudgetReachedError extends MetattlError {
  override readonly name = 'BudgetReachedError';
  constructor(
    message: string,
    /** Which cap was reached. */
    readonly cap: 'usd' | 'tokens' = 'usd',
  ) {
    super('budget_reached', message);
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

/** Remove every occurrence of `secret` from `text`, in any encoding a provider may echo it in
 * (URL- or percent-encoded, JSON-escaped, base64, … — common/secrets.ts `keyPattern`). */
export function scrub(text: string, secret: string): string {
  return hideKey(text, secret);
}
