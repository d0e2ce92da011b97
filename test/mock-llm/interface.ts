/**
 * Public types of the mock LLM server (test/mock-llm): its options, fault rules, the request log
 * and the handle tests hold. A test-only stand-in for an OpenAI-compatible chat-completions
 * provider; the product never imports anything from this folder.
 */

/** Who a chat request is for, detected from its content (see roles.ts). */
export type MockRole = 'actor' | 'metaAgent' | 'proposer' | 'generic';

/** How the meta-agent answers: `build` a guide from the episode logs, an `empty` `<learn></learn>`,
 * or a reply with the `<learn>` block `missing`. */
export type MetaAgentReply = 'build' | 'empty' | 'missing';

/** How the proposer answers: `build` a strategy from the record; `empty` `<strategy></strategy>`;
 * `unchanged` echoes the text between `<current_strategy>` and `</current_strategy>`; `fenced`
 * puts the built strategy in a ``` block without tags; `truncated` is content '' with
 * finish_reason "length". */
export type ProposerReply = 'build' | 'empty' | 'unchanged' | 'fenced' | 'truncated';

/** Fields every fault rule may carry. */
interface FaultScope {
  /** Only requests of this role are hit (default: every chat request). */
  role?: 'actor' | 'metaAgent' | 'proposer';
  /** Probability in [0, 1] that a request is hit, decided by a hash of (body, attempt, rule
   * index) — never by a random generator (default 1, except where the kind requires it). */
  rate?: number;
  /** Only attempts 0 … attempts-1 of the same body are hit, so e.g. `attempts: 1` makes the first
   * try fail and every retry succeed (default: every attempt). */
  attempts?: number;
}

/** One injected fault. The first rule (in array order) that hits a request decides its fault. */
export type FaultRule =
  /** 429 with a `Retry-After: <retryAfterSeconds>` header (default 0 s). */
  | (FaultScope & { kind: 'rate_limit'; rate: number; retryAfterSeconds?: number })
  /** 500 with an OpenAI-style JSON error. */
  | (FaultScope & { kind: 'server_error'; rate: number })
  /** The normal answer, written after `delayMs`; nothing is written if the client left first. */
  | (FaultScope & { kind: 'slow'; delayMs: number })
  /** No answer at all until the client closes the connection. */
  | (FaultScope & { kind: 'hang' })
  /** 200 whose body is not valid JSON (a broken `data:` line for streamed requests). */
  | (FaultScope & { kind: 'malformed_json' })
  /** 200 with content '' and finish_reason "length". */
  | (FaultScope & { kind: 'length_empty' })
  /** Streamed requests only: one chunk, then `event: error` with an OpenAI-style error. */
  | (FaultScope & { kind: 'stream_error' })
  /** 401 invalid_api_key (also applied to GET /v1/models). */
  | (FaultScope & { kind: 'auth' })
  /** 400 "Unsupported parameter: '<param>' …" whenever the body contains `param` (rate ignored). */
  | (FaultScope & { kind: 'bad_param'; param: string });

export type FaultKind = FaultRule['kind'];

/** Options of a mock server; every field has a default, and all but host/port can be changed
 * later with `setOptions`. */
export interface MockOptions {
  /** Interface to listen on (default '127.0.0.1'); read once at start. */
  host?: string;
  /** TCP port (default 0 = a free port); read once at start. */
  port?: number;
  /** Actor script: at step i the actor plays script[i-1], past the end `look`. When absent the
   * actor follows the guide (followGuide). */
  script?: string[];
  /** Commands the followGuide actor explores with when the guide has no plan (or it is used up).
   * Default: DEFAULT_EXPLORE_COMMANDS. */
  exploreCommands?: string[];
  /** Default 'build'. */
  metaAgentReply?: MetaAgentReply;
  /** Default 'build'. */
  proposerReply?: ProposerReply;
  /** Injected faults (default none). */
  faults?: FaultRule[];
  /** Model ids listed by GET /v1/models (default ['mock-model']). */
  models?: string[];
  /** When set, requests whose Authorization is not `Bearer <apiKey>` get 401 (default: any key). */
  apiKey?: string;
  /** Where "unexpected request" warnings go (default console.error). */
  log?: (line: string) => void;
}

/** What happened to a logged request. `status` is null while no reply has been written (slow,
 * hang, or the client left). */
export interface RequestOutcome {
  status: number | null;
  fault: FaultKind | null;
  /** The reply text chosen for a chat request (null for non-chat requests and error replies). */
  replyText: string | null;
  finishReason: string | null;
}

/** One request as the mock saw it, pushed to `MockLlm.requests` when it arrives (body read). */
export interface LoggedRequest {
  /** Arrival order, 0-based. */
  index: number;
  method: string;
  /** Path without the query string, e.g. '/v1/chat/completions'. */
  path: string;
  /** Lower-case header names; authorization is kept so tests can assert on it. */
  headers: Record<string, string>;
  /** Parsed JSON body; the raw text when it is not JSON; null when empty. */
  body: unknown;
  /** Detected role for chat requests, null otherwise. */
  role: MockRole | null;
  /** The behaviour applied, e.g. 'actor:script', 'actor:followGuide:plan', 'metaAgent:build',
   * 'proposer:fenced', 'generic', 'models', 'preflight', 'not_found', 'bad_request'. */
  behaviour: string;
  /** 0-based attempt of this body: `x-stainless-retry-count` when sent, else how many identical
   * bodies arrived before (since the start, or the last `setOptions` that set `faults`). */
  attempt: number;
  outcome: RequestOutcome;
  /** True when the request did not match what the product is expected to send (bad shape,
   * unknown path, an actor request without `Step i of S`, a meta-agent request without a log). */
  unexpected: boolean;
  /** Why it was unexpected, null otherwise. */
  problem: string | null;
  /** True when the client closed the connection before a reply was fully written. */
  closedBeforeAnswer: boolean;
}

/** A running mock server. */
export interface MockLlm {
  /** e.g. 'http://127.0.0.1:41234/v1' (what an OpenAI client takes as baseURL). */
  readonly baseUrl: string;
  /** Every request, in arrival order (live: entries are pushed on arrival and their `outcome` and
   * `closedBeforeAnswer` are filled in as the reply is written or the client leaves). */
  readonly requests: LoggedRequest[];
  /**
   * The first logged request (already arrived or arriving later) matching `predicate`.
   * @param timeoutMs default 5,000
   * @throws Error (rejects) on timeout or when the server closes first
   */
  waitForRequest(predicate: (request: LoggedRequest) => boolean, timeoutMs?: number): Promise<LoggedRequest>;
  /** Merge options for requests arriving from now on (host/port are ignored). Passing `faults`
   * also restarts the per-body attempt counts, so `attempts`-limited rules hit afresh. */
  setOptions(partial: Partial<MockOptions>): void;
  /** Stop listening and destroy open connections (slow and hanging replies included). */
  close(): Promise<void>;
}
