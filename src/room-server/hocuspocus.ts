/**
 * The room's sync engine: a Hocuspocus server on our HTTP port. The only importer of
 * @hocuspocus/server, @hocuspocus/extension-database and @hocuspocus/extension-redis.
 *
 * - Every WebSocket connection is authenticated by its token (`authenticate`: participant,
 *   teacher or projector → its identity; anything else refused) and is **read-only**: a client's
 *   update never reaches the document. Only the document named `room` may be opened.
 * - Presence: `beforeHandleAwareness` replaces each incoming awareness state by
 *   `{ presence: { role, participantId, name, activity } }` with the identity from the connection's
 *   token (a client cannot show as someone else); `activity` is bounded text.
 * - Plain HTTP requests go to `handleRequest` (our router).
 * - Persistence: with `sqlite`, the document is fetched from and stored into its `documents` table.
 * - Scale-out: with `redisUrl`, the Redis extension shares the document and presence with every
 *   server on the same Redis and prefix.
 * The server keeps the document loaded for its whole life (a direct connection), so it can write
 * it at any time and a Redis peer always exchanges updates with it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Database } from '@hocuspocus/extension-database';
import { Redis } from '@hocuspocus/extension-redis';
import { Server, type DirectConnection, type Document, type Extension } from '@hocuspocus/server';
import { ROOM_DOCUMENT, type RoomPresence } from '../room/protocol.ts';
import type { RoomYDoc } from '../room/room-doc.ts';
import { cleanText } from './room-errors.ts';
import type { RoomSqlite } from './sqlite-store.ts';

/** A connection's identity, set from its token. */
export interface RoomConnectionContext {
  role: RoomPresence['role'];
  participantId: string | null;
  name: string | null;
}

export interface RoomHocuspocusOptions {
  port: number;
  host: string;
  /** The identity of a token, or null to refuse the connection. */
  authenticate(token: string): RoomConnectionContext | null;
  /** Every plain HTTP request. */
  handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void>;
  sqlite: RoomSqlite | null;
  redisUrl?: string;
  /** Redis key namespace (default `metattl-room`). */
  redisPrefix?: string;
  log(line: string): void;
}

/** The running engine: the loaded document and its connections. */
export interface RoomHocuspocus {
  readonly port: number;
  readonly doc: InstanceType<typeof RoomYDoc>;
  /** Closes the live connections whose identity matches (they reconnect, and are checked again). */
  disconnect(matches: (context: RoomConnectionContext) => boolean): void;
  /** Every connected client's presence, as the server rewrote it. */
  presences(): RoomPresence[];
  /** Stores the document and stops. */
  close(): Promise<void>;
}

/** Activity text a client may announce (characters). */
const ACTIVITY_MAX = 40;

/** The Redis extension's connection from `redis://[user:password@]host[:port][/db]`. */
function redisExtension(url: string, prefix: string): Redis {
  const u = new URL(url);
  const db = Number(u.pathname.slice(1) || '0');
  return new Redis({
    host: u.hostname,
    port: Number(u.port || 6379),
    prefix,
    options: { ...(u.username ? { username: decodeURIComponent(u.username) } : {}), ...(u.password ? { password: decodeURIComponent(u.password) } : {}), db },
  });
}

function extensions(options: RoomHocuspocusOptions): Extension[] {
  const list: Extension[] = [];
  const sqlite = options.sqlite;
  if (sqlite) {
    list.push(new Database({
      fetch: async ({ documentName }) => sqlite.fetchDocument(documentName),
      store: async ({ documentName, state }) => sqlite.storeDocument(documentName, state),
    }));
  }
  if (options.redisUrl) list.push(redisExtension(options.redisUrl, options.redisPrefix ?? 'metattl-room'));
  return list;
}

/** The presence a connection may show: one state, its identity, with the client's activity bounded. */
function rewritePresence(states: Map<number, Record<string, unknown>>, context: RoomConnectionContext): void {
  let kept = 0;
  for (const [clientId, state] of states) {
    const claimed = state.presence as Partial<RoomPresence> | undefined;
    if (!claimed || typeof claimed !== 'object' || kept++ > 0) {
      states.delete(clientId);
      continue;
    }
    const activity = cleanText(claimed.activity, ACTIVITY_MAX);
    const presence: RoomPresence = { role: context.role, participantId: context.participantId, name: context.name, ...(activity ? { activity } : {}) };
    states.set(clientId, { presence });
  }
}

/** Starts the engine on `options.port` (0: a free one) and loads the room's document. */
export async function startRoomHocuspocus(options: RoomHocuspocusOptions): Promise<RoomHocuspocus> {
  const server = new Server<RoomConnectionContext>({
    port: options.port,
    address: options.host,
    quiet: true,
    stopOnSignals: false,
    // Clients only read; what they send is sync requests and presence.
    websocketOptions: { maxPayload: 256 * 1024 },
    debounce: 500,
    maxDebounce: 3000,
    extensions: extensions(options),
    async onAuthenticate(data) {
      if (data.documentName !== ROOM_DOCUMENT) throw new Error('no such document');
      const context = options.authenticate(data.token);
      if (!context) throw new Error('not a token of this room');
      data.connectionConfig.readOnly = true;
      return context;
    },
    async beforeHandleAwareness({ states, context }) {
      // Updates from a connection are rewritten; a Redis peer's were rewritten on its server.
      if (context) rewritePresence(states, context);
    },
    async onRequest({ request, response }) {
      await options.handleRequest(request, response);
      // An empty rejection stops Hocuspocus's own answer: ours is sent.
      return Promise.reject();
    },
  });
  await server.listen();
  const direct: DirectConnection = await server.hocuspocus.openDirectConnection(ROOM_DOCUMENT, { role: 'teacher', participantId: null, name: null });
  const document = (direct as unknown as { document: Document }).document;
  return {
    port: server.address.port,
    doc: document,
    disconnect(matches) {
      document.connections.forEach((_clients, connection) => {
        if (!matches(connection.context)) return;
        connection.close({ code: 4403, reason: 'refused' });
        // The socket too: the client reconnects and its token is checked again (and refused).
        connection.webSocket.close(4403, 'refused');
      });
    },
    presences() {
      return [...document.awareness.getStates().values()].map((s) => (s as { presence?: RoomPresence }).presence).filter((p): p is RoomPresence => p !== undefined);
    },
    async close() {
      await direct.disconnect();
      // Hocuspocus's destroy resets the document's connections but leaves their sockets open until
      // the clients' ping timeout (30 s): a room stopped with the class connected would wait that
      // long to exit. "Going away" closes them now; the clients reconnect to the restarted room.
      document.connections.forEach((_clients, connection) => connection.webSocket.close(1001, 'the room server is stopping'));
      await server.destroy();
    },
  };
}
