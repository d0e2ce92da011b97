/** `Router.open`: a view with extra query parameters (the Library's and Evolve's "Try this
 * meta-prompt" → `?view=learn&metaPrompt=<id>`), whose enter listeners run even when it is shown. */
import { describe, expect, it } from 'vitest';
import { Router, type Navigation } from './router.svelte.ts';

function navigation(start: string): Navigation & { pushed: string[] } {
  let url = new URL(start);
  const pushed: string[] = [];
  return {
    pushed,
    url: () => new URL(url),
    push: (next) => void ((url = new URL(next)), pushed.push(next.href)),
    onPop: () => undefined,
  };
}

describe('Router.open', () => {
  it('sets the view and the parameters, keeps the others, and runs the enter listeners', () => {
    const nav = navigation('http://x.invalid/sub/?view=library&story=advent');
    const router = new Router(nav);
    let entered = 0;
    router.onEnter('learn', () => entered++);
    router.start();
    router.open('learn', { metaPrompt: 'fact-bank' });
    expect(router.view).toBe('learn');
    expect(nav.pushed).toEqual(['http://x.invalid/sub/?view=learn&story=advent&metaPrompt=fact-bank']);
    router.open('learn', { metaPrompt: 'route-script' });
    expect(entered).toBe(2);
    expect(new URL(nav.pushed.at(-1)!).searchParams.get('metaPrompt')).toBe('route-script');
  });
});
