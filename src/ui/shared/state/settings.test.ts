/** SettingsState: saved without the key; the key stored only while remembered; test connection. */
import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../llm/errors.ts';
import { MemoryStore } from '../../../store/memory-store.ts';
import { ApiKeyHolder } from './api-key.svelte.ts';
import type { LlmServices } from './llm-services.ts';
import { API_KEY_KEY, SETTINGS_KEY } from './llm-settings.ts';
import { SettingsState } from './settings.svelte.ts';
import { decodeShare } from '../../../share/share-link.ts';

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

  it('the simulated model names every role "simulated" and needs no key; leaving it clears that name', async () => {
    const settings = new SettingsState(llm(), new ApiKeyHolder());
    await settings.init(new MemoryStore());
    settings.changeRole('actor', { model: 'gpt-4o' });
    settings.selectPreset('simulated');
    expect(settings.llmSettings().provider).toMatchObject({ presetId: 'simulated', baseUrl: 'in-page:simulated' });
    expect(Object.values(settings.llmSettings().roles).map((r) => r.model)).toEqual(['simulated', 'simulated', 'simulated']);
    settings.selectPreset('ollama');
    expect(settings.form.roles.actor.model).toBe('');
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

  it('empties the base URL when "Custom base URL" is chosen from another preset, and says "saved" only after a change', async () => {
    const settings = new SettingsState(llm(), new ApiKeyHolder());
    const store = new MemoryStore();
    await settings.init(store);
    expect(settings.form.baseUrl).toBe('https://api.openai.com/v1');
    expect(settings.savedOnce).toBe(false);
    settings.selectPreset('custom');
    expect(settings.form).toMatchObject({ presetId: 'custom', baseUrl: '' });
    await settings.flush();
    expect(settings.savedOnce).toBe(true);
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

  it('never keeps an OpenAI model name on a local or other named preset; Test connection fills empty models', async () => {
    for (const presetId of ['ollama', 'lmstudio', 'llamacpp', 'openrouter', 'groq', 'together']) {
      const settings = new SettingsState(llm(async () => ['qwen2.5:0.5b', 'llama3.2:1b']), new ApiKeyHolder());
      await settings.init(new MemoryStore());
      settings.changeRole('actor', { model: 'gpt-4o-mini' });
      settings.changeRole('metaAgent', { model: 'gpt-4o-mini' });
      settings.changeRole('proposer', { model: 'my-own-proposer' });
      settings.selectPreset(presetId);
      expect(settings.form.roles.actor.model, presetId).toBe('');
      // Empty: the meta-agent uses the actor's model.
      expect(settings.form.roles.metaAgent.model, presetId).toBe('');
      // A name the user typed is theirs, not a built-in default: kept.
      expect(settings.form.roles.proposer.model, presetId).toBe('my-own-proposer');
      await settings.testConnection();
      expect(settings.connection, presetId).toEqual({ status: 'ok', models: ['qwen2.5:0.5b', 'llama3.2:1b'], filled: ['actor'] });
      expect(settings.form.roles.actor.model).toBe('qwen2.5:0.5b');
      expect(settings.form.roles.metaAgent.model).toBe('');
      expect(settings.form.roles.proposer.model).toBe('my-own-proposer');
      settings.useModelForAllRoles('llama3.2:1b');
      expect([settings.form.roles.actor.model, settings.form.roles.metaAgent.model, settings.form.roles.proposer.model]).toEqual(['llama3.2:1b', 'llama3.2:1b', 'llama3.2:1b']);
    }
    // A custom base URL keeps an OpenAI name until Test connection finds the server does not list it.
    const custom = new SettingsState(llm(async () => ['scripted-test-model']), new ApiKeyHolder());
    await custom.init(new MemoryStore());
    custom.selectPreset('custom');
    custom.setBaseUrl('http://127.0.0.1:9/v1');
    await custom.testConnection();
    expect(custom.form.roles.actor.model).toBe('scripted-test-model');
    expect(custom.connection).toEqual({ status: 'ok', models: ['scripted-test-model'], filled: ['actor'] });
    // OpenAI and a custom base URL keep what is there.
    for (const presetId of ['openai', 'custom']) {
      const settings = new SettingsState(llm(), new ApiKeyHolder());
      await settings.init(new MemoryStore());
      settings.selectPreset(presetId);
      expect(settings.form.roles.actor.model, presetId).toBe('gpt-4o-mini');
    }
  });

  it('applies a setup link (preset, base URL, models named) and makes one from the settings, never with the key', async () => {
    const store = new MemoryStore();
    const key = new ApiKeyHolder();
    const settings = new SettingsState(llm(), key);
    await settings.init(store);
    key.set(KEY);
    settings.applyProviderSetup({ presetId: 'ollama', baseUrl: 'http://192.168.1.20:11434/v1', models: { actor: 'qwen2.5:0.5b', metaAgent: ' qwen2.5:1.5b ', proposer: '' } });
    expect(settings.form.presetId).toBe('ollama');
    expect(settings.form.baseUrl).toBe('http://192.168.1.20:11434/v1');
    expect(settings.form.roles.actor.model).toBe('qwen2.5:0.5b');
    expect(settings.form.roles.metaAgent.model).toBe('qwen2.5:1.5b');
    // Not named in the link: left as it was (empty = the actor's model).
    expect(settings.form.roles.proposer.model).toBe('');
    expect(settings.apiKey).toBe(KEY);
    await settings.flush();
    expect(await stored(store)).toContain('192.168.1.20');
    expect(settings.providerSetup()).toEqual({ presetId: 'ollama', baseUrl: 'http://192.168.1.20:11434/v1', models: { actor: 'qwen2.5:0.5b', metaAgent: 'qwen2.5:1.5b', proposer: '' } });
    expect(JSON.stringify(settings.providerSetup())).not.toContain(KEY);
    settings.applyProviderSetup({ presetId: 'no-such-preset', baseUrl: 'http://10.0.0.1:8000/v1', models: { actor: '', metaAgent: '', proposer: '' } });
    expect(settings.form.presetId).toBe('custom');
    expect(settings.form.roles.actor.model).toBe('qwen2.5:0.5b');
  });

  it('makes a setup link for the Settings view, copies it, and says why when the base URL cannot go in one', async () => {
    const copied: string[] = [];
    const key = new ApiKeyHolder();
    const links = { pageUrl: () => 'http://room.local:4173/app/?view=learn&workshop=1&replay=x#old', copyText: async (text: string) => void copied.push(text) };
    const settings = new SettingsState(llm(), key, links);
    await settings.init(new MemoryStore());
    key.set(KEY);
    settings.selectPreset('llamacpp');
    settings.setBaseUrl('http://192.168.0.9:8080/v1');
    settings.changeRole('actor', { model: 'smollm2' });
    await settings.makeSetupLink();
    const made = settings.setupLink!;
    expect(made.copied).toBe(true);
    expect(copied).toEqual([made.link]);
    expect(made.link.startsWith('http://room.local:4173/app/?view=settings&workshop=1#share=v1.')).toBe(true);
    expect(made.link).not.toContain(KEY);
    expect(decodeShare(made.link)).toEqual({ kind: 'provider', provider: { presetId: 'custom', baseUrl: 'http://192.168.0.9:8080/v1', models: { actor: 'smollm2', metaAgent: '', proposer: '' } } });
    // Workshop mode turned on with the nav toggle (not in the URL): the link carries it.
    const inWorkshop = new SettingsState(llm(), new ApiKeyHolder(), { ...links, pageUrl: () => 'http://room.local:4173/app/?view=settings', workshop: () => true });
    await inWorkshop.init(new MemoryStore());
    await inWorkshop.makeSetupLink();
    expect(inWorkshop.setupLink!.link.startsWith('http://room.local:4173/app/?view=settings&workshop=1#share=v1.')).toBe(true);
    // A change makes the shown link stale: it is taken away.
    settings.changeRole('actor', { model: 'other' });
    expect(settings.setupLink).toBeNull();
    // A refused clipboard still shows the link; a base URL with a password is refused with the reason.
    const noClipboard = new SettingsState(llm(), new ApiKeyHolder(), { ...links, copyText: async () => Promise.reject(new Error('denied')) });
    await noClipboard.init(new MemoryStore());
    await noClipboard.makeSetupLink();
    expect(noClipboard.setupLink?.copied).toBe(false);
    noClipboard.setBaseUrl('http://user:pw@10.0.0.1/v1');
    await noClipboard.makeSetupLink();
    expect(noClipboard.setupLink).toBeNull();
    expect(noClipboard.error).toBe('No setup link: the base URL must be an http(s) address without a user name or password.');
  });
});
