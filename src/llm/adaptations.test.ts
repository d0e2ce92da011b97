/** Which rejections name an adaptable parameter, and the memory applying what it learnt in order. */
import { describe, expect, it } from 'vitest';
import { AdaptationMemory, rejectedParameter, type RequestBody } from './adaptations.ts';

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
