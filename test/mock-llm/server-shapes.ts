/**
 * What the mock writes for the faults that imitate other OpenAI-compatible servers: error bodies
 * in each server's documented framing (vLLM's `{"object":"error"}` without an `error` key,
 * Gemini's array-wrapped errors, Anthropic's `{"type":"error"}`, OpenRouter's numeric codes and
 * errors inside 200s and stream chunks, Ollama's string errors …), finish reasons, other body
 * framings, rewritten usage and errors echoing the key. Depends only on the request and the rule.
 */
import type { ChatReplyContext } from './chat-handler.ts';
import type { FaultRule, KeyEncoding, ServerShape } from './interface.ts';
import { writeReply, type Prepared } from './reply-writer.ts';
import { chunk, completionJson, firstChunk, sseData, sseStream, usageOf } from './wire.ts';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/**
 * An error body as `server` documents it (status is the HTTP status the error stands for).
 * Sources: OpenAI API reference (errors); vLLM `ErrorResponse` (protocol.py); llama.cpp server
 * README (error format); Ollama `docs/api.md` / `openai.md`; LM Studio and LiteLLM (OpenAI form,
 * LiteLLM with a string code); OpenRouter docs "Errors" (numeric code, metadata.raw); DeepSeek and
 * Groq (OpenAI form); Gemini OpenAI compatibility (array-wrapped Google error); Anthropic OpenAI
 * SDK compatibility (`{"type":"error","error":{type,message}}`).
 */
export function serverErrorBody(server: ServerShape, status: number, message: string, param: string | null): unknown {
  const type = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  switch (server) {
    case 'openai':
    case 'groq':
    case 'lmstudio':
      return { error: { message, type, param, code: null } };
    case 'deepseek':
      return { error: { message, type, param: null, code: type } };
    case 'litellm':
      return { error: { message: `litellm.BadRequestError: ${message}`, type: null, param, code: String(status) } };
    case 'vllm':
      return { object: 'error', message, type: status >= 500 ? 'InternalServerError' : 'BadRequestError', param, code: status };
    case 'llamacpp':
      return { error: { code: status, message, type } };
    case 'ollama':
      return { error: message };
    case 'openrouter':
      return { error: { code: status, message: 'Provider returned error', metadata: { provider_name: 'MockProvider', raw: message } } };
    case 'gemini':
      return [{ error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT' } }];
    case 'anthropic':
      return { type: 'error', error: { type, message } };
  }
}

/** Write a `provider_error` fault: the server's error body, as an HTTP error, a 200 body, or
 * (status 200, streamed request) a `data:` chunk after the first word. */
export function writeProviderError(ctx: ChatReplyContext, rule: Extract<FaultRule, { kind: 'provider_error' }>, p: Prepared): void {
  const status = rule.status ?? 400;
  const message = rule.param
    ? `Unsupported parameter: '${rule.param}' is not supported with this model.`
    : (rule.message ?? `The model '${p.ids.model}' does not exist (mock ${rule.server}).`);
  const body = serverErrorBody(rule.server, status === 200 ? 400 : status, message, rule.param ?? null);
  if (status === 200 && p.stream) {
    ctx.entry.outcome.status = 200;
    ctx.res.writeHead(200, SSE_HEADERS);
    ctx.res.write(firstChunk(p.ids, p.includeUsage));
    ctx.res.write(sseData(chunk(p.ids, { content: p.text.match(/\s*\S+/)?.[0] ?? 'look' }, null, p.includeUsage)));
    ctx.res.end(sseData(body));
    return;
  }
  ctx.send(status, JSON.stringify(body));
}

/** Write the normal reply in another framing (`framing` fault). */
export function writeFraming(ctx: ChatReplyContext, form: Extract<FaultRule, { kind: 'framing' }>['form'], p: Prepared): void {
  const usage = usageOf(p.promptChars, p.text);
  ctx.entry.outcome.replyText = p.text;
  ctx.entry.outcome.finishReason = p.finishReason;
  ctx.entry.outcome.status = 200;
  const json = completionJson(p.ids, p.text, p.finishReason, usage);
  switch (form) {
    case 'sse':
    case 'sse_as_json':
      ctx.res.writeHead(200, form === 'sse' ? SSE_HEADERS : { 'content-type': 'application/json' });
      ctx.res.end(sseStream(p.ids, p.text, p.finishReason, usage).join(''));
      return;
    case 'json_done':
      ctx.res.writeHead(200, { 'content-type': 'application/json' });
      ctx.res.end(`${json}\n\ndata: [DONE]\n\n`);
      return;
    case 'json':
      ctx.res.writeHead(200, { 'content-type': 'application/json' });
      ctx.res.end(json);
      return;
    case 'sse_cut':
      ctx.res.writeHead(200, SSE_HEADERS);
      ctx.res.end(sseStream(p.ids, p.text, p.finishReason, usage).slice(0, 2).join(''));
      return;
    case 'json_cut':
      ctx.res.writeHead(200, { 'content-type': 'application/json' });
      ctx.res.end(json.slice(0, Math.floor(json.length / 2)));
      return;
  }
}

/** Write the normal reply with `usage` replaced verbatim (`usage` fault). */
export function writeUsage(ctx: ChatReplyContext, usage: unknown, p: Prepared): void {
  ctx.entry.outcome.replyText = p.text;
  ctx.entry.outcome.finishReason = p.finishReason;
  if (!p.stream) {
    const body = JSON.parse(completionJson(p.ids, p.text, p.finishReason, null)) as Record<string, unknown>;
    ctx.send(200, JSON.stringify({ ...body, usage }));
    return;
  }
  ctx.entry.outcome.status = 200;
  ctx.res.writeHead(200, SSE_HEADERS);
  const events = sseStream(p.ids, p.text, p.finishReason, null);
  for (const event of events.slice(0, -1)) ctx.res.write(event);
  ctx.res.write(sseData({ id: p.ids.id, object: 'chat.completion.chunk', created: p.ids.created, model: p.ids.model, choices: [], usage }));
  ctx.res.end(events.at(-1));
}

/** The key in `encoding`. */
export function encodeKey(key: string, encoding: KeyEncoding): string {
  const bytes = [...new TextEncoder().encode(key)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  switch (encoding) {
    case 'url':
      return encodeURIComponent(key);
    case 'percent_lower':
      return bytes;
    case 'percent_upper':
      return bytes.toUpperCase();
    case 'base64':
      return Buffer.from(key).toString('base64');
    case 'json_unicode':
      return key;
  }
}

/** Write an `echo_key` fault: an OpenAI-style error whose message holds the request's key in a URL. */
export function writeEchoKey(ctx: ChatReplyContext, rule: Extract<FaultRule, { kind: 'echo_key' }>): void {
  const auth = ctx.req.headers.authorization ?? '';
  const key = auth.replace(/^Bearer\s+/i, '');
  const status = rule.status ?? 400;
  const message = `Request to https://mock.example/v1beta/models/mock-model:generate?key=${encodeKey(key, rule.encoding)} failed: API key not valid (mock).`;
  let body = JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_key_url' } });
  if (rule.encoding === 'json_unicode') body = body.replace(key, [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''));
  ctx.send(status, body);
}

/** Write the normal reply with the given finish_reason. */
export function writeFinishReason(ctx: ChatReplyContext, reason: string, p: Prepared): void {
  writeReply(ctx, { ...p, finishReason: reason });
}
