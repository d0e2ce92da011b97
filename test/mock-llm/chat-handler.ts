/**
 * POST /v1/chat/completions of the mock LLM: check the request shape (400 and a loud flag when
 * it is wrong), choose the role's reply (reply.ts), apply the fault that hits it (faults.ts), and
 * write JSON or an SSE stream (wire.ts). Everything written depends only on the request content.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pickFault, type AttemptCounter } from './faults.ts';
import { canonicalJson, sha256Hex } from './hash.ts';
import type { FaultRule, LoggedRequest, MockOptions } from './interface.ts';
import { chooseReply } from './reply.ts';
import { flag } from './request-log.ts';
import { checkChatBody, totalMessageChars } from './roles.ts';
import { completionJson, errorJson, firstChunk, replyIds, sseData, sseStream, usageOf, type ReplyIds } from './wire.ts';

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
}

/** A reply ready to be written. */
interface Prepared {
  ids: ReplyIds;
  text: string;
  finishReason: string;
  stream: boolean;
  includeUsage: boolean;
  promptChars: number;
}

/** Answer one chat request (synchronously, or later for `slow`; never for `hang`). */
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
  const model = typeof checked.model === 'string' ? checked.model : (options.models?.[0] ?? 'mock-model');
  const prepared: Prepared = {
    ids: replyIds(bodyHash, model), text: choice.text, finishReason: choice.finishReason, stream,
    includeUsage: checked.stream_options?.include_usage === true, promptChars: totalMessageChars(checked),
  };
  if (fault) applyFault(ctx, fault, prepared);
  else writeReply(ctx, prepared);
}

/** True when `options.apiKey` is set and the request does not carry it. */
function keyRefused(ctx: ChatReplyContext): boolean {
  const key = ctx.options.apiKey;
  return key !== undefined && ctx.req.headers.authorization !== `Bearer ${key}`;
}

/** Write the reply as JSON or as an SSE stream, and log the text and finish_reason. */
function writeReply(ctx: ChatReplyContext, p: Prepared): void {
  const { entry, res } = ctx;
  entry.outcome.replyText = p.text;
  entry.outcome.finishReason = p.finishReason;
  const usage = usageOf(p.promptChars, p.text);
  if (!p.stream) {
    ctx.send(200, completionJson(p.ids, p.text, p.finishReason, usage));
    return;
  }
  entry.outcome.status = 200;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const event of sseStream(p.ids, p.text, p.finishReason, p.includeUsage ? usage : null)) res.write(event);
  res.end();
}

function applyFault(ctx: ChatReplyContext, fault: FaultRule, p: Prepared): void {
  const { res } = ctx;
  switch (fault.kind) {
    case 'rate_limit':
      ctx.send(429, errorJson('Rate limit reached for requests (mock). Please retry after a short wait.', 'requests', 'rate_limit_exceeded'), { 'retry-after': String(fault.retryAfterSeconds ?? 0) });
      return;
    case 'server_error':
      ctx.send(500, errorJson('The server had an error while processing your request (mock).', 'server_error', null));
      return;
    case 'auth':
      ctx.send(401, errorJson('Incorrect API key provided (mock).', 'invalid_request_error', 'invalid_api_key'));
      return;
    case 'bad_param':
      ctx.send(400, errorJson(`Unsupported parameter: '${fault.param}' is not supported with this model.`, 'invalid_request_error', 'unsupported_parameter', fault.param));
      return;
    case 'hang':
      return;
    case 'slow': {
      const timer = setTimeout(() => {
        ctx.timers.delete(timer);
        if (!res.destroyed && !res.writableEnded) writeReply(ctx, p);
      }, fault.delayMs);
      ctx.timers.add(timer);
      res.on('close', () => {
        clearTimeout(timer);
        ctx.timers.delete(timer);
      });
      return;
    }
    case 'length_empty':
      writeReply(ctx, { ...p, text: '', finishReason: 'length' });
      return;
    case 'malformed_json':
      writeMalformed(ctx, p);
      return;
    case 'stream_error':
      ctx.entry.outcome.status = 200;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      res.write(firstChunk(p.ids, p.includeUsage));
      res.write(`event: error\n${sseData({ error: { message: 'The model stream failed (mock).', type: 'server_error', param: null, code: 'stream_error' } })}`);
      res.end();
      return;
  }
}

/** 200 whose body cannot be parsed: a cut-off JSON object, or an SSE `data:` line with one. */
function writeMalformed(ctx: ChatReplyContext, p: Prepared): void {
  const broken = `{"id":"${p.ids.id}","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"REASON`;
  ctx.entry.outcome.status = 200;
  if (p.stream) {
    ctx.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    ctx.res.end(`data: ${broken}\n\n`);
  } else {
    ctx.res.writeHead(200, { 'content-type': 'application/json' });
    ctx.res.end(broken);
  }
}
