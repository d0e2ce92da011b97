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
  /** 429 with a `Retry-After` header: `retryAfter` verbatim when given (e.g. an HTTP date the
   * test computed), else `<retryAfterSeconds>` (default 0 s). */
  | (FaultScope & { kind: 'rate_limit'; rate: number; retryAfterSeconds?: number; retryAfter?: string })
  /** 429 `insufficient_quota` (the account has no credit), as OpenAI sends it; `status: 402` sends
   * it as 402 Payment Required instead (OpenRouter's form). */
  | (FaultScope & { kind: 'quota'; status?: 429 | 402 })
  /** 503 with a `Retry-After` header (`retryAfter` verbatim, default '0'). */
  | (FaultScope & { kind: 'unavailable'; retryAfter?: string })
  /** 500 with an OpenAI-style JSON error. */
  | (FaultScope & { kind: 'server_error'; rate: number })
  /** The normal answer, written after `delayMs`; nothing is written if the client left first. */
  | (FaultScope & { kind: 'slow'; delayMs: number })
  /** No answer at all until the client closes the connection. */
  | (FaultScope & { kind: 'hang' })
  /** 200 and its headers, then silence until the client leaves: after the headers only
   * (`after: 'headers'`) or after part of the body (default `'partial'`: half a JSON object, or the
   * role chunk and the first word of a stream). */
  | (FaultScope & { kind: 'stall'; after?: 'headers' | 'partial' })
  /** 200 whose body is not valid JSON (a broken `data:` line for streamed requests); `body`
   * replaces the default cut-off object (e.g. an HTML error page). */
  | (FaultScope & { kind: 'malformed_json'; body?: string })
  /** The normal reply without `usage` (JSON and streams: no usage chunk even when asked). */
  | (FaultScope & { kind: 'no_usage' })
  /** 200 with no usable content, in the given shape (JSON and streams alike). */
  | (FaultScope & { kind: 'empty_reply'; shape: EmptyShape })
  /** 200 with no answer and finish_reason "length", as a reasoning model that spent its whole
   * budget replies (usage: the whole budget, reported as reasoning): `shape` `empty` (content '',
   * the default), `null` (content null), `gemini` (a message with no `content` key, Gemini's
   * thinking shape), `think` (only an unclosed `<think>` text). With `belowBudget`, only requests
   * whose max_tokens / max_completion_tokens is below it are hit (a larger budget is answered);
   * with `exceptEffort`, requests whose `reasoning_effort` is that value are answered. */
  | (FaultScope & { kind: 'length_empty'; shape?: LengthEmptyShape; belowBudget?: number; exceptEffort?: string })
  /** Streamed requests only: the role chunk and the first word, then an error in the given `form`
   * (default `'event'`): `event: error` + `{error: {…}}`; `event_message`: `event: error` +
   * `{message: …}` (no `error` key); `object`: a `data:` line `{error: {…}}`; `finish`: a chunk with
   * finish_reason "error"; `cut`: the stream ends with no finish_reason and no [DONE]; `fastchat`:
   * FastChat's `{"text": "NETWORK ERROR …", "error_code": 50004}` chunk, then `[DONE]`;
   * `done_no_finish`: the rest of the words, then `[DONE]` with no finish_reason ever sent. */
  | (FaultScope & { kind: 'stream_error'; form?: StreamErrorForm })
  /** The normal reply as choice 0 plus a second choice (index 1) whose text is `ACTION: <text>`
   * (default "eat leaflet"): in a stream its chunks alternate with choice 0's, and it finishes
   * first; in JSON it is listed before choice 0. */
  | (FaultScope & { kind: 'second_choice'; text?: string })
  /** 400 whenever a message has one of `roles` (rate ignored), as OpenAI's o1 models refuse
   * `system`: "Unsupported value: 'messages[i].role' does not support '<role>' with this model."
   * (code unsupported_value, param `messages[i].role`). */
  | (FaultScope & { kind: 'bad_role'; roles: string[] })
  /** 404 as OpenAI answers a model that only its Responses API serves: "This model is only
   * supported in v1/responses and not in v1/chat/completions." (param model). */
  | (FaultScope & { kind: 'responses_only' })
  /** The normal reply (JSON or a stream) compressed in `coding` and labelled with it
   * (`content-encoding`), whatever the request's Accept-Encoding; with `valid: false` labelled so
   * but sent uncompressed (a proxy that mislabels bodies). A stream is written in two pieces. */
  | (FaultScope & { kind: 'encoding'; coding: 'gzip' | 'deflate' | 'br'; valid?: boolean })
  /** 401 invalid_api_key (also applied to GET /v1/models). */
  | (FaultScope & { kind: 'auth' })
  /** 400 whenever the body contains `param` (rate ignored): "Unsupported parameter: '<param>' …"
   * (code unsupported_parameter; for max_tokens it adds "Use 'max_completion_tokens' instead.",
   * as OpenAI's reasoning models do), or with `style: 'value'` "Unsupported value: '<param>'
   * does not support … Only the default (1) value is supported." (code unsupported_value). */
  | (FaultScope & { kind: 'bad_param'; param: string; style?: 'parameter' | 'value' })
  /** An error body in the framing of `server` (server-shapes.ts), with HTTP `status` (default
   * 400; 200 puts the error inside a 200 — for a streamed request as a `data:` chunk after the
   * first word, as OpenRouter does). With `param`, it hits only bodies that contain `param` (rate
   * ignored) and says the parameter is unsupported; else it says `message` (default: a model-not-
   * found message). */
  | (FaultScope & { kind: 'provider_error'; server: ServerShape; status?: number; param?: string; message?: string })
  /** The normal reply with this finish_reason (e.g. "length", "content_filter",
   * "insufficient_system_resource"). */
  | (FaultScope & { kind: 'finish_reason'; reason: string })
  /** The normal reply in another framing, whatever was asked: `sse` (an SSE stream, content-type
   * text/event-stream), `sse_as_json` (the same SSE text labelled application/json), `json_done`
   * (the JSON object followed by `data: [DONE]`), `json` (one JSON object, also to a streamed
   * request); and incomplete: `sse_cut` (SSE without a finish_reason or [DONE]), `json_cut` (half
   * a JSON object, labelled application/json, also to a streamed request). */
  | (FaultScope & { kind: 'framing'; form: 'sse' | 'sse_as_json' | 'json_done' | 'json' | 'sse_cut' | 'json_cut' })
  /** The normal reply with its `usage` replaced by `usage` verbatim (JSON, and the usage chunk of
   * a stream): e.g. zeros, `{}`, strings, negatives, absurd numbers. */
  | (FaultScope & { kind: 'usage'; usage: unknown })
  /** An error (HTTP `status`, default 400) whose message echoes the request's key (from its
   * Authorization header) inside a URL `?key=…`, in the given encoding: `url`
   * (encodeURIComponent), `percent_lower` / `percent_upper` (every byte percent-encoded),
   * `base64`, `json_unicode` (every character as \uXXXX in the JSON body). */
  | (FaultScope & { kind: 'echo_key'; encoding: KeyEncoding; status?: number });

