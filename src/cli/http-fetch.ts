/**
 * A `fetch` for the CLI's provider calls over node:http / node:https with keep-alive agents
 * (loop overhead). Node's built-in fetch (undici) costs about 1–1.5 ms of main-thread
 * CPU per chat call on this machine, node:http about 0.4 ms; at 64 calls in flight that is the
 * difference between an event loop that keeps up and one that delays every reply behind the
 * others. Keep-alive sockets: one agent per protocol, `maxSockets` unbounded by default (the run's
 * `--concurrency` and the rate-limit scheduler bound what is in flight, so there are always ≥ C
 * sockets), idle sockets kept 30 s and unref'd (they never keep the process alive).
 *
 * Same contract as `fetch` for what the openai SDK and our reply readers use: method, headers,
 * a string / bytes body, `signal` (abort rejects with an `AbortError` and destroys the socket),
 * status, headers and the body. A JSON (or any non-SSE) reply is read whole and handed over as
 * bytes; a `text/event-stream` reply is a live stream, so the stream-idle timeout still sees each
 * chunk as it arrives. Anything it does not handle (another protocol, a streamed request body)
 * goes to `fallback` (default: the built-in fetch). Connection failures reject with a TypeError
 * ("fetch failed", the cause attached), as undici does, so they map to the same faults.
 *
 * Compressed bodies: requests ask for `accept-encoding: identity` (unless the caller set one);
 * a reply sent in gzip, deflate or br anyway (a request without the header allows any coding, RFC
 * 9110 §12.5.3, and some proxies compress regardless) is decoded with node:zlib — whole for JSON,
 * as it streams for SSE. A body not really in its labelled coding, or in one we cannot decode,
 * fails to read like a cut body (`TypeError('terminated')`, zlib's error as the cause).
 */
import http from 'node:http';
import https from 'node:https';
import { Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';

export interface HttpFetchOptions {
  /** Sockets per origin (default Infinity: what is in flight is bounded elsewhere). */
  maxSockets?: number;
  /** How long an idle socket is kept for the next request, ms (default 30 000; a server's
   * `Keep-Alive: timeout=N` hint shortens it, as Node's agent reads it). */
  idleTimeoutMs?: number;
  /** Used for what this fetch does not handle (default: globalThis.fetch). */
  fallback?: typeof fetch;
}

/** The agents' idle-socket lifetime, ms: long enough to carry a run's calls, short of servers' usual 60 s. */
const DEFAULT_IDLE_MS = 30_000;

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const error = new Error('This operation was aborted');
  error.name = 'AbortError';
  return error;
}

/** The request body as bytes or text; undefined when there is none; null when this fetch cannot send it. */
function bodyOf(body: unknown): string | Uint8Array | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return null;
}

/**
 * Build the keep-alive fetch. @throws nothing itself; the returned fetch rejects like `fetch`
 * (TypeError on connection faults, AbortError on abort).
 */
