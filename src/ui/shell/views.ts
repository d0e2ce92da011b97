/**
 * The page's views and how a URL names one: the `view` query parameter (`?view=agent`; absent or
 * unknown = Play); switching keeps the parameters every view may read (`story`, `seed`, `task`,
 * `workshop`, `room`, …) and drops those only one view reads (`VIEW_PARAMS`: `replay`, `entry`,
 * `metaPrompt`) when leaving it. To add a view, append it to `VIEWS` and add its branch in
 * App.svelte. Pure.
 */

export const VIEWS = [
  { id: 'play', label: 'Play' },
  { id: 'agent', label: 'Agent' },
  { id: 'learn', label: 'Learn' },
  { id: 'replay', label: 'Replay' },
  { id: 'library', label: 'Library' },
  { id: 'evolve', label: 'Evolve' },
  { id: 'evaluate', label: 'Evaluate' },
  { id: 'experiments', label: 'Experiments' },
  { id: 'settings', label: 'Settings' },
  { id: 'room', label: 'Room' },
] as const satisfies readonly { id: string; label: string }[];

export type ViewId = (typeof VIEWS)[number]['id'];

/** The view of a URL without (or with an unknown) `view` parameter. */
export const DEFAULT_VIEW: ViewId = 'play';

const isView = (value: string | null): value is ViewId => VIEWS.some((v) => v.id === value);

/** The view a URL asks for. */
export function viewOf(url: URL): ViewId {
  const view = url.searchParams.get('view');
  return isView(view) ? view : DEFAULT_VIEW;
}

/** Query parameters that only one view reads: dropped when switching to any other view, so a
 * stale `?replay=<id>` does not ride along into every view and its links. */
export const VIEW_PARAMS: Readonly<Record<string, ViewId>> = {
  replay: 'replay',
  entry: 'library',
  metaPrompt: 'learn',
};

/** `url` switched to `view`: the same path and parameters, `view` set (dropped for the default),
 * the other views' own parameters (`VIEW_PARAMS`) dropped. */
export function urlFor(url: URL | string, view: ViewId): URL {
  const next = new URL(url);
  for (const [name, owner] of Object.entries(VIEW_PARAMS)) if (owner !== view) next.searchParams.delete(name);
  if (view === DEFAULT_VIEW) next.searchParams.delete('view');
  else next.searchParams.set('view', view);
  return next;
}

/** The link to `view` from the page at `url`: path, query and hash (for an `<a href>`). */
export function hrefFor(url: URL | string, view: ViewId): string {
  const next = urlFor(url, view);
  return `${next.pathname}${next.search}${next.hash}`;
}
