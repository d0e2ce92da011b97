/** Reply bodies: content parts are joined; errors inside a 200 map by code; usage is read when present. */
import { describe, expect, it } from 'vitest';
import { LlmError } from './errors.ts';
import { completionFromJson } from './reply-body.ts';

const reply = (message: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'x', model: 'm', choices: [{ index: 0, message, finish_reason: 'stop' }], ...extra });

describe('completionFromJson', () => {
  it('reads text, finish reason, model and usage', () => {
    const usage = { prompt_tokens: 12, completion_tokens: 3, completion_tokens_details: { reasoning_tokens: 2 } };
    expect(completionFromJson(reply({ role: 'assistant', content: 'ACTION: look' }, { usage }), 'fallback')).toEqual({
      content: 'ACTION: look', finishReason: 'stop', model: 'm', providerModel: 'm', usage: { promptTokens: 12, completionTokens: 3, reasoningTokens: 2 },
    });
  });

  it('records the model the provider named and its system_fingerprint; a reply naming none falls back to the model asked for, recorded as not named', () => {
    const named = completionFromJson(reply({ role: 'assistant', content: 'ACTION: look' }, { model: 'gpt-4o-mini-2024-07-18', system_fingerprint: 'fp_44709d6fcb' }), 'gpt-4o-mini');
    expect(named).toMatchObject({ model: 'gpt-4o-mini-2024-07-18', providerModel: 'gpt-4o-mini-2024-07-18', systemFingerprint: 'fp_44709d6fcb' });
    const bare = completionFromJson(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'ACTION: look' }, finish_reason: 'stop' }] }), 'gpt-4o-mini');
    expect(bare.model).toBe('gpt-4o-mini');
    expect(bare).not.toHaveProperty('providerModel');
    expect(bare).not.toHaveProperty('systemFingerprint');
  });

  it('joins content given as parts; no usage is null', () => {
    const parts = [{ type: 'text', text: 'ACTION: ' }, { type: 'text', text: 'north' }];
    expect(completionFromJson(reply({ role: 'assistant', content: parts }), 'fallback')).toMatchObject({ content: 'ACTION: north', usage: null });
  });

  it.each([
    [{ error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }, 'quota'],
    [{ error: { message: 'Slow down', type: 'rate_limit_exceeded' } }, 'rate_limit'],
    [{ error: { message: 'Upstream failed' } }, 'server'],
  ])('an error object inside a 200 (%j) → %s', (body, kind) => {
    const error = (() => {
      try {
        completionFromJson(JSON.stringify(body), 'm');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe(kind);
  });
});
