/** Prices hold only at the provider they are for (issue 19, item 3): OpenAI's built-in prices at
 * OpenAI, the user's own rows anywhere. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, isOpenAiProvider, pricesAtProvider } from './defaults.ts';

const mine = { 'mock-model': { inputPerMTokUsd: 1, outputPerMTokUsd: 2 }, 'gpt-4o-mini': { inputPerMTokUsd: 0.1, outputPerMTokUsd: 0.2 } };

describe('pricesAtProvider', () => {
  it('keeps every price at OpenAI (preset or its base URL by hand)', () => {
    const all = { ...DEFAULT_PRICES, 'mock-model': mine['mock-model'] };
    expect(pricesAtProvider({ presetId: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: '' }, all)).toEqual(all);
    expect(pricesAtProvider({ presetId: 'custom', baseUrl: 'https://api.openai.com/v1/', apiKey: '' }, all)).toEqual(all);
    expect(isOpenAiProvider({ presetId: 'custom', baseUrl: 'http://127.0.0.1:9/v1', apiKey: '' })).toBe(false);
  });

  it('elsewhere drops the built-in OpenAI prices and keeps the user’s own rows, also for an OpenAI model id', () => {
    for (const presetId of ['custom', 'ollama', 'openrouter', 'lmstudio']) {
      const provider = { presetId, baseUrl: 'http://127.0.0.1:11434/v1', apiKey: '' };
      expect(pricesAtProvider(provider, { ...DEFAULT_PRICES })).toEqual({});
      expect(pricesAtProvider(provider, { ...DEFAULT_PRICES, ...mine })).toEqual(mine);
    }
  });
});
