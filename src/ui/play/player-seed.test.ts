/** The Play view's seed field takes "random": each start draws a seed (injected), shown as the
 * running game's seed; a typed number goes back to fixed seeds; `?seed=random` works too. */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory-store.ts';
import { fakeServices } from '../../../test/support/ui/fake-services.ts';
import { Player } from './player.svelte.ts';
import { StoryShelf } from '../shared/state/story-shelf.svelte.ts';

function player(query = ''): Player {
  const services = fakeServices(new MemoryStore(), query);
  let next = 100;
  return new Player(services, new StoryShelf(services), () => next++);
}

describe('random seeds in the Play view', () => {
  it('draws a seed at each start and restart', async () => {
    const p = player();
    await p.init();
    await p.selectStory('advent');
    expect(p.session.seed).toBe(5);
    p.setSeedText(' Random ');
    expect(p.seedRandom).toBe(true);
    await p.restart();
    expect(p.session.seed).toBe(100);
    await p.restart();
    expect(p.session.seed).toBe(101);
    p.setSeedText('7');
    expect(p.seedRandom).toBe(false);
    await p.restart();
    expect(p.session.seed).toBe(7);
    p.setSeedText('seven');
    expect(p.error).toMatch(/or “random”/);
  });

  it('takes ?seed=random', async () => {
    const p = player('story=advent&seed=random');
    await p.init();
    expect(p.seedRandom).toBe(true);
    expect(p.session.seed).toBe(100);
  });
});
