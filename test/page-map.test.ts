/**
 * The page map of a web task: on a recorded trajectory of the shop (test/fixtures/web-pages: Home
 * → Outdoor → Home → Cart → Home → search results), the pages visited are the nodes in order of
 * first visit, named by their titles, the actions that changed the page are the edges (a typed
 * field that stays on the page is no move), the path repeats the returns home, and the episode ends
 * on the search results. Ids are stable over a prefix of a session; a page whose title an earlier
 * URL had is named with its path; a fragment is the same page; a step without a page breaks the path.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPageMap, pageKey, pageMapEpisodes, type PageMapEpisode } from '../src/agents/page-map.ts';
import { roomMapUpTo } from '../src/agents/room-map.ts';
import { importTrajectory } from '../src/agents/trajectory-io.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { mapEpisodesOf, mapPlacesOf, replayedMapEpisodes } from '../src/ui/shared/map/session-map.ts';
import { REPO_ROOT } from './support/shared.ts';

const RECORDED = importTrajectory(readFileSync(join(REPO_ROOT, 'test/fixtures/web-pages/shop-t1-pages.json'), 'utf8'));
const SEARCH = "Search results for 'Aurora Camping Tent' – Shop";

const page = (url: string, title: string) => ({ url, title });
const step = (index: number, action: string, url: string | null, title = '', reward = 0): PageMapEpisode['steps'][number] =>
  ({ index, action, reward, ...(url === null ? {} : { page: { ...page(url, title), html: '', targetBid: null } }) });

describe('buildPageMap on a recorded shop trajectory', () => {
  const map = buildPageMap([RECORDED]);
  const names = new Map(map.rooms.map((r) => [r.id, r.name]));
  const moves = map.edges.map((e) => `${names.get(e.from)} -${e.commands.join('/')}-> ${names.get(e.to)}`);

  it('has the pages visited as nodes, in order of first visit, named by their titles', () => {
    expect(RECORDED.task?.kind).toBe('web');
    expect(map.rooms.map((r) => [r.id, r.name, r.firstStep])).toEqual([
      [1, 'Home – Shop', 0], [2, 'Outdoor – Shop', 1], [3, 'Cart – Shop', 3], [4, SEARCH, 6],
    ]);
  });

  it('has the actions that changed the page as edges, labelled by the action; typing on a page is no move', () => {
    expect(moves).toEqual([
      "Home – Shop -click('24')-> Outdoor – Shop",
      "Outdoor – Shop -goto('http://shop.test/')-> Home – Shop",
      "Home – Shop -click('5')-> Cart – Shop",
      'Cart – Shop -go_back()-> Home – Shop',
      `Home – Shop -click('13')-> ${SEARCH}`,
    ]);
    expect(map.paths[0]!.rooms).toEqual([1, 2, 1, 3, 1, 1, 4]);
    expect(map.paths[0]!.moves).toEqual(['1>2', '2>1', '1>3', '3>1', '1>4']);
  });

  it('marks where the episode ended and scores no page (the task was not answered)', () => {
    expect(map.rooms.filter((r) => r.endedIn.length > 0).map((r) => r.name)).toEqual([SEARCH]);
    expect(map.rooms.every((r) => r.scoredIn.length === 0)).toBe(true);
  });
});

describe('pageMapEpisodes', () => {
  const first: PageMapEpisode = { startPage: page('http://shop.test/', 'Home'), steps: [step(1, "click('18')", 'http://shop.test/category/kitchen', 'Kitchen')] };
  const second: PageMapEpisode = {
    startPage: page('http://shop.test/#top', 'Home'),
    steps: [step(1, "click('30')", 'http://shop.test/product/SKU-1', 'Item', 1), step(2, 'noop()', null), step(3, "click('31')", 'http://shop.test/product/SKU-2', 'Item')],
  };

  it('gives a prefix of a session the ids of the whole, and grows the map episode by episode', () => {
    const whole = pageMapEpisodes([first, second]);
    const prefix = pageMapEpisodes([first, { startPage: second.startPage, steps: second.steps.slice(0, 1) }]);
    expect(prefix[1]!.steps[0]!.location).toEqual(whole[1]!.steps[0]!.location);
    const map = buildPageMap([first, second]);
    expect(roomMapUpTo(map, 0).rooms.map((r) => r.name)).toEqual(['Home', 'Kitchen']);
    expect(map.rooms.map((r) => [r.id, r.name, r.firstEpisode])).toEqual([[1, 'Home', 0], [2, 'Kitchen', 0], [3, 'Item', 1], [4, 'Item (/product/SKU-2)', 1]]);
    expect(map.rooms.find((r) => r.id === 3)!.scoredIn).toEqual([1]);
  });

  it('treats a URL with a fragment as the same page, and breaks the path at a step without a page', () => {
    expect(pageKey('http://shop.test/#top')).toBe('http://shop.test/');
    const map = buildPageMap([first, second]);
    expect(map.paths[1]!.rooms).toEqual([1, 3, null, 4]);
    expect(map.edges.map((e) => e.key)).toEqual(['1>2', '1>3']);
  });

  it('names a page without a title by its URL', () => {
    expect(pageMapEpisodes([{ startPage: page('http://forum.test/f/1', ' '), steps: [] }])[0]!.startLocation).toEqual({ id: 1, name: 'http://forum.test/f/1' });
  });
});

describe('the map panel of a web task session', () => {
  const record = {
    config: { task: RECORDED.task },
    episodes: [{ index: 1, trajectory: RECORDED, steps: RECORDED.steps }],
  } as unknown as Pick<SessionRecord, 'episodes' | 'config'>;

  it('reads a web task’s episodes as pages, whole and as far as a replay has got', () => {
    expect(mapPlacesOf(record)).toBe('pages');
    const whole = mapEpisodesOf(record);
    expect(whole[0]!.startLocation).toEqual({ id: 1, name: 'Home – Shop' });
    expect(whole[0]!.steps.map((s) => s.location?.id)).toEqual([2, 1, 3, 1, 1, 4]);
    const shown = replayedMapEpisodes(record, 1, RECORDED.steps.slice(0, 3));
    expect(shown[0]!.steps.map((s) => s.location)).toEqual(whole[0]!.steps.slice(0, 3).map((s) => s.location));
  });

  it('draws a running web episode from its start page and live steps', () => {
    const running = { ...record, episodes: [{ index: 1, trajectory: null, steps: [] }] } as unknown as Pick<SessionRecord, 'episodes' | 'config'>;
    const live = mapEpisodesOf(running, { index: 1, steps: RECORDED.steps.slice(0, 1), startLocation: null, startPage: RECORDED.startPage! });
    expect(live[0]!.startLocation).toEqual({ id: 1, name: 'Home – Shop' });
    expect(live[0]!.steps[0]!.location).toEqual({ id: 2, name: 'Outdoor – Shop' });
  });
});
