/**
 * `startRoomServer`: one workshop room on one port — the Hocuspocus engine (the shared document,
 * read-only for every client), the HTTP routes, the built page, the private state (memory, sqlite
 * under `--data`, or an injected backend such as Redis), and the injected model forwarder and
 * scorer. The third composition root beside the page and the CLI: it wires, it does not
 * re-implement. Every log line is scrubbed of secrets.
 */
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { scrubText } from '../common/secrets.ts';
import { ROOM_DOCUMENT, type RoomAddresses, type RoomSettings, type ScoreState } from '../room/protocol.ts';
import { encodeRoomDoc, readRoom, RoomDocWriter, RoomYDoc } from '../room/room-doc.ts';
import { isFinalScore, restoreScores, SCORE_RECORD } from './doc-rebuild.ts';
import { startRoomHocuspocus, type RoomConnectionContext } from './hocuspocus.ts';
import { RedisState } from './redis-state.ts';
import { withRemoteModeration, type DisconnectHere } from './remote-moderation.ts';
import { RoomActions } from './room-actions.ts';
import { createRoomRouter } from './room-http.ts';
import { RoomState, type RoomIdentity } from './room-state.ts';
import type { ForwarderDeps, RoomForwarder, RoomScorer, RoomServerOptions, RoomStateBackend, RunningRoom } from './seams.ts';
import { memoryBackend, RoomSqlite } from './sqlite-store.ts';

/** The page's folder when none is given: the package's `dist/`. */
export const DEFAULT_PAGE_DIR = resolve(import.meta.dirname, '../../dist');

/** The first non-internal IPv4 address of this machine (what students on the LAN reach), else 127.0.0.1. */
export function lanAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

/**
 * The room's addresses at `http://host:port` (an IPv6 host in brackets), or at `host` itself when
 * it is an origin (`https://room.example.org`: a reverse proxy in front of the room, on a cloud VM).
 */
export function roomAddresses(host: string, port: number, identity: RoomIdentity): RoomAddresses {
  const origin = /^https?:\/\//.test(host) ? host.replace(/\/+$/, '') : `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    joinUrl: `${origin}/?room=${encodeURIComponent(identity.code)}`,
    teacherUrl: `${origin}/?view=room-teacher&teacher=${encodeURIComponent(identity.teacherToken)}`,
    projectorUrl: `${origin}/?view=projector&projector=${encodeURIComponent(identity.projectorToken)}`,
    code: identity.code,
    port,
  };
}

function initialSettings(options: RoomServerOptions): RoomSettings {
  return {
    title: options.title?.trim().slice(0, 80) || 'Workshop room',
    namesHidden: false,
    killedAll: false,
    caps: { maxCalls: null, maxTokens: null, maxUsd: null, opensAt: null, closesAt: null, ...options.caps },
  };
}

/** The injected backend, else Redis with `redisUrl` (the servers of one room share it), else sqlite under `dataDir`, else memory. */
async function backendFor(options: RoomServerOptions, sqlite: RoomSqlite | null, log: (line: string) => void): Promise<RoomStateBackend> {
  if (options.stateBackend) return options.stateBackend;
  if (options.redisUrl) return await RedisState.open({ url: options.redisUrl, log });
  return sqlite?.backend() ?? memoryBackend();
}

/**
 * Starts the room: restores it from `dataDir` (or the shared backend) when it exists there, else
 * makes a new code and tokens. Resolves once it listens.
 * @throws Error when the port is taken or the data folder cannot be opened; RoomRedisError when `redisUrl` cannot be reached
 */
