/** SettingsState: saved without the key; the key stored only while remembered; test connection. */
import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../llm/errors.ts';
import { MemoryStore } from '../../../store/memory-store.ts';
import { ApiKeyHolder } from './api-key.svelte.ts';
import type { LlmServices } from './llm-services.ts';
import { API_KEY_KEY, SETTINGS_KEY } from './llm-settings.ts';
import { SettingsState } from './settings.svelte.ts';

const KEY = 'sk-secret-123456';

function llm(listModels: LlmServices['listModels'] = async () => ['a', 'b']): LlmServices {
  return { listModels, createModels: async () => Promise.reject(new Error('not used')) };
}

async function stored(store: MemoryStore): Promise<string> {
  return JSON.stringify([await store.getSetting(SETTINGS_KEY), await store.getSetting(API_KEY_KEY)]);
}

describe('SettingsState', () => {
  it('a meta-agent or proposer with no model given uses the actor’s model, also after a saved OpenAI default and a preset change', async () => {
    const fresh = new SettingsState(llm(), new ApiKeyHolder());
    await fresh.init(new MemoryStore());
    expect(fresh.form.roles.metaAgent.model).toBe('');
    expect(fresh.llmSettings().roles.proposer.model).toBe('gpt-4o-mini');
    fresh.changeRole('actor', { model: 'mock-model' });
    expect(Object.values(fresh.llmSettings().roles).map((r) => r.model)).toEqual(['mock-model', 'mock-model', 'mock-model']);
    // Settings saved when the form filled every role with gpt-4o-mini: away from OpenAI they follow the actor.
    const store = new MemoryStore();
    const saved = new SettingsState(llm(), new ApiKeyHolder());
    await saved.init(store);
    saved.changeRole('metaAgent', { model: 'gpt-4o-mini' });
    saved.changeRole('proposer', { model: 'gpt-4o-mini' });
    saved.selectPreset('ollama');
    saved.changeRole('actor', { model: 'llama3' });
    expect(saved.llmSettings().roles.metaAgent.model).toBe('llama3');
    expect(saved.llmSettings().roles.proposer.model).toBe('llama3');
    // A model the user chose stays.
    saved.changeRole('proposer', { model: 'qwen' });
    saved.selectPreset('custom');
    expect(saved.llmSettings().roles.proposer.model).toBe('qwen');
  });

  it('saves every change without the key unless it is remembered; un-ticking deletes it', async () => {
    const store = new MemoryStore();
    const settings = new SettingsState(llm(), new ApiKeyHolder());
    await settings.init(store);
    settings.setApiKey(KEY);
    settings.selectPreset('groq');
    settings.changeRole('actor', { model: 'llama' });
    await settings.flush();
    expect(settings.pendingWrites).toBe(0);
    expect(await stored(store)).not.toContain(KEY);
    expect(await store.getSetting(SETTINGS_KEY)).toMatchObject({ presetId: 'groq', baseUrl: 'https://api.groq.com/openai/v1', roles: { actor: { model: 'llama' } } });
    expect(settings.llmSettings().provider.apiKey).toBe(KEY);

    settings.setRememberKey(true);
    await settings.flush();
    expect(await store.getSetting(API_KEY_KEY)).toBe(KEY);
    const again = new SettingsState(llm(), new ApiKeyHolder());
    await again.init(store);
    expect(again.apiKey).toBe(KEY);
    expect(again.form.rememberKey).toBe(true);

    again.setRememberKey(false);
    await again.flush();
    expect(await store.getSetting(API_KEY_KEY)).toBeUndefined();
    const third = new SettingsState(llm(), new ApiKeyHolder());
    await third.init(store);
    expect(third.apiKey).toBe('');
    expect(third.form.baseUrl).toBe('https://api.groq.com/openai/v1');
  });

  it('turns a hand-edited base URL into a custom provider', async () => {
    const settings = new SettingsState(llm(), new ApiKeyHolder());
    await settings.init(new MemoryStore());
    settings.selectPreset('ollama');
    settings.setBaseUrl('http://10.0.0.2:11434/v1');
    expect(settings.form.presetId).toBe('custom');
    settings.selectPreset('custom');
    expect(settings.form.baseUrl).toBe('http://10.0.0.2:11434/v1');
  });

  it('tests the connection: models, or the error with the key scrubbed', async () => {
    const key = new ApiKeyHolder();
    let seenKey = '';
    const ok = new SettingsState(llm(async (s) => ((seenKey = s.provider.apiKey), ['m1', 'm2'])), key);
    await ok.init(new MemoryStore());
    key.set(KEY);
    await ok.testConnection();
    expect(ok.connection).toEqual({ status: 'ok', models: ['m1', 'm2'] });
    expect(seenKey).toBe(KEY);

    const failing = new SettingsState(llm(async () => Promise.reject(new Error(`bad key ${KEY}`))), key);
    await failing.init(new MemoryStore());
    await failing.testConnection();
    expect(failing.connection).toEqual({ status: 'error', message: 'bad key [key hidden]' });

    const cors = new SettingsState(llm(async () => Promise.reject(new LlmError('network_or_cors', 'Could not reach … (CORS)'))), key);
    await cors.init(new MemoryStore());
    await cors.testConnection();
    expect(cors.connection).toEqual({ status: 'error', message: 'Could not reach … (CORS)' });
  });
});
