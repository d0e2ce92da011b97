/** Workshop mode: URL over saved setting over off; the toggle is remembered; the Learn presets
 * (a teaching game, K = 3, S = 15) are applied once per turn-on and never while a session runs. */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory-store.ts';
import type { ShelfEntry } from '../shared/state/shelf.ts';
import type { LearnForm } from '../shared/format/learn-form.ts';
import { workshopPreset, WorkshopPresets, type PresetTarget } from './learn-presets.ts';
import { WORKSHOP_KEY, workshopFromQuery, WorkshopState } from './workshop.svelte.ts';

const entry = (id: string, tags: string[], defaultSeed = 0): ShelfEntry => ({
  id, title: id, source: 'shipped', path: `stories/${id}.z5`, storedMaxScore: null, unsaved: false,
  catalog: { id, tags, defaultSeed } as unknown as ShelfEntry['catalog'],
});
const LIBRARY = [entry('advent', ['jericho', 'demo'], 5), entry('vault', ['teaching'], 1), entry('lever-room', ['teaching', 'demo'], 1)];

describe('WorkshopState', () => {
  it('reads ?workshop=', () => {
    expect(workshopFromQuery(new URLSearchParams('workshop=1'))).toBe(true);
    expect(workshopFromQuery(new URLSearchParams('workshop=off'))).toBe(false);
    expect(workshopFromQuery(new URLSearchParams('workshop=maybe'))).toBeNull();
    expect(workshopFromQuery(new URLSearchParams(''))).toBeNull();
  });

  it('remembers the toggle in the store; the URL wins and is not saved', async () => {
    const store = new MemoryStore();
    const first = new WorkshopState(new URLSearchParams());
    const seen: boolean[] = [];
    first.onChange((on) => seen.push(on));
    await first.init(store);
    expect(first.on).toBe(false);
    first.toggle();
    expect(first.on).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await store.getSetting(WORKSHOP_KEY)).toBe(true);
    const second = new WorkshopState(new URLSearchParams());
    second.onChange((on) => seen.push(on));
    await second.init(store);
    expect(second.on).toBe(true);
    expect(seen).toEqual([true, true]);
    const forcedOff = new WorkshopState(new URLSearchParams('workshop=0'));
    await forcedOff.init(store);
    expect(forcedOff.on).toBe(false);
    const forcedOn = new WorkshopState(new URLSearchParams('workshop=1'));
    expect(forcedOn.on).toBe(true);
    await forcedOn.init(new MemoryStore());
    expect(forcedOn.on).toBe(true);
  });
});

describe('workshop presets', () => {
  it('pick The Lever Room with its seed, K = 3 and S = 15', () => {
    expect(workshopPreset(LIBRARY)).toEqual({ storyId: 'lever-room', seed: 1, seedRandom: false, episodes: 3, maxSteps: 15 });
    expect(workshopPreset([entry('vault', ['teaching'], 2)])).toMatchObject({ storyId: 'vault', seed: 2 });
    expect(workshopPreset([entry('advent', ['demo'])])).toEqual({ episodes: 3, maxSteps: 15 });
  });

  it('apply once per turn-on, after the form is ready, never while running', async () => {
    const patches: Partial<LearnForm>[] = [];
    let running = false;
    const target: PresetTarget = { init: async () => undefined, shelf: { entries: LIBRARY }, change: (p) => void patches.push(p) };
    const presets = new WorkshopPresets(target, () => running);
    await presets.apply();
    expect(patches).toHaveLength(0);
    await presets.modeChanged(true);
    expect(patches).toHaveLength(1);
    await presets.apply();
    expect(patches).toHaveLength(1);
    running = true;
    await presets.modeChanged(true);
    expect(patches).toHaveLength(1);
    running = false;
    await presets.apply();
    expect(patches).toHaveLength(2);
    await presets.modeChanged(false);
    await presets.apply();
    expect(patches).toHaveLength(2);
  });

  it('wait for the Learn form\'s code when it has not loaded, and still keep a restored form at load', async () => {
    for (const [found, expected] of [[{}, [workshopPreset(LIBRARY)]], [{ restoredForm: true }, []]] as const) {
      const patches: Partial<LearnForm>[] = [];
      let inits = 0;
      let loaded = false;
      const target: PresetTarget = { init: async () => void (inits += 1), shelf: { entries: LIBRARY }, change: (p) => void patches.push(p), get loaded() { return loaded; }, ...found };
      const presets = new WorkshopPresets(target, () => false);
      await presets.modeChanged(true);
      expect([inits, patches]).toEqual([0, []]);
      loaded = true;
      await presets.apply();
      expect([inits, patches]).toEqual([1, expected]);
    }
  });

  it('at load, leave a form restored from an earlier visit or changed since the load; a later turn-on applies', async () => {
    for (const found of [{ restoredForm: true }, { changedAfterLoad: true }]) {
      const patches: Partial<LearnForm>[] = [];
      const target: PresetTarget = { init: async () => undefined, shelf: { entries: LIBRARY }, change: (p) => void patches.push(p), ...found };
      const presets = new WorkshopPresets(target, () => false);
      await presets.modeChanged(true);
      expect(patches).toHaveLength(0);
      await presets.modeChanged(false);
      await presets.modeChanged(true);
      expect(patches).toEqual([workshopPreset(LIBRARY)]);
    }
  });
});
