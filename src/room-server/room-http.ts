/**
 * The room's HTTP router: every route of src/room/protocol.ts, the `/v1/*` model routes (handed to
 * the forwarder once the participant token is resolved) and the built page. Tokens come as
 * `Authorization: Bearer <token>`; a teacher route with a participant's or the projector's token is
 * 403, without a valid token 401. JSON bodies are bounded (`BODY_LIMIT`); refusals are
 * `{ error, code }` with the status of their code (room-errors.ts); log lines are scrubbed of
 * secrets by the caller's `log`.
 */
import { timingSafeEqual } from 'node:crypto';
import { scrubKeys } from '../common/secrets.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProjectorInfo, RoomInfo, RoomSnapshot } from '../room/protocol.ts';
import { ROOM_EXPORT_FORMATS, type RoomExportFormat } from '../room/room-export.ts';
import type { RoomActions, Viewer } from './room-actions.ts';
import { parseRoundConfig } from './room-actions.ts';
import { RoomRequestError } from './room-errors.ts';
import type { RoomIdentity, RoomState } from './room-state.ts';
import type { RoomForwarder } from './seams.ts';
import { PAGE_HEADERS, servePage } from './static-page.ts';

/** The largest JSON body a route reads (bytes): a submission's 8,000 characters in UTF-8 with room to spare. */
export const BODY_LIMIT = 64 * 1024;

export interface RoomRouterDeps {
  state: RoomState;
  actions: RoomActions;
  forwarder: RoomForwarder | null;
  pageDir: string;
  log(line: string): void;
  /** The join address the projector shows (`GET /api/projector`). */
  joinUrl?: () => string;
  /** The projector's link, given to the teacher's token only (`GET /api/projector`). */
  projectorUrl?: () => string;
}

/** Who a request is: from its bearer token. */
export type Caller = Viewer | { role: 'projector' };

type Handler = (ctx: { req: IncomingMessage; res: ServerResponse; caller: Caller; params: string[]; url: URL }) => Promise<unknown>;
interface Route { method: string; pattern: RegExp; who: 'anyone' | 'participant' | 'teacher'; handler: Handler }

