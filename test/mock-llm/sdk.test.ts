/**
 * The mock LLM through the real `openai` SDK (v6): a completion and a streamed completion parse,
 * the SDK retries a 429 with Retry-After 0 (x-stainless-retry-count drives the fault decision),
 * and a stream_error surfaces as an APIError.
 */
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockLlm } from './interface.ts';
import { startMockLlm } from './server.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ log: () => {}, script: ['open mailbox'] });
});
afterAll(() => mock.close());

const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are an expert player of text adventure games.\n\nFollow this guide:\nExplore.' },
  { role: 'user', content: 'Step 1 of 50. Score: 0.\n[OBSERVATION]\nWest of House.\n\nReply in exactly two lines:\nREASONING: <one or two sentences>\nACTION: <a short parser command>' },
];

describe('the openai SDK against the mock', () => {
  it('parses a completion and a streamed completion with usage', async () => {
    const client = new OpenAI({ baseURL: mock.baseUrl, apiKey: 'test-key', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'actor-model', messages, temperature: 0.5 });
    const content = completion.choices[0]!.message.content!;
    expect(content).toBe('REASONING: Following the script. (step 1)\nACTION: open mailbox');
    expect(completion.usage?.completion_tokens).toBe(Math.ceil(content.length / 4));

    const stream = await client.chat.completions.create({ model: 'actor-model', messages, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(content);
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBe(Math.ceil(content.length / 4));
    const logged = mock.requests.filter((r) => r.role === 'actor');
    expect(logged.map((r) => r.headers.authorization)).toEqual(['Bearer test-key', 'Bearer test-key']);
  });

  it('retries a 429 with Retry-After 0 and succeeds', async () => {
    mock.setOptions({ faults: [{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 0, attempts: 1 }] });
    try {
      const client = new OpenAI({ baseURL: mock.baseUrl, apiKey: 'test-key', maxRetries: 2 });
      const before = mock.requests.length;
      const completion = await client.chat.completions.create({ model: 'retry-model', messages });
      expect(completion.choices[0]!.message.content).toContain('ACTION: open mailbox');
      const tries = mock.requests.slice(before);
      expect(tries.map((r) => [r.headers['x-stainless-retry-count'], r.outcome.status, r.outcome.fault])).toEqual([['0', 429, 'rate_limit'], ['1', 200, null]]);
    } finally {
      mock.setOptions({ faults: [] });
    }
  });

  it('surfaces a stream_error event as an APIError', async () => {
    mock.setOptions({ faults: [{ kind: 'stream_error' }] });
    try {
      const client = new OpenAI({ baseURL: mock.baseUrl, apiKey: 'test-key', maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: 'actor-model', messages, stream: true });
      const consume = async () => {
        for await (const _chunk of stream) { /* drain */ }
      };
      await expect(consume()).rejects.toBeInstanceOf(APIError);
    } finally {
      mock.setOptions({ faults: [] });
    }
  });
});
