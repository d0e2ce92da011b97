/**
 * The view shown, following the URL (views.ts): `go` adds a history entry, back / forward switch
 * back, and listeners run when a view is shown (so a view's state starts only when first needed).
 * History I/O is injected (`Navigation`).
 */
import { DEFAULT_VIEW, hrefFor, urlFor, viewOf, type ViewId } from './views.ts';

export { VIEWS, type ViewId } from './views.ts';

/** The browser history, as the router needs it. */
export interface Navigation {
  /** The page's current URL. */
  url(): URL;
  /** Add a history entry for `url` without reloading. */
  push(url: URL): void;
  /** Call `listener` after back / forward. */
  onPop(listener: () => void): void;
}

export class Router {
  view = $state<ViewId>(DEFAULT_VIEW);
  /** The current URL's href (links re-render when it changes). */
  private current = $state('');
  private readonly enterListeners: { view: ViewId; listener: () => void }[] = [];

  constructor(private readonly navigation: Navigation) {}

  /** Show the view of the current URL and follow back / forward. */
  start(): void {
    this.navigation.onPop(() => this.show());
    this.show();
  }

  /** The link to `view` (path and query, for an `<a href>`). */
  href(view: ViewId): string {
    return hrefFor(this.current || this.navigation.url(), view);
  }

  /** Switch to `view`, adding a history entry. */
  go(view: ViewId): void {
    if (view === this.view) return;
    this.navigation.push(urlFor(this.navigation.url(), view));
    this.show();
  }

  /** Show `view` with extra query parameters set (e.g. `?view=learn&metaPrompt=<id>`), adding a
   * history entry; the view's enter listeners run even when it is already shown. */
  open(view: ViewId, params: Record<string, string> = {}): void {
    const next = urlFor(this.navigation.url(), view);
    for (const [name, value] of Object.entries(params)) next.searchParams.set(name, value);
    this.navigation.push(next);
    this.show();
  }

  /** Call `listener` each time `view` is shown (also at `start` when it is the first view). */
  onEnter(view: ViewId, listener: () => void): void {
    this.enterListeners.push({ view, listener });
  }

  private show(): void {
    const url = this.navigation.url();
    this.current = url.href;
    this.view = viewOf(url);
    for (const { view, listener } of this.enterListeners) if (view === this.view) listener();
  }
}
