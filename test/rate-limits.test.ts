/**
 * The OpenAI-compatible chat model goes through the rate scheduler of its (base URL, model): the
 * provider's x-ratelimit-* headers and a 429's retry-after-ms reach it, and they hold back the
 * next call of any run sharing that scheduler (src/llm/rate-scheduler.ts has the rule's unit tests).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { RateSchedulers } from '../src/llm/rate-scheduler.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';

const REPLY = JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } });
let server: Server | null = null;
let requests = 0;

async function serve(answer: (n: number) => { status: number; headers: Record<string, string> }): Promise<string> {
  requests = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const a = answer(++requests);
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(a.status === 200 ? REPLY : '{"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}');
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

function run(baseUrl: string, schedulers: RateSchedulers, maxRetries = 2) {
  const settings = { ...defaultLlmSettings(), provider: { presetId: 'custom', baseUrl, apiKey: 'k' }, maxRetries };
  settings.roles.actor = { ...settings.roles.actor, model: 'm' };
  settings.roles.metaAgent = { ...settings.roles.metaAgent, model: 'm' };
  return createChatModels(settings, new UsageMeter(settings.caps, {}), { rateSchedulers: schedulers });
}
/** Wait (polling the state, no fixed sleep) until `ready`. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 5));
}
const hi = [{ role: 'user' as const, content: 'hi' }];

describe('rate limits through the chat model', () => {
  it("a spent x-ratelimit-remaining-requests holds every role's next call, of any run, until its reset", async () => {
    const baseUrl = await serve(() => ({ status: 200, headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1m0s' } }));
    const schedulers = new RateSchedulers();
    expect((await run(baseUrl, schedulers).actor.complete(hi)).content).toBe('hello');
    const scheduler = schedulers.for(baseUrl, 'm');
    expect(scheduler.state().remainingRequests).toBe(0);
    const stop = new AbortController();
    const held = run(baseUrl, schedulers).metaAgent.complete(hi, { signal: stop.signal });
    await until(() => scheduler.state().waiting === 1);
    expect(requests).toBe(1);
    stop.abort();
    await expect(held).rejects.toMatchObject({ kind: 'aborted' });
  });

  it("a 429's retry-after-ms pauses the whole (base URL, model): no other call is sent meanwhile", async () => {
    const baseUrl = await serve((n): { status: number; headers: Record<string, string> } => (n === 1 ? { status: 429, headers: { 'retry-after-ms': '60000' } } : { status: 200, headers: {} }));
    const schedulers = new RateSchedulers();
    await expect(run(baseUrl, schedulers, 0).actor.complete(hi)).rejects.toMatchObject({ kind: 'rate_limit' });
    const scheduler = schedulers.for(baseUrl, 'm');
    expect([scheduler.state().rateLimited, scheduler.state().window]).toEqual([1, 1]);
    const stop = new AbortController();
    const others = [run(baseUrl, schedulers).actor.complete(hi, { signal: stop.signal }), run(baseUrl, schedulers).actor.complete(hi, { signal: stop.signal })];
    await until(() => scheduler.state().waiting === 2);
    expect(requests).toBe(1);
    stop.abort();
    for (const call of others) await expect(call).rejects.toMatchObject({ kind: 'aborted' });
  });
});
