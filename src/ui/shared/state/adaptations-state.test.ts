/** AdaptationsState: saved adaptations restored into the page's memory, new ones saved, Forget clears both. */
import { describe, expect, it } from 'vitest';
import { AdaptationMemory } from '../../../llm/adaptations.ts';
import type { ParameterAdaptation } from '../../../llm/interface.ts';
import { MemoryStore } from '../../../store/memory-store.ts';
import { ADAPTATIONS_KEY, AdaptationsState } from './adaptations-state.svelte.ts';

const URL = 'https://api.example.test/v1';
const saved: ParameterAdaptation = { baseUrl: URL, model: 'o3-mini', parameter: 'temperature', change: 'dropped', to: null, reason: 'Unsupported value' };

describe('AdaptationsState', () => {
  it('restores, follows, saves and forgets', async () => {
    const store = new MemoryStore();
    await store.setSetting(ADAPTATIONS_KEY, [{ ...saved }, { junk: true }]);
    const memory = new AdaptationMemory();
    const state = new AdaptationsState(memory);
    await state.init(store);
    expect(state.list).toEqual([saved]);
    const restored = memory.adapt(URL, { model: 'o3-mini', messages: [], temperature: 0.5, max_tokens: 10 });
    expect(restored).toEqual({ model: 'o3-mini', messages: [], max_tokens: 10 });

    memory.learn(URL, { model: 'o3-mini', messages: [], max_tokens: 10 }, 'max_tokens', "Use 'max_completion_tokens' instead.");
    expect(state.list.map((a) => [a.parameter, a.change, a.to])).toEqual([['temperature', 'dropped', null], ['max_tokens', 'renamed', 'max_completion_tokens']]);
    await expect.poll(async () => ((await store.getSetting(ADAPTATIONS_KEY)) as unknown[]).length).toBe(2);

    await state.forget();
    expect(state.list).toEqual([]);
    expect(memory.list()).toEqual([]);
    expect(await store.getSetting(ADAPTATIONS_KEY)).toBeUndefined();
  });
});
