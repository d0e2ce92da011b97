/** SettingsState in a workshop room: every role on the room's model through `<origin>/v1` with the
 * participant token; the user's own form and key neither saved over nor lost; leaving restores them;
 * the token scrubbed from messages and exports. */
import { describe, expect, it } from 'vitest';
import { scrubText } from '../../../common/secrets.ts';
import { MemoryStore } from '../../../store/memory-store.ts';
import { ApiKeyHolder } from './api-key.svelte.ts';
import type { LlmServices } from './llm-services.ts';
import { SETTINGS_KEY } from './llm-settings.ts';
import { SettingsState } from './settings.svelte.ts';

const OWN_KEY = 'fake-test-key-own-0123456789';
const TOKEN = 'fake-test-key-room-token-0123456789';
const ROOM = { title: 'Friday class', baseUrl: 'http://classroom.test:8080/v1', token: TOKEN, model: 'room-model' , price: null };
const llm: LlmServices = { listModels: async () => ['room-model'], createModels: async () => Promise.reject(new Error('not used')) };

describe('SettingsState in a room', () => {
  it('runs every role through the room and gives the user’s own settings back on leaving', async () => {
    const store = new MemoryStore();
    const key = new ApiKeyHolder();
    const settings = new SettingsState(llm, key);
    await settings.init(store);
    settings.selectPreset('ollama');
    settings.changeRole('actor', { model: 'llama3' });
    settings.setApiKey(OWN_KEY);
    await settings.flush();
    const savedBefore = JSON.stringify(await store.getSetting(SETTINGS_KEY));

    settings.useRoom(ROOM);
    const inRoom = settings.llmSettings();
    expect(inRoom.provider).toEqual({ presetId: 'custom', baseUrl: ROOM.baseUrl, apiKey: TOKEN });
    expect(Object.values(inRoom.roles).map((r) => r.model)).toEqual(['room-model', 'room-model', 'room-model']);
    expect(inRoom.prices).toEqual({});
    // A room that names its model's price (its local model: free) gives the page that price.
    settings.useRoom({ ...ROOM, price: { inputPerMTokUsd: 0, outputPerMTokUsd: 0 } });
    expect(settings.llmSettings().prices).toEqual({ 'room-model': { inputPerMTokUsd: 0, outputPerMTokUsd: 0 } });
    settings.useRoom(ROOM);
    // The password field keeps the user's own key (never the token); nothing is saved while in the room.
    expect(settings.apiKey).toBe(OWN_KEY);
    settings.changeRole('actor', { temperature: 0.5 });
    await settings.flush();
    expect(JSON.stringify(await store.getSetting(SETTINGS_KEY))).toBe(savedBefore);
    expect(scrubText(`Bearer ${TOKEN}`)).not.toContain(TOKEN);
    expect(scrubText(`Bearer ${TOKEN}`)).toMatch(/^Bearer \[key hidden\]/);

    settings.useRoom(null);
    expect(settings.room).toBeNull();
    expect(settings.llmSettings().provider).toEqual({ presetId: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: OWN_KEY });
    expect(settings.form.roles.actor.model).toBe('llama3');
  });

  it('a room joined before the saved settings load keeps the room, and the saved form comes back on leaving', async () => {
    const store = new MemoryStore();
    const first = new SettingsState(llm, new ApiKeyHolder());
    await first.init(store);
    first.changeRole('actor', { model: 'mine' });
    await first.flush();
    const settings = new SettingsState(llm, new ApiKeyHolder());
    settings.useRoom(ROOM);
    await settings.init(store);
    expect(settings.llmSettings().roles.actor.model).toBe('room-model');
    settings.useRoom(null);
    expect(settings.form.roles.actor.model).toBe('mine');
  });
});
