/**
 * Token counting for context-window budgeting, with gpt-tokenizer's cl100k_base encoding (an
 * approximation for non-OpenAI models; providers' own counts are used for cost). Loaded lazily so
 * the page does not pay for the encoding (446 kB gzip) until a session needs it: cost estimates in
 * the forms use `estimateTokenCounter()` (`approximateTokens`, never the encoding), and the exact
 * counter caches its counts by text.
 */
import type { ChatMessage } from './interface.ts';

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

/** Per-message overhead of the chat format, in tokens (OpenAI cookbook: ~4 per message). */
const MESSAGE_OVERHEAD = 4;

let loading: Promise<TokenCounter> | null = null;

/** The cl100k_base counter (loaded once; counts cached by text, `cachedCounter`). */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then((m) => cachedCounter((text: string) => m.countTokens(text)));
  return loading;
}

/**
 * A rough token count without the encoding: ⌈characters / 4⌉ (OpenAI's rule of thumb for English
 * text; cl100k_base gives 4–4.5 characters per token on game transcripts). O(1).
 */
export const approximateTokens: TokenCounter = (text) => Math.ceil(text.length / 4);

/**
 * The counter for an up-front cost estimate: always `approximateTokens`. It never fetches the
 * encoding, and it keeps a 10×50 estimate with an 8k window near 10 ms, where cl100k_base takes
 * 0.15–2 s (warm–cold cache) on the main thread.
 */
export function estimateTokenCounter(): TokenCounter {
  return approximateTokens;
}

/**
 * `count` with its counts cached by text: the last `max` distinct texts (oldest dropped first), so
 * recounting the same prompts (budget trimming, estimates redone on every form change) is a lookup.
 */
export function cachedCounter(count: TokenCounter, max = 500): TokenCounter {
  const cache = new Map<string, number>();
  return (text) => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const tokens = count(text);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(text, tokens);
    return tokens;
  };
}

/** Tokens of a chat: the sum of its messages plus the per-message overhead. */
export function countChatTokens(messages: readonly ChatMessage[], count: TokenCounter): number {
  return messages.reduce((sum, m) => sum + count(m.content) + MESSAGE_OVERHEAD, 0);
}

/** Default context windows (tokens) by model-name pattern. */
export const DEFAULT_CONTEXT_WINDOWS: readonly [RegExp, number][] = [
  [/gpt-4\.1|gpt-5|o[134]-?/i, 128_000],
  [/gpt-4o/i, 128_000],
  [/claude|gemini/i, 128_000],
  [/llama-?3\.[123]|qwen2\.5|mistral-nemo/i, 32_000],
];

/** The window assumed for a model that neither the table nor the provider knows, tokens: large
 * enough for a 6 × 50-step session's logs in most games; a note tells the user it is a guess. */
export const UNKNOWN_MODEL_CONTEXT_WINDOW = 32_000;

/**
 * The context window to assume for a model (tokens) and where it comes from: the user's value
 * wins, then the provider's reported window, then the table, then UNKNOWN_MODEL_CONTEXT_WINDOW
 * with a note to show the user (never sent to a model).
 */
export function resolveContextWindow(model: string, o: { user?: number | null; reported?: number | null } = {}): { tokens: number; source: 'user' | 'provider' | 'table' | 'default'; note: string | null } {
  if (o.user) return { tokens: o.user, source: 'user', note: null };
  if (o.reported) return { tokens: o.reported, source: 'provider', note: null };
  const known = DEFAULT_CONTEXT_WINDOWS.find(([pattern]) => pattern.test(model))?.[1];
  if (known) return { tokens: known, source: 'table', note: null };
  return {
    tokens: UNKNOWN_MODEL_CONTEXT_WINDOW, source: 'default',
    note: `The context window of “${model}” is not known (the provider does not report it): assuming ${UNKNOWN_MODEL_CONTEXT_WINDOW.toLocaleString('en')} tokens. Set the context window if yours differs.`,
  };
}

/** The context window to assume for a model (tokens), unless the user set one. */
export function contextWindowFor(model: string, overrides: Record<string, number> = {}): number {
  return resolveContextWindow(model, { user: overrides[model] }).tokens;
}
