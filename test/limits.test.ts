/**
 * Output limits and context windows: defaults large enough
 * for evolved strategies (meta-agent ≥ 4,096, proposer ≥ 8,192, actor 400); the limits and the
 * context window are CLI flags of session, evolve and eval; the context window is the user's
 * value, else the provider's reported one, else the table, else a documented default with a note.
 */
import { describe, expect, it } from 'vitest';
import { contextWindowFromFlags, llmSettingsFromFlags } from '../src/cli/llm-options.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { reportedContextWindow } from '../src/llm/openai-chat-model.ts';
import { resolveContextWindow, UNKNOWN_MODEL_CONTEXT_WINDOW } from '../src/llm/token-count.ts';

/** A provider whose GET /models lists one model with the given extra fields. */
const modelsFetch = (entry: Record<string, unknown>): typeof fetch => async () =>
  new Response(JSON.stringify({ object: 'list', data: [{ id: 'other', object: 'model' }, { object: 'model', ...entry }] }), { status: 200, headers: { 'content-type': 'application/json' } });

describe('output limits', () => {
  it('defaults: actor 400, meta-agent 4,096, proposer 8,192 tokens', () => {
    const s = defaultLlmSettings();
    expect([s.roles.actor.maxTokens, s.roles.metaAgent.maxTokens, s.roles.proposer.maxTokens]).toEqual([400, 4096, 8192]);
  });

  it('--actor-max-tokens, --meta-max-tokens and --proposer-max-tokens set each role', () => {
    const s = llmSettingsFromFlags({ 'base-url': 'http://x/v1', 'actor-max-tokens': '300', 'meta-max-tokens': '6000', 'proposer-max-tokens': '12000' }, {});
    expect([s.roles.actor.maxTokens, s.roles.metaAgent.maxTokens, s.roles.proposer.maxTokens]).toEqual([300, 6000, 12000]);
  });
});

describe('context windows', () => {
  it("the user's value wins, then the provider's, then the table, then the default with a note", () => {
    expect(resolveContextWindow('my-local-model', { user: 9000, reported: 65536 })).toEqual({ tokens: 9000, source: 'user', note: null });
    expect(resolveContextWindow('my-local-model', { reported: 65536 })).toEqual({ tokens: 65536, source: 'provider', note: null });
    expect(resolveContextWindow('gpt-4o-mini')).toMatchObject({ tokens: 128_000, source: 'table', note: null });
    const unknown = resolveContextWindow('my-local-model');
    expect(unknown.tokens).toBe(UNKNOWN_MODEL_CONTEXT_WINDOW);
    expect(UNKNOWN_MODEL_CONTEXT_WINDOW).toBeGreaterThanOrEqual(32_000);
    expect(unknown.note).toContain('“my-local-model” is not known');
  });

  it('reads the window a provider reports in GET /models (OpenRouter, Groq, vLLM field names); null when absent or unreachable', async () => {
    const settings = defaultLlmSettings();
    settings.provider = { presetId: 'custom', baseUrl: 'http://provider.test/v1', apiKey: 'k' };
    settings.maxRetries = 0;
    expect(await reportedContextWindow(settings, 'm', { fetch: modelsFetch({ id: 'm', context_length: 65_536 }) })).toBe(65_536);
    expect(await reportedContextWindow(settings, 'm', { fetch: modelsFetch({ id: 'm', context_window: 131_072 }) })).toBe(131_072);
    expect(await reportedContextWindow(settings, 'm', { fetch: modelsFetch({ id: 'm', max_model_len: 40_960 }) })).toBe(40_960);
    expect(await reportedContextWindow(settings, 'm', { fetch: modelsFetch({ id: 'm' }) })).toBeNull();
    expect(await reportedContextWindow(settings, 'm', { fetch: async () => { throw new TypeError('fetch failed'); } })).toBeNull();
  });

  it('--context-window wins; without it an unknown model gets the default and a printed note', async () => {
    const flags = { 'base-url': 'http://127.0.0.1:9/v1', 'meta-model': 'my-local-model', 'max-retries': '0' };
    const settings = llmSettingsFromFlags(flags, {});
    const lines: string[] = [];
    expect(await contextWindowFromFlags({ ...flags, 'context-window': '24000' }, settings, (l) => lines.push(l))).toBe(24_000);
    expect(lines).toEqual([]);
    expect(await contextWindowFromFlags(flags, settings, (l) => lines.push(l))).toBe(UNKNOWN_MODEL_CONTEXT_WINDOW);
    expect(lines).toEqual([expect.stringContaining('Pass --context-window N')]);
  });
});
