/**
 * A hung request through the OpenAI-compatible chat model: once replies of its model have been timed,
 * an attempt with no response for far longer than they took gets a copy sent beside it, which
 * answers the call long before the request timeout, while other calls go on meanwhile; the hung
 * request is then abandoned. A reply that has begun (a stream whose first chunk came) is never
 * copied, however slow its rest. Asserted by the server's order of events, not by durations.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { RateSchedulers } from '../src/llm/rate-scheduler.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';

const reply = (content: string) => JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } });
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

let server: Server | null = null;
const events: string[] = [];

/** A server that hands each chat request (its last user message and how often it came) to `handle`. */
async function serve(handle: (said: string, nth: number, req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  events.length = 0;
  const seen = new Map<string, number>();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { content: string }[] };
      const said = body.messages.at(-1)!.content;
      const nth = (seen.get(said) ?? 0) + 1;
      seen.set(said, nth);
      events.push(`${said}#${nth} arrived`);
      handle(said, nth, req, res);
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

/** A run's chat models with the default 60 s request timeout and the given hedge floor. */
function models(baseUrl: string, hedgeFloorMs: number) {
  const settings = { ...defaultLlmSettings(), provider: { presetId: 'custom', baseUrl, apiKey: 'fake-test-key-hedge' } };
  settings.roles.actor = { ...settings.roles.actor, model: 'm' };
  expect(settings.requestTimeoutMs).toBe(60_000);
  return createChatModels(settings, new UsageMeter(settings.caps, {}), { rateSchedulers: new RateSchedulers(), hedgeFloorMs });
}
const say = (content: string) => [{ role: 'user' as const, content }];

describe('a hung request', () => {
  it('is answered by a copy sent beside it while other calls go on, and then abandoned', async () => {
    const baseUrl = await serve((said, nth, req, res) => {
      if (said === 'hang' && nth === 1) {
        req.socket.on('close', () => events.push('hang#1 abandoned by the client'));
        return; // never answered: only the client's giving up ends it
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(reply(`reply to ${said}#${nth}`));
    });
    const { actor } = models(baseUrl, 1000);
    expect((await actor.complete(say('warm'))).content).toBe('reply to warm#1'); // the role's replies are timed
    const hedges: number[] = [];
    const hung = actor.complete(say('hang'), { onHedge: (waited) => hedges.push(waited) }).then((c) => {
      events.push('hang answered');
      return c;
    });
    while (!events.includes('hang#1 arrived')) await new Promise((r) => setTimeout(r, 2));
    const other = await actor.complete(say('other'));
    events.push('other answered');
    expect(other.content).toBe('reply to other#1');
    expect((await hung).content).toBe('reply to hang#2');
    while (!events.includes('hang#1 abandoned by the client')) await new Promise((r) => setTimeout(r, 2));
    expect(events).toEqual([
      'warm#1 arrived', 'hang#1 arrived', 'other#1 arrived', 'other answered',
      'hang#2 arrived', 'hang answered', 'hang#1 abandoned by the client',
    ]);
    expect(hedges).toEqual([1000]);
  }, 20_000);

  it('is abandoned when its copy fails, and the call is retried as after any fault', async () => {
    const baseUrl = await serve((said, nth, req, res) => {
      if (said === 'hang' && nth === 1) return void req.socket.on('close', () => events.push('hang#1 abandoned by the client'));
      if (said === 'hang' && nth === 2) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"Internal error","type":"server_error"}}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(reply(`reply to ${said}#${nth}`));
    });
    const { actor } = models(baseUrl, 200);
    await actor.complete(say('warm'));
    const waits: string[] = [];
    const done = await actor.complete(say('hang'), { onHedge: () => waits.push('hedge'), onRetryWait: () => waits.push('retry wait') });
    expect(done.content).toBe('reply to hang#3');
    while (!events.includes('hang#1 abandoned by the client')) await new Promise((r) => setTimeout(r, 2));
    expect(events.slice(0, 3)).toEqual(['warm#1 arrived', 'hang#1 arrived', 'hang#2 arrived']);
    expect(events.slice(3).sort()).toEqual(['hang#1 abandoned by the client', 'hang#3 arrived']);
    expect(waits).toEqual(['hedge', 'retry wait']);
  }, 20_000);

  it('is not copied while no reply of its model has been timed (the request timeout rules then)', async () => {
    const baseUrl = await serve((said, nth, _req, res) => {
      if (nth === 1) return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(reply('slow first reply')), 300);
      res.writeHead(200, { 'content-type': 'application/json' }).end(reply(`${said}#${nth}`));
    });
    const hedges: number[] = [];
    expect((await models(baseUrl, 10).actor.complete(say('first'), { onHedge: (w) => hedges.push(w) })).content).toBe('slow first reply');
    expect([events, hedges]).toEqual([['first#1 arrived'], []]);
  });

  it('a stream that has begun is never copied, however long its rest takes', async () => {
    const baseUrl = await serve((said, nth, _req, res) => {
      if (said === 'warm') return void res.writeHead(200, { 'content-type': 'application/json' }).end(reply('warm'));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: 'hello ' }));
      // The rest comes many hedge floors later.
      setTimeout(() => res.end(chunk({ content: 'world' }) + chunk({}, 'stop') + 'data: [DONE]\n\n'), 400);
    });
    const { actor } = models(baseUrl, 20);
    await actor.complete(say('warm'));
    const hedges: number[] = [];
    expect((await actor.complete(say('stream'), { stream: true, onHedge: (w) => hedges.push(w) })).content).toBe('hello world');
    expect([events, hedges]).toEqual([['warm#1 arrived', 'stream#1 arrived'], []]);
  });
});
