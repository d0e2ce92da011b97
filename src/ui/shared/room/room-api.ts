/**
 * The teacher's and the projector's HTTP requests to the room server (routes: src/room/protocol.ts),
 * each with the view's token as a bearer token. The server checks every action; a refusal becomes a
 * `RoomRefusedError` whose message is the server's plain words with the status, for the view to show
 * as is. `fetch` is injected (tests pass a fake).
 */
import { MetattlError } from '../../../common/errors.ts';
import type { EvolveTogetherRequest, ProjectorInfo, RoomSettings, RoomSnapshot, RoundConfig, RoundPublic } from '../../../room/protocol.ts';
import { roomRequest, serverWords, type RoomFetch } from './room-fetch.ts';

/** A request the room server refused (4xx/5xx) or could not be reached for. `status` 0: unreachable. */
export class RoomRefusedError extends MetattlError {
  override name = 'RoomRefusedError';
  constructor(readonly status: number, message: string) {
    super('room_refused', message);
  }
}

/** The formats of `GET /api/export` (src/room/room-export.ts), with their file extensions. */
export const EXPORT_FORMATS = [
  { format: 'json', extension: 'json', label: 'JSON' },
  { format: 'csv', extension: 'csv', label: 'Results CSV' },
  { format: 'submissions-csv', extension: 'csv', label: 'Submissions CSV' },
  { format: 'md', extension: 'md', label: 'Markdown' },
  { format: 'html', extension: 'html', label: 'HTML' },
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number]['format'];

/** The server's words for a refusal: its `{ error }` body, else the status text. */
async function refusal(response: Response): Promise<RoomRefusedError> {
  const words = (await serverWords(response)) ?? '';
  const what = response.status === 401 ? ' (the link\'s token was not accepted)' : response.status === 403 ? ' (not allowed with this link)' : words ? '' : ` (HTTP ${response.status})`;
  return new RoomRefusedError(response.status, `The room server refused${what}${words ? `: ${words}` : '.'}`);
}

/** The room's routes for one token (teacher or projector) at `origin` (e.g. `http://192.168.1.20:8080`). */
export class RoomApi {
  constructor(
    private readonly origin: string,
    private readonly token: string,
    private readonly fetcher: RoomFetch = (input, init) => globalThis.fetch(input, init),
  ) {}

  /** Sends one request; resolves to the response when 2xx. @throws RoomRefusedError otherwise */
  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    const response = await roomRequest(this.fetcher, `${this.origin}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (response === null) throw new RoomRefusedError(0, 'The room server could not be reached. Check that it still runs and that this machine is on its network.');
    if (!response.ok) throw await refusal(response);
    return response;
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await (await this.send(method, path, body)).json()) as T;
  }

  /** `GET /api/room`: participants with usage, rounds, leaderboard, submissions with scores. */
  snapshot(): Promise<RoomSnapshot> {
    return this.json('GET', '/api/room');
  }

  /** `GET /api/projector`: the code and join address. */
  projectorInfo(): Promise<ProjectorInfo> {
    return this.json('GET', '/api/projector');
  }

  /** `POST /api/rounds`: opens a round (its hidden tasks stay on the server until the reveal). */
  openRound(config: RoundConfig): Promise<RoundPublic> {
    return this.json('POST', '/api/rounds', config);
  }

  /** `POST /api/rounds/:id/<action>`. */
  async roundAction(roundId: string, action: 'lock' | 'reveal' | 'close'): Promise<void> {
    await this.send('POST', `/api/rounds/${encodeURIComponent(roundId)}/${action}`);
  }

  /** Removes a participant: their token stops working, their rows leave the leaderboard. */
  async removeParticipant(participantId: string): Promise<void> {
    await this.send('POST', `/api/participants/${encodeURIComponent(participantId)}/remove`);
  }

  /** Stop (true) or allow again (false) one participant's model calls. */
  async killParticipant(participantId: string, killed: boolean): Promise<void> {
    await this.send('POST', `/api/participants/${encodeURIComponent(participantId)}/kill`, { killed });
  }

  /** The kill switch for everyone's model calls. */
  async killAll(killed: boolean): Promise<void> {
    await this.send('POST', '/api/kill', { killed });
  }

  /** Removes one submission (from the leaderboard and the evolution's seeds). */
  async removeSubmission(submissionId: string): Promise<void> {
    await this.send('DELETE', `/api/submissions/${encodeURIComponent(submissionId)}`);
  }

  /** Changes some of the room's settings (names hidden, caps, title). */
  async patchSettings(patch: Partial<RoomSettings>): Promise<void> {
    await this.send('PATCH', '/api/settings', patch);
  }

  /** Starts the class evolution seeded with the round's submissions, within `request.budget` sessions. */
  async startEvolution(request: EvolveTogetherRequest): Promise<void> {
    await this.send('POST', '/api/evolution', request);
  }

  /** Stops the class evolution (its best so far stays shown). */
  async stopEvolution(): Promise<void> {
    await this.send('POST', '/api/evolution/stop');
  }

  /** `GET /api/export?format=…` as a file: its bytes and the name the server gave it (else `room-export.<ext>`). */
  async exportFile(format: ExportFormat): Promise<{ blob: Blob; name: string }> {
    const response = await this.send('GET', `/api/export?format=${format}`);
    const disposition = response.headers.get('Content-Disposition') ?? '';
    const named = /filename="?([^";]+)"?/.exec(disposition)?.[1];
    const extension = EXPORT_FORMATS.find((f) => f.format === format)!.extension;
    return { blob: await response.blob(), name: named ?? `room-export.${extension}` };
  }

  /** `POST /api/end`: wipes the room's data; resolves to the final export the server answers with (JSON, as `GET /api/export?format=json`). */
  async end(): Promise<{ export?: unknown }> {
    return this.json('POST', '/api/end');
  }
}
