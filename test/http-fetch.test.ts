/**
 * The CLI's keep-alive node:http fetch (src/cli/http-fetch.ts) behaves as Node's built-in fetch
 * does for everything the chat model meets: each reply and each provider fault below, sent
 * through the real SDK and our chat model to the mock, ends the same way with either fetch (the
 * same content, or the same fault kind), including cut-off bodies, stalls past the timeout, an
 * unreachable server and Stop. It also keeps one socket per call in flight and reuses it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpFetch } from '../src/cli/http-fetch.ts';
import { LlmError } from '../src/llm/errors.ts';
import type { LlmSettings } from '../src/llm/interface.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import type { FaultRule } from './mock-llm/interface.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { mockLlmSettings } from './support/mock-settings.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({});
});
afterAll(() => mock.close());

const httpFetch = createHttpFetch();
const builtin = globalThis.fetch.bind(globalThis);

/** How one call ended: its content and finish reason, or its fault kind. */
async function outcome(fetch: typeof globalThis.fetch, faults: FaultRule[], o: { stream?: boolean; settings?: Partial<LlmSettings>; baseUrl?: string; signal?: AbortSignal } = {}): Promise<string> {
  mock.setOptions({ faults });
  const s = mockLlmSettings(o.baseUrl ?? mock.baseUrl, 'k', {}, { maxRetries: 0, requestTimeoutMs: 600, ...o.settings });
  const { actor } = createChatModels(s, new UsageMeter(s.caps, s.prices), { fetch });
  try {
    const c = await actor.complete([{ role: 'user', content: `Say something. ${JSON.stringify(faults)}` }], { stream: o.stream === true, signal: o.signal });
    return `ok ${c.finishReason}: ${c.content}`;
  } catch (error) {
    return error instanceof LlmError ? `fault ${error.kind}` : `thrown ${String(error)}`;
  }
}

const CASES: Array<[string, FaultRule[], boolean, string]> = [
  ['a JSON reply', [], false, 'ok stop'],
  ['an SSE reply', [], true, 'ok stop'],
  ['401', [{ kind: 'auth' }], false, 'fault auth'],
  ['429', [{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 0 }], false, 'fault rate_limit'],
  ['500', [{ kind: 'server_error', rate: 1 }], false, 'fault server'],
  ['malformed JSON', [{ kind: 'malformed_json' }], false, 'fault bad_response'],
  ['an error event in a 200 stream', [{ kind: 'stream_error' }], true, 'fault server'],
  ['a stream cut mid-way', [{ kind: 'stream_error', form: 'cut' }], true, 'fault'],
  ['a JSON body cut mid-way', [{ kind: 'framing', form: 'json_cut' }], false, 'fault'],
  ['an SSE body cut mid-way', [{ kind: 'framing', form: 'sse_cut' }], false, 'fault'],
  ['SSE sent to a plain request', [{ kind: 'framing', form: 'sse' }], false, 'ok'],
  ['no answer', [{ kind: 'hang' }], false, 'fault timeout'],
  ['a stall after the headers', [{ kind: 'stall', after: 'headers' }], false, 'fault timeout'],
  ['a stall after part of the body', [{ kind: 'stall', after: 'partial' }], false, 'fault timeout'],
  ['an empty reply', [{ kind: 'empty_reply', shape: 'empty_content' }], false, 'fault'],
];

describe('compressed bodies: decoded, or named when they are not in their coding', () => {
  const codings = ['gzip', 'deflate', 'br'] as const;
  it.each(codings.flatMap((coding) => [[coding, false], [coding, true]] as const))('%s (stream %s): the reply is read as the plain one, with either fetch', async (coding, stream) => {
    const ours = await outcome(httpFetch, [{ kind: 'encoding', coding }], { stream });
    expect(mock.requests.at(-1)!.outcome.fault).toBe('encoding');
    expect(ours).toBe(`ok stop: ${mock.requests.at(-1)!.outcome.replyText}`);
    expect(ours).toMatch(/^ok stop: Mock reply/);
    expect(await outcome(builtin, [{ kind: 'encoding', coding }], { stream })).toBe(ours);
  });

  it('the CLI’s fetch asks for the body as it is (accept-encoding: identity)', async () => {
    const before = mock.requests.length;
    await outcome(httpFetch, []);
    expect(mock.requests[before]!.headers['accept-encoding']).toBe('identity');
  });

  it.each(codings.flatMap((coding) => [[coding, false], [coding, true]] as const))('labelled %s but not in it (stream %s): bad_response naming the coding, with either fetch', async (coding, stream) => {
    for (const fetch of [httpFetch, builtin]) {
      mock.setOptions({ faults: [{ kind: 'encoding', coding, valid: false }] });
      const s = mockLlmSettings(mock.baseUrl, 'k', {}, { maxRetries: 0 });
      const { actor } = createChatModels(s, new UsageMeter(s.caps, s.prices), { fetch });
      const error = await actor.complete([{ role: 'user', content: `mislabelled ${coding} ${stream}` }], { stream }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect((error as LlmError).kind).toBe('bad_response');
      expect((error as LlmError).message).toContain(`labelled content-encoding: ${coding} but could not be decoded as ${coding}`);
    }
  });
});

describe('createHttpFetch', () => {
  for (const [name, faults, stream, expected] of CASES) {
    it(`${name}: ends as with the built-in fetch (${expected}…)`, async () => {
      const ours = await outcome(httpFetch, faults, { stream });
      expect(ours.startsWith(expected)).toBe(true);
      expect(ours).toBe(await outcome(builtin, faults, { stream }));
    });
  }

  it('an unreachable server is a network fault, as with the built-in fetch', async () => {
    const ours = await outcome(httpFetch, [], { baseUrl: 'http://127.0.0.1:9/v1' });
    expect(ours).toBe('fault network_or_cors');
    expect(await outcome(builtin, [], { baseUrl: 'http://127.0.0.1:9/v1' })).toBe(ours);
  });

  it('Stop while the request waits ends it at once as aborted and closes its socket', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const before = mock.requests.length;
    expect(await outcome(httpFetch, [{ kind: 'hang' }], { signal: stop.signal, settings: { requestTimeoutMs: 5000 } })).toBe('fault aborted');
    expect(mock.requests.length - before).toBe(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(mock.requests.at(-1)!.closedBeforeAnswer).toBe(true);
  });

  it('sends method, headers and body, and keeps one socket per call in flight for the next calls', async () => {
    const seen: Array<{ method: string; type: string; body: string; port: number }> = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method!, type: req.headers['content-type']!, body, port: req.socket.remotePort! });
        setTimeout(() => res.writeHead(201, { 'x-answer': '42', 'set-cookie': ['a=1', 'b=2'] }).end('héllo'), 20);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const fetch = createHttpFetch();
    const send = () => fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'ünï' });
    const first = await Promise.all([send(), send(), send()]);
    const second = await Promise.all([send(), send(), send()]);
    server.close();
    for (const r of [...first, ...second]) {
      expect([r.status, r.headers.get('x-answer'), await r.text()]).toEqual([201, '42', 'héllo']);
    }
    expect(seen.map((s) => [s.method, s.type, s.body])).toEqual(Array(6).fill(['POST', 'text/plain', 'ünï']));
    const ports = seen.map((s) => s.port);
    expect(new Set(ports.slice(0, 3)).size).toBe(3);
    expect(new Set(ports).size).toBe(3);
  });
});
