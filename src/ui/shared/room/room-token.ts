/**
 * A room token carried by the page's address (`?teacher=…`, `?projector=…`) moves at once into
 * sessionStorage and out of the address bar (history.replaceState), so it is not left in the
 * history, a bookmark, a screenshot of the address bar or a shared link. A reload finds it in
 * sessionStorage. Browser objects are injected (tests pass fakes).
 */

/** What `takeRoomToken` needs of the window. */
export interface TokenHost {
  location: { href: string };
  history: { replaceState(data: unknown, unused: string, url: string): void; state: unknown };
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
}

/** The sessionStorage key of the token named by query parameter `param`. */
export const roomTokenKey = (param: string): string => `metattl-room-${param}-token`;

/**
 * The token in query parameter `param` (then stored and removed from the address), else the one
 * stored earlier in this tab, else null. Other query parameters stay as they were.
 */
export function takeRoomToken(param: string, host: TokenHost): string | null {
  const url = new URL(host.location.href);
  const fromUrl = url.searchParams.get(param);
  if (fromUrl !== null && fromUrl !== '') {
    try {
      host.sessionStorage.setItem(roomTokenKey(param), fromUrl);
    } catch {
      // Storage refused (private mode quota): the token lives in this page only.
    }
    url.searchParams.delete(param);
    host.history.replaceState(host.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return host.sessionStorage.getItem(roomTokenKey(param));
  } catch {
    return null;
  }
}
