/**
 * Where the student page finds its room and keeps its identity. The room code comes from `?room=`
 * (a join link); the participant token is kept in localStorage (per origin, so per room server),
 * so a reload or a laptop waking rejoins as the same participant. The page probes `/api/info` only
 * when it is served at its origin's root (the room server serves the page there), so a page on a
 * sub-path or a static host makes no stray request. Storage is injected. Pure otherwise.
 */
import { ROOM_LIMITS } from '../../room/protocol.ts';

/** The localStorage surface used (a `Storage`, or a stand-in in tests). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What the page keeps of its membership (the token never leaves this storage but in an Authorization header). */
export interface RoomIdentity {
  participantId: string;
  token: string;
  name: string;
  code: string;
}

/** localStorage key of the identity. */
export const IDENTITY_KEY = 'metattl.room.identity';

/** The `?room=` code of `url` (trimmed, bounded), or null. */
export function roomCodeOf(url: URL): string | null {
  const code = url.searchParams.get('room')?.trim() ?? '';
  return code === '' ? null : code.slice(0, ROOM_LIMITS.code);
}

/** Whether the page at `url` should ask its origin's `/api/info`: served at the origin's root, not the booth. */
export function shouldProbe(url: URL): boolean {
  return (url.pathname === '/' || url.pathname === '/index.html') && url.searchParams.get('kiosk') !== '1';
}

/** The room's WebSocket address for a page at `origin`: http → ws, https → wss. */
export function socketUrlOf(origin: string): string {
  return origin.replace(/^http/, 'ws');
}

const isIdentity = (v: unknown): v is RoomIdentity =>
  typeof v === 'object' && v !== null && ['participantId', 'token', 'name', 'code'].every((k) => typeof (v as Record<string, unknown>)[k] === 'string');

/** The kept identity, or null (none, unreadable, or storage refused). */
export function loadIdentity(storage: KeyValueStorage): RoomIdentity | null {
  try {
    const value = JSON.parse(storage.getItem(IDENTITY_KEY) ?? 'null') as unknown;
    return isIdentity(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keep `identity` (null forgets it). A refused storage is ignored: the page then rejoins by hand after a reload. */
export function saveIdentity(storage: KeyValueStorage, identity: RoomIdentity | null): void {
  try {
    if (identity === null) storage.removeItem(IDENTITY_KEY);
    else storage.setItem(IDENTITY_KEY, JSON.stringify(identity));
  } catch {
    // storage refused (private mode, full): the identity lives as long as the page
  }
}
