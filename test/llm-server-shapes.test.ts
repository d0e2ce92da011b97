/**
 * Server shapes through the real client against the mock: every listed OpenAI-compatible
 * server's error framing is an error with its message (a rejected parameter adapted as for
 * OpenAI's), in HTTP errors, inside 200s and inside streams; finish reasons that mean cut off are
 * never played; a body in the other framing is read when complete; usage that is missing, zero,
 * non-numeric, negative or absurd is replaced by the local estimate and marked estimated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseActorReply } from '../src/agents/reply-parser.ts';
import { AdaptationMemory } from '../src/llm/adaptations.ts';
import { LlmError } from '../src/llm/errors.ts';
import type { ChatMessage, Completion, CompleteOptions, LlmSettings } from '../src/llm/interface.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { countChatTokens, loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import type { FaultRule, ServerShape } from './mock-llm/interface.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { mockLlmSettings } from './support/mock-settings.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({});
});
afterAll(() => mock.close());

const SERVERS: ServerShape[] = ['openai', 'vllm', 'llamacpp', 'ollama', 'lmstudio', 'litellm', 'openrouter', 'deepseek', 'groq', 'gemini', 'anthropic'];
const settings = (overrides: Partial<LlmSettings> = {}): LlmSettings => mockLlmSettings(mock.baseUrl, 'server-shape-key-0123', { temperature: 0.5, maxTokens: 256 }, overrides);

let unique = 0;
const prompt = (label: string): ChatMessage[] => [{ role: 'user', content: `${label} #${unique++}` }];
/** An actor request (the mock answers `REASONING: … / ACTION: …`). */
const actorPrompt = (): ChatMessage[] => [
  { role: 'system', content: 'You are an expert player of text adventure games.' },
  { role: 'user', content: `Step 1 of 5\n[OBSERVATION]\nWest of House #${unique++}\nReply with REASONING: and ACTION: lines.` },
];

async function call(faults: FaultRule[], options: CompleteOptions = {}, s = settings(), messages = prompt('shape')) {
  mock.setOptions({ faults });
  const meter = new UsageMeter(s.caps, s.prices);
  const memory = new AdaptationMemory();
  const { actor } = createChatModels(s, meter, { adaptations: memory });
  const before = mock.requests.length;
  const result = await actor.complete(messages, options).catch((e: unknown) => e);
  return { result, requests: mock.requests.slice(before), memory, meter };
}

const failure = (result: unknown): { kind: string; message: string } => {
  if (!(result instanceof LlmError)) throw new Error(`expected an LlmError, got ${JSON.stringify(result)}`);
  return { kind: result.kind, message: result.message };
};

describe('every listed server’s error framing is an error with its message', () => {
  it.each(SERVERS)('%s: a 400 rejecting temperature is adapted as for OpenAI’s shape (one extra request), and remembered', async (server) => {
    const { result, requests, memory } = await call([{ kind: 'provider_error', server, param: 'temperature' }]);
    expect((result as Completion).content).toMatch(/^Mock reply/);
    expect(requests.map((r) => r.outcome.status)).toEqual([400, 200]);
    expect(requests[1]!.body).not.toHaveProperty('temperature');
    expect(memory.list().map((a) => [a.parameter, a.change])).toEqual([['temperature', 'dropped']]);
  });

  it.each(SERVERS)('%s: a 400 about something else is bad_request with the provider’s message, one request', async (server) => {
    const { result, requests } = await call([{ kind: 'provider_error', server, status: 400 }]);
    expect(failure(result).kind).toBe('bad_request');
    expect(failure(result).message).toContain(`The model 'mock-model' does not exist (mock ${server}).`);
    expect(failure(result).message).not.toMatch(/no body/);
    expect(requests).toHaveLength(1);
  });

  it.each(SERVERS)('%s: a 503 is a server fault with its message, retried', async (server) => {
    const { result, requests } = await call([{ kind: 'provider_error', server, status: 503, message: 'Overloaded (mock).' }]);
    expect(failure(result)).toMatchObject({ kind: 'server' });
    expect(failure(result).message).toContain('Overloaded (mock).');
    expect(requests).toHaveLength(2);
  });

  /** Ollama's string error names neither a status nor a type: a server fault (retried); every
   * other framing says it is a bad request (a status, or a type such as invalid_request_error). */
  const kindInside = (server: ServerShape) => (server === 'ollama' ? 'server' : 'bad_request');

  it.each(SERVERS)('%s: an error inside a 200 is that error with its message (not "choices: []"); a bad request is not retried', async (server) => {
    const { result, requests } = await call([{ kind: 'provider_error', server, status: 200 }]);
    expect(failure(result).kind).toBe(kindInside(server));
    expect(failure(result).message).toContain(`does not exist (mock ${server})`);
    expect(requests).toHaveLength(kindInside(server) === 'server' ? 2 : 1);
  });

  it.each(SERVERS)('%s: a streamed request whose 400 rejects temperature is adapted the same way', async (server) => {
    const { result, requests, memory } = await call([{ kind: 'provider_error', server, param: 'temperature' }], { stream: true });
    expect((result as Completion).content).toMatch(/^Mock reply/);
    expect(requests.map((r) => r.outcome.status)).toEqual([400, 200]);
    expect(requests[1]!.body).not.toHaveProperty('temperature');
    expect(memory.list().map((a) => [a.parameter, a.change])).toEqual([['temperature', 'dropped']]);
  });

  it.each(SERVERS)('%s: an error chunk inside a stream that rejects temperature is adapted too', async (server) => {
    const { result, requests } = await call([{ kind: 'provider_error', server, status: 200, param: 'temperature' }], { stream: true });
    expect((result as Completion).content).toMatch(/^Mock reply/);
    expect(requests.map((r) => r.outcome.fault)).toEqual(['provider_error', null]);
  });

  it.each(SERVERS)('%s: a 200 whose error rejects temperature is adapted too', async (server) => {
    const { result, requests } = await call([{ kind: 'provider_error', server, status: 200, param: 'temperature' }]);
    expect((result as Completion).content).toMatch(/^Mock reply/);
    expect(requests.map((r) => r.outcome.fault)).toEqual(['provider_error', null]);
  });

  it.each(SERVERS)('%s: an error chunk inside a stream ends the call with its message; nothing of the partial reply is used', async (server) => {
    const { result } = await call([{ kind: 'provider_error', server, status: 200 }], { stream: true });
    expect(failure(result).kind).toBe(kindInside(server));
    expect(failure(result).message).toContain(`does not exist (mock ${server})`);
  });
});

