/**
 * The page's URL fragment as the share inbox needs it (read, clear, follow), and its browser
 * implementation (history.replaceState to clear it without a reload; hashchange to follow it).
 */
import { shareFragmentOf, withoutShare } from '../../share/share-link.ts';

/** The page's URL fragment, as the inbox needs it. */
export interface ShareLocation {
  /** The current fragment, with its '#' ('' when none). */
  hash(): string;
  /** Remove the fragment without a reload or a new history entry. */
  clearHash(): void;
  /** Call `listener` when the fragment changes. */
  onHashChange(listener: () => void): void;
}

/** The browser's fragment (history.replaceState to clear it; hashchange to follow it). A share
 * that landed in the query (`?share=…`, an encoded `%23share=`) is read as the fragment and
 * cleared with it (share-link.ts `shareFragmentOf`). */
export function createBrowserShareLocation(win: Window = window): ShareLocation {
  return {
    hash: () => shareFragmentOf(win.location.href) || win.location.hash,
    clearHash() {
      win.history.replaceState(win.history.state, '', withoutShare(win.location.href));
    },
    onHashChange: (listener) => win.addEventListener('hashchange', listener),
  };
}
