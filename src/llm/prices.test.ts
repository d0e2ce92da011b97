/** Prices hold only at the provider they are for: OpenAI's built-in prices at
 * OpenAI, the user's own rows anywhere. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, isInPageProvider, isOpenAiProvider, pricesAtProvider } from './defaults.ts';

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

describe('the page’s own model', () => {
  it('costs 0 for the models it runs, whatever the price table says; other providers are unchanged', () => {
    const local = { presetId: 'browser-local', baseUrl: 'in-page:wllama', apiKey: '' };
    expect(isInPageProvider(local)).toBe(true);
    expect(isInPageProvider({ presetId: 'custom', baseUrl: 'http://127.0.0.1:11434/v1' })).toBe(false);
    expect(pricesAtProvider(local, { ...DEFAULT_PRICES }, ['SmolLM2-135M-Instruct.Q4_1.gguf', '', 'SmolLM2-135M-Instruct.Q4_1.gguf'])).toEqual({
      'SmolLM2-135M-Instruct.Q4_1.gguf': { inputPerMTokUsd: 0, outputPerMTokUsd: 0 },
    });
    expect(pricesAtProvider({ presetId: 'custom', baseUrl: 'http://127.0.0.1:1/v1', apiKey: '' }, { ...DEFAULT_PRICES }, ['gpt-4o-mini'])).toEqual({});
  });
});