describe('finish reasons that mean cut off are never played', () => {
  it.each([[false], [true]])('insufficient_system_resource (stream %s) is a server fault, retried, never a reply', async (stream) => {
    const { result, requests } = await call([{ kind: 'finish_reason', reason: 'insufficient_system_resource' }], { stream });
    expect(failure(result).kind).toBe('server');
    expect(failure(result).message).toMatch(/insufficient_system_resource/);
    expect(requests).toHaveLength(2);
  });

  it.each(['length', 'content_filter', 'some_new_reason', 'LENGTH'])('%s: the reply is returned with its reason and the actor plays nothing of it', async (reason) => {
    for (const stream of [false, true]) {
      const { result } = await call([{ kind: 'finish_reason', reason }], { stream }, settings(), actorPrompt());
      const completion = result as Completion;
      expect(completion.finishReason).toBe(reason);
      expect(completion.content).toMatch(/ACTION:/);
      expect(parseActorReply(completion.content, completion.finishReason)).toMatchObject({ action: null, status: 'truncated' });
    }
  });

  it.each(['stop', 'eos_token', 'end_turn', 'stop_sequence'])('%s is a natural end: the action is played', async (reason) => {
    const { result } = await call([{ kind: 'finish_reason', reason }], {}, settings(), actorPrompt());
    const completion = result as Completion;
    expect(parseActorReply(completion.content, completion.finishReason).status).toBe('ok');
  });
});

describe('a body in the other framing is read when it is complete, as the normal reply', () => {
  const forms = ['sse', 'sse_as_json', 'json_done', 'json'] as const;
  it.each(forms.flatMap((form) => [[form, false], [form, true]] as const))('%s answered to stream=%s equals the normal reply', async (form, stream) => {
    const messages = prompt(`framing ${form}`);
    const normal = (await call([], { stream }, settings(), messages)).result as Completion;
    const { result } = await call([{ kind: 'framing', form }], { stream }, settings(), messages);
    const got = result as Completion;
    expect(got.content).toBe(normal.content);
    expect(got.finishReason).toBe('stop');
    expect([got.usage.promptTokens, got.usage.completionTokens, got.usage.estimated]).toEqual([normal.usage.promptTokens, normal.usage.completionTokens, undefined]);
  });
});

describe('a body in the other framing that is not complete is refused, never used', () => {
  it.each([['sse_cut', false], ['sse_cut', true], ['json_cut', false], ['json_cut', true]] as const)('%s (stream %s) → bad_response after the retries', async (form, stream) => {
    const { result, requests } = await call([{ kind: 'framing', form }], { stream });
    expect(failure(result).kind).toBe('bad_response');
    expect(requests).toHaveLength(2);
  });
});

describe('usage is not trusted blindly', () => {
  const bad: [string, unknown][] = [
    ['zeros', { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }],
    ['{}', {}],
    ['strings', { prompt_tokens: '12', completion_tokens: '7', total_tokens: '19' }],
    ['negative', { prompt_tokens: -5_000_000, completion_tokens: -1, total_tokens: -5_000_001 }],
    ['fractional', { prompt_tokens: 1.5, completion_tokens: 2.25, total_tokens: 3.75 }],
    ['over 10 M', { prompt_tokens: 20_000_000, completion_tokens: 5, total_tokens: 20_000_005 }],
    ['over 10× the estimate', { prompt_tokens: 5_000, completion_tokens: 9_000, total_tokens: 14_000 }],
    ['null', null],
  ];
  it.each(bad.flatMap(([name, usage]) => [[name, false, usage], [name, true, usage]] as const))('%s (stream %s) → the local estimate, marked estimated', async (_name, stream, usage) => {
    const messages = prompt('usage');
    const { result, meter } = await call([{ kind: 'usage', usage }], { stream }, settings(), messages);
    const completion = result as Completion;
    const count = await loadTokenCounter();
    expect(completion.usage).toMatchObject({ promptTokens: countChatTokens(messages, count), completionTokens: count(completion.content), estimated: true });
    expect(completion.usage.costUsd).toBeGreaterThanOrEqual(0);
    expect(meter.estimatedCalls).toBe(1);
    expect(meter.totalTokens).toBe(completion.usage.promptTokens + completion.usage.completionTokens);
  });

  it('plausible usage (a template’s overhead, hidden reasoning within max_tokens) is kept as reported', async () => {
    const { result } = await call([{ kind: 'usage', usage: { prompt_tokens: 40, completion_tokens: 200, total_tokens: 240, completion_tokens_details: { reasoning_tokens: 180 } } }]);
    expect((result as Completion).usage).toMatchObject({ promptTokens: 40, completionTokens: 200, reasoningTokens: 180 });
    expect((result as Completion).usage.estimated).toBeUndefined();
  });
});
