/**
 * The room's forwarder answers a student's OpenAI-compatible calls from the teacher's provider
 * (the deterministic mock LLM as upstream, with the teacher's fake key): the room's models, a JSON
 * reply and a stream passed through, the model pinned to the room's and the completion bounded by
 * what the caps leave, the usage added per participant (the provider's, or an estimate said to be
 * one) with USD from the price table (null for an unpriced model), and a model loaded in the
 * room's own process answered in OpenAI's shapes.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { chatRequest, FAKE_KEY, sseData, startTestRoom, type TestRoom } from './room-forwarder-harness.ts';
import { forwarderConfigOf, localForwarderConfigOf } from '../src/room-server/forwarder.ts';
import { LOCAL_MAX_REPLY_TOKENS } from '../src/room-server/forwarder-local.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import type { LocalModelHost } from '../src/llm/local-chat-model.ts';

const PRICE = { inputPerMTokUsd: 1, outputPerMTokUsd: 4 };

describe('room forwarder: replies and usage', () => {
  let mock: MockLlm;
  let room: TestRoom;
  beforeAll(async () => {
    mock = await startMockLlm({ apiKey: FAKE_KEY, models: ['mock-model', 'mock-big', 'mock-unpriced'], log: () => {} });
    room = await startTestRoom({ upstream: { kind: 'http', baseUrl: mock.baseUrl, apiKey: FAKE_KEY, models: ['mock-model', 'mock-unpriced'] }, prices: { 'mock-model': PRICE } });
  });
  afterAll(async () => {
    await room.close();
    await mock.close();
  });

  it('lists the room models, not the provider’s, and refuses a call without a participant token (401)', async () => {
    const token = room.join('models');
    const reply = await room.call('/v1/models', token);
    expect(reply.status).toBe(200);
    expect((JSON.parse(reply.text) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(['mock-model', 'mock-unpriced']);
    expect((await room.call('/v1/models', null)).status).toBe(401);
    expect((await room.call('/v1/chat/completions', 'not-a-token', chatRequest('look'))).status).toBe(401);
    expect((await room.call('/v1/embeddings', token, { input: 'x' })).status).toBe(404);
  });

  it('forwards a JSON call with the teacher’s key, pins the model and adds the provider’s usage priced in USD', async () => {
    const token = room.join('ada');
    const before = mock.requests.length;
    const reply = await room.call('/v1/chat/completions', token, chatRequest('look around', { model: 'mock-big', n: 3, max_tokens: 50 }));
    expect(reply.status).toBe(200);
    const body = JSON.parse(reply.text) as { choices: { message: { content: string } }[]; usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } };
    expect(body.choices[0]!.message.content.length).toBeGreaterThan(0);
    const sent = mock.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!;
    const sentBody = sent.body as Record<string, unknown>;
    expect(sentBody.model).toBe('mock-model');
    expect(sentBody.n).toBeUndefined();
    expect(sentBody.max_tokens).toBe(50);
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    const usage = room.added.get('ada')!;
    const usd = (body.usage.prompt_tokens * PRICE.inputPerMTokUsd + body.usage.completion_tokens * PRICE.outputPerMTokUsd) / 1e6;
    expect(usage).toHaveLength(1);
    expect(usage[0]!.calls).toBe(1);
    expect(usage[0]!.tokens).toBe(body.usage.total_tokens);
    expect(usage[0]!.usd).toBeCloseTo(usd, 12);
    expect(usage[0]!.estimatedCalls).toBeUndefined();
    expect(room.participant('ada').usage.calls).toBe(1);
  });

  it('bounds both completion fields by the tokens left and drops stream options from a JSON call', async () => {
    const token = room.join('eve', { maxTokens: 100 });
    const before = mock.requests.length;
    const reply = await room.call('/v1/chat/completions', token, chatRequest('look', { max_completion_tokens: 500, max_tokens: 400, stream_options: { include_usage: true } }));
    expect(reply.status).toBe(200);
    const sent = mock.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!.body as Record<string, unknown>;
    const prompt = Math.ceil('You play a text adventure.'.length / 4) + 4 + Math.ceil('look'.length / 4) + 4;
    expect([sent.max_completion_tokens, sent.max_tokens]).toEqual([100 - prompt, 100 - prompt]);
    expect(sent.stream_options).toBeUndefined();
  });

  it('passes a stream through as SSE, asks the provider for its usage chunk and counts it', async () => {
    const token = room.join('bo');
    const before = mock.requests.length;
    const reply = await room.call('/v1/chat/completions', token, chatRequest('open mailbox', { stream: true }));
    expect(reply.status).toBe(200);
    expect(reply.rawHeaders.join('\n')).toMatch(/text\/event-stream/);
    const data = sseData(reply.text);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as { choices: { delta?: { content?: string } }[]; usage?: { total_tokens: number } | null });
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text.length).toBeGreaterThan(0);
    const usageChunk = chunks.find((c) => c.usage)!;
    const sent = mock.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!;
    expect((sent.body as { stream_options: unknown }).stream_options).toEqual({ include_usage: true });
    expect(room.added.get('bo')).toEqual([{ calls: 1, tokens: usageChunk.usage!.total_tokens, usd: expect.any(Number) as number }]);
  });

  it('estimates the usage when the provider sends none, and says so', async () => {
    mock.setOptions({ faults: [{ kind: 'no_usage' }] });
    try {
      const token = room.join('cy');
      const json = await room.call('/v1/chat/completions', token, chatRequest('go north'));
      const stream = await room.call('/v1/chat/completions', token, chatRequest('go south', { stream: true }));
      expect([json.status, stream.status]).toEqual([200, 200]);
      const content = (JSON.parse(json.text) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
      const [first, second] = room.added.get('cy')!;
      expect(first!.estimatedCalls).toBe(1);
      expect(second!.estimatedCalls).toBe(1);
      // Prompt: ⌈chars/4⌉ + 4 per message; reply: ⌈chars/4⌉.
      const prompt = Math.ceil('You play a text adventure.'.length / 4) + 4 + Math.ceil('go north'.length / 4) + 4;
      expect(first!.tokens).toBe(prompt + Math.ceil(content.length / 4));
      expect(second!.tokens).toBeGreaterThan(prompt);
    } finally {
      mock.setOptions({ faults: [] });
    }
  });

  it('sends again without a parameter it set that the provider refuses (stream_options, max_tokens)', async () => {
    mock.setOptions({ faults: [{ kind: 'bad_param', param: 'stream_options' }, { kind: 'bad_param', param: 'max_tokens' }] });
    try {
      const token = room.join('fay', { maxTokens: 1000 });
      const before = mock.requests.length;
      const reply = await room.call('/v1/chat/completions', token, chatRequest('look', { stream: true }));
      expect(reply.status).toBe(200);
      expect(sseData(reply.text).at(-1)).toBe('[DONE]');
      const sent = mock.requests.slice(before).filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as Record<string, unknown>);
      expect(sent.map((b) => [b.stream_options !== undefined, b.max_tokens !== undefined, b.max_completion_tokens !== undefined])).toEqual([[true, true, false], [false, true, false], [false, false, true]]);
      // No usage chunk without stream_options: the call is counted as an estimate.
      expect(room.added.get('fay')![0]!.estimatedCalls).toBe(1);
    } finally {
      mock.setOptions({ faults: [] });
    }
  });

  it('stops the provider’s call when the student leaves mid-stream, counts what was streamed and frees the reservation', async () => {
    mock.setOptions({ faults: [{ kind: 'stall', after: 'partial' }] });
    const token = room.join('gil', { maxCalls: 2 });
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request(`${room.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', () => {});
        req.end(JSON.stringify(chatRequest('look', { stream: true })));
        setTimeout(() => reject(new Error('no streamed bytes')), 3000);
      });
      await expect.poll(() => room.added.get('gil')?.length ?? 0).toBe(1);
      expect(room.added.get('gil')![0]).toMatchObject({ calls: 1, estimatedCalls: 1 });
    } finally {
      mock.setOptions({ faults: [] });
    }
    // The reservation is freed: one call is left of two.
    expect((await room.call('/v1/chat/completions', token, chatRequest('look'))).status).toBe(200);
    expect((await room.call('/v1/chat/completions', token, chatRequest('look'))).status).toBe(429);
  });

  it('counts an unpriced model’s cost as null, never 0', async () => {
    const token = room.join('di');
    const reply = await room.call('/v1/chat/completions', token, chatRequest('inventory', { model: 'mock-unpriced' }));
    expect(reply.status).toBe(200);
    expect(room.added.get('di')![0]!.usd).toBeNull();
    expect(room.participant('di').usage.usd).toBeNull();
  });
});

describe('room forwarder: configuration from the CLI’s settings', () => {
  it('takes the provider, the roles’ models and the prices that hold at that provider', () => {
    const settings = defaultLlmSettings();
    settings.provider = { presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', apiKey: FAKE_KEY };
    settings.roles.metaAgent.model = 'big-model';
    settings.prices = { ...settings.prices, 'big-model': { inputPerMTokUsd: 3, outputPerMTokUsd: 9 } };
    const config = forwarderConfigOf(settings);
    expect(config.upstream).toEqual({ kind: 'http', baseUrl: 'http://127.0.0.1:9/v1', apiKey: FAKE_KEY, models: ['gpt-4o-mini', 'big-model'] });
    // OpenAI's built-in prices do not hold at another provider: gpt-4o-mini there has no price.
    expect(Object.keys(config.prices)).toEqual(['big-model']);
  });
});

/** A loaded model as llm/local-chat-model.ts sees one (a 30-token prompt, 4 characters a token) whose replies `generate` makes. */
function fakeHost(generate: (history: unknown, options: { maxTokens: unknown; temperature: unknown; signal: AbortSignal }) => Promise<unknown>): LocalModelHost {
  return {
    modelFile: 'tiny.gguf', contextSize: 2048, loadMs: 1,
    countTokens: (text: string) => Math.ceil(text.length / 4),
    grammar: () => Promise.resolve(null),
    dispose: () => Promise.resolve(),
    chat: {
      chatWrapper: { generateContextState: () => ({ contextText: { tokenize: () => new Array<unknown>(30) } }) },
      generateResponse: generate,
      dispose: () => {},
    },
  } as unknown as LocalModelHost;
}

