/** Which rejections name an adaptable parameter, and the memory applying what it learnt in order. */
import { describe, expect, it } from 'vitest';
import { adaptationCause, AdaptationMemory, describeAdaptation, rejectedParameter, type RequestBody } from './adaptations.ts';

const body: RequestBody = { model: 'o3', messages: [], temperature: 0.5, max_tokens: 256, stream: true, stream_options: { include_usage: true } };

describe('rejectedParameter', () => {
  it.each([
    ["Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter', 'max_tokens'],
    ["Unsupported value: 'temperature' does not support 0.5 with this model. Only the default (1) value is supported.", 'temperature', 'unsupported_value', 'temperature'],
    ['[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]', null, null, 'stream_options'],
    ['temperature is not supported for this model', null, null, 'temperature'],
  ])('%s → %s', (message, param, code, expected) => {
    expect(rejectedParameter(body, 400, message, param, code)).toBe(expected);
  });

  it('is null for other faults: another status, a parameter we do not send, or a message that rejects nothing', () => {
    expect(rejectedParameter(body, 500, "Unsupported parameter: 'temperature'", 'temperature', null)).toBeNull();
    expect(rejectedParameter(body, 400, "Unsupported parameter: 'top_p'", 'top_p', 'unsupported_parameter')).toBeNull();
    expect(rejectedParameter(body, 400, "Invalid 'messages': empty array. Expected an array with minimum length 1.", 'messages', 'empty_array')).toBeNull();
    expect(rejectedParameter(body, 400, 'temperature must be between 0 and 2', 'temperature', 'invalid_value')).toBeNull();
  });
});

describe('AdaptationMemory', () => {
  it('applies what it learnt per (base URL, model), in order; learning twice is refused', () => {
    const memory = new AdaptationMemory();
    const url = 'https://api.example.test/v1/';
    const renamed = memory.learn(url, body, 'max_tokens', 'use max_completion_tokens')!;
    expect(renamed.body).toMatchObject({ max_completion_tokens: 256 });
    expect('max_tokens' in renamed.body).toBe(false);
    memory.learn(url, renamed.body, 'max_completion_tokens', 'not supported');
    expect(memory.learn(url, body, 'max_tokens', 'again')).toBeNull();
    expect(Object.keys(memory.adapt('https://api.example.test/v1', body)).sort()).toEqual(['messages', 'model', 'stream', 'stream_options', 'temperature']);
    expect(memory.adapt(url, { ...body, model: 'gpt-4o' })).toEqual({ ...body, model: 'gpt-4o' });
    expect(memory.listFor(url, ['o3']).map((a) => a.parameter)).toEqual(['max_tokens', 'max_completion_tokens']);
  });
});

describe('a refused message role and a raised budget', () => {
  const chat: RequestBody = { model: 'o1', messages: [{ role: 'system', content: 'rules' }, { role: 'user', content: 'hi' }], max_tokens: 256 };

  it.each([
    ["Unsupported value: 'messages[0].role' does not support 'system' with this model.", 'messages[0].role', 'role:system'],
    ["Invalid value: 'system'. Supported values are: 'user' and 'assistant'. The role 'system' is not supported", null, 'role:system'],
  ])('%s → %s', (message, param, expected) => {
    expect(rejectedParameter(chat, 400, message, param, 'unsupported_value')).toBe(expected);
  });

  it('system is sent as developer, and developer (if refused too) as user; other roles untouched; remembered', () => {
    const memory = new AdaptationMemory();
    const url = 'https://api.example.test/v1';
    const first = memory.learn(url, chat, 'role:system', 'does not support system')!;
    expect(first.body.messages).toEqual([{ role: 'developer', content: 'rules' }, { role: 'user', content: 'hi' }]);
    expect(describeAdaptation(first.adaptation)).toBe('system messages sent as developer messages');
    expect(rejectedParameter(first.body, 400, "Unsupported value: 'messages[0].role' does not support 'developer' with this model.", 'messages[0].role', null)).toBe('role:developer');
    memory.learn(url, first.body, 'role:developer', 'does not support developer');
    expect(memory.adapt(url, chat).messages).toEqual([{ role: 'user', content: 'rules' }, { role: 'user', content: 'hi' }]);
    expect(rejectedParameter(chat, 400, 'Unsupported value: messages[1].role does not support this', 'messages[1].role', null)).toBeNull();
  });

  it('a raised budget applies to max_tokens or max_completion_tokens, never lowers one, and is learnt once', () => {
    const memory = new AdaptationMemory();
    const url = 'https://api.example.test/v1';
    const raised = memory.raiseBudget(url, chat, 4096, 'spent on reasoning')!;
    expect(raised.body.max_tokens).toBe(4096);
    expect(raised.adaptation).toMatchObject({ parameter: 'max_tokens', change: 'raised', to: '4096' });
    expect(describeAdaptation(raised.adaptation)).toBe('max_tokens raised to 4096');
    expect(adaptationCause(raised.adaptation)).toMatch(/whole budget on reasoning/);
    expect(memory.raiseBudget(url, raised.body, 16_384, 'again')).toBeNull();
    memory.learn(url, chat, 'max_tokens', 'use max_completion_tokens');
    expect(memory.adapt(url, chat)).toMatchObject({ max_completion_tokens: 4096 });
    expect(memory.adapt(url, { ...chat, max_tokens: 8000 })).toMatchObject({ max_completion_tokens: 8000 });
    const again = new AdaptationMemory();
    again.restore(memory.list());
    expect(again.adapt(url, chat)).toEqual(memory.adapt(url, chat));
  });
});

describe('a lowered reasoning effort', () => {
  it('is set once, dropped like any parameter when refused, and restored', () => {
    const memory = new AdaptationMemory();
    const url = 'https://api.example.test/v1';
    const chat: RequestBody = { model: 'gemini-2.5-pro', messages: [], max_tokens: 4096 };
    const set = memory.lowerEffort(url, chat, 'spent on reasoning')!;
    expect(set.body.reasoning_effort).toBe('low');
    expect(describeAdaptation(set.adaptation)).toBe('reasoning_effort set to low');
    expect(memory.lowerEffort(url, chat, 'again')).toBeNull();
    expect(rejectedParameter(set.body, 400, "Unsupported parameter: 'reasoning_effort' is not supported with this model.", 'reasoning_effort', 'unsupported_parameter')).toBe('reasoning_effort');
    memory.learn(url, set.body, 'reasoning_effort', 'not supported');
    expect('reasoning_effort' in memory.adapt(url, chat)).toBe(false);
    const again = new AdaptationMemory();
    again.restore(memory.list());
    expect(again.adapt(url, chat)).toEqual(memory.adapt(url, chat));
  });
});
