/**
 * POST /v1/chat/completions of the mock LLM: check the request shape (400 and a loud flag when
 * it is wrong), choose the role's reply (reply.ts), apply the fault that hits it (faults.ts), and
 * write JSON or an SSE stream (wire.ts). Everything written depends only on the request content.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pickFault, type AttemptCounter } from './faults.ts';
import { canonicalJson, sha256Hex } from './hash.ts';
import type { LoggedRequest, MockOptions } from './interface.ts';
import { applyFault } from './fault-replies.ts';
import { chooseReply } from './reply.ts';
import { writeReply, type Prepared } from './reply-writer.ts';
import type { PromptCache } from './prompt-cache.ts';
import { flag } from './request-log.ts';
import { checkChatBody, totalMessageChars } from './roles.ts';
import { errorJson, replyIds } from './wire.ts';

/** What the server hands to the chat handler for one request. */
export interface ChatReplyContext {
  entry: LoggedRequest;
  req: IncomingMessage;
  res: ServerResponse;
  /** Write a whole JSON reply (records the status). */
  send: (status: number, body: string, headers?: Record<string, string>) => void;
  options: MockOptions;
  attempts: AttemptCounter;
  /** Pending delayed replies, cleared by the server on close. */
  timers: Set<NodeJS.Timeout>;
  /** Add the entry to the log (call once, before writing). */
  record: (entry: LoggedRequest) => void;
  /** The server's prompt cache (used with MockOptions.promptCache). */
  promptCache: PromptCache;
}

/** Answer one chat request (synchronously, or later for `slow`; never for `hang` and `stall`). */
export function answerChat(ctx: ChatReplyContext): void {
  const { entry, req, options } = ctx;
  const checked = checkChatBody(entry.body);
  if (typeof checked === 'string') {
    const problem = entry.body === null ? 'the body is empty' : typeof entry.body === 'string' ? 'the body is not valid JSON' : checked;
    flag(entry, 'bad_request', problem);
    ctx.record(entry);
    ctx.send(400, errorJson(`Mock LLM: unexpected request shape: ${problem}. Expected {"model": ..., "messages": [{"role": ..., "content": ...}, ...]}.`, 'invalid_request_error', 'invalid_request'));
    return;
  }
  const bodyHash = sha256Hex(canonicalJson(checked));
  const retryHeader = req.headers['x-stainless-retry-count'];
  entry.attempt = ctx.attempts.next(bodyHash, typeof retryHeader === 'string' ? retryHeader : undefined);
  const choice = chooseReply(checked, options);
  entry.role = choice.role;
  entry.behaviour = choice.behaviour;
  if (choice.problem) flag(entry, choice.behaviour, choice.problem);
  const stream = checked.stream === true;
  const fault = keyRefused(ctx) ? ({ kind: 'auth' } as const) : pickFault(options.faults ?? [], { role: choice.role, bodyHash, attempt: entry.attempt, body: checked, stream });
  entry.outcome.fault = fault?.kind ?? null;
  ctx.record(entry);
  const asked = typeof checked.model === 'string' ? checked.model : (options.models?.[0] ?? 'mock-model');
  const model = options.servedModels?.[asked] ?? asked;
  const prepared: Prepared = {
    ids: replyIds(bodyHash, model), text: choice.text, finishReason: choice.finishReason, stream,
    includeUsage: checked.stream_options?.include_usage === true, promptChars: totalMessageChars(checked),
  };
  if (options.promptCache) prepared.cachedTokens = ctx.promptCache.cachedTokens(checked, Math.ceil(prepared.promptChars / 4));
  if (fault) applyFault(ctx, fault, prepared);
  else writeReply(ctx, prepared);
}

/** True when `options.apiKey` is set and the request does not carry it. */
function keyRefused(ctx: ChatReplyContext): boolean {
  const key = ctx.options.apiKey;
  return key !== undefined && ctx.req.headers.authorization !== `Bearer ${key}`;
}

