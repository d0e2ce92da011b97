/**
 * The forwarder's way to the teacher's OpenAI-compatible provider, over node:http / node:https with
 * keep-alive agents (the cheapest client in CPU per call: no Fetch objects, no Web streams; see
 * bench/room-forwarder-bench.ts), and the relays of its replies to the student: a JSON reply read
 * whole (its usage read, its text scrubbed of the teacher's key), a stream passed on event by
 * event as it arrives (each batch of whole events scrubbed; the usage chunk read), an error read
 * into the provider's words. The student gets none of the provider's headers: only the type of
 * the body (no set-cookie, no echoed authorization, no account or rate-limit details).
 * Compressed replies (a server that compresses although asked not to) are decoded with node:zlib.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { providerErrorOf } from '../llm/provider-error.ts';
import type { RawUsage } from '../llm/reply-body.ts';
import { usageOf } from './forwarder-plan.ts';
import { upstreamFault, type Refusal } from './forwarder-refusals.ts';

/** The teacher's OpenAI-compatible provider. */
export interface HttpUpstream {
  kind: 'http';
  /** The base URL, e.g. `https://api.openai.com/v1` (requests go to `<baseUrl>/chat/completions`). */
  baseUrl: string;
  /** The teacher's key ('' for a keyless local server); sent only to `baseUrl`. */
  apiKey: string;
  /** The room's models: what `/v1/models` lists and a request may name (the first is the default). */
  models: string[];
  /** Longest silence on the provider's connection before the call fails, ms (default 120 000). */
  idleTimeoutMs?: number;
}

/** What a relayed reply told us: the provider's usage (null: none), the reply's characters, and
 * whether it arrived whole. */
export interface Relayed {
  reported: RawUsage | null;
  replyChars: number;
  complete: boolean;
}

const DEFAULT_IDLE_MS = 120_000;
/** Largest JSON reply read, bytes; largest error body read, bytes. */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;
const MAX_ERROR_BYTES = 64 * 1024;
/** Stream text kept for the estimate when the provider sends no usage, characters. */
const MAX_KEPT_STREAM = 4 * 1024 * 1024;

/** A keep-alive client of one provider. */
export interface UpstreamClient {
  /** POST `body` (JSON text) to `<baseUrl><path>`; resolves with the reply's head, rejects on a connection fault or timeout. */
  post(path: string, body: string, signal: AbortSignal): Promise<IncomingMessage>;
  close(): void;
}

/** The client of `upstream` (its agents keep sockets 30 s; they never keep the process alive). */
export function createUpstreamClient(upstream: HttpUpstream): UpstreamClient {
  const base = new URL(upstream.baseUrl.replace(/\/+$/, '') + '/');
  const agent = base.protocol === 'https:' ? new https.Agent({ keepAlive: true, timeout: 30_000 }) : new http.Agent({ keepAlive: true, timeout: 30_000 });
  const transport = base.protocol === 'https:' ? https : http;
  const idleMs = upstream.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  return {
    post: (path, body, signal) => new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'accept-encoding': 'identity', 'content-length': Buffer.byteLength(body) };
      if (upstream.apiKey !== '') headers.authorization = `Bearer ${upstream.apiKey}`;
      const request = transport.request(new URL(path.replace(/^\//, ''), base), { method: 'POST', headers, agent }, resolve);
      request.setTimeout(idleMs, () => request.destroy(new Error(`no answer for ${Math.round(idleMs / 1000)} s`)));
      request.on('error', reject);
      const abort = (): void => void request.destroy(new Error('the student left'));
      signal.addEventListener('abort', abort, { once: true });
      request.on('close', () => signal.removeEventListener('abort', abort));
      request.end(body);
    }),
    close: () => agent.destroy(),
  };
}

/** The reply's body decoded from its content codings (gzip, deflate, br), as a stream. */
function decoded(up: IncomingMessage): Readable {
  const codings = (up.headers['content-encoding'] ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  return codings.reduceRight<Readable>((stream, coding) => {
    const decoder = coding === 'br' ? zlib.createBrotliDecompress() : coding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
    stream.on('error', (error) => decoder.destroy(error));
    return stream.pipe(decoder);
  }, up);
}

/** The whole body as text, up to `limit` bytes (rejects past it, or when the body is cut or undecodable). */
function readText(up: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const body = decoded(up);
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) body.destroy(new Error(`a reply over ${limit} bytes`));
      else chunks.push(chunk);
    });
    body.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    body.on('error', reject);
    up.on('aborted', () => reject(new Error('the reply was cut off')));
  });
}

