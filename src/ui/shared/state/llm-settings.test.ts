/** The saved settings: a round trip through JSON keeps everything but the key; bad values fall back. */
import { describe, expect, it } from 'vitest';
import { defaultLlmSettings } from '../../../llm/defaults.ts';
import { defaultForm, formFromSaved, llmSettingsOf, priceRow, savedFromForm, SETTINGS_VERSION, type SettingsForm } from './llm-settings.ts';
import { describeRule, parseNumberText } from '../format/number-rule.ts';

const KEY = 'sk-secret-123456';
const withoutIds = (form: SettingsForm) => ({ ...form, prices: form.prices.map(({ id: _id, ...rest }) => rest) });

function edited(): SettingsForm {
  const form = defaultForm();
  return {
    ...form,
    presetId: 'custom',
    baseUrl: 'http://127.0.0.1:8080/v1',
    roles: { ...form.roles, actor: { model: 'my-model', temperature: null, maxTokens: 64 } },
    maxRetries: 0,
    streamIdleTimeoutMs: 5000,
    dropStainlessHeaders: true,
    caps: { maxUsd: 0.25, maxTokens: null },
    prices: [priceRow('my-model', 1, 2), priceRow('cached-model', 1, 2, 0.25)],
    rememberKey: true,
  };
}

describe('saved LLM settings', () => {
  it('round-trip through JSON without the key', () => {
    const form = edited();
    const saved = JSON.parse(JSON.stringify(savedFromForm(form))) as unknown;
    expect(JSON.stringify(saved)).not.toContain(KEY);
    expect(saved).toMatchObject({ version: SETTINGS_VERSION, prices: { 'my-model': { inputPerMTokUsd: 1, outputPerMTokUsd: 2 }, 'cached-model': { inputPerMTokUsd: 1, outputPerMTokUsd: 2, cachedInputPerMTokUsd: 0.25 } } });
    expect(Object.keys((saved as { prices: Record<string, object> }).prices['my-model']!)).toEqual(['inputPerMTokUsd', 'outputPerMTokUsd']);
    expect(llmSettingsOf(form, KEY).prices['cached-model']).toEqual({ inputPerMTokUsd: 1, outputPerMTokUsd: 2, cachedInputPerMTokUsd: 0.25 });
    expect(Object.keys(saved as object)).not.toContain('apiKey');
    expect(withoutIds(formFromSaved(saved))).toEqual(withoutIds(form));
  });

  it('settings saved before the stream idle limit existed get its default (30 s); a run gets the saved one', () => {
    const { streamIdleTimeoutMs: _idle, ...older } = savedFromForm(edited()) as Record<string, unknown>;
    expect(formFromSaved(older).streamIdleTimeoutMs).toBe(30_000);
    expect(llmSettingsOf(edited(), KEY).streamIdleTimeoutMs).toBe(5000);
  });

  it('layer saved values over the defaults, dropping malformed fields', () => {
    expect(withoutIds(formFromSaved(undefined))).toEqual(withoutIds(defaultForm()));
    expect(withoutIds(formFromSaved({ version: 99, baseUrl: 'x' }))).toEqual(withoutIds(defaultForm()));
    const form = formFromSaved({
      version: SETTINGS_VERSION, baseUrl: 42, maxRetries: -1, maxConcurrent: 2, roles: { actor: { model: 'm', temperature: 9, maxTokens: 0.5 } },
      caps: { maxUsd: 'lots' }, prices: { good: { inputPerMTokUsd: 1, outputPerMTokUsd: 1 }, bad: { inputPerMTokUsd: -1 } }, apiKey: KEY,
    });
    const defaults = defaultLlmSettings();
    expect(form.baseUrl).toBe(defaults.provider.baseUrl);
    expect(form.maxRetries).toBe(defaults.maxRetries);
    expect(form.maxConcurrent).toBe(2);
    expect(form.roles.actor).toEqual({ model: 'm', temperature: defaults.roles.actor.temperature, maxTokens: defaults.roles.actor.maxTokens });
    expect(form.caps).toEqual({ maxUsd: null, maxTokens: null });
    expect(form.prices.map((p) => p.model)).toEqual(['good']);
    expect(JSON.stringify(form)).not.toContain(KEY);
  });

  it('build the settings of a run with the key, trimmed names and a price record', () => {
    const form = { ...edited(), baseUrl: ' http://h/v1 ', prices: [priceRow(' a ', 1, 2), priceRow('', 5, 5), priceRow('a', 3, 4)] };
    const settings = llmSettingsOf(form, KEY);
    expect(settings.provider).toEqual({ presetId: 'custom', baseUrl: 'http://h/v1', apiKey: KEY });
    expect(settings.prices).toEqual({ a: { inputPerMTokUsd: 3, outputPerMTokUsd: 4 } });
    expect(settings.roles.actor.temperature).toBeNull();
  });
});

describe('numeric fields', () => {
  it('parse against their rule', () => {
    const retries = { min: 0, max: 10, integer: true, nullable: false };
    expect(parseNumberText(' 3 ', retries)).toEqual({ ok: true, value: 3 });
    expect(parseNumberText('', retries)).toEqual({ ok: false, message: 'Enter a whole number from 0 to 10.' });
    expect(parseNumberText('2.5', retries).ok).toBe(false);
    expect(parseNumberText('abc', retries).ok).toBe(false);
    const cap = { min: 0, integer: false, nullable: true };
    expect(parseNumberText('', cap)).toEqual({ ok: true, value: null });
    expect(parseNumberText('0.01', cap)).toEqual({ ok: true, value: 0.01 });
    expect(describeRule(cap)).toBe('a number of at least 0, or empty for none');
  });
});
