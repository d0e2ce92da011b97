/**
 * Provider faults through the real SDK against the mock, mapped once into the typed set: auth,
 * rate_limit (after our retries), timeout, network_or_cors (with actionable advice), server
 * (5xx, an error inside a 200 stream), bad_response (malformed JSON), aborted; an unsupported
 * parameter is adapted, not retried blindly; the key never appears in a message. Real providers'
 * faults have their own file: llm-provider-faults.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmError } from '../src/llm/errors.ts';
import { rateLimitRetries } from '../src/llm/retry-policy.ts';
import type { LlmSettings } from '../src/llm/interface.ts';
import { createChatModels, listModels } from '../src/llm/openai-chat-model.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { mockLlmSettings } from './support/mock-settings.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import type { FaultRule } from './mock-llm/interface.ts';

const KEY = 'fault-test-key-0123456789';
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({});
});
afterAll(() => mock.close());

const settings = (overrides: Partial<LlmSettings> = {}): LlmSettings => mockLlmSettings(mock.baseUrl, KEY, {}, overrides);

const messages = [{ role: 'user' as const, content: 'Say something.' }];

async function failure(faults: FaultRule[], s = settings(), stream = false): Promise<LlmError> {
  mock.setOptions({ faults });
  const { actor } = createChatModels(s, new UsageMeter(s.caps, s.prices));
  const error = await actor.complete([...messages, { role: 'user', content: JSON.stringify(faults) }], { stream }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LlmError);
  expect((error as Error).message).not.toContain(KEY);
  return error as LlmError;
}

describe('provider faults', () => {
  it('401 → auth', async () => {
    expect((await failure([{ kind: 'auth' }])).kind).toBe('auth');
  });
  it('429 on every attempt → rate_limit after the rate-limit retries (their own budget, at least 6)', async () => {
    const before = mock.requests.length;
    const error = await failure([{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 0 }]);
    expect(error.kind).toBe('rate_limit');
    expect(error.message).toContain('(7 attempts)');
    expect(mock.requests.length - before).toBe(1 + rateLimitRetries(1));
    expect(rateLimitRetries(1)).toBe(6);
    const once = mock.requests.length;
    expect((await failure([{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 0 }], settings({ maxRetries: 0 }))).kind).toBe('rate_limit');
    expect(mock.requests.length - once).toBe(1);
  });
  it('500 → server; malformed JSON → bad_response; an error event in a 200 stream → server', async () => {
    expect((await failure([{ kind: 'server_error', rate: 1 }])).kind).toBe('server');
    expect((await failure([{ kind: 'malformed_json' }])).kind).toBe('bad_response');
    expect((await failure([{ kind: 'stream_error' }], settings(), true)).kind).toBe('server');
  });
  it('no answer within the timeout → timeout', async () => {
    expect((await failure([{ kind: 'hang' }], settings({ requestTimeoutMs: 300, maxRetries: 0 }))).kind).toBe('timeout');
  });
  it('an unreachable server → network_or_cors with advice: CORS hints from a page, plain ones in Node', async () => {
    const s = settings({ maxRetries: 0 });
    s.provider.baseUrl = 'http://127.0.0.1:9/v1';
    const error = await failure([], s);
    expect(error.kind).toBe('network_or_cors');
    expect(error.message).toBe('Could not reach http://127.0.0.1:9/v1: is the server running, and is the URL right (it usually ends in /v1)? For a local server check its port; for a remote one, the network.');
    const fromPage = await listModels(s, { origin: 'http://localhost:5173' }).catch((e: unknown) => e);
    expect(fromPage).toMatchObject({ kind: 'network_or_cors' });
    expect((fromPage as Error).message).toContain('OLLAMA_ORIGINS=http://localhost:5173');
  });
  it('an unsupported temperature is dropped once and the call succeeds', async () => {
    mock.setOptions({ faults: [{ kind: 'bad_param', param: 'temperature' }] });
    const s = settings();
    const before = mock.requests.length;
    const { actor } = createChatModels(s, new UsageMeter(s.caps, s.prices));
    const completion = await actor.complete([...messages, { role: 'user', content: 'bad param' }]);
    expect(completion.content.length).toBeGreaterThan(0);
    const sent = mock.requests.slice(before);
    expect(sent.map((r) => r.outcome.status)).toEqual([400, 200]);
    expect('temperature' in (sent[1]!.body as object)).toBe(false);
  });
  it('a streamed reply equals the plain one, with usage', async () => {
    mock.setOptions({ faults: [] });
    const s = settings();
    const { actor } = createChatModels(s, new UsageMeter(s.caps, s.prices));
    const plain = await actor.complete(messages);
    const streamed = await actor.complete(messages, { stream: true });
    expect(streamed.content).toBe(plain.content);
    expect(streamed.usage.promptTokens).toBe(plain.usage.promptTokens);
    expect(streamed.usage.completionTokens).toBe(plain.usage.completionTokens);
  });
  it('a call aborted before it is sent → aborted', async () => {
    const s = settings();
    const { actor } = createChatModels(s, new UsageMeter(s.caps, s.prices));
    const controller = new AbortController();
    controller.abort();
    await expect(actor.complete(messages, { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
  });
});
