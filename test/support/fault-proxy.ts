/**
 * A fault proxy in front of an OpenAI-compatible server (the mock LLM) for tests and the bench:
 * every POST …/chat/completions that arrives is, with probability `rate`, cut by one of five
 * faults chosen uniformly. The draw is a hash of (seed, body, how many times this body arrived
 * before): a retry or a resume meets fresh luck, as with a real provider, yet the faults do not
 * depend on the order in which parallel sessions' requests arrive. The faults: 429 with
 * `Retry-After: 0`, 500, a hang (no reply until the client gives up, i.e. past its
 * `--timeout-ms`), a 200 whose body is malformed JSON, and the upstream reply cut mid-body (half its bytes, then the connection is destroyed). Everything else
 * is forwarded unchanged. `requests` counts chat requests that arrived, `faults` those cut.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

/** The fault kinds the proxy injects, in the order a draw picks them. */
export const PROXY_FAULTS = ['rate_limit', 'server_error', 'hang', 'malformed_json', 'truncated'] as const;
export type ProxyFault = (typeof PROXY_FAULTS)[number];

export interface FaultProxy {
  /** Base URL to give the client (upstream's path prefix kept), e.g. http://127.0.0.1:PORT/v1. */
  readonly baseUrl: string;
  /** Chat requests that arrived (faulted ones included). */
  readonly requests: number;
  /** Faults injected, by kind. */
  readonly faults: Record<ProxyFault, number>;
  /** Chat requests in flight now (arrived, not yet answered or cut; a hang counts until the client gives up). */
  readonly inFlight: number;
  /** Total time, ms, during which no chat request was in flight, since `idleFrom` (or the start). */
  idleMs(): number;
  /** Since `idleFrom`: ms spent at each number of chat requests being served — in flight and not
   * hanging (a hang is cut by the client's timeout and does no work) — by that number. */
  servingMs(): Map<number, number>;
  /** Start counting `idleMs` and `servingMs` from now (the bench calls it before each run). */
  idleFrom(): void;
  /** Set the fault rate (0…1) from now on. */
  setRate(rate: number): void;
  close(): Promise<void>;
}

/** Two uniform numbers in [0, 1) from SHA-256 of `text`. */
function draws(text: string): [number, number] {
  const h = createHash('sha256').update(text).digest();
  return [h.readUInt32BE(0) / 4294967296, h.readUInt32BE(4) / 4294967296];
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Start a proxy to `upstream` (a base URL such as the mock's `http://127.0.0.1:P/v1`).
 * @param options.rate fault probability per chat request (default 0.2)
 * @param options.seed the generator's seed (default 1)
 * @param options.latencyMs delay before every chat request is answered or cut, ms (default 0): a
 *   provider's own latency, for the bench's wall-time figures
 */
export async function startFaultProxy(upstream: string, options: { rate?: number; seed?: number; latencyMs?: number } = {}): Promise<FaultProxy> {
  const target = new URL(upstream);
  const seed = options.seed ?? 1;
  const arrivals = new Map<string, number>();
  let rate = options.rate ?? 0.2;
  let requests = 0;
  const faults = Object.fromEntries(PROXY_FAULTS.map((k) => [k, 0])) as Record<ProxyFault, number>;
  const open = new Set<ServerResponse>();
  let inFlight = 0;
  let idleSince: number | null = performance.now();
  let idleTotal = 0;
  // Time at each level of requests being served (in flight, not hanging), accumulated on change.
  let hanging = 0;
  let levelSince = performance.now();
  let levels = new Map<number, number>();
  const level = (change: () => void) => {
    const t = performance.now();
    const serving = inFlight - hanging;
    levels.set(serving, (levels.get(serving) ?? 0) + t - levelSince);
    levelSince = t;
    change();
  };
  const began = () => level(() => {
    if (inFlight++ === 0 && idleSince !== null) idleTotal += performance.now() - idleSince;
    idleSince = null;
  });
  const ended = () => level(() => {
    if (--inFlight === 0) idleSince = performance.now();
  });

  const forward = (req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: target.host };
      const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (res) => {
        void readBody(res).then((b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }), reject);
      });
      up.on('error', reject);
      up.end(body);
    });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const chat = req.method === 'POST' && /\/chat\/completions$/.test(req.url ?? '');
      let fault: ProxyFault | null = null;
      if (chat) {
        began();
        res.once('close', ended);
        requests++;
        const key = createHash('sha256').update(body).digest('hex');
        const nth = arrivals.get(key) ?? 0;
        arrivals.set(key, nth + 1);
        const [hit, which] = draws(`${seed}|${key}|${nth}`);
        const pick = PROXY_FAULTS[Math.floor(which * PROXY_FAULTS.length)]!;
        if (hit < rate) fault = pick;
      }
      if (fault) faults[fault]++;
      if (chat && options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
      if (fault === 'rate_limit') return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"error":{"message":"Rate limit reached","type":"rate_limit"}}');
      if (fault === 'server_error') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"Internal error","type":"server_error"}}');
      if (fault === 'hang') {
        open.add(res);
        level(() => hanging++);
        res.on('close', () => (open.delete(res), level(() => hanging--)));
        return;
      }
      if (fault === 'malformed_json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x","choices":[{"message":');
      const reply = await forward(req, body);
      const headers = { ...reply.headers };
      delete headers['transfer-encoding'];
      if (fault === 'truncated') {
        res.writeHead(reply.status, { ...headers, 'content-length': String(reply.body.length) });
        res.write(reply.body.subarray(0, Math.floor(reply.body.length / 2)));
        setTimeout(() => res.destroy(), 10);
        return;
      }
      res.writeHead(reply.status, { ...headers, 'content-length': String(reply.body.length) }).end(reply.body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, '')}`,
    get requests() {
      return requests;
    },
    faults,
    get inFlight() {
      return inFlight;
    },
    idleMs: () => idleTotal + (idleSince === null ? 0 : performance.now() - idleSince),
    servingMs: () => {
      level(() => undefined);
      return new Map(levels);
    },
    idleFrom() {
      idleTotal = 0;
      level(() => (levels = new Map()));
      if (idleSince !== null) idleSince = performance.now();
    },
    setRate(r: number) {
      rate = r;
    },
    close: () => {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
