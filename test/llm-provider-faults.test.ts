/**
 * Real providers' faults (and the provider items of "nothing lost, nothing invented")
 * through the real SDK against the mock: stalls after the headers and mid-stream end as
 * `timeout`; rejected parameters are adapted until none is left and remembered per (base URL,
 * model); quota is its own kind and never retried; every form of an error inside a stream is an
 * error; one retry policy (ours) honours Retry-After as seconds or an HTTP date; replies without
 * usable content and unparsable bodies are retried faults, never answers; missing usage is
 * counted locally, marked as estimated, and the caps hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdaptationMemory } from '../src/llm/adaptations.ts';
import { BudgetReachedError, LlmError } from '../src/llm/errors.ts';
import type { ChatMessage, CompleteOptions, LlmSettings } from '../src/llm/interface.ts';
import { createChatModels, retryAfterMs } from '../src/llm/openai-chat-model.ts';
import { countChatTokens, loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import type { EmptyShape, FaultRule, StreamErrorForm } from './mock-llm/interface.ts';
import { mockLlmSettings } from './support/mock-settings.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({});
});
afterAll(() => mock.close());

const settings = (overrides: Partial<LlmSettings> = {}): LlmSettings => mockLlmSettings(mock.baseUrl, 'provider-fault-key-0123', { temperature: 0.5, maxTokens: 256 }, overrides);

let unique = 0;
/** A fresh prompt per call, so the mock's per-body attempt counts start at 0. */
const prompt = (label: string): ChatMessage[] => [{ role: 'user', content: `${label} #${unique++}` }];

interface Call {
  result: unknown;
  requests: typeof mock.requests;
  waits: number[];
  memory: AdaptationMemory;
  meter: UsageMeter;
}

async function call(faults: FaultRule[], s = settings(), options: CompleteOptions = {}, memory = new AdaptationMemory(), label = 'call'): Promise<Call> {
  mock.setOptions({ faults });
  const meter = new UsageMeter(s.caps, s.prices);
  const { actor } = createChatModels(s, meter, { adaptations: memory });
  const before = mock.requests.length;
  const waits: number[] = [];
  const onRetryWait = (ms: number): void => {
    waits.push(ms);
    options.onRetryWait?.(ms);
  };
  const result = await actor.complete(prompt(label), { ...options, onRetryWait }).catch((e: unknown) => e);
  return { result, requests: mock.requests.slice(before), waits, memory, meter };
}

const kindOf = (result: unknown) => (result instanceof LlmError ? result.kind : `resolved: ${JSON.stringify(result)}`);

describe('a stalled response ends as timeout, retried per maxRetries', () => {
  it.each([
    ['after the headers', false, 'headers'],
    ['after part of the JSON body', false, 'partial'],
    ['mid-stream', true, 'partial'],
  ] as const)('stall %s → timeout with maxRetries 0 (one request)', async (_name, stream, after) => {
    // The timeout leaves the request time to reach the mock and its headers to come back on a
    // loaded machine (at 300 ms a busy CI machine once timed out before the mock read the body).
    const { result, requests } = await call([{ kind: 'stall', after }], settings({ requestTimeoutMs: 1000, maxRetries: 0 }), { stream });
    expect(kindOf(result)).toBe('timeout');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.outcome.status).toBe(200);
    await expect.poll(() => requests[0]!.closedBeforeAnswer).toBe(true);
  });

  it('a stream silent between chunks fails on the idle limit, well inside a long request timeout', async () => {
    const { result } = await call([{ kind: 'stall' }], settings({ requestTimeoutMs: 60_000, streamIdleTimeoutMs: 150, maxRetries: 0 }), { stream: true });
    expect(kindOf(result)).toBe('timeout');
    expect((result as Error).message).toBe('The provider’s stream fell silent for 150 ms mid-reply.');
  });

  it('a stall on the first attempt is retried and the retry answers', async () => {
    const { result, requests } = await call([{ kind: 'stall', attempts: 1 }], settings({ requestTimeoutMs: 300, maxRetries: 1 }));
    expect((result as { content: string }).content).toMatch(/^Mock reply/);
    expect(requests.map((r) => [r.attempt, r.outcome.fault])).toEqual([[0, 'stall'], [1, null]]);
  });
});

