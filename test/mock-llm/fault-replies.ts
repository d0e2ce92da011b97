/**
 * What the mock LLM writes when a fault rule hits a chat request (interface.ts `FaultRule`):
 * error statuses, late, stalled and missing answers, broken or empty bodies, errors inside
 * streams. Like every reply, it depends only on the request and the rule — never on a clock.
 */
import zlib from 'node:zlib';
import type { ChatReplyContext } from './chat-handler.ts';
import type { EmptyShape, FaultRule, LengthEmptyShape, StreamErrorForm } from './interface.ts';
import { refusedRoleIndex } from './faults.ts';
import { writeReply, type Prepared } from './reply-writer.ts';
import { writeEchoKey, writeFinishReason, writeFraming, writeProviderError, writeUsage } from './server-shapes.ts';
import { chunk, chunkWithChoices, completionJson, completionWithChoices, errorJson, firstChunk, sseData, sseStream, usageOf } from './wire.ts';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/** Write the reply `fault` calls for (or nothing, for `hang` and `stall`). */
export function applyFault(ctx: ChatReplyContext, fault: FaultRule, p: Prepared): void {
  switch (fault.kind) {
    case 'rate_limit':
      ctx.send(429, errorJson('Rate limit reached for requests (mock). Please retry after a short wait.', 'requests', 'rate_limit_exceeded'), { 'retry-after': fault.retryAfter ?? String(fault.retryAfterSeconds ?? 0) });
      return;
    case 'quota':
      ctx.send(fault.status ?? 429, errorJson('You exceeded your current quota, please check your plan and billing details (mock).', 'insufficient_quota', 'insufficient_quota'));
      return;
    case 'unavailable':
      ctx.send(503, errorJson('The engine is currently overloaded, please try again later (mock).', 'server_error', null), { 'retry-after': fault.retryAfter ?? '0' });
      return;
    case 'server_error':
      ctx.send(500, errorJson('The server had an error while processing your request (mock).', 'server_error', null));
      return;
    case 'auth':
      ctx.send(401, errorJson('Incorrect API key provided (mock).', 'invalid_request_error', 'invalid_api_key'));
      return;
    case 'bad_param':
      ctx.send(400, badParamJson(fault.param, fault.style ?? 'parameter'));
      return;
    case 'hang':
      return;
    case 'stall':
      writeStall(ctx, p, fault.after ?? 'partial');
      return;
    case 'slow': {
      const timer = setTimeout(() => {
        ctx.timers.delete(timer);
        if (!ctx.res.destroyed && !ctx.res.writableEnded) writeReply(ctx, p);
      }, fault.delayMs);
      ctx.timers.add(timer);
      ctx.res.on('close', () => {
        clearTimeout(timer);
        ctx.timers.delete(timer);
      });
      return;
    }
    case 'length_empty':
      writeLengthEmpty(ctx, p, fault.shape ?? 'empty');
      return;
    case 'no_usage':
      writeReply(ctx, p, false);
      return;
    case 'empty_reply':
      writeEmpty(ctx, p, fault.shape);
      return;
    case 'malformed_json':
      writeMalformed(ctx, p, fault.body);
      return;
    case 'stream_error':
      writeStreamError(ctx, p, fault.form ?? 'event');
      return;
    case 'provider_error':
      writeProviderError(ctx, fault, p);
      return;
    case 'finish_reason':
      writeFinishReason(ctx, fault.reason, p);
      return;
    case 'framing':
      writeFraming(ctx, fault.form, p);
      return;
    case 'usage':
      writeUsage(ctx, fault.usage, p);
      return;
    case 'echo_key':
      writeEchoKey(ctx, fault);
      return;
    case 'bad_role': {
      const body = ctx.entry.body as Record<string, unknown>;
      const i = refusedRoleIndex(fault.roles, body);
      const role = (body.messages as { role: string }[])[i]!.role;
      ctx.send(400, errorJson(`Unsupported value: 'messages[${i}].role' does not support '${role}' with this model.`, 'invalid_request_error', 'unsupported_value', `messages[${i}].role`));
      return;
    }
    case 'responses_only':
      ctx.send(404, errorJson('This model is only supported in v1/responses and not in v1/chat/completions.', 'invalid_request_error', null, 'model'));
      return;
    case 'encoding':
      writeEncoded(ctx, p, fault.coding, fault.valid ?? true);
      return;
    case 'second_choice':
      writeSecondChoice(ctx, p, `REASONING: the other choice (mock).\nACTION: ${fault.text ?? 'eat leaflet'}`);
      return;
  }
}

/** OpenAI's 400 for a parameter (or a parameter value) the model does not take. */
function badParamJson(param: string, style: 'parameter' | 'value'): string {
  if (style === 'value') {
    return errorJson(`Unsupported value: '${param}' does not support this value with this model. Only the default (1) value is supported.`, 'invalid_request_error', 'unsupported_value', param);
  }
  const hint = param === 'max_tokens' ? " Use 'max_completion_tokens' instead." : '';
  return errorJson(`Unsupported parameter: '${param}' is not supported with this model.${hint}`, 'invalid_request_error', 'unsupported_parameter', param);
}

