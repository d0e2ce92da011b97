/**
 * A deterministic OpenAI-compatible mock LLM server for tests (node:http only): POST
 * /v1/chat/completions (JSON and SSE), GET /v1/models, CORS for any origin, scripted role
 * behaviours (reply.ts), injected faults (faults.ts) and a request log with waitForRequest.
 * Test-only: the product never imports it and cannot tell it from a real provider.
 */
import { PromptCache } from './prompt-cache.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AttemptCounter, modelsAuthFault } from './faults.ts';
import { answerChat, type ChatReplyContext } from './chat-handler.ts';
import type { LoggedRequest, MockLlm, MockOptions } from './interface.ts';
import { flag, newEntry } from './request-log.ts';
import { corsHeaders, errorJson } from './wire.ts';

export type { FaultKind, FaultRule, LoggedRequest, MetaAgentReply, MockLlm, MockOptions, MockRole, ProposerReply, RequestOutcome } from './interface.ts';
export { DEFAULT_EXPLORE_COMMANDS } from './actor-behaviour.ts';

/** Default wait of `waitForRequest`, ms. */
const DEFAULT_WAIT_MS = 5_000;

interface Waiter {
  predicate: (request: LoggedRequest) => boolean;
  resolve: (request: LoggedRequest) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** The running server; `startMockLlm` is the way to get one. */
class MockLlmServer implements MockLlm {
  readonly requests: LoggedRequest[] = [];
  baseUrl = '';
  private options: MockOptions;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly waiters = new Set<Waiter>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private attempts = new AttemptCounter();
  private readonly promptCache = new PromptCache();
  private closed = false;

  constructor(options: MockOptions) {
    this.options = { ...options };
  }

  /** Listen on host:port (default 127.0.0.1:0) and set `baseUrl`. */
  async listen(): Promise<void> {
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, host, () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`;
  }

  waitForRequest(predicate: (request: LoggedRequest) => boolean, timeoutMs = DEFAULT_WAIT_MS): Promise<LoggedRequest> {
    const found = this.requests.find(predicate);
    if (found) return Promise.resolve(found);
    if (this.closed) return Promise.reject(new Error('mock LLM is closed'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate, resolve, reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new Error(`mock LLM: no matching request within ${timeoutMs} ms (${this.requests.length} logged: ${this.requests.map((r) => `${r.method} ${r.path} ${r.behaviour}`).join('; ')})`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  setOptions(partial: Partial<MockOptions>): void {
    const { host: _host, port: _port, ...rest } = partial;
    this.options = { ...this.options, ...rest };
    if ('faults' in partial) this.attempts = new AttemptCounter();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('mock LLM closed before a matching request arrived'));
    }
    this.waiters.clear();
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await done;
  }

  /** Log a request on arrival and wake the waiters it matches. */
  private record(entry: LoggedRequest): void {
    this.requests.push(entry);
    if (entry.unexpected) (this.options.log ?? console.error)(`[mock-llm] UNEXPECTED REQUEST #${entry.index} ${entry.method} ${entry.path}: ${entry.problem}`);
    for (const waiter of [...this.waiters]) {
      if (!waiter.predicate(entry)) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve(entry);
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.sendDate = false;
    for (const [name, value] of Object.entries(corsHeaders(req.headers))) res.setHeader(name, value);
    let raw: string;
    try {
      raw = await readBody(req);
    } catch {
      res.destroy();
      return;
    }
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const entry = newEntry(this.requests.length, method, path, req.headers, raw);
    res.on('close', () => {
      if (!res.writableFinished) entry.closedBeforeAnswer = true;
    });
    const send = (status: number, body: string, headers: Record<string, string> = {}): void => {
      entry.outcome.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    if (method === 'OPTIONS') {
      entry.behaviour = 'preflight';
      this.record(entry);
      entry.outcome.status = 204;
      res.writeHead(204).end();
    } else if (method === 'GET' && path === '/v1/models') {
      this.answerModels(entry, req, send);
    } else if (method === 'POST' && path === '/v1/chat/completions') {
      const ctx: ChatReplyContext = {
        entry, req, res, send, options: this.options, attempts: this.attempts, timers: this.timers, promptCache: this.promptCache,
        record: (e) => this.record(e),
      };
      answerChat(ctx);
    } else {
      flag(entry, 'not_found', `unknown endpoint ${method} ${path}`);
      this.record(entry);
      send(404, errorJson(`Unknown endpoint ${method} ${path} (the mock serves POST /v1/chat/completions and GET /v1/models).`, 'invalid_request_error', 'unknown_url'));
    }
  }

  private answerModels(entry: LoggedRequest, req: IncomingMessage, send: (status: number, body: string) => void): void {
    entry.behaviour = 'models';
    this.record(entry);
    const { apiKey, faults = [] } = this.options;
    const refused = (apiKey !== undefined && req.headers.authorization !== `Bearer ${apiKey}`) || modelsAuthFault(faults);
    if (refused) {
      entry.outcome.fault = 'auth';
      send(401, errorJson('Incorrect API key provided (mock).', 'invalid_request_error', 'invalid_api_key'));
      return;
    }
    const data = (this.options.models ?? ['mock-model']).map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'mock-llm' }));
    send(200, JSON.stringify({ object: 'list', data }));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Start a mock server (default 127.0.0.1 on a free port).
 * @throws Error (rejects) when the port cannot be bound
 */
export async function startMockLlm(options: MockOptions = {}): Promise<MockLlm> {
  const server = new MockLlmServer(options);
  await server.listen();
  return server;
}
