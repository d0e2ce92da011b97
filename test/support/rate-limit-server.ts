/**
 * An OpenAI-compatible chat server with a requests-per-second limit, for the rate-limit bench and
 * tests: time is cut into fixed one-second windows from the server's start; the first `rps`
 * chat requests of a window are answered after `latencyMs` with a fixed actor reply, the others at
 * once with HTTP 429, `retry-after-ms` (ms to the window's end) and `Retry-After` (whole seconds,
 * rounded up). With `headers`, every response also carries OpenAI's `x-ratelimit-limit-requests`,
 * `x-ratelimit-remaining-requests` and `x-ratelimit-reset-requests` for the window.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RateLimitServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  readonly baseUrl: string;
  /** Chat requests that arrived, and how many were refused with 429. */
  readonly requests: number;
  readonly refused: number;
  close(): Promise<void>;
}

export interface RateLimitServerOptions {
  /** Requests allowed per one-second window. */
  rps: number;
  /** Delay before a successful reply, ms. */
  latencyMs: number;
  /** Send OpenAI's x-ratelimit-* headers (default false: 429 + Retry-After only). */
  headers?: boolean;
}

const REPLY = JSON.stringify({
  id: 'rl-1', object: 'chat.completion', created: 0, model: 'rl-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'REASONING: look around first.\nACTION: look' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 },
});

async function drain(req: IncomingMessage): Promise<void> {
  for await (const chunk of req) void chunk;
}

/** Start the server on a free port of 127.0.0.1. */
export async function startRateLimitServer(options: RateLimitServerOptions): Promise<RateLimitServer> {
  const started = performance.now();
  let window = -1;
  let used = 0;
  let requests = 0;
  let refused = 0;
  const server: Server = createServer((req, res) => {
    void drain(req).then(() => {
      if (req.method !== 'POST' || !/\/chat\/completions$/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      requests++;
      const elapsed = performance.now() - started;
      const now = Math.floor(elapsed / 1000);
      if (now !== window) {
        window = now;
        used = 0;
      }
      const toReset = Math.max(1, Math.ceil((now + 1) * 1000 - elapsed));
      const limitHeaders: Record<string, string> = options.headers
        ? { 'x-ratelimit-limit-requests': String(options.rps), 'x-ratelimit-remaining-requests': String(Math.max(0, options.rps - used - 1)), 'x-ratelimit-reset-requests': `${toReset}ms` }
        : {};
      if (used >= options.rps) {
        refused++;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': String(toReset), 'retry-after': String(Math.ceil(toReset / 1000)), ...limitHeaders, ...(options.headers ? { 'x-ratelimit-remaining-requests': '0' } : {}) });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }));
        return;
      }
      used++;
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json', ...limitHeaders }).end(REPLY), options.latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    get refused() {
      return refused;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
