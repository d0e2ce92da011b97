/**
 * Reasoning models that spend the whole completion budget (no answer, finish_reason "length") —
 * as JSON and as a stream, with content '', null, absent (Gemini's thinking shape) or only an
 * unclosed `<think>` — through the real client against the mock: the first such reply raises the
 * budget once within the run's token cap (an adaptation, reported and remembered), the call is
 * sent again at once and its answer used; the next asks for reasoning_effort low (dropped if the
 * provider refuses it); when it still repeats, the call fails as a refused request (systemic: the
 * run stops resumably) whose message names what was tried and the fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdaptationMemory } from '../src/llm/adaptations.ts';
import { LlmError } from '../src/llm/errors.ts';
import type { ChatMessage, Completion, LlmSettings, ParameterAdaptation, Role } from '../src/llm/interface.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import type { FaultRule, LengthEmptyShape } from './mock-llm/interface.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { mockLlmSettings } from './support/mock-settings.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({});
});
afterAll(() => mock.close());

const settings = (overrides: Partial<LlmSettings> = {}): LlmSettings => mockLlmSettings(mock.baseUrl, 'reasoning-key-0123', { temperature: 0.5, maxTokens: 256 }, overrides);
let unique = 0;
const prompt = (): ChatMessage[] => [{ role: 'user', content: `reasoning budget #${unique++}` }];
const budgetOf = (body: unknown) => {
  const b = body as { max_tokens?: number; max_completion_tokens?: number };
  return b.max_completion_tokens ?? b.max_tokens;
};

async function call(faults: FaultRule[], s = settings(), memory = new AdaptationMemory(), stream = false, role: Role = 'actor') {
  mock.setOptions({ faults });
  s.roles.metaAgent = { ...s.roles.metaAgent, model: 'mock-model' };
  const meter = new UsageMeter(s.caps, s.prices);
  const models = createChatModels(s, meter, { adaptations: memory });
  const before = mock.requests.length;
  const adapted: ParameterAdaptation[] = [];
  const result = await models[role].complete(prompt(), { stream, onAdaptation: (a) => adapted.push(a) }).catch((e: unknown) => e);
  return { result, requests: mock.requests.slice(before), meter, memory, adapted };
}

const SHAPES: LengthEmptyShape[] = ['empty', 'null', 'gemini', 'think'];
const CASES = SHAPES.flatMap((shape) => [[shape, false], [shape, true]] as const);

describe('the first reply that spends the whole budget raises it once, and says so', () => {
  it.each(CASES)('%s (stream %s): sent again at once with 4096 tokens, the answer used, both calls counted', async (shape, stream) => {
    const { result, requests, meter, memory, adapted } = await call([{ kind: 'length_empty', shape, belowBudget: 4096 }], settings({ maxRetries: 0 }), undefined, stream);
    expect((result as Completion).content).toBe(requests[1]!.outcome.replyText);
    expect((result as Completion).finishReason).toBe('stop');
    expect(requests.map((r) => budgetOf(r.body))).toEqual([256, 4096]);
    expect(adapted).toEqual([expect.objectContaining({ model: 'mock-model', parameter: 'max_tokens', change: 'raised', to: '4096' })]);
    expect(adapted[0]!.reason).toMatch(/finish_reason "length" with no answer after the whole budget of 256 tokens/);
    expect(memory.list()).toEqual(adapted);
    expect(meter.byRole.actor.calls).toBe(2);
    expect(meter.byRole.actor.completionTokens).toBeGreaterThanOrEqual(256);
  });

  it('the raise is remembered: the next call (another role on the same model) is sent with it the first time', async () => {
    const memory = new AdaptationMemory();
    await call([{ kind: 'length_empty', belowBudget: 4096 }], settings(), memory);
    const next = await call([{ kind: 'length_empty', belowBudget: 4096 }], settings(), memory, false, 'metaAgent');
    expect(next.requests.map((r) => budgetOf(r.body))).toEqual([4096]);
    expect((next.result as Completion).finishReason).toBe('stop');
  });

  it('after max_tokens was renamed, the raise applies to max_completion_tokens', async () => {
    const { result, requests } = await call([{ kind: 'bad_param', param: 'max_tokens' }, { kind: 'length_empty', belowBudget: 4096 }]);
    expect((result as Completion).finishReason).toBe('stop');
    expect(requests.map((r) => [r.outcome.status, (r.body as { max_completion_tokens?: number }).max_completion_tokens])).toEqual([[400, undefined], [200, 256], [200, 4096]]);
  });

  it('the raise stays within the run’s token cap', async () => {
    const s = settings();
    s.caps = { maxUsd: null, maxTokens: 2000 };
    const { requests } = await call([{ kind: 'length_empty', belowBudget: 1000 }], s);
    const raised = budgetOf(requests[1]!.body)!;
    expect(raised).toBeGreaterThan(256);
    expect(raised).toBeLessThanOrEqual(2000 - 256);
  });
});

describe('then a low reasoning effort; when it repeats, the call fails with the fix named (systemic: the run stops resumably)', () => {
  const effort = (body: unknown) => (body as { reasoning_effort?: string }).reasoning_effort;

  it('the raised budget spent too: sent again with reasoning_effort low, which answers; both adaptations reported', async () => {
    const { result, requests, adapted } = await call([{ kind: 'length_empty', exceptEffort: 'low' }]);
    expect((result as Completion).finishReason).toBe('stop');
    expect(requests.map((r) => [budgetOf(r.body), effort(r.body)])).toEqual([[256, undefined], [4096, undefined], [4096, 'low']]);
    expect(adapted.map((a) => [a.parameter, a.change, a.to])).toEqual([['max_tokens', 'raised', '4096'], ['reasoning_effort', 'set', 'low']]);
  });

  it.each(CASES)('%s (stream %s): three requests, then bad_request naming what was tried and --actor-max-tokens', async (shape, stream) => {
    const { result, requests } = await call([{ kind: 'length_empty', shape }], settings(), undefined, stream);
    expect(result).toBeInstanceOf(LlmError);
    expect((result as LlmError).kind).toBe('bad_request');
    expect((result as LlmError).message).toMatch(/spent its whole completion budget \(4096 tokens\) on reasoning and wrote no answer \(even after max_tokens raised to 4096, reasoning_effort set to low\)/);
    expect((result as LlmError).message).toMatch(/--actor-max-tokens .*lower its reasoning effort.*then resume/);
    expect(requests.map((r) => [budgetOf(r.body), effort(r.body)])).toEqual([[256, undefined], [4096, undefined], [4096, 'low']]);
  });

  it('a provider that refuses reasoning_effort has it dropped, and the message says so', async () => {
    const { result, requests } = await call([{ kind: 'bad_param', param: 'reasoning_effort' }, { kind: 'length_empty' }]);
    expect((result as LlmError).message).toMatch(/even after max_tokens raised to 4096, reasoning_effort set to low, reasoning_effort refused by the provider/);
    expect(requests.map((r) => r.outcome.status)).toEqual([200, 200, 400, 200]);
    expect(effort(requests[3]!.body)).toBeUndefined();
  });

  it.each([['metaAgent', '--meta-max-tokens'], ['proposer', '--proposer-max-tokens']] as const)('the %s’s message names %s', async (role, flag) => {
    const s = settings();
    s.roles.proposer = { ...s.roles.proposer, model: 'mock-model' };
    const { result } = await call([{ kind: 'length_empty' }], s, undefined, false, role);
    expect((result as LlmError).message).toContain(flag);
  });

  it('a budget already at the ceiling, or a cap with no room, is not raised: only the effort is lowered', async () => {
    const high = await call([{ kind: 'length_empty' }], settings({ roles: { ...settings().roles, actor: { model: 'mock-model', temperature: null, maxTokens: 32_768 } } }));
    expect((high.result as LlmError).message).toMatch(/\(32768 tokens is already the most raised automatically; even after reasoning_effort set to low\)/);
    expect(high.requests.map((r) => budgetOf(r.body))).toEqual([32_768, 32_768]);
    const s = settings();
    s.caps = { maxUsd: null, maxTokens: 300 };
    const capped = await call([{ kind: 'length_empty' }], s);
    expect((capped.result as LlmError).message).toMatch(/the run's token cap leaves no room to raise its budget/);
    expect(capped.requests).toHaveLength(2);
  });

  it('a reply cut at the limit after some answer is not a spent budget: returned as it is (truncated), no raise', async () => {
    const { result, requests, adapted } = await call([{ kind: 'finish_reason', reason: 'length' }]);
    expect((result as Completion).finishReason).toBe('length');
    expect(requests).toHaveLength(1);
    expect(adapted).toEqual([]);
  });
});
