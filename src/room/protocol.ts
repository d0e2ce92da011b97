/**
 * The workshop room's wire contract, read by the room server (`src/room-server`, Node) and the page
 * (`src/ui/room`, `src/ui/room-teacher`, `src/ui/projector`): the HTTP routes' bodies and the shared
 * Yjs document's layout. No library, no DOM or Node API: types, names and bounds only.
 *
 * Who writes what: only the room server writes the shared document (every client connects
 * read-only, with its token as the Hocuspocus token); a student's or the teacher's actions are HTTP
 * requests the server checks (participant token or teacher token) and then applies to the document.
 * Presence is Yjs awareness (`RoomPresence`), whose identity fields the server overwrites from the
 * connection's token, so a name on the projector cannot be forged. Trajectories, submission texts
 * and exports never enter the document (its history grows): they go through HTTP routes.
 *
 * Routes (all JSON; errors are `{ error: string, code: string }` with the status named):
 * - `GET  /api/info` → `RoomInfo` (no token; the page asks it to know it is served by a room).
 * - `POST /api/join` `JoinRequest` → `JoinReply` (403 wrong code, 400 bad name, 410 room ended).
 * - `GET  /api/me` (participant) → `ParticipantView`.
 * - `POST /api/submissions` (participant) `SubmitRequest` → `SubmissionPublic` (idempotent on
 *   `clientId`: a resend after a reconnect returns the first; 409 round not open; 413 text too long;
 *   429 too fast).
 * - `GET  /api/submissions/:id` (owner, teacher, or anyone once its round is revealed) → `SubmissionText`.
 * - `GET  /api/room` (teacher) → `RoomSnapshot`; a participant token → 403, none → 401.
 * - `GET  /api/projector` (projector or teacher token) → `ProjectorInfo` (the room code and join
 *   address the projector shows in big type and as a QR code; with the teacher's token also the
 *   projector's link, for "Open the projector"); a participant token → 403.
 * - Teacher actions (teacher token; a participant token → 403): `POST /api/rounds` `RoundConfig` →
 *   `RoundPublic` (closes the round that was current; 400 when the hidden set repeats a practice
 *   task or names a task the room cannot score); `POST /api/rounds/:id/lock`, `/reveal`, `/close`; `POST /api/participants/:id/remove`;
 *   `POST /api/participants/:id/kill` `{ killed: boolean }`; `POST /api/kill` `{ killed: boolean }`
 *   (everyone); `DELETE /api/submissions/:id`; `PATCH /api/settings` `Partial<RoomSettings>`;
 *   `POST /api/evolution` `EvolveTogetherRequest`; `POST /api/evolution/stop`;
 *   `GET /api/export?format=json|csv|submissions-csv|md|html` (a download); `POST /api/end` (wipes the room).
 * - `GET /v1/models`, `POST /v1/chat/completions` (participant token): the forwarder to the
 *   teacher's provider (401 no/bad token, 403 removed, 429 over a cap or killed, with `error.message`
 *   in OpenAI's error shape so the page shows it in plain words; its `error.code` is one of
 *   `ROOM_REFUSAL_CODES`, so the page shows those words as they are and does not retry them as a
 *   provider's rate limit).
 */

/** The one shared document's name (one room per server). */
export const ROOM_DOCUMENT = 'room';

/** `error.code` of the forwarder's refusals (a cap reached, the kill switch, the time window, a
 * removed or unknown participant): the page shows the message as it is and stops the run instead
 * of retrying (src/llm/openai-chat-model.ts knows the same names). */
export const ROOM_REFUSAL_CODES = ['call_cap_reached', 'token_cap_reached', 'usd_cap_reached', 'model_calls_paused', 'room_not_open', 'room_closed', 'participant_removed', 'unknown_participant'] as const;

/** Bounds on untrusted text (characters). */
export const ROOM_LIMITS = {
  name: 40,
  code: 12,
  submission: 8000,
  /** Submissions per participant per minute before 429. */
  submissionsPerMinute: 6,
} as const;

/** `GET /api/info`. */
export interface RoomInfo {
  room: true;
  /** Whether joining is open (false once ended). */
  joinable: boolean;
  title: string;
}

