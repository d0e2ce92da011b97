/**
 * The page's URL fragment as the share inbox needs it (read, clear, follow), and its browser
 * implementation (history.replaceState to clear it without a reload; hashchange to follow it).
 */

/** The page's URL fragment, as the inbox needs it. */
export interface ShareLocation {
  /** The current fragment, with its '#' ('' when none). */
  hash(): string;
  /** Remove the fragment without a reload or a new history entry. */
  clearHash(): void;
  /** Call `listener` when the fragment changes. */
  onHashChange(listener: () => void): void;
}

/** The browser's fragment (history.replaceState to clear it; hashchange to follow it). */
export function createBrowserShareLocation(win: Window = window): ShareLocation {
  return {
    hash: () => win.location.hash,
    clearHash() {
      const url = new URL(win.location.href);
      url.hash = '';
      win.history.replaceState(win.history.state, '', url);
    },
    onHashChange: (listener) => win.addEventListener('hashchange', listener),
  };
}
