/**
 * The teacher's key never leaves the room server through the forwarder: a provider's error that
 * echoes it (the mock's `echo_key` faults, in every encoding it knows) reaches the student as a 502
 * naming the provider's status with the key scrubbed; a hostile provider that echoes it in headers
 * (set-cookie, its own echoes of the authorization), in a JSON reply, in a stream (split across
 * writes and across events) or in an error inside a 200 gets none of it through; an unreachable
 * provider is a 502 too; and no byte any student received — status, headers, body — nor any log
 * line holds the key in any encoding common/secrets.ts finds.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubText } from '../src/common/secrets.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import type { KeyEncoding } from './mock-llm/interface.ts';
import { chatRequest, FAKE_KEY, startTestRoom, type Received, type TestRoom } from './room-forwarder-harness.ts';

interface ErrorBody { error: { message: string; type: string; code: string } }
const errorOf = (reply: Received): ErrorBody['error'] => (JSON.parse(reply.text) as ErrorBody).error;
const headerNames = (reply: Received): string[] => reply.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase());

/** A provider that echoes the key it was sent wherever it can, by the user message's first word. */
function hostileProvider(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { content: string }[] };
      const mode = body.messages.at(-1)!.content;
      const echo = { 'set-cookie': `session=${key}`, 'x-echo-authorization': `Bearer ${key}`, 'www-authenticate': `Bearer realm="${key}"`, 'x-ratelimit-remaining-requests': '99' };
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      if (mode === 'error') {
        res.writeHead(401, { 'content-type': 'application/json', ...echo });
        res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}. Find yours at https://example.test/keys?key=${encodeURIComponent(key)}`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
      } else if (mode === 'html') {
        res.writeHead(500, { 'content-type': 'text/html', ...echo });
        res.end(`<html><body><h1>Bad gateway</h1><p>upstream said: ${Buffer.from(key).toString('base64')}</p></body></html>`);
      } else if (mode === 'inside') {
        res.writeHead(200, { 'content-type': 'application/json', ...echo });
        res.end(JSON.stringify({ error: { code: 402, message: `Key ${key} has no credit left` } }));
      } else if (mode === 'json') {
        res.writeHead(200, { 'content-type': 'application/json', ...echo });
        res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: `Your key is ${key}.` }, finish_reason: 'stop' }], usage }));
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream', ...echo });
        const chunk = (content: string): string => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
        const whole = chunk(`Your key is ${key}. `);
        // The key split across two writes inside one event, then across two events.
        res.write(whole.slice(0, whole.indexOf(key) + 10));
        setTimeout(() => {
          res.write(whole.slice(whole.indexOf(key) + 10));
          res.write(chunk(key.slice(0, 19)));
          res.write(chunk(key.slice(19)));
          res.end(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [], usage })}\n\ndata: [DONE]\n\n`);
        }, 20);
      }
    });
  });
}

describe('room forwarder: the teacher’s key never reaches a student', () => {
  let mock: MockLlm;
  let hostile: Server;
  let viaMock: TestRoom;
  let viaHostile: TestRoom;
  let unreachable: TestRoom;
  const logs: string[] = [];
  beforeAll(async () => {
    mock = await startMockLlm({ apiKey: FAKE_KEY, log: () => {} });
    hostile = hostileProvider();
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    const hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/v1`;
    const log = (line: string): void => void logs.push(line);
    viaMock = await startTestRoom({ upstream: { kind: 'http', baseUrl: mock.baseUrl, apiKey: FAKE_KEY, models: ['mock-model'] }, prices: {}, log });
    viaHostile = await startTestRoom({ upstream: { kind: 'http', baseUrl: hostileUrl, apiKey: FAKE_KEY, models: ['m'] }, prices: {}, log });
    // A port nothing listens on (the hostile server's, once closed, is not reused: take port 9, discard).
    unreachable = await startTestRoom({ upstream: { kind: 'http', baseUrl: 'http://127.0.0.1:9/v1', apiKey: FAKE_KEY, models: ['m'] }, prices: {}, log });
  });
  afterAll(async () => {
    await Promise.all([viaMock.close(), viaHostile.close(), unreachable.close()]);
    await mock.close();
    await new Promise<void>((resolve) => hostile.close(() => resolve()));
  });

  const encodings: KeyEncoding[] = ['url', 'percent_lower', 'percent_upper', 'base64', 'json_unicode'];
  it.each(encodings)('scrubs the key a provider echoes in its error (%s) and answers 502 with its status', async (encoding) => {
    mock.setOptions({ faults: [{ kind: 'echo_key', encoding, status: 401 }] });
    try {
      const token = viaMock.join(`echo-${encoding}`);
      for (const stream of [false, true]) {
        const reply = await viaMock.call('/v1/chat/completions', token, chatRequest('look', { stream }));
        expect(reply.status).toBe(502);
        const error = errorOf(reply);
        expect(error.code).toBe('upstream_401');
        expect(error.message).toMatch(/^The teacher's model provider refused the call \(HTTP 401\): .*\[key hidden\]/);
        expect(reply.text).not.toContain('fake-test-key');
      }
      expect(viaMock.participant(`echo-${encoding}`).usage.calls).toBe(0);
    } finally {
      mock.setOptions({ faults: [] });
    }
  });

  it('passes none of a hostile provider’s headers and scrubs its error, its error inside a 200 and an HTML page', async () => {
    const token = viaHostile.join('h1');
    const error = await viaHostile.call('/v1/chat/completions', token, chatRequest('error'));
    expect(error.status).toBe(502);
    expect(errorOf(error).message).toBe("The teacher's model provider refused the call (HTTP 401): Incorrect API key provided: [key hidden]. Find yours at https://example.test/keys?key=[key hidden]. Try again; if it keeps failing, tell the teacher.");
    const inside = await viaHostile.call('/v1/chat/completions', token, chatRequest('inside'));
    expect(inside.status).toBe(502);
    expect(errorOf(inside)).toMatchObject({ code: 'upstream_402', message: expect.stringContaining('Key [key hidden] has no credit left') as string });
    const html = await viaHostile.call('/v1/chat/completions', token, chatRequest('html'));
    expect(html.status).toBe(502);
    expect(errorOf(html).message).toContain('Bad gateway upstream said: [key hidden]');
  });

  it('scrubs the key from a JSON reply and from a stream split across writes and events, headers filtered', async () => {
    const token = viaHostile.join('h2');
    const json = await viaHostile.call('/v1/chat/completions', token, chatRequest('json'));
    expect(json.status).toBe(200);
    expect((JSON.parse(json.text) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('Your key is [key hidden].');
    const stream = await viaHostile.call('/v1/chat/completions', token, chatRequest('stream', { stream: true }));
    expect(stream.status).toBe(200);
    expect(stream.text).toContain('Your key is [key hidden]. ');
    expect(stream.text.endsWith('data: [DONE]\n\n')).toBe(true);
    for (const reply of [json, stream]) {
      const names = headerNames(reply);
      for (const banned of ['set-cookie', 'x-echo-authorization', 'www-authenticate', 'x-ratelimit-remaining-requests', 'authorization']) expect(names).not.toContain(banned);
    }
    expect(viaHostile.added.get('h2')).toEqual([{ calls: 1, tokens: 15, usd: null }, { calls: 1, tokens: 15, usd: null }]);
  });

  it('answers 502 when the provider cannot be reached, adding no usage', async () => {
    const token = unreachable.join('u1');
    const reply = await unreachable.call('/v1/chat/completions', token, chatRequest('look'));
    expect(reply.status).toBe(502);
    expect(errorOf(reply)).toMatchObject({ type: 'upstream_error', code: 'upstream_unreachable' });
    expect(errorOf(reply).message).toMatch(/^The room could not get an answer from the teacher's model provider/);
    expect(unreachable.participant('u1').usage.calls).toBe(0);
  });

  it('never sent the key in any byte a student received, nor in a log line', () => {
    const all = [...viaMock.received, ...viaHostile.received, ...unreachable.received];
    expect(all.length).toBeGreaterThanOrEqual(15);
    for (const reply of all) {
      const bytes = `${reply.status}\n${reply.rawHeaders.join('\n')}\n\n${reply.text}`;
      expect(bytes).not.toContain(FAKE_KEY);
      expect(bytes).not.toContain(Buffer.from(FAKE_KEY).toString('base64').slice(0, 20));
      expect(scrubText(bytes)).toBe(bytes);
    }
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) expect(scrubText(line)).toBe(line);
  });
});