/** `GET /api/projector`: what the projector shows to let students join. */
export interface ProjectorInfo {
  code: string;
  /** `<origin>/?room=<code>` on the address students reach (the LAN address, not localhost). */
  joinUrl: string;
  title: string;
  /** The projector's link (`RoomAddresses.projectorUrl`, its token inside): for the teacher's token only, never the projector's own. */
  projectorUrl?: string;
}

/** `POST /api/join`. */
export interface JoinRequest {
  code: string;
  name: string;
}

/** `POST /api/join` → the participant's bearer token for the room's routes, the forwarder and the document. */
export interface JoinReply {
  participantId: string;
  token: string;
  /** The name as stored (trimmed, bounded, made unique in the room: "Ada (2)"). */
  name: string;
}

/** A participant's model usage through the forwarder; `usd` null where the provider has no price. */
export interface RoomUsage {
  calls: number;
  tokens: number;
  usd: number | null;
  /** Calls whose tokens the forwarder estimated (the provider sent no believable usage); absent: none. */
  estimatedCalls?: number;
}

/** Per-participant caps (null: no cap) and the time window in which the forwarder serves (ISO or null). */
export interface RoomCaps {
  maxCalls: number | null;
  maxTokens: number | null;
  maxUsd: number | null;
  opensAt: string | null;
  closesAt: string | null;
}

export interface RoomSettings {
  title: string;
  /** Names hidden on the projector (shown as "Participant 3"). */
  namesHidden: boolean;
  caps: RoomCaps;
  /** Every participant's model calls stopped (the teacher's kill switch for all). */
  killedAll: boolean;
}

/** `participants` map value (the document's copy: no usage, no token). */
export interface ParticipantPublic {
  id: string;
  name: string;
  joinedAt: string;
  removed: boolean;
  killed: boolean;
}

/** `GET /api/me` and the teacher's view of one participant. */
export interface ParticipantView extends ParticipantPublic {
  usage: RoomUsage;
  caps: RoomCaps;
}

/** A task as the CLI names it (`lever-room:1`, `zork1:12`, `web:shop/t12:3`). */
export type RoomTask = string;

/** What the teacher sets when opening a round (`POST /api/rounds`). */
export interface RoundConfig {
  title: string;
  /** Shown to students: they practise on these in Learn. */
  practiceTasks: RoomTask[];
  /** Never in the document until the reveal: the server scores submissions on these. */
  hiddenTasks: RoomTask[];
  /** Episodes per session (K) and steps per episode (S) of the scoring. */
  episodes: number;
  steps: number;
  /** Sessions per hidden task per submission. */
  repeats: number;
  /** The timer; null: no timer. */
  minutes: number | null;
}

export type RoundState = 'open' | 'locked' | 'revealed' | 'closed';

/** `rounds` map value. `hiddenTasks` is null until the round is revealed; `hiddenTaskCount` always. */
export interface RoundPublic {
  id: string;
  index: number;
  title: string;
  practiceTasks: RoomTask[];
  hiddenTasks: RoomTask[] | null;
  hiddenTaskCount: number;
  episodes: number;
  steps: number;
  repeats: number;
  state: RoundState;
  openedAt: string;
  /** When the timer ends (ISO), or null. */
  endsAt: string | null;
}

/** `POST /api/submissions`. `clientId` is made by the page once per submission (its outbox key). */
export interface SubmitRequest {
  roundId: string;
  text: string;
  clientId: string;
  /** Where the text came from in the page ("written", a Library entry's name, "evolved c3"). */
  source?: string;
}

export type ScoreStatus = 'queued' | 'scoring' | 'scored' | 'failed' | 'removed';

/**
 * A submission's score on the hidden set: W-AUC (method.md) averaged over sessions, a 95 %
 * bootstrap interval over sessions, n sessions (hidden tasks × repeats).
 */
export interface RoomScore {
  wauc: number;
  low: number;
  high: number;
  n: number;
  /** Mean score fraction per episode across the sessions (the learning curve), length K. */
  curve: number[];
}

/** One entry of a participant's append-only `submissions` array (no text: `GET /api/submissions/:id`). */
export interface SubmissionPublic {
  id: string;
  participantId: string;
  roundId: string;
  /** 1, 2, … per participant and round. */
  version: number;
  submittedAt: string;
  chars: number;
  source: string;
}

