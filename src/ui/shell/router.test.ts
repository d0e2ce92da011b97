/** Views from the URL, links that keep ?story=&seed=, and the router's history entries. */
import { describe, expect, it } from 'vitest';
import { Router, type Navigation } from './router.svelte.ts';
import { hrefFor, viewOf } from './views.ts';

function fakeNavigation(start: string): Navigation & { pushed: string[]; back(to: string): void } {
  let url = new URL(start);
  let popListener = (): void => undefined;
  const pushed: string[] = [];
  return {
    pushed,
    url: () => new URL(url),
    push: (next) => {
      url = new URL(next);
      pushed.push(next.href);
    },
    onPop: (listener) => void (popListener = listener),
    back(to) {
      url = new URL(to);
      popListener();
    },
  };
}

describe('views', () => {
  it('read ?view= and keep the other parameters in links', () => {
    expect(viewOf(new URL('http://h/sub/?view=agent'))).toBe('agent');
    expect(viewOf(new URL('http://h/sub/?view=nope&story=advent'))).toBe('play');
    expect(hrefFor('http://h/sub/path/?story=advent&seed=3', 'agent')).toBe('/sub/path/?story=advent&seed=3&view=agent');
    expect(hrefFor('http://h/sub/path/?view=settings&story=advent', 'play')).toBe('/sub/path/?story=advent');
  });
});

describe('Router', () => {
  it('shows the URL\'s view, pushes history on go, follows back, and tells listeners', () => {
    const navigation = fakeNavigation('http://h/sub/?story=advent&view=settings');
    const router = new Router(navigation);
    const entered: string[] = [];
    router.onEnter('agent', () => entered.push('agent'));
    router.onEnter('settings', () => entered.push('settings'));
    router.start();
    expect(router.view).toBe('settings');
    router.go('agent');
    expect(router.view).toBe('agent');
    expect(navigation.pushed).toEqual(['http://h/sub/?story=advent&view=agent']);
    expect(router.href('play')).toBe('/sub/?story=advent');
    router.go('agent');
    expect(navigation.pushed).toHaveLength(1);
    navigation.back('http://h/sub/?story=advent');
    expect(router.view).toBe('play');
    expect(entered).toEqual(['settings', 'agent']);
  });
});

describe('view-specific parameters', () => {
  it('are dropped when switching to another view, in links and in history', () => {
    expect(hrefFor('http://h/sub/?view=replay&replay=lever-room-learn&story=advent', 'learn')).toBe('/sub/?view=learn&story=advent');
    expect(hrefFor('http://h/sub/?view=library&entry=fact-bank&workshop=1', 'evolve')).toBe('/sub/?view=evolve&workshop=1');
    expect(hrefFor('http://h/sub/?view=learn&metaPrompt=fact-bank&seed=2', 'play')).toBe('/sub/?seed=2');
    expect(hrefFor('http://h/sub/?view=replay&replay=lever-room-learn', 'replay')).toBe('/sub/?view=replay&replay=lever-room-learn');
    const navigation = fakeNavigation('http://h/sub/?view=replay&replay=lever-room-learn&entry=x&metaPrompt=y');
    const router = new Router(navigation);
    router.start();
    for (const view of ['agent', 'library', 'learn', 'evaluate'] as const) {
      expect(router.href(view)).not.toContain('replay=');
    }
    router.go('settings');
    expect(navigation.pushed).toEqual(['http://h/sub/?view=settings']);
  });
});