/** Error framings of the OpenAI-compatible servers the product lists (see server-shapes.ts). */
export type ServerShape = 'openai' | 'vllm' | 'llamacpp' | 'ollama' | 'lmstudio' | 'litellm' | 'openrouter' | 'deepseek' | 'groq' | 'gemini' | 'anthropic';

/** How an `echo_key` fault writes the key. */
export type KeyEncoding = 'url' | 'percent_lower' | 'percent_upper' | 'base64' | 'json_unicode';

/** Shapes of a reply without usable content: `no_choices` (choices: []), `null_content`,
 * `empty_content` (''), `no_message` (a choice without message / delta), `reasoning_only`
 * (only reasoning_content), `tool_calls_only`, `refusal` (refusal text, null content). */
export type EmptyShape = 'no_choices' | 'null_content' | 'empty_content' | 'no_message' | 'reasoning_only' | 'tool_calls_only' | 'refusal';

/** How a `length_empty` reply carries no answer (see FaultRule). */
export type LengthEmptyShape = 'empty' | 'null' | 'gemini' | 'think';

/** How a `stream_error` fault signals its error (see FaultRule). */
export type StreamErrorForm = 'event' | 'event_message' | 'object' | 'finish' | 'cut' | 'fastchat' | 'done_no_finish';

export type FaultKind = FaultRule['kind'];

/** Options of a mock server; every field has a default, and all but host/port can be changed
 * later with `setOptions`. */
export interface MockOptions {
  /** Interface to listen on (default '127.0.0.1'); read once at start. */
  host?: string;
  /** TCP port (default 0 = a free port); read once at start. */
  port?: number;
  /** Actor script: at step i the actor plays script[i-1], past the end `look` (the step is told
   * from the request: roles.ts inferActorStep). When absent the actor follows the guide (followGuide). */
  script?: string[];
  /** Commands the followGuide actor explores with when the guide has no plan (or it is used up).
   * Default: DEFAULT_EXPLORE_COMMANDS. */
  exploreCommands?: string[];
  /** Web tasks: an actor whose observation contains `goal` (e.g. the task's intent under
   * `# Goal`) plays `script[step-1]` (past the end `noop()`); the first matching entry wins, and
   * it wins over `script` and the guide. Lets one mock play several tasks each by its own script. */
  goalScripts?: { goal: string; script: string[] }[];
  /** Default 'build'. */
  metaAgentReply?: MetaAgentReply;
  /** In 'build' mode: when the latest episode log contains `whenLogIncludes` (e.g. what a
   * teaching site said), the meta-agent answers `<learn>guide</learn>`; the first matching rule
   * wins. Lets a test script what a meta-agent learns from a site's hint. With `whenSystemIncludes`
   * the rule also needs that text in the system message (the meta-prompt, whose strategy section
   * an evolution rewrites), so a scripted strategy can make its meta-agent better. */
  metaAgentRules?: { whenLogIncludes: string; whenSystemIncludes?: string; guide: string }[];
  /** Default 'build'. */
  proposerReply?: ProposerReply;
  /** In 'build' mode: when the parent strategy (the text between `<current_strategy>` and
   * `</current_strategy>`; '' for the seed) contains `whenParentIncludes`, the proposer answers
   * `<strategy>strategy</strategy>`; the first matching rule wins ('' matches every parent). Lets
   * a recording script an evolution whose children are accepted, generation after generation. */
  proposerRules?: { whenParentIncludes: string; strategy: string }[];
  /** Injected faults (default none). */
  faults?: FaultRule[];
  /** Report cached prompt tokens as OpenAI does (prompt-cache.ts): off by default. */
  promptCache?: boolean;
  /** Model ids listed by GET /v1/models (default ['mock-model']). */
  models?: string[];
  /** The `model` a reply names, by the model asked for (as OpenAI answers `gpt-4o-mini` with the
   * dated snapshot `gpt-4o-mini-2024-07-18`); a model not listed is named as asked (the default). */
  servedModels?: Record<string, string>;
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
   * unknown path, an actor request whose step cannot be told (roles.ts inferActorStep), a
   * meta-agent request without a log). */
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