const sameText = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The bearer token of a request, or null. */
export function bearerOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** Reads a JSON object body of at most `BODY_LIMIT` bytes. @throws RoomRequestError 413 too large, 400 not a JSON object */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > BODY_LIMIT) throw new RoomRequestError('room_too_large', `The request body is over ${BODY_LIMIT} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new RoomRequestError('room_too_large', `The request body is over ${BODY_LIMIT} bytes.`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RoomRequestError('room_bad_request', 'The request body is not JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RoomRequestError('room_bad_request', 'The request body must be a JSON object.');
  return value as Record<string, unknown>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...PAGE_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The routes of protocol.ts, in match order. */
function routes(deps: RoomRouterDeps): Route[] {
  const { actions, state } = deps;
  const participantId = (caller: Caller): string => (caller as { participantId: string }).participantId;
  const r = (method: string, path: string, who: Route['who'], handler: Handler): Route => ({ method, pattern: new RegExp(`^${path}$`), who, handler });
  return [
    r('GET', '/api/info', 'anyone', async () => ({ room: true, joinable: !state.ended(), title: state.settings().title }) satisfies RoomInfo),
    r('POST', '/api/join', 'anyone', async ({ req }) => actions.join(await readJson(req))),
    r('GET', '/api/me', 'participant', async ({ caller }) => state.participant(actions.participantOf(participantId(caller)).id)),
    r('POST', '/api/submissions', 'participant', async ({ req, caller }) => actions.submit(participantId(caller), await readJson(req))),
    // A room token is needed even after the reveal; the text leaves scrubbed of keys (the teacher's, and any provider-shaped one).
    r('GET', '/api/submissions/([\\w-]+)', 'anyone', async ({ caller, params }) => {
      if (caller.role === 'none') throw new RoomRequestError('room_unauthorized', 'This needs a room token (a participant, teacher or projector link).');
      const { removed: _removed, ...sub } = actions.submissionText(params[0]!, caller.role === 'projector' ? { role: 'participant', participantId: '' } : caller);
      return { ...sub, text: scrubKeys(sub.text) };
    }),
    r('DELETE', '/api/submissions/([\\w-]+)', 'teacher', async ({ params }) => actions.removeSubmission(params[0]!).then(() => ({ removed: true }))),
    r('GET', '/api/room', 'teacher', async (): Promise<RoomSnapshot> => ({ ...state.snapshot(), unpricedModels: [...(deps.forwarder?.unpricedModels ?? [])] })),
    r('GET', '/api/projector', 'anyone', async ({ caller }) => {
      if (caller.role !== 'projector' && caller.role !== 'teacher') throw new RoomRequestError(caller.role === 'none' ? 'room_unauthorized' : 'room_forbidden', 'This needs the projector link (its token).');
      const info: ProjectorInfo = { code: state.code, joinUrl: deps.joinUrl?.() ?? '', title: state.settings().title };
      return caller.role === 'teacher' && deps.projectorUrl ? { ...info, projectorUrl: deps.projectorUrl() } : info;
    }),
    r('POST', '/api/rounds', 'teacher', async ({ req }) => actions.openRound(parseRoundConfig(await readJson(req)))),
    r('POST', '/api/rounds/([\\w-]+)/(lock|reveal|close)', 'teacher', async ({ params }) => actions.roundAction(params[0]!, params[1] as 'lock' | 'reveal' | 'close')),
    r('POST', '/api/participants/([\\w-]+)/remove', 'teacher', async ({ params }) => actions.removeParticipant(params[0]!)),
    r('POST', '/api/participants/([\\w-]+)/kill', 'teacher', async ({ req, params }) => actions.killParticipant(params[0]!, (await readJson(req)).killed)),
    r('POST', '/api/kill', 'teacher', async ({ req }) => actions.patchSettings({ killedAll: (await readJson(req)).killed })),
    r('PATCH', '/api/settings', 'teacher', async ({ req }) => actions.patchSettings(await readJson(req))),
    r('POST', '/api/evolution', 'teacher', async ({ req }) => actions.startEvolution(await readJson(req))),
    r('POST', '/api/evolution/stop', 'teacher', async () => (actions.stopEvolution(), { stopped: true })),
    r('POST', '/api/end', 'teacher', async () => actions.end()),
    r('GET', '/api/export', 'teacher', async ({ res, url }) => {
      const format = (url.searchParams.get('format') ?? 'json') as RoomExportFormat;
      if (!ROOM_EXPORT_FORMATS.includes(format)) throw new RoomRequestError('room_bad_request', `format must be one of ${ROOM_EXPORT_FORMATS.join(', ')}`);
      const file = actions.exportFile(format);
      res.writeHead(200, { ...PAGE_HEADERS, 'Content-Type': file.contentType, 'Cache-Control': 'no-store', 'Content-Disposition': `attachment; filename="${file.fileName}"` });
      res.end(file.body);
      return undefined;
    }),
  ];
}

/** The router: `handle(req, res)` answers every HTTP request of the room server. */
export function createRoomRouter(deps: RoomRouterDeps): { handle(req: IncomingMessage, res: ServerResponse): Promise<void>; callerOf(token: string | null): Caller } {
  const table = routes(deps);
  const identity = (): RoomIdentity | undefined => deps.state.get<RoomIdentity>('meta', 'room');
  const callerOf = (token: string | null): Caller => {
    const id = identity();
    if (!token || !id) return { role: 'none' };
    if (sameText(token, id.teacherToken)) return { role: 'teacher' };
    if (sameText(token, id.projectorToken)) return { role: 'projector' };
    const participantId = deps.state.participantOfToken(token);
    return participantId ? { role: 'participant', participantId } : { role: 'none' };
  };
  const allowed = (who: Route['who'], caller: Caller): void => {
    if (who === 'anyone' || caller.role === who) return;
    if (caller.role === 'none') throw new RoomRequestError('room_unauthorized', who === 'teacher' ? 'This needs the teacher\'s link (its token).' : 'Join the room first (no valid participant token).');
    throw new RoomRequestError('room_forbidden', who === 'teacher' ? 'Only the teacher may do this.' : 'Only a participant may do this.');
  };
  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const caller = callerOf(bearerOf(req));
    const matching = table.map((route) => ({ route, m: route.pattern.exec(url.pathname) })).filter((x) => x.m !== null);
    const hit = matching.find((x) => x.route.method === req.method);
    if (!hit) throw new RoomRequestError(matching.length ? 'room_method' : 'room_not_found', matching.length ? `${req.method} is not allowed here.` : 'No such route.');
    allowed(hit.route.who, caller);
    const body = await hit.route.handler({ req, res, caller, params: hit.m!.slice(1), url });
    if (!res.headersSent) sendJson(res, 200, body ?? {});
  }
  async function model(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const caller = callerOf(bearerOf(req));
    const openAiError = (status: number, message: string, code: string): void => sendJson(res, status, { error: { message, type: 'invalid_request_error', code } });
    if (caller.role !== 'participant') return openAiError(401, 'This model is for the room\'s participants: join the room (no valid participant token).', 'room_unauthorized');
    if (!deps.forwarder) return openAiError(503, 'This room has no model: the teacher started it without a provider.', 'room_no_model');
    await deps.forwarder.handle(req, res, caller.participantId);
  }
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://room.invalid');
    try {
      if (url.pathname.startsWith('/api/')) await api(req, res, url);
      else if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) await model(req, res);
      else if (req.method === 'GET' || req.method === 'HEAD') servePage(deps.pageDir, url.pathname, req, res);
      else throw new RoomRequestError('room_method', `${req.method} is not allowed here.`);
    } catch (error) {
      const known = error instanceof RoomRequestError;
      if (!known) deps.log(`error on ${req.method} ${url.pathname}: ${(error as Error).message}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, known ? error.status : 500, known ? { error: error.message, code: error.code } : { error: 'The room server failed on this request.', code: 'room_internal' });
    }
  }
  return { handle, callerOf };
}
