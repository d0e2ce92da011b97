import { describe, expect, it } from 'vitest';
import { LazyState } from './lazy-state.svelte.ts';

describe('LazyState', () => {
  it('builds once on the first get, shares it with calls made meanwhile, and shows it as current', async () => {
    let builds = 0;
    const state = new LazyState(async () => ({ built: ++builds }));
    expect(state.current).toBeUndefined();
    expect(builds).toBe(0);
    const [a, b] = await Promise.all([state.get(), state.get()]);
    expect(a).toBe(b);
    expect(await state.get()).toBe(a);
    expect([builds, state.current]).toEqual([1, { built: 1 }]);
  });

  it('builds again after a failed build (a chunk that did not load), and stays unbuilt meanwhile', async () => {
    let attempts = 0;
    const state = new LazyState(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('Failed to fetch dynamically imported module');
      return 'ready';
    });
    await expect(state.get()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(state.current).toBeUndefined();
    expect(await state.get()).toBe('ready');
    expect([attempts, state.current]).toEqual([2, 'ready']);
  });
});