describe('rejected parameters are adapted until none is left, and remembered', () => {
  const reasoningModel: FaultRule[] = [{ kind: 'bad_param', param: 'temperature', style: 'value' }, { kind: 'bad_param', param: 'max_tokens' }];

  it('a reasoning model rejecting temperature and max_tokens works with the defaults; later calls are right the first time', async () => {
    const memory = new AdaptationMemory();
    const adapted: string[] = [];
    const first = await call(reasoningModel, settings(), { onAdaptation: (a) => adapted.push(`${a.parameter}:${a.change}:${a.to}`) }, memory);
    expect((first.result as { content: string }).content).toMatch(/^Mock reply/);
    expect(first.requests.map((r) => r.outcome.status)).toEqual([400, 400, 200]);
    const sent = first.requests[2]!.body as Record<string, unknown>;
    expect(['temperature' in sent, 'max_tokens' in sent, sent.max_completion_tokens]).toEqual([false, false, 256]);
    expect(adapted).toEqual(['temperature:dropped:null', 'max_tokens:renamed:max_completion_tokens']);
    expect(memory.list().map((a) => [a.baseUrl, a.model, a.parameter])).toEqual([[mock.baseUrl, 'mock-model', 'temperature'], [mock.baseUrl, 'mock-model', 'max_tokens']]);
    for (let i = 0; i < 2; i++) {
      const later = await call(reasoningModel, settings(), {}, memory);
      expect(later.requests.map((r) => r.outcome.status)).toEqual([200]);
    }
  });

  it('a server rejecting temperature costs 4 requests for 3 steps, not 6', async () => {
    const memory = new AdaptationMemory();
    let requests = 0;
    for (let step = 0; step < 3; step++) requests += (await call([{ kind: 'bad_param', param: 'temperature' }], settings(), {}, memory)).requests.length;
    expect(requests).toBe(4);
  });

  it('a server rejecting stream_options streams without it; the usage is then counted locally and marked estimated', async () => {
    const messages = prompt('no stream options');
    mock.setOptions({ faults: [{ kind: 'bad_param', param: 'stream_options' }] });
    const s = settings();
    const meter = new UsageMeter(s.caps, s.prices);
    const { actor } = createChatModels(s, meter, { adaptations: new AdaptationMemory() });
    const completion = await actor.complete(messages, { stream: true });
    const count = await loadTokenCounter();
    expect(completion.usage).toMatchObject({ estimated: true, promptTokens: countChatTokens(messages, count), completionTokens: count(completion.content) });
    expect(mock.requests.at(-1)!.body).not.toHaveProperty('stream_options');
  });

  it('a model that also rejects max_completion_tokens is sent no token limit; a 400 about anything else is not adapted', async () => {
    const all: FaultRule[] = [...reasoningModel, { kind: 'bad_param', param: 'max_completion_tokens' }];
    const adapted = await call(all);
    expect(adapted.requests.map((r) => r.outcome.status)).toEqual([400, 400, 400, 200]);
    expect(Object.keys(adapted.requests[3]!.body as object).sort()).toEqual(['messages', 'model']);
    const other = await call([{ kind: 'bad_param', param: 'messages' }]);
    expect(kindOf(other.result)).toBe('bad_request');
    expect(other.requests).toHaveLength(1);
  });
});