describe('room forwarder: a model in the room’s process', () => {
  let room: TestRoom;
  const calls: { maxTokens: unknown; temperature: unknown; history: unknown }[] = [];
  beforeAll(async () => {
    // It answers "You see a mailbox.".
    const host = fakeHost((history, options) => {
      calls.push({ maxTokens: options.maxTokens, temperature: options.temperature, history });
      return Promise.resolve({ response: 'You see a mailbox.', metadata: { stopReason: 'eogToken' } });
    });
    const settings = defaultLlmSettings();
    settings.roles.actor.model = 'tiny';
    room = await startTestRoom({ ...localForwarderConfigOf(host, settings) });
  });
  afterAll(() => room.close());

  it('answers in OpenAI’s JSON and stream shapes with the model’s own token counts, at no cost', async () => {
    const token = room.join('local', { maxTokens: 1000 });
    const json = await room.call('/v1/chat/completions', token, chatRequest('look', { max_tokens: 64, temperature: 0.3 }));
    expect(json.status).toBe(200);
    const body = JSON.parse(json.text) as Record<string, unknown>;
    expect(body).toMatchObject({ object: 'chat.completion', model: 'tiny', choices: [{ index: 0, message: { role: 'assistant', content: 'You see a mailbox.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 30, completion_tokens: 5, total_tokens: 35 } });
    expect(calls[0]).toMatchObject({ maxTokens: 64, temperature: 0.3 });
    const stream = await room.call('/v1/chat/completions', token, chatRequest('look', { stream: true }));
    const data = sseData(stream.text);
    expect(data.at(-1)).toBe('[DONE]');
    expect(data.slice(0, -1).map((d) => (JSON.parse(d) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '').join('')).toBe('You see a mailbox.');
    // No limit asked: the token cap bounds it (1000 − 35 used − the prompt's estimate).
    expect(calls[1]!.maxTokens).toBe(1000 - 35 - (Math.ceil('You play a text adventure.'.length / 4) + 4 + Math.ceil('look'.length / 4) + 4));
    expect(room.added.get('local')).toEqual([{ calls: 1, tokens: 35, usd: 0 }, { calls: 1, tokens: 35, usd: 0 }]);
  });
});

describe('room forwarder: the room’s one local model is shared fairly', () => {
  let room: TestRoom;
  const asked: unknown[] = [];
  let stopped = 0;
  beforeAll(async () => {
    // It never finishes by itself: it generates until its call's signal ends it.
    const host = fakeHost((_history, options) => {
      asked.push(options.maxTokens);
      return new Promise((_resolve, reject) => options.signal.addEventListener('abort', () => {
        stopped++;
        reject(new Error('aborted'));
      }));
    });
    const settings = defaultLlmSettings();
    settings.roles.actor.model = 'tiny';
    settings.requestTimeoutMs = 300; // below LOCAL_CALL_MAX_MS: this one rules
    room = await startTestRoom({ ...localForwarderConfigOf(host, settings) });
  });
  afterAll(() => room.close());

  it('bounds a reply asked of it, ends a call that holds it too long with plain words, and counts that call against the caps', async () => {
    const token = room.join('hog', { maxCalls: 2 });
    const first = await room.call('/v1/chat/completions', token, chatRequest('write forever', { max_tokens: 100_000 }));
    expect(asked).toEqual([LOCAL_MAX_REPLY_TOKENS]);
    expect(stopped).toBe(1);
    expect(first.status).toBe(502);
    expect(JSON.parse(first.text)).toMatchObject({ error: { code: 'local_model_timeout', message: "The room's model gave no answer: it did not finish within 300 ms, the longest one call may hold the room's model. Ask for a shorter reply (max_tokens) or try again; if it keeps failing, tell the teacher." } });
    // It held the one model: one call, its prompt (estimated), no cost.
    const prompt = Math.ceil('You play a text adventure.'.length / 4) + 4 + Math.ceil('write forever'.length / 4) + 4;
    expect(room.added.get('hog')).toEqual([{ calls: 1, tokens: prompt, usd: 0, estimatedCalls: 1 }]);
    expect((await room.call('/v1/chat/completions', token, chatRequest('again'))).status).toBe(502);
    const third = await room.call('/v1/chat/completions', token, chatRequest('and again'));
    expect(third.status).toBe(429);
    expect(JSON.parse(third.text)).toMatchObject({ error: { code: 'call_cap_reached' } });
    expect(stopped).toBe(2);
  });
});