/** 200 and headers, then part of the body (or none), then silence until the client leaves. */
function writeStall(ctx: ChatReplyContext, p: Prepared, after: 'headers' | 'partial'): void {
  ctx.entry.outcome.status = 200;
  if (p.stream) {
    ctx.res.writeHead(200, SSE_HEADERS);
    if (after === 'partial') {
      ctx.res.write(firstChunk(p.ids, p.includeUsage));
      const word = p.text.match(/\s*\S+/)?.[0] ?? 'look';
      ctx.res.write(sseData(chunk(p.ids, { content: word }, null, p.includeUsage)));
    }
  } else {
    ctx.res.writeHead(200, { 'content-type': 'application/json' });
    if (after === 'partial') ctx.res.write(`{"id":"${p.ids.id}","object":"chat.completion","created":${p.ids.created},"model":"${p.ids.model}","choices":[{"index":0,`);
  }
  if (after === 'headers') ctx.res.flushHeaders();
}

/** The choice (JSON) or delta (stream) of a reply without usable content. */
function emptyChoice(shape: EmptyShape, stream: boolean): unknown[] {
  const key = stream ? 'delta' : 'message';
  const base = { role: 'assistant', content: null as string | null };
  const finish = shape === 'tool_calls_only' ? 'tool_calls' : 'stop';
  switch (shape) {
    case 'no_choices':
      return [];
    case 'null_content':
      return [{ index: 0, [key]: base, finish_reason: finish }];
    case 'empty_content':
      return [{ index: 0, [key]: { ...base, content: '' }, finish_reason: finish }];
    case 'no_message':
      return [{ index: 0, finish_reason: finish }];
    case 'reasoning_only':
      return [{ index: 0, [key]: { ...base, reasoning_content: 'I should look around first.' }, finish_reason: finish }];
    case 'tool_calls_only':
      return [{ index: 0, [key]: { ...base, tool_calls: [{ index: 0, id: 'call_mock', type: 'function', function: { name: 'look', arguments: '{}' } }] }, finish_reason: finish }];
    case 'refusal':
      return [{ index: 0, [key]: { ...base, refusal: "I'm sorry, I can't help with that (mock)." }, finish_reason: finish }];
  }
}

/** 200 with no usable content, with usage (the prompt was read), as JSON or as a stream. */
function writeEmpty(ctx: ChatReplyContext, p: Prepared, shape: EmptyShape): void {
  ctx.entry.outcome.replyText = '';
  const usage = usageOf(p.promptChars, '');
  if (!p.stream) {
    ctx.send(200, completionWithChoices(p.ids, emptyChoice(shape, false), usage));
    return;
  }
  ctx.entry.outcome.status = 200;
  ctx.res.writeHead(200, SSE_HEADERS);
  ctx.res.write(chunkWithChoices(p.ids, emptyChoice(shape, true)));
  if (p.includeUsage) ctx.res.write(sseData({ id: p.ids.id, object: 'chat.completion.chunk', created: p.ids.created, model: p.ids.model, choices: [], usage }));
  ctx.res.end('data: [DONE]\n\n');
}

/** 200 whose body cannot be parsed: a cut-off JSON object (or `body`), or an SSE `data:` line with one. */
function writeMalformed(ctx: ChatReplyContext, p: Prepared, body: string | undefined): void {
  const broken = body ?? `{"id":"${p.ids.id}","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"REASON`;
  ctx.entry.outcome.status = 200;
  if (p.stream) {
    ctx.res.writeHead(200, SSE_HEADERS);
    ctx.res.end(`data: ${broken}\n\n`);
  } else {
    ctx.res.writeHead(200, { 'content-type': 'application/json' });
    ctx.res.end(broken);
  }
}

/** A stream that starts well (role chunk, first word) and then fails in the given form. */
function writeStreamError(ctx: ChatReplyContext, p: Prepared, form: StreamErrorForm): void {
  const { res } = ctx;
  ctx.entry.outcome.status = 200;
  res.writeHead(200, SSE_HEADERS);
  res.write(firstChunk(p.ids, p.includeUsage));
  const word = p.text.match(/\s*\S+/)?.[0] ?? 'look';
  res.write(sseData(chunk(p.ids, { content: word }, null, p.includeUsage)));
  const error = { message: 'The model stream failed (mock).', type: 'server_error', param: null, code: 'stream_error' };
  switch (form) {
    case 'event':
      res.end(`event: error\n${sseData({ error })}`);
      return;
    case 'event_message':
      res.end(`event: error\n${sseData({ message: error.message, code: 'stream_error' })}`);
      return;
    case 'object':
      res.end(sseData({ error }));
      return;
    case 'finish':
      res.write(sseData({ ...chunk(p.ids, { content: '' }, 'error', p.includeUsage), error }));
      res.end('data: [DONE]\n\n');
      return;
    case 'cut':
      res.end();
      return;
    case 'fastchat':
      res.write(sseData({ text: '**NETWORK ERROR DUE TO HIGH TRAFFIC. PLEASE REGENERATE OR REFRESH THIS PAGE.** (mock)', error_code: 50004 }));
      res.end('data: [DONE]\n\n');
      return;
    case 'done_no_finish':
      for (const piece of p.text.slice(word.length).match(/\s*\S+|\s+$/g) ?? []) res.write(sseData(chunk(p.ids, { content: piece }, null, p.includeUsage)));
      res.end('data: [DONE]\n\n');
      return;
  }
}