describe('quota is not a rate limit', () => {
  it.each([429, 402] as const)('HTTP %i insufficient quota → quota, one request, no retry', async (status) => {
    const { result, requests, waits } = await call([{ kind: 'quota', status }], settings({ maxRetries: 2 }));
    expect(kindOf(result)).toBe('quota');
    expect((result as Error).message).toMatch(/^The account has no credit left \(HTTP \d+\)/);
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('an error signalled any way inside a stream is an error, never a reply', () => {
  it.each([
    ['event', 'server'], ['event_message', 'server'], ['object', 'server'], ['finish', 'server'], ['cut', 'bad_response'],
    ['fastchat', 'server'], ['done_no_finish', 'bad_response'],
  ] as [StreamErrorForm, string][])('stream_error %s → %s', async (form, kind) => {
    const { result, requests } = await call([{ kind: 'stream_error', form }], settings({ maxRetries: 0 }), { stream: true });
    expect(kindOf(result)).toBe(kind);
    expect(requests).toHaveLength(1);
  });

  it.each([[false], [true]])('a second choice (stream %s) is not read: the reply is choice 0’s alone', async (stream) => {
    const { result, requests } = await call([{ kind: 'second_choice' }], settings({ maxRetries: 0 }), { stream });
    expect((result as { content: string }).content).toBe(requests[0]!.outcome.replyText);
    expect((result as { content: string }).content).not.toContain('eat leaflet');
  });

  it('a transient stream error is retried and the retry streams the whole reply', async () => {
    const { result, requests } = await call([{ kind: 'stream_error', attempts: 1 }], settings({ maxRetries: 1 }), { stream: true });
    expect((result as { content: string }).content).toBe(requests[1]!.outcome.replyText);
  });
});

describe('one retry policy, ours, honouring Retry-After', () => {
  it('the SDK does not retry: a 500 with maxRetries 2 is exactly 3 requests, numbered 0, 1, 2', async () => {
    const { result, requests, waits } = await call([{ kind: 'server_error', rate: 1 }], settings({ maxRetries: 2, maxRetryWaitMs: 1 }));
    expect(kindOf(result)).toBe('server');
    expect(requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
    expect((result as Error).message).toMatch(/^The provider failed \(HTTP 500\)\. .* \(3 attempts\)$/);
    expect(waits).toEqual([1, 1]);
  });

  it('Retry-After in seconds is waited, and capped to the longest wait', async () => {
    const honoured = await call([{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 1, attempts: 1 }], settings({ maxRetryWaitMs: 5000 }));
    expect(honoured.waits).toEqual([1000]);
    expect(honoured.requests.map((r) => r.outcome.status)).toEqual([429, 200]);
    const capped = await call([{ kind: 'unavailable', retryAfter: '60', attempts: 1 }], settings({ maxRetryWaitMs: 30 }));
    expect(capped.waits).toEqual([30]);
    expect(capped.requests.map((r) => r.outcome.status)).toEqual([503, 200]);
  });

  it('Retry-After as an HTTP date is waited until that date', async () => {
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    const { waits, requests } = await call([{ kind: 'rate_limit', rate: 1, retryAfter: at.toUTCString(), attempts: 1 }], settings({ maxRetryWaitMs: 5000 }));
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(3000);
    expect(requests.map((r) => r.outcome.status)).toEqual([429, 200]);
    expect(retryAfterMs(new Headers({ 'retry-after': at.toUTCString() }), at.getTime() - 1500)).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after': '2.5' }))).toBe(2500);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeNull();
  });

  it('an unreachable server is not retried: the advice comes at once', async () => {
    const s = settings({ maxRetries: 2, maxRetryWaitMs: 5000 });
    s.provider.baseUrl = 'http://127.0.0.1:9/v1';
    let fetches = 0;
    const counting: typeof fetch = (input, init) => {
      fetches++;
      return fetch(input, init);
    };
    const { actor } = createChatModels(s, new UsageMeter(s.caps, s.prices), { fetch: counting, origin: 'http://localhost:5173' });
    const waits: number[] = [];
    const error = await actor.complete(prompt('cors'), { onRetryWait: (ms) => waits.push(ms) }).catch((e: unknown) => e);
    expect(kindOf(error)).toBe('network_or_cors');
    expect((error as Error).message).toContain('CORS');
    expect([fetches, waits.length]).toEqual([1, 0]);
  });

  it('Stop during a Retry-After wait ends the call at once as aborted', async () => {
    const controller = new AbortController();
    // A model of its own: the 30 s pause the 429 sets holds every call to this (base URL, model),
    // and would hold the next test's calls to mock-model.
    const paused = mockLlmSettings(mock.baseUrl, 'provider-fault-key-0123', { model: 'paused-model', temperature: 0.5, maxTokens: 256 }, { maxRetryWaitMs: 60_000 });
    const { result, requests, waits } = await call(
      [{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 30 }], paused, { signal: controller.signal, onRetryWait: () => void setTimeout(() => controller.abort(), 20) },
    );
    expect(waits).toEqual([30_000]);
    expect(kindOf(result)).toBe('aborted');
    expect(requests).toHaveLength(1);
  });
});

describe('faults never become answers: empty replies and bad bodies are retried faults', () => {
  const shapes: EmptyShape[] = ['no_choices', 'null_content', 'empty_content', 'no_message', 'reasoning_only', 'tool_calls_only', 'refusal'];
  it.each(shapes.flatMap((shape) => [[shape, false], [shape, true]] as [EmptyShape, boolean][]))('empty_reply %s (stream %s) → bad_response after the retries', async (shape, stream) => {
    const { result, requests } = await call([{ kind: 'empty_reply', shape }], settings({ maxRetries: 1 }), { stream });
    expect(kindOf(result)).toBe('bad_response');
    expect((result as Error).message).toMatch(/no usable content/);
    expect(requests).toHaveLength(2);
  });

  it('what the provider billed for an unusable reply still counts against the caps', async () => {
    const { meter, requests } = await call([{ kind: 'empty_reply', shape: 'null_content' }], settings({ maxRetries: 1 }));
    expect(requests).toHaveLength(2);
    expect(meter.byRole.actor.calls).toBe(2);
    const chars = (requests[0]!.body as { messages: ChatMessage[] }).messages[0]!.content.length;
    expect([meter.byRole.actor.promptTokens, meter.byRole.actor.completionTokens]).toEqual([2 * Math.ceil(chars / 4), 0]);
  });

  it('the refusal is quoted; a retry that answers is used', async () => {
    const refused = await call([{ kind: 'empty_reply', shape: 'refusal' }], settings({ maxRetries: 0 }));
    expect((refused.result as Error).message).toContain('a refusal: “I\'m sorry, I can\'t help with that (mock).”');
    const healed = await call([{ kind: 'empty_reply', shape: 'no_choices', attempts: 1 }]);
    expect((healed.result as { content: string }).content).toMatch(/^Mock reply/);
  });

  it.each([[undefined], ['<html><body>502 Bad Gateway</body></html>']])('a 200 with an invalid body (%s) is retried, and the retry answers', async (body) => {
    const { result, requests } = await call([{ kind: 'malformed_json', body, attempts: 1 }], settings({ maxRetries: 1 }));
    expect((result as { content: string }).content).toMatch(/^Mock reply/);
    expect(requests.map((r) => r.outcome.fault)).toEqual(['malformed_json', null]);
  });

  it('a reply cut off by the token limit after some answer is the model’s own (truncated) answer, not a fault', async () => {
    const { result, requests } = await call([{ kind: 'finish_reason', reason: 'length' }]);
    expect(result).toMatchObject({ finishReason: 'length' });
    expect((result as { content: string }).content).not.toBe('');
    expect(requests).toHaveLength(1);
  });
});

describe('caps hold when the provider omits usage', () => {
  it('usage is counted locally, marked estimated, and the token cap stops the next call', async () => {
    const s = settings();
    s.caps = { maxUsd: null, maxTokens: 100 };
    mock.setOptions({ faults: [{ kind: 'no_usage' }] });
    const meter = new UsageMeter(s.caps, s.prices);
    const { actor } = createChatModels(s, meter, { adaptations: new AdaptationMemory() });
    const count = await loadTokenCounter();
    const long: ChatMessage[] = [{ role: 'user', content: 'A long prompt about brass lanterns and little birds. '.repeat(10) }];
    const first = await actor.complete(long);
    expect(first.usage).toMatchObject({ estimated: true, promptTokens: countChatTokens(long, count), completionTokens: count(first.content) });
    expect(meter.totalTokens).toBeGreaterThan(100);
    expect(meter.estimatedByRole.actor).toBe(1);
    await expect(actor.complete(prompt('after the cap'))).rejects.toBeInstanceOf(BudgetReachedError);
  });
});