export async function startRoomServer(options: RoomServerOptions): Promise<RunningRoom> {
  const log = (line: string): void => options.log?.(scrubText(line));
  const sqlite = options.dataDir ? RoomSqlite.open(options.dataDir) : null;
  let disconnectHere: DisconnectHere | null = null;
  let endedElsewhere = (): void => {};
  let state = new RoomState(withRemoteModeration(await backendFor(options, sqlite, log), () => disconnectHere, () => endedElsewhere()));
  await state.open();
  if (sqlite && !options.stateBackend && !options.redisUrl && state.ended()) {
    // An ended room's folder keeps only that it ended: a teacher starting it again wants a new room.
    log(`The room ${state.code} kept in ${options.dataDir} has ended: starting a new room there, with a new code and new links.`);
    await state.close();
    sqlite.clear();
    state = new RoomState(withRemoteModeration(await backendFor(options, sqlite, log), () => disconnectHere, () => endedElsewhere()));
    await state.open();
  }
  const { identity, created } = await state.identity();
  let router: ReturnType<typeof createRoomRouter> | null = null;
  const engine = await startRoomHocuspocus({
    port: options.port,
    host: options.listenHost ?? '0.0.0.0',
    sqlite,
    ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
    log,
    authenticate: (token) => (router ? connectionOf(router.callerOf(token), state) : null),
    handleRequest: async (req, res) => {
      if (router) return router.handle(req, res);
      res.writeHead(503, { 'Content-Type': 'text/plain' }).end('The room is starting.');
    },
  });
  disconnectHere = (participantId) => engine.disconnect((c) => (participantId === null ? c.role === 'student' : c.participantId === participantId));
  const writer = new RoomDocWriter(engine.doc);
  state.setScoreSource(() => readRoom(engine.doc).scores);
  const made: { scorer?: RoomScorer } = {};
  const actions = new RoomActions({
    state,
    writer,
    get scorer() {
      return made.scorer;
    },
    log,
    ...(options.model ? { model: options.model } : {}),
    disconnect: (participantId) => disconnectHere?.(participantId),
    afterEnd: async (elsewhere) => {
      if (!sqlite) return;
      sqlite.storeDocument(ROOM_DOCUMENT, encodeRoomDoc(elsewhere ? endedDocument(state) : engine.doc));
      sqlite.compact();
      sqlite.sealDocuments();
    },
  });
  endedElsewhere = () => void actions.endedElsewhere().catch((e: Error) => log(`the room's end made on another server was not applied here: ${e.message}`));
  const onScore = (id: string, score: ScoreState): void => {
    actions.reportScore(id, score);
    // A final score is kept in the private state too, so the document can be rebuilt from it.
    if (isFinalScore(score)) void state.put({ kind: SCORE_RECORD, id, value: score }).catch((e: Error) => log(`score not stored: ${e.message}`));
  };
  const scorer = options.makeScorer?.({ onScore, onEvolution: (evolution) => writer.putEvolution(evolution) }) ?? options.scorer;
  if (scorer) made.scorer = scorer;
  const deps: ForwarderDeps = {
    participant: (id) => state.participant(id),
    addUsage: (id, usage) => void state.addUsage(id, usage).catch((e: Error) => log(`usage not stored: ${e.message}`)),
    settings: () => state.settings(),
  };
  const forwarder: RoomForwarder | null = options.makeForwarder?.(deps) ?? options.forwarder ?? null;
  // A room kept in Redis whose document was lost with its servers (none had --data).
  const documentLost = !created && readRoom(engine.doc).settings === null;
  await actions.start(initialSettings(options), created);
  if (documentLost) restoreScores(state, writer);
  router = createRoomRouter({ state, actions, forwarder, pageDir: options.pageDir ?? DEFAULT_PAGE_DIR, log, joinUrl: () => addresses.joinUrl, projectorUrl: () => addresses.projectorUrl });
  const addresses = roomAddresses(options.publicHost ?? lanAddress(), engine.port, identity);
  log(`room ${identity.code} listening on port ${engine.port}${created ? '' : ' (restored)'}`);
  let closing: Promise<void> | null = null;
  return {
    addresses,
    teacherToken: identity.teacherToken,
    state,
    close: () =>
      (closing ??= (async () => {
        actions.close();
        await scorer?.close();
        await forwarder?.close?.();
        await engine.close();
        await state.close();
        sqlite?.close();
      })()),
  };
}

/** The document of a room that ended, as its state says (its settings and that it ended; nothing
 * of its students): what a server stores when the end reached it from another server, whose wipe of
 * the shared document may not have arrived yet. */
function endedDocument(state: RoomState): RoomYDoc {
  const writer = new RoomDocWriter(new RoomYDoc());
  writer.setSettings(state.settings());
  writer.setEnded(true);
  return writer.doc;
}

/** A WebSocket connection's identity from its token's caller, or null to refuse it. */
function connectionOf(caller: ReturnType<ReturnType<typeof createRoomRouter>['callerOf']>, state: RoomState): RoomConnectionContext | null {
  if (caller.role === 'teacher') return { role: 'teacher', participantId: null, name: 'Teacher' };
  if (caller.role === 'projector') return { role: 'projector', participantId: null, name: null };
  if (caller.role !== 'participant' || state.ended()) return null;
  const p = state.participant(caller.participantId);
  return p && !p.removed ? { role: 'student', participantId: p.id, name: p.name } : null;
}
