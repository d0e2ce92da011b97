/**
 * Prompt caching: `usage.prompt_tokens_details.cached_tokens` is read (JSON and streams), carried
 * to the call's usage and the meter, and priced at the cached-input price (the input price when a
 * row has none). Expected costs are worked by hand from the price rows.
 */
import { describe, expect, it } from 'vitest';
import { AdaptationMemory } from './adaptations.ts';
import { defaultLlmSettings } from './defaults.ts';
import { createChatModels } from './openai-chat-model.ts';
import { cachedUsageOf, completionFromJson } from './reply-body.ts';
import { UsageMeter } from './usage-meter.ts';

const reply = (usage: unknown) => JSON.stringify({ id: 'x', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ACTION: look' }, finish_reason: 'stop' }], usage });

describe('cachedUsageOf', () => {
  it('reads cached_tokens, capped at prompt_tokens', () => {
    expect(cachedUsageOf({ prompt_tokens: 2000, prompt_tokens_details: { cached_tokens: 1536 } })).toEqual({ cachedPromptTokens: 1536 });
    expect(cachedUsageOf({ prompt_tokens: 100, prompt_tokens_details: { cached_tokens: 400 } })).toEqual({ cachedPromptTokens: 100 });
  });
  it.each([
    [{ prompt_tokens: 2000 }],
    [{ prompt_tokens: 2000, prompt_tokens_details: { cached_tokens: 0 } }],
    [{ prompt_tokens: 2000, prompt_tokens_details: { cached_tokens: -5 } }],
    [{ prompt_tokens: 2000, prompt_tokens_details: { cached_tokens: '1024' } }],
    [{ prompt_tokens: 2000, prompt_tokens_details: { cached_tokens: Number.NaN } }],
    [{ prompt_tokens_details: { cached_tokens: 1024 } }],
    [{ prompt_tokens: 2000, prompt_tokens_details: null }],
  ])('reports nothing cached for %j', (usage) => {
    expect(cachedUsageOf(usage)).toEqual({});
  });
  it('is part of the reply usage only when reported', () => {
    expect(completionFromJson(reply({ prompt_tokens: 1200, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 1024 } }), 'f').usage)
      .toEqual({ promptTokens: 1200, completionTokens: 9, reasoningTokens: 0, cachedPromptTokens: 1024 });
    expect(completionFromJson(reply({ prompt_tokens: 1200, completion_tokens: 9 }), 'f').usage).toEqual({ promptTokens: 1200, completionTokens: 9, reasoningTokens: 0 });
  });
});

describe('UsageMeter and cached input', () => {
  const prices = { cheap: { inputPerMTokUsd: 2, outputPerMTokUsd: 8, cachedInputPerMTokUsd: 0.5 }, plain: { inputPerMTokUsd: 2, outputPerMTokUsd: 8 } };
  it('prices cached prompt tokens at the cached-input price, or the input price when the row has none', () => {
    const meter = new UsageMeter({ maxUsd: null, maxTokens: null }, prices);
    // (1,000,000 − 600,000)·2 + 600,000·0.5 + 100,000·8 = 800,000 + 300,000 + 800,000 → $1.9
    expect(meter.costUsd('cheap', 1_000_000, 100_000, 600_000)).toBeCloseTo(1.9, 12);
    expect(meter.costUsd('plain', 1_000_000, 100_000, 600_000)).toBeCloseTo(2.8, 12);
    expect(meter.costUsd('cheap', 1_000_000, 100_000)).toBeCloseTo(2.8, 12);
    // More cached than prompt tokens is capped at the prompt tokens.
    expect(meter.costUsd('cheap', 1_000_000, 0, 5_000_000)).toBeCloseTo(0.5, 12);
    expect(meter.costUsd('unknown', 1_000_000, 0, 1_000)).toBe(0);
  });
  it('totals cached tokens by role and over roles, old totals without them counting 0', () => {
    const meter = new UsageMeter({ maxUsd: null, maxTokens: null }, prices);
    meter.record('actor', { promptTokens: 1500, completionTokens: 20, reasoningTokens: 0, cachedPromptTokens: 1280, latencyMs: 5, costUsd: 0 });
    meter.record('actor', { promptTokens: 900, completionTokens: 20, reasoningTokens: 0, latencyMs: 5, costUsd: 0 });
    meter.record('metaAgent', { promptTokens: 4000, completionTokens: 300, reasoningTokens: 0, cachedPromptTokens: 3072, latencyMs: 5, costUsd: 0 });
    const old = { calls: 1, promptTokens: 10, completionTokens: 1, reasoningTokens: 0, latencyMs: 1, costUsd: 0 };
    meter.addPrevious({ actor: old, metaAgent: old, proposer: { ...old, cachedPromptTokens: 7 } });
    expect([meter.byRole.actor.cachedPromptTokens, meter.byRole.metaAgent.cachedPromptTokens, meter.byRole.proposer.cachedPromptTokens]).toEqual([1280, 3072, 7]);
    expect(meter.cachedPromptTokens).toBe(1280 + 3072 + 7);
  });
});

describe('a call whose provider reports cached tokens', () => {
  it('carries them to the completion and the meter, and prices them', async () => {
    const s = defaultLlmSettings();
    s.provider = { presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k' };
    s.roles.actor.model = 'cheap';
    s.prices = { cheap: { inputPerMTokUsd: 2, outputPerMTokUsd: 8, cachedInputPerMTokUsd: 0.5 } };
    const meter = new UsageMeter(s.caps, s.prices);
    const fetch = async (): Promise<Response> => new Response(reply({ prompt_tokens: 2048, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 1024 } }), { status: 200, headers: { 'content-type': 'application/json' } });
    const models = createChatModels(s, meter, { fetch, adaptations: new AdaptationMemory() });
    const completion = await models.actor.complete([{ role: 'user', content: 'look '.repeat(1500) }]); // a prompt near the reported size, so the usage is believed (usage-check.ts)
    expect(completion.usage).toMatchObject({ promptTokens: 2048, completionTokens: 10, cachedPromptTokens: 1024 });
    // 1024·2 + 1024·0.5 + 10·8 = 2,640 → $0.00264
    expect(completion.usage.costUsd).toBeCloseTo(0.00264, 12);
    expect(meter.byRole.actor).toMatchObject({ calls: 1, promptTokens: 2048, cachedPromptTokens: 1024 });
    expect(meter.totalUsd).toBeCloseTo(0.00264, 12);
  });
});
