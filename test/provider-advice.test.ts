/**
 * Refusals whose fix is a setting, through the real client: a model that refuses the `system`
 * role gets it as `developer` (and `developer` as `user` when that is refused too), adapted and
 * remembered as `max_tokens` → `max_completion_tokens` is; a 404 for the path when the base URL
 * lacks `/v1` (Ollama's "404 page not found", any server's unknown-endpoint error) suggests the
 * URL with `/v1`; a model that only the Responses API serves says to pick a chat-completions model.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdaptationMemory } from '../src/llm/adaptations.ts';
import { LlmError } from '../src/llm/errors.ts';
import type { ChatMessage, Completion, LlmSettings } from '../src/llm/interface.ts';
import { createChatModels, listModels } from '../src/llm/openai-chat-model.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import type { FaultRule } from './mock-llm/interface.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { mockLlmSettings } from './support/mock-settings.ts';

let mock: MockLlm;
/** A server that answers every path as Ollama answers one it does not serve. */
let ollama: http.Server;
let ollamaUrl: string;
beforeAll(async () => {
  mock = await startMockLlm({});
  ollama = http.createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('404 page not found');
  });
  await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
  ollamaUrl = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await mock.close();
  await new Promise((resolve) => ollama.close(resolve));
});

let unique = 0;
const messages = (): ChatMessage[] => [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: `advice #${unique++}` }];

async function call(faults: FaultRule[], baseUrl = mock.baseUrl, overrides: Partial<LlmSettings> = {}) {
  mock.setOptions({ faults });
  const s = mockLlmSettings(baseUrl, 'advice-key-0123', { temperature: 0.5, maxTokens: 256 }, { maxRetries: 0, ...overrides });
  const memory = new AdaptationMemory();
  const { actor } = createChatModels(s, new UsageMeter(s.caps, s.prices), { adaptations: memory });
  const before = mock.requests.length;
  const result = await actor.complete(messages()).catch((e: unknown) => e);
  return { result, requests: mock.requests.slice(before), memory };
}
const roles = (body: unknown) => (body as { messages: { role: string }[] }).messages.map((m) => m.role);
const failure = (result: unknown) => {
  if (!(result instanceof LlmError)) throw new Error(`expected an LlmError, got ${JSON.stringify(result)}`);
  return result;
};

describe('a refused system role is adapted', () => {
  it('system refused: sent again at once as developer, the reply used, the adaptation remembered', async () => {
    const { result, requests, memory } = await call([{ kind: 'bad_role', roles: ['system'] }]);
    expect((result as Completion).content).toMatch(/^Mock reply/);
    expect(requests.map((r) => [r.outcome.status, roles(r.body)])).toEqual([[400, ['system', 'user']], [200, ['developer', 'user']]]);
    expect(memory.list()).toEqual([expect.objectContaining({ parameter: 'role:system', change: 'renamed', to: 'developer' })]);
  });

  it('system and developer refused: sent as user; together with max_tokens renamed', async () => {
    const { result, requests, memory } = await call([{ kind: 'bad_role', roles: ['system', 'developer'] }, { kind: 'bad_param', param: 'max_tokens' }]);
    expect((result as Completion).content).toMatch(/^Mock reply/);
    expect(roles(requests.at(-1)!.body)).toEqual(['user', 'user']);
    expect(memory.list().map((a) => `${a.parameter}→${a.to}`).sort()).toEqual(['max_tokens→max_completion_tokens', 'role:developer→user', 'role:system→developer']);
  });
});

describe('a wrong base URL or a model of another API says what to change', () => {
  it.each([
    ['Ollama without /v1', () => ollamaUrl, (u: string) => `try ${u}/v1.`],
    ['Ollama at /api', () => `${ollamaUrl}/api`, (u: string) => `try ${u}/v1.`],
    ['the mock without /v1', () => mock.baseUrl.replace(/\/v1$/, ''), (u: string) => `try ${u}/v1.`],
  ])('%s: a refused request suggesting /v1, one request', async (_name, url, hint) => {
    const error = failure((await call([], url())).result);
    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain(`There is no chat-completions endpoint at ${url()}/chat/completions (HTTP 404`);
    expect(error.message).toContain(hint(url()));
  });

  it('a base URL that has /v1 is not told to add it; listing the models says the same', async () => {
    const error = failure((await call([], `${ollamaUrl}/v1`)).result);
    expect(error.message).toMatch(/HTTP 404: .*404 page not found\)\. Check the base URL\.$/);
    const s = mockLlmSettings(ollamaUrl, 'k', {}, { maxRetries: 0 });
    expect(await listModels(s).catch((e: Error) => e.message)).toContain(`try ${ollamaUrl}/v1.`);
  });

  it('a 404 for an unknown model keeps the provider’s words (no URL advice)', async () => {
    const error = failure((await call([{ kind: 'provider_error', server: 'openai', status: 404 }])).result);
    expect(error.message).toContain("The model 'mock-model' does not exist");
    expect(error.message).not.toMatch(/\/v1|chat-completions model/);
  });

  it('a Responses-only model: pick a chat-completions model, one request', async () => {
    const { result, requests } = await call([{ kind: 'responses_only' }]);
    const error = failure(result);
    expect(error.kind).toBe('bad_request');
    expect(error.message).toMatch(/^The model mock-model is not served by the chat-completions API .*only supported in v1\/responses.*Pick a chat-completions model for this role\.$/);
    expect(requests).toHaveLength(1);
  });
});