/** The normal reply as choice 0 and another reply as choice 1 (see FaultRule `second_choice`). */
function writeSecondChoice(ctx: ChatReplyContext, p: Prepared, other: string): void {
  ctx.entry.outcome.replyText = p.text;
  ctx.entry.outcome.finishReason = 'stop';
  const usage = usageOf(p.promptChars, p.text);
  if (!p.stream) {
    const message = (content: string) => ({ role: 'assistant', content, refusal: null });
    ctx.send(200, completionWithChoices(p.ids, [
      { index: 1, message: message(other), logprobs: null, finish_reason: 'stop' },
      { index: 0, message: message(p.text), logprobs: null, finish_reason: 'stop' },
    ], usage));
    return;
  }
  const { res } = ctx;
  ctx.entry.outcome.status = 200;
  res.writeHead(200, SSE_HEADERS);
  res.write(firstChunk(p.ids, p.includeUsage));
  const pieces = (text: string) => text.match(/\s*\S+|\s+$/g) ?? [];
  const mine = pieces(p.text);
  const theirs = pieces(other);
  const delta = (index: number, d: Record<string, unknown>, finish: string | null) => sseData({ ...chunk(p.ids, d, finish, p.includeUsage), choices: [{ index, delta: d, logprobs: null, finish_reason: finish }] });
  for (let i = 0; i < Math.max(mine.length, theirs.length); i++) {
    if (i < theirs.length) res.write(delta(1, { content: theirs[i] }, null));
    if (i === theirs.length) res.write(delta(1, {}, 'stop'));
    if (i < mine.length) res.write(delta(0, { content: mine[i] }, null));
  }
  if (theirs.length >= mine.length) res.write(delta(1, {}, 'stop'));
  res.write(delta(0, {}, 'stop'));
  if (p.includeUsage) res.write(sseData({ id: p.ids.id, object: 'chat.completion.chunk', created: p.ids.created, model: p.ids.model, choices: [], usage }));
  res.end('data: [DONE]\n\n');
}

/** A reasoning model's reply that spent its whole budget: no answer, finish_reason "length". */
function writeLengthEmpty(ctx: ChatReplyContext, p: Prepared, shape: LengthEmptyShape): void {
  ctx.entry.outcome.replyText = '';
  ctx.entry.outcome.finishReason = 'length';
  const body = ctx.entry.body as { max_tokens?: unknown; max_completion_tokens?: unknown };
  const budget = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : typeof body.max_tokens === 'number' ? body.max_tokens : 256;
  const prompt = usageOf(p.promptChars, '').prompt_tokens;
  const usage = { prompt_tokens: prompt, completion_tokens: budget, total_tokens: prompt + budget, completion_tokens_details: { reasoning_tokens: budget } };
  const content = { empty: { content: '' }, null: { content: null }, gemini: {}, think: { content: '<think>The player should first look around, then' } }[shape];
  if (!p.stream) {
    ctx.send(200, completionWithChoices(p.ids, [{ index: 0, message: { role: 'assistant', ...content }, finish_reason: 'length' }], usage));
    return;
  }
  ctx.entry.outcome.status = 200;
  ctx.res.writeHead(200, SSE_HEADERS);
  ctx.res.write(chunkWithChoices(p.ids, [{ index: 0, delta: { role: 'assistant', ...content }, finish_reason: null }]));
  ctx.res.write(chunkWithChoices(p.ids, [{ index: 0, delta: {}, finish_reason: 'length' }]));
  if (p.includeUsage) ctx.res.write(sseData({ id: p.ids.id, object: 'chat.completion.chunk', created: p.ids.created, model: p.ids.model, choices: [], usage }));
  ctx.res.end('data: [DONE]\n\n');
}

/** The normal reply compressed in `coding` (or, `valid: false`, only labelled so). */
function writeEncoded(ctx: ChatReplyContext, p: Prepared, coding: 'gzip' | 'deflate' | 'br', valid: boolean): void {
  ctx.entry.outcome.replyText = p.text;
  ctx.entry.outcome.finishReason = p.finishReason;
  ctx.entry.outcome.status = 200;
  const usage = usageOf(p.promptChars, p.text);
  const plain = p.stream ? sseStream(p.ids, p.text, p.finishReason, p.includeUsage ? usage : null).join('') : completionJson(p.ids, p.text, p.finishReason, usage);
  const compress = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync }[coding];
  const bytes = valid ? compress(Buffer.from(plain)) : Buffer.from(plain);
  ctx.res.writeHead(200, { 'content-type': p.stream ? 'text/event-stream; charset=utf-8' : 'application/json', 'content-encoding': coding });
  const half = Math.floor(bytes.length / 2);
  ctx.res.write(bytes.subarray(0, half));
  ctx.res.end(bytes.subarray(half));
}