/** `scores` map value, keyed by submission id; written as the server scores. */
export interface ScoreState {
  status: ScoreStatus;
  /** Sessions done of total while scoring. */
  done: number;
  total: number;
  score: RoomScore | null;
  /** Plain words when failed. */
  message: string | null;
}

/** `GET /api/submissions/:id`. */
export interface SubmissionText extends SubmissionPublic {
  text: string;
}

/** A leaderboard row: each participant's best scored submission in a round. */
export interface LeaderboardRow {
  roundId: string;
  participantId: string;
  name: string;
  submissionId: string;
  version: number;
  score: RoomScore;
  rank: number;
}

/** `GET /api/room` (teacher). */
export interface RoomSnapshot {
  code: string;
  settings: RoomSettings;
  participants: ParticipantView[];
  rounds: RoundPublic[];
  leaderboard: LeaderboardRow[];
  submissions: (SubmissionPublic & { score: ScoreState | null })[];
  /** The room's models without a price at the provider: their cost is unknown ("—"), and a USD cap cannot hold for them (absent: none). */
  unpricedModels?: string[];
}

/** `POST /api/evolution`: seed one evolution's pool with the class's submissions. */
export interface EvolveTogetherRequest {
  roundId: string;
  /** Submissions to seed with (default: every participant's best of the round). */
  submissionIds?: string[];
  /** Metric calls (sessions) the outer loop may spend. */
  budget: number;
}

/** A candidate of the class's evolution: a human one has its participant as origin. */
export interface RoomCandidate {
  id: string;
  parentIds: string[];
  /** The participant whose submission it is, or null for a proposed child. */
  originParticipantId: string | null;
  /** The participants whose ideas it descends from (the seeds in its lineage). */
  creditParticipantIds: string[];
  wauc: number | null;
  accepted: boolean;
}

/** `evolution` map (one at a time): its state, candidates and best-so-far curve. */
export interface RoomEvolution {
  roundId: string;
  state: 'running' | 'stopped' | 'done' | 'failed';
  budget: number;
  used: number;
  candidates: RoomCandidate[];
  /** Best validation W-AUC after each metric call. */
  curve: number[];
  bestCandidateId: string | null;
  message: string | null;
}

/**
 * `meta.final`: the room's final results, written by the server when the room ends (after its data
 * is wiped) so the projector keeps showing them. Names are as the projector showed them
 * ("Participant n" when names were hidden); no text of any submission. Lives only in the running
 * server's memory: never stored in `--data`.
 */
export interface RoomFinal {
  endedAt: string;
  /** Display name by participant id (every participant in a row or the evolution's credit). */
  names: Record<string, string>;
  /** Every round with at least one score, in order: its title and leaderboard (row names = display names). */
  rounds: { id: string; title: string; rows: LeaderboardRow[] }[];
  /** The class evolution as it ended, or null. */
  evolution: RoomEvolution | null;
  /** Whose ideas the evolution's best descends from (participant ids). */
  credit: string[];
}

/** Awareness state (presence). The server overwrites `participantId`, `role` and `name`. */
export interface RoomPresence {
  role: 'student' | 'teacher' | 'projector';
  participantId: string | null;
  name: string | null;
  /** What the student is doing ("learn", "writing", "submitted"). */
  activity?: string;
}

/**
 * The document's top-level types: `meta` (Y.Map: `settings` RoomSettings, `currentRoundId`,
 * `ended`, `final` RoomFinal after the end), `participants` (Y.Map<ParticipantPublic>), `rounds` (Y.Map<RoundPublic>),
 * `submissions` (Y.Map<participantId, Y.Array<SubmissionPublic>>, append-only), `scores`
 * (Y.Map<ScoreState> by submission id), `evolution` (Y.Map: key `current` → RoomEvolution).
 */
export const ROOM_DOC_KEYS = {
  meta: 'meta',
  participants: 'participants',
  rounds: 'rounds',
  submissions: 'submissions',
  scores: 'scores',
  evolution: 'evolution',
} as const;

/** `metattl room --json`: the first line on stdout. */
export interface RoomAddresses {
  joinUrl: string;
  teacherUrl: string;
  projectorUrl: string;
  code: string;
  port: number;
}
