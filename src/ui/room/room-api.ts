/**
 * The student page's HTTP calls to the room server (routes and bodies: src/room/protocol.ts), with
 * its errors in plain words. `fetch` is injected; the participant token travels only in the
 * Authorization header, never in a URL.
 */
import { MetattlError } from '../../common/errors.ts';
import type { ModelPrice } from '../../llm/interface.ts';
import type { JoinReply, ParticipantView, RoomInfo, SubmissionPublic, SubmitRequest } from '../../room/protocol.ts';
import { roomRequest, serverWords, type RoomFetch } from '../shared/room/room-fetch.ts';

export type Fetch = RoomFetch;

/**
 * A room route refused the request (`status` set) or could not be reached (`status` null: the
 * network; an outbox keeps the submission and sends it later).
 */
export class RoomCallError extends MetattlError {
  override readonly name = 'RoomCallError';
  constructor(
    message: string,
    /** HTTP status; null when no answer arrived (offline, server down). */
    readonly status: number | null,
  ) {
    super('room_call', message);
  }
}

/** Plain words for a refused room request, by route kind and status (the server's own message when it sent one). */
export function roomRefusalText(kind: 'join' | 'submit' | 'me', status: number, serverMessage: string | null): string {
  if (kind === 'join' && status === 403) return 'That room code is not this room’s. Check the code on the projector (or ask the teacher) and try again.';
  if (status === 410) return 'This room has ended: the teacher closed it.';
  if (status === 401) return 'The room does not know this page any more (the room was restarted without its data, or ended). Join again.';
  if (status === 403) return 'The teacher removed you from this room.';
  if (kind === 'submit' && status === 409) return 'The round is not open for submissions any more (the teacher locked or closed it).';
  if (kind === 'submit' && status === 413) return 'The meta-prompt is too long for the room.';
  if (status === 429) return serverMessage ?? 'Too many submissions in a minute: wait a little and submit again.';
  if (kind === 'join' && status === 400) return serverMessage ?? 'The name is not accepted: use 1 to 40 characters.';
  return serverMessage ?? `The room refused the request (HTTP ${status}).`;
}

/** One JSON request; a refusal or a network failure thrown as RoomCallError in plain words. */
async function request<T>(fetch: Fetch, kind: 'join' | 'submit' | 'me', url: string, init: RequestInit): Promise<T> {
  const response = await roomRequest(fetch, url, init);
  if (response === null) throw new RoomCallError('The room cannot be reached: check the Wi-Fi (the page tries again by itself).', null);
  if (!response.ok) throw new RoomCallError(roomRefusalText(kind, response.status, await serverWords(response)), response.status);
  return (await response.json()) as T;
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const json = { 'content-type': 'application/json' };

/** The room API of the page at `origin` (`http://192.168.1.20:8080`). */
export class RoomApi {
  constructor(
    private readonly fetch: Fetch,
    readonly origin: string,
  ) {}

  /**
   * Whether the page's origin is a room: `GET /api/info` answering `{ room: true, … }`.
   * @returns the room's info, or null for anything else (404, a page, not JSON, offline) — never throws
   */
  async info(): Promise<RoomInfo | null> {
    try {
      const response = await this.fetch(`${this.origin}/api/info`, { headers: { accept: 'application/json' } });
      if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return null;
      const body = (await response.json()) as Partial<RoomInfo> | null;
      return body !== null && typeof body === 'object' && body.room === true ? { room: true, joinable: body.joinable !== false, title: typeof body.title === 'string' ? body.title.slice(0, 120) : 'Workshop room' } : null;
    } catch {
      return null;
    }
  }

  /** `POST /api/join`. @throws RoomCallError (403: a wrong code, 410: ended, 400: a bad name) */
  join(code: string, name: string): Promise<JoinReply> {
    return request(this.fetch, 'join', `${this.origin}/api/join`, { method: 'POST', headers: json, body: JSON.stringify({ code: code.trim(), name: name.trim() }) });
  }

  /** `GET /api/me`: the participant as the room knows it (usage, caps). @throws RoomCallError (401/403: no longer in the room) */
  me(token: string): Promise<ParticipantView> {
    return request(this.fetch, 'me', `${this.origin}/api/me`, { headers: bearer(token) });
  }

  /** `POST /api/submissions` (idempotent on `clientId`). @throws RoomCallError (status null: not sent) */
  submit(token: string, submission: SubmitRequest): Promise<SubmissionPublic> {
    return request(this.fetch, 'submit', `${this.origin}/api/submissions`, { method: 'POST', headers: { ...json, ...bearer(token) }, body: JSON.stringify(submission) });
  }

  /**
   * The model the room serves: the first `GET /v1/models` lists.
   * @throws RoomCallError when the forwarder refuses or lists none
   */
  async model(token: string): Promise<RoomModel> {
    const body = await request<{ data?: { id?: unknown; price?: unknown }[] }>(this.fetch, 'me', `${this.origin}/v1/models`, { headers: bearer(token) });
    const first = body.data?.find((m) => typeof m.id === 'string');
    if (typeof first?.id !== 'string') throw new RoomCallError('The room serves no model yet: ask the teacher.', 200);
    return { id: first.id, price: priceOf(first.price) };
  }
}

/** The room's model as `/v1/models` lists it first: its id, and its price when the room sent one. */
export interface RoomModel {
  id: string;
  /** USD per million tokens (the room's price at its provider; 0 for its local model), or null: unknown. */
  price: ModelPrice | null;
}

/** A `price` field of `/v1/models` if it is a usable one (finite, non-negative numbers), else null. */
function priceOf(value: unknown): ModelPrice | null {
  if (typeof value !== 'object' || value === null) return null;
  const { inputPerMTokUsd: input, outputPerMTokUsd: output } = value as Record<string, unknown>;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  return ok(input) && ok(output) ? { inputPerMTokUsd: input, outputPerMTokUsd: output } : null;
}
