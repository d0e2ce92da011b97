/** `--price MODEL=IN/OUT[/CACHED]`: the cached-input price is optional (default: the input price); a malformed price is a usage error. */
import { describe, expect, it } from 'vitest';
import { llmSettingsFromFlags } from '../src/cli/llm-options.ts';

describe('--price', () => {
  it('reads IN/OUT and IN/OUT/CACHED, USD per million tokens', () => {
    const s = llmSettingsFromFlags({ 'base-url': 'http://x/v1', price: ['a=1.5/6', 'b=2/8/0.5'] }, {});
    expect(s.prices.a).toEqual({ inputPerMTokUsd: 1.5, outputPerMTokUsd: 6 });
    expect(s.prices.b).toEqual({ inputPerMTokUsd: 2, outputPerMTokUsd: 8, cachedInputPerMTokUsd: 0.5 });
    // The built-in (OpenAI) table holds only at OpenAI: there gpt-4o-mini's cached-input price is known.
    const openai = llmSettingsFromFlags({ provider: 'openai' }, { OPENAI_API_KEY: 'k' });
    expect(openai.prices['gpt-4o-mini']).toEqual({ inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6, cachedInputPerMTokUsd: 0.075 });
    expect(s.prices['gpt-4o-mini']).toBeUndefined();
  });
  it.each(['a=1/2/3/4', 'a=1/2/', 'a=1', 'a=1/x'])('refuses "%s" with the shapes it takes', (spec) => {
    expect(() => llmSettingsFromFlags({ 'base-url': 'http://x/v1', price: [spec] }, {})).toThrow(`--price must look like MODEL=IN/OUT or MODEL=IN/OUT/CACHED (USD per million input/output/cached-input tokens), got "${spec}"`);
  });
});
