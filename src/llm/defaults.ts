/**
 * Default LLM settings, built in one place (method.md "Roles": actor 0.5, meta-agent 0.7,
 * proposer 1.0). Callers layer saved settings and URL/CLI options over these. Output limits:
 * actor 400 tokens (a two-line reply with room for reasoning models); meta-agent 4,096 and
 * proposer 8,192, because evolved strategies and the guides they write run to 1,500–2,600 tokens
 * and a cut reply is rejected as truncated.
 */
import type { LlmSettings } from './interface.ts';

/** Prices in USD per million tokens for a few common models (editable in the settings); cached
 * input from OpenAI's price list (prompt caching: half of the input price for the gpt-4o family,
 * a quarter for gpt-4.1, a tenth for gpt-5). */
export const DEFAULT_PRICES: LlmSettings['prices'] = {
  'gpt-4o-mini': { inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6, cachedInputPerMTokUsd: 0.075 },
  'gpt-4o': { inputPerMTokUsd: 2.5, outputPerMTokUsd: 10, cachedInputPerMTokUsd: 1.25 },
  'gpt-4.1-mini': { inputPerMTokUsd: 0.4, outputPerMTokUsd: 1.6, cachedInputPerMTokUsd: 0.1 },
  'gpt-5': { inputPerMTokUsd: 1.25, outputPerMTokUsd: 10, cachedInputPerMTokUsd: 0.125 },
  'gpt-5-mini': { inputPerMTokUsd: 0.25, outputPerMTokUsd: 2, cachedInputPerMTokUsd: 0.025 },
};

export function defaultLlmSettings(): LlmSettings {
  return {
    provider: { presetId: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: '' },
    roles: {
      actor: { model: 'gpt-4o-mini', temperature: 0.5, maxTokens: 400 },
      metaAgent: { model: 'gpt-4o-mini', temperature: 0.7, maxTokens: 4096 },
      proposer: { model: 'gpt-4o-mini', temperature: 1.0, maxTokens: 8192 },
    },
    requestTimeoutMs: 60_000,
    streamIdleTimeoutMs: 30_000,
    maxRetries: 2,
    maxRetryWaitMs: 30_000,
    maxConcurrent: 4,
    dropStainlessHeaders: false,
    caps: { maxUsd: null, maxTokens: null },
    prices: { ...DEFAULT_PRICES },
  };
}

/** The OpenAI preset, or OpenAI's base URL entered by hand (where DEFAULT_PRICES hold). */
export function isOpenAiProvider(provider: LlmSettings['provider']): boolean {
  return provider.presetId === 'openai' || provider.baseUrl.trim().replace(/\/+$/, '') === 'https://api.openai.com/v1';
}

/** The page's own model ("Local model (in this browser)", base URL `in-page:wllama`): every call is free. */
export function isInPageProvider(provider: Pick<LlmSettings['provider'], 'presetId' | 'baseUrl'>): boolean {
  return provider.presetId === 'browser-local' || provider.baseUrl.trim() === 'in-page:wllama';
}

/**
 * The prices that hold at `provider`, USD per million tokens by model id: all of `prices` at
 * OpenAI; elsewhere only the user's own rows — a row equal to a built-in OpenAI price
 * (DEFAULT_PRICES) is OpenAI's price, not this provider's, and is left out. A model left out has
 * no known cost (the page shows "—", the CLI `costUsd: null`), never OpenAI's. For the page's own
 * model (`isInPageProvider`) each of `models` costs 0: it runs in the user's browser.
 */
export function pricesAtProvider(provider: LlmSettings['provider'], prices: LlmSettings['prices'], models: readonly string[] = []): LlmSettings['prices'] {
  if (isOpenAiProvider(provider)) return prices;
  if (isInPageProvider(provider)) return Object.fromEntries(models.filter((m) => m !== '').map((m) => [m, { inputPerMTokUsd: 0, outputPerMTokUsd: 0 }]));
  const own = Object.entries(prices).filter(([model, p]) => {
    const builtIn = DEFAULT_PRICES[model];
    return !builtIn || builtIn.inputPerMTokUsd !== p.inputPerMTokUsd || builtIn.outputPerMTokUsd !== p.outputPerMTokUsd;
  });
  return Object.fromEntries(own);
}

/**
 * The cost in USD of calls whose tokens were priced with `prices` (as the usage meter prices
 * them), or null when a model that was called has no row in `prices` (then the figure would be
 * an invented 0, and the page shows "—", the CLI `costUsd: null`). `calledModels`: the model of
 * every role that made at least one call.
 */
export function knownUsd(costUsd: number, calledModels: readonly string[], prices: LlmSettings['prices']): number | null {
  return calledModels.every((model) => model in prices) ? costUsd : null;
}
