/**
 * The room forwarder's CPU per call (`npm run bench`; not a test): the same keep-alive node:http
 * client calls the deterministic mock LLM (its own process, so its CPU is not counted) directly —
 * a bare client — and through the room's forwarder (src/room-server/forwarder.ts, in this process:
 * the room's HTTP server, the checks, the reservation, the relay, the key scrubbing, the usage),
 * JSON and streamed replies. This process's CPU (user + system) per call in each, alternated in
 * rounds (median), gives the forwarder's own CPU per call = through-forwarder − bare, and its
 * ratio to the bare client's. Goal: the forwarder's ≤ 1 ms per call.
 */
import { spawn } from 'node:child_process';
import http, { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createForwarder } from '../src/room-server/forwarder.ts';
import type { ParticipantView, RoomSettings } from '../src/room/protocol.ts';
import { sized } from './bench-size.ts';

const KEY = 'fake-test-key-bench-forwarder-0123456789';
const CALLS = sized(400, 8);
const ROUNDS = sized(5, 1);
const CONCURRENCY = 8;
const MESSAGES = [
  { role: 'system', content: 'You are an expert player of text adventure games. Answer REASONING: … then ACTION: ….' },
  { role: 'user', content: 'Step 3 of 20. Score: 0.\n[OBSERVATION]\nYou are standing in an open field west of a white house, with a boarded front door. There is a small mailbox here.' },
];

/** Start the mock LLM as its own process; resolves with its base URL and a stop function. */
async function startMock(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const cli = resolve(import.meta.dirname, '../test/mock-llm/cli.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--api-key', KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  const stop = () => new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
  return { baseUrl: String(first.value), stop };
}

/** Start a room server on 127.0.0.1 whose every request is the one participant's, through the forwarder. */
async function startRoom(baseUrl: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const participant: ParticipantView = {
    id: 'p1', name: 'Ada', joinedAt: new Date(0).toISOString(), removed: false, killed: false,
    usage: { calls: 0, tokens: 0, usd: 0 }, caps: { maxCalls: null, maxTokens: 1e12, maxUsd: 1e9, opensAt: null, closesAt: null },
  };
  const settings: RoomSettings = { title: 'bench', namesHidden: false, caps: participant.caps, killedAll: false };
  const forwarder = createForwarder({
    upstream: { kind: 'http', baseUrl, apiKey: KEY, models: ['mock-model'] },
    prices: { 'mock-model': { inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 } },
    participant: () => participant,
    settings: () => settings,
    addUsage: (_id, u) => {
      participant.usage = { calls: participant.usage.calls + u.calls, tokens: participant.usage.tokens + u.tokens, usd: (participant.usage.usd ?? 0) + (u.usd ?? 0) };
    },
  });
  const server = createServer((req, res) => void forwarder.handle(req, res, 'p1'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, stop: async () => {
    await forwarder.close?.();
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  } };
}

const agent = new http.Agent({ keepAlive: true });

/** One chat call with a bare node:http client; resolves with the parsed JSON (or the SSE text's length). */
function call(baseUrl: string, stream: boolean): Promise<unknown> {
  const body = JSON.stringify({ model: 'mock-model', messages: MESSAGES, max_tokens: 200, ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) });
  return new Promise((done, fail) => {
    const req = http.request(`${baseUrl}/chat/completions`, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => (res.statusCode === 200 ? done(stream ? text.length : JSON.parse(text)) : fail(new Error(`HTTP ${res.statusCode}: ${text}`))));
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** This process's CPU per call, ms, over CALLS calls CONCURRENCY at a time. */
async function cpuPerCall(baseUrl: string, stream: boolean): Promise<number> {
  let next = 0;
  const start = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < CALLS) await call(baseUrl, stream);
  }));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / CALLS;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const mock = await startMock();
  const room = await startRoom(mock.baseUrl);
  try {
    const rows: string[] = [];
    const summary: string[] = [];
    for (const stream of [false, true]) {
      // Warm up both paths (JIT, sockets) before measuring.
      await cpuPerCall(mock.baseUrl, stream);
      await cpuPerCall(room.url, stream);
      const bare: number[] = [];
      const through: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        bare.push(await cpuPerCall(mock.baseUrl, stream));
        through.push(await cpuPerCall(room.url, stream));
      }
      const b = median(bare);
      const t = median(through);
      const ours = Math.max(0, t - b);
      const kind = stream ? 'stream' : 'JSON';
      const ratio = b > 0 ? ours / b : 0;
      rows.push(`| ${kind} | ${b.toFixed(3)} | ${t.toFixed(3)} | ${ours.toFixed(3)} | ${ratio.toFixed(2)}× |`);
      summary.push(`${kind} ${ours.toFixed(3)} ms (${ratio.toFixed(2)}× the bare client's ${b.toFixed(3)} ms)`);
    }
    console.log(`Room forwarder CPU per call (${CALLS} calls × ${ROUNDS} rounds, ${CONCURRENCY} in flight, mock LLM in its own process)\n`);
    console.log('| reply | bare client ms/call | client + forwarder ms/call | forwarder ms/call | forwarder ÷ bare |\n|---|---|---|---|---|');
    console.log(rows.join('\n'));
    console.log(`\nforwarder CPU per call: ${summary.join('; ')} (goal ≤ 1 ms)`);
  } finally {
    agent.destroy();
    await room.stop();
    await mock.stop();
  }
}

await main();