export function createHttpFetch(options: HttpFetchOptions = {}): typeof fetch {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? Infinity, timeout: options.idleTimeoutMs ?? DEFAULT_IDLE_MS };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  const fallback = options.fallback ?? globalThis.fetch.bind(globalThis);
  return (input, init) => {
    if (typeof input !== 'string' && !(input instanceof URL)) return fallback(input, init);
    const url = input instanceof URL ? input : new URL(input);
    const body = bodyOf(init?.body);
    const protocol = url.protocol as keyof typeof agents;
    if (body === null || !(protocol in agents)) return fallback(input, init);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    // Ask for the body as it is; a server that compresses anyway is decoded (contentCodings).
    headers['accept-encoding'] ??= 'identity';
    const transport = protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const request = transport.request(url, { method: init?.method ?? 'GET', headers, agent: agents[protocol] }, (res) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
          else if (value !== undefined) responseHeaders.set(name, value);
        }
        const status = res.statusCode ?? 500;
        const make = (payload: BodyInit | null): Response => new Response(status === 204 || status === 304 ? null : payload, { status, statusText: res.statusMessage ?? '', headers: responseHeaders });
        const codings = contentCodings(res.headers['content-encoding']);
        /** A body that cannot be read: the Response arrives, its reading fails (as fetch's does). */
        const unreadable = (partial: Buffer, error: Error): Response => make(new ReadableStream<Uint8Array>({
          start(controller) {
            if (partial.byteLength > 0) controller.enqueue(new Uint8Array(partial));
            controller.error(new TypeError('terminated', { cause: error }));
          },
        }));
        if (/text\/event-stream/i.test(res.headers['content-type'] ?? '')) {
          // A live stream: an abort from here on errors the body, as fetch's does.
          settled = true;
          signal?.addEventListener('abort', () => res.destroy(abortError(signal)), { once: true });
          if (codings instanceof Error) {
            res.destroy();
            resolve(unreadable(Buffer.alloc(0), codings));
            return;
          }
          const decoded = codings.reduceRight<Readable>((stream, coding) => {
            const decoder = decoderFor(coding);
            stream.on('error', (error) => decoder.destroy(error));
            return stream.pipe(decoder);
          }, res);
          resolve(make(Readable.toWeb(decoded) as unknown as ReadableStream<Uint8Array>));
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          const raw = Buffer.concat(chunks);
          if (codings instanceof Error) return resolve(unreadable(Buffer.alloc(0), codings));
          try {
            resolve(make(codings.length === 0 ? raw : new Uint8Array(codings.reduceRight<Buffer>((bytes, coding) => decodeSync(coding, bytes), raw))));
          } catch (error) {
            resolve(unreadable(Buffer.alloc(0), error as Error));
          }
        });
        // A body cut mid-way: the Response still arrives, its reading fails (as fetch's does),
        // so the fault stays a cut-off reply, not a connection failure.
        const cutOff = (error: Error): void => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(unreadable(Array.isArray(codings) && codings.length === 0 ? Buffer.concat(chunks) : Buffer.alloc(0), error));
        };
        res.on('error', cutOff);
        res.on('aborted', () => cutOff(new Error('aborted')));
        res.on('close', () => {
          if (!res.complete) cutOff(new Error('the connection closed mid-body'));
        });
      });
      const onAbort = (): void => {
        fail(abortError(signal!));
        request.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      request.on('error', (error) => fail(connectionError(error)));
      request.end(body);
    });
  };
}

/** The content codings a body was sent in, in the order applied (RFC 9110 §8.4: a list, the last
 * applied last); `identity` is none. An Error for a coding this client cannot decode. */
function contentCodings(header: string | undefined): ('gzip' | 'deflate' | 'br')[] | Error {
  const codings = (header ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  const known = codings.map((c) => (c === 'x-gzip' ? 'gzip' : c));
  const unknown = known.find((c) => c !== 'gzip' && c !== 'deflate' && c !== 'br');
  return unknown === undefined ? (known as ('gzip' | 'deflate' | 'br')[]) : new Error(`content-encoding ${unknown} is not one this client decodes (gzip, deflate, br)`);
}

/** A streaming decoder for one coding; `deflate` is zlib-wrapped (RFC 9110 §8.4.1.2), or raw as some servers send it. */
function decoderFor(coding: 'gzip' | 'deflate' | 'br'): Transform {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === 'br') return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  return coding === 'gzip' ? zlib.createGunzip(flush) : zlib.createInflate(flush);
}

/** Decode a whole body. @throws Error (zlib's, e.g. "incorrect header check") when it is not in `coding`. */
function decodeSync(coding: 'gzip' | 'deflate' | 'br', bytes: Buffer): Buffer {
  if (coding === 'br') return zlib.brotliDecompressSync(bytes);
  if (coding === 'gzip') return zlib.gunzipSync(bytes);
  try {
    return zlib.inflateSync(bytes);
  } catch {
    return zlib.inflateRawSync(bytes);
  }
}

/** A connection fault as fetch reports it (undici: `TypeError: fetch failed`, cause attached). */
function connectionError(cause: Error): Error {
  return new TypeError('fetch failed', { cause });
}
