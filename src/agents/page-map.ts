/**
 * The map of a web task's session: the pages the actor visited as nodes and the actions that led
 * from one page to another as edges, built from the page every step records
 * (`Trajectory.startPage`, `TrajectoryStep.page`: the URL and title after the step). It is the
 * web counterpart of the room map (room-map.ts): each page becomes a place `{id, name}` and the
 * room-map builder does the rest, so the same panel, colours, marks and episode slider serve both.
 *
 * What a node is: one URL without its fragment (`/search?q=tent` and `/search?q=lamp` are two
 * pages, `/#top` and `/` one). Its id is its 1-based order of first visit over the episodes given,
 * so the ids of a prefix of a session (a replay drawn as far as it has got, a running episode)
 * are those of the whole. Its name is the page's title (the URL when the title is empty); a later
 * page whose title an earlier, different URL already had is named `title (path)` so that the two
 * can be told apart. A step without a page (a record made before pages were kept) breaks the
 * path, as a step without a location does on the room map. Pure and synchronous.
 */
import type { PlayerLocation } from '../engine/interface.ts';
import type { PageSnapshot } from '../web/interface.ts';
import { buildRoomMap, type MapEpisode, type RoomMap } from './room-map.ts';
import type { TrajectoryStep } from './trajectory.ts';

/** What the page map reads of one episode of a web task (finished or still running). */
export interface PageMapEpisode {
  startPage?: Pick<PageSnapshot, 'url' | 'title'> | null;
  steps: readonly Pick<TrajectoryStep, 'index' | 'action' | 'reward' | 'page'>[];
}

/** A URL as a page's identity: without its fragment, trimmed. */
export function pageKey(url: string): string {
  const hash = url.indexOf('#');
  return (hash < 0 ? url : url.slice(0, hash)).trim();
}

/** The path and query of a URL (the whole text when it does not parse as a URL). */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/**
 * The episodes of a web task as map episodes: every page a place `{id, name}` (see the module
 * comment for ids and names), each step's action kept as the move's label.
 * @param episodes in session order
 * @returns one map episode per episode, same steps; `location` null where a step has no page
 */
export function pageMapEpisodes(episodes: readonly PageMapEpisode[]): MapEpisode[] {
  const places = new Map<string, PlayerLocation>();
  const titled = new Set<string>();
  const place = (page: Pick<PageSnapshot, 'url' | 'title'> | null | undefined): PlayerLocation | null => {
    if (!page) return null;
    const key = pageKey(page.url);
    let known = places.get(key);
    if (!known) {
      const title = page.title.trim();
      const name = title === '' ? key : titled.has(title) ? `${title} (${pathOf(key)})` : title;
      if (title !== '') titled.add(title);
      known = { id: places.size + 1, name };
      places.set(key, known);
    }
    return known;
  };
  return episodes.map((e) => ({
    startLocation: place(e.startPage),
    steps: e.steps.map((s) => ({ index: s.index, action: s.action, reward: s.reward, location: place(s.page) })),
  }));
}

/**
 * The map of a web task's session: pages as rooms, actions between pages as edges (labelled by
 * the action, e.g. `click('24')`), the episode that first found each, where points were scored
 * and where each episode ended — `buildRoomMap` over `pageMapEpisodes`.
 */
export function buildPageMap(episodes: readonly PageMapEpisode[]): RoomMap {
  return buildRoomMap(pageMapEpisodes(episodes));
}