/** The refusal for a provider's error reply (status ≥ 400): its status and its words, scrubbed. */
export async function errorReply(up: IncomingMessage, scrub: (text: string) => string): Promise<Refusal> {
  const text = await readText(up, MAX_ERROR_BYTES).catch(() => '');
  let words = text.slice(0, 300);
  try {
    words = providerErrorOf(JSON.parse(text))?.message ?? words;
  } catch {
    // Not JSON (an HTML error page, plain text): its first words.
    words = words.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
  }
  return upstreamFault(up.statusCode ?? null, scrub(words));
}

/** Characters of the replies' text in a completion or a chunk (`message.content` or `delta.content` of every choice). */
function replyCharsOf(parsed: unknown): number {
  const choices = (parsed as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return 0;
  let n = 0;
  for (const c of choices) {
    const part = (c as { message?: { content?: unknown }; delta?: { content?: unknown } } | null) ?? {};
    const content = part.message?.content ?? part.delta?.content;
    if (typeof content === 'string') n += content.length;
  }
  return n;
}

/**
 * Relay a JSON reply (status < 400) to the student: 200 with the provider's body scrubbed, or the
 * refusal (502) for a body that is not JSON or carries an error inside a 200.
 */
export async function relayJson(up: IncomingMessage, res: ServerResponse, scrub: (text: string) => string): Promise<Relayed | Refusal> {
  let text: string;
  let parsed: unknown;
  try {
    text = await readText(up, MAX_REPLY_BYTES);
    parsed = JSON.parse(text);
  } catch (error) {
    return upstreamFault(null, scrub(`its reply could not be read (${error instanceof Error ? error.message : String(error)})`));
  }
  const fault = providerErrorOf(parsed);
  if (fault !== null) return upstreamFault(fault.status, scrub(fault.message));
  const out = scrub(text);
  res.writeHead(up.statusCode ?? 200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out), 'cache-control': 'no-store' });
  res.end(out);
  return { reported: usageOf((parsed as { usage?: unknown }).usage), replyChars: replyCharsOf(parsed), complete: true };
}

/** The end of the last whole SSE event in `text` (after its blank line), or -1. */
function lastEventEnd(text: string): number {
  const lf = text.lastIndexOf('\n\n');
  const crlf = text.lastIndexOf('\r\n\r\n');
  return Math.max(lf < 0 ? -1 : lf + 2, crlf < 0 ? -1 : crlf + 4);
}

/** The usage in the `data:` lines of `events` that mention one (the last found wins). */
function usageIn(events: string, previous: RawUsage | null): RawUsage | null {
  if (!events.includes('"usage"')) return previous;
  let found = previous;
  for (const line of events.split(/\r?\n/)) {
    if (!line.startsWith('data:') || !line.includes('"usage"')) continue;
    try {
      found = usageOf((JSON.parse(line.slice(5)) as { usage?: unknown }).usage) ?? found;
    } catch {
      // A broken line: the client reads it as it is; no usage from it.
    }
  }
  return found;
}

/** Characters of streamed reply text in `events` (for the estimate when the provider sent no usage). */
function streamedChars(events: string): number {
  let n = 0;
  for (const line of events.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    try {
      n += replyCharsOf(JSON.parse(line.slice(5)));
    } catch {
      // `[DONE]` or a broken line.
    }
  }
  return n;
}

/**
 * Relay a streamed reply to the student as it arrives: whole events only (a batch is scrubbed
 * before it is written, so a key cannot be split across two writes), the provider's usage read
 * from its usage chunk. Resolves when the stream ends, is cut, or the student leaves.
 */
export function relayStream(up: IncomingMessage, res: ServerResponse, scrub: (text: string) => string): Promise<Relayed> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  const body = decoded(up);
  body.setEncoding('utf8');
  let pending = '';
  let kept = '';
  let reported: RawUsage | null = null;
  const pass = (events: string): void => {
    reported = usageIn(events, reported);
    if (kept.length < MAX_KEPT_STREAM) kept += events;
    res.write(scrub(events));
  };
  return new Promise((resolve) => {
    let done = false;
    const finish = (complete: boolean): void => {
      if (done) return;
      done = true;
      if (complete && pending !== '') pass(pending);
      if (!res.writableEnded) res.end();
      resolve({ reported, replyChars: reported === null ? streamedChars(kept) : 0, complete });
    };
    body.on('data', (chunk: string) => {
      pending += chunk;
      const end = lastEventEnd(pending);
      if (end < 0) return;
      const events = pending.slice(0, end);
      pending = pending.slice(end);
      pass(events);
    });
    body.on('end', () => finish(true));
    body.on('error', () => finish(false));
    up.on('aborted', () => finish(false));
    res.on('close', () => {
      if (!done) up.destroy();
      finish(false);
    });
  });
}
