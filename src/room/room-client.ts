/**
 * A read-only connection to the room's shared document (Hocuspocus over a WebSocket). The only
 * importer of @hocuspocus/provider. Used by the page's room views and the Node load test; the
 * provider reconnects by itself after a dropped network or a sleeping laptop, and the document
 * resyncs on reconnect.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { ROOM_DOCUMENT, type RoomPresence } from './protocol.ts';
import { observeRoom, RoomYDoc, type RoomState } from './room-doc.ts';

export type RoomConnectionStatus = 'connecting' | 'connected' | 'disconnected';

export interface RoomConnectionOptions {
  /** The room server's WebSocket address, e.g. `ws://192.168.1.20:8080` (the page's origin with ws:/wss:). */
  url: string;
  /** A participant, teacher or projector token (the server refuses the connection without one). */
  token: string;
  /** The presence to announce (the server overwrites its identity fields from the token). */
  presence: RoomPresence;
  /** Where the host has no global WebSocket. */
  WebSocket?: unknown;
  onState?: (state: RoomState) => void;
  onStatus?: (status: RoomConnectionStatus) => void;
  /** The token was refused (removed participant, ended room, wrong token). */
  onRefused?: (reason: string) => void;
}

/** An open connection: the live document, presence of everyone connected, and `close()`. */
export interface RoomConnection {
  readonly doc: InstanceType<typeof RoomYDoc>;
  /** Every connected client's presence (the server's authenticated identities). */
  presences(): RoomPresence[];
  onPresence(listener: (presences: RoomPresence[]) => void): () => void;
  setActivity(activity: string): void;
  /** Resolves once the document has synced from the server the first time. */
  synced: Promise<void>;
  close(): void;
}

/** Opens the connection; it keeps reconnecting until `close()`. */
export function connectRoom(options: RoomConnectionOptions): RoomConnection {
  const doc = new RoomYDoc();
  const websocketProvider = new HocuspocusProviderWebsocket({
    url: options.url,
    ...(options.WebSocket !== undefined ? { WebSocketPolyfill: options.WebSocket } : {}),
  });
  let resolveSynced!: () => void;
  const synced = new Promise<void>((resolve) => (resolveSynced = resolve));
  const provider = new HocuspocusProvider({
    websocketProvider,
    name: ROOM_DOCUMENT,
    document: doc,
    token: options.token,
    onStatus: ({ status }) => options.onStatus?.(status as RoomConnectionStatus),
    onSynced: () => resolveSynced(),
    onAuthenticationFailed: ({ reason }) => options.onRefused?.(reason),
  });
  // A provider given its own websocket is not attached to it by itself (Hocuspocus 4).
  provider.attach();
  provider.setAwarenessField('presence', options.presence);
  const unobserve = options.onState ? observeRoom(doc, options.onState) : () => {};
  const presences = (): RoomPresence[] =>
    [...(provider.awareness?.getStates().values() ?? [])]
      .map((s) => (s as { presence?: RoomPresence }).presence)
      .filter((p): p is RoomPresence => p !== undefined);
  return {
    doc,
    presences,
    onPresence(listener) {
      const onChange = (): void => listener(presences());
      provider.awareness?.on('change', onChange);
      return () => provider.awareness?.off('change', onChange);
    },
    setActivity(activity) {
      provider.setAwarenessField('presence', { ...options.presence, activity });
    },
    synced,
    close() {
      unobserve();
      provider.destroy();
      websocketProvider.destroy();
      doc.destroy();
    },
  };
}
