/**
 * The room server's seams: what the server injects into the model forwarder (`forwarder.ts`,
 * `createForwarder(deps: ForwarderDeps): RoomForwarder`) and the scorer (`scoring.ts`,
 * `createScorer(deps: ScorerDeps): RoomScorer`), what `startRoomServer` takes and what it returns.
 * Types only: every part of the room server builds against these names.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LlmSettings } from '../llm/interface.ts';
import type { ModelIdentity } from '../llm/model-label.ts';
import type {
  EvolveTogetherRequest,
  ParticipantView,
  RoomAddresses,
  RoomEvolution,
  RoomSettings,
  RoomSnapshot,
  RoomUsage,
  RoundConfig,
  ScoreState,
  SubmissionText,
} from '../room/protocol.ts';

/** A round's configuration with its id, as the scorer receives it (hidden tasks included). */
export type RoundWithId = RoundConfig & { id: string };

/** What the forwarder needs from the server. */
export interface ForwarderDeps {
  /** The participant's current view (usage, caps, killed, removed), or null when unknown. */
  participant(id: string): ParticipantView | null;
  /** Adds one call's usage to the participant's total (persisted by the server). */
  addUsage(id: string, usage: RoomUsage): void;
  /** The room's settings now (caps, time window, `killedAll`). */
  settings(): RoomSettings;
}

/**
 * The OpenAI-compatible forwarder behind `/v1/*`. The server has already resolved the participant
 * token to `participantId` (401 otherwise); the forwarder checks removed / killed / caps / time
 * window through `ForwarderDeps` and answers `/v1/models` and `/v1/chat/completions` itself.
 */
export interface RoomForwarder {
  handle(req: IncomingMessage, res: ServerResponse, participantId: string): Promise<void>;
  /** Releases the model (a local model's memory); optional. */
  close?(): Promise<void>;
  /** The room's models that have no price at the provider (their calls cost "unknown", never $0); optional, none when absent. */
  unpricedModels?: readonly string[];
}

/** What the scorer needs from the server. */
export interface ScorerDeps {
  /** A submission's score state changed (the server writes it into the document). */
  onScore(submissionId: string, state: ScoreState): void;
  /** The class's evolution changed (the server writes it into the document). */
  onEvolution(state: RoomEvolution): void;
  /** The room's model settings (the teacher's provider and models; the key never leaves the server). */
  llm: LlmSettings;
}

/** Scores submissions on a round's hidden set and runs the class's evolution, on the server. */
export interface RoomScorer {
  /** Queues one submission for scoring on `round.hiddenTasks` (returns at once). */
  enqueue(sub: SubmissionText, round: RoundWithId): void;
  /** Runs the outer loop seeded with `seeds`; resolves when it ends or is stopped. */
  evolve(req: EvolveTogetherRequest, seeds: SubmissionText[], round: RoundWithId): Promise<void>;
  stopEvolution(): void;
  /** Checks that it can play `tasks` (a round's hidden set, before the round opens); optional.
   * @throws Error in plain words naming a task it cannot play */
  checkTasks?(tasks: readonly string[]): Promise<void>;
  /** Deletes every run it keeps (the room's end); optional. */
  wipe?(): Promise<void>;
  close(): Promise<void>;
}

/** One record of the room's private state (`kind`, `id` → a JSON value); `value` null deletes it. */
export interface StateRecord {
  kind: string;
  id: string;
  value: unknown;
}

/**
 * Where the private state's records live: memory, node:sqlite under `--data` (`sqlite-store.ts`),
 * or Redis shared by several servers (`redis-state.ts`'s `RedisState` has this shape). The store
 * keeps a memory copy for synchronous reads and writes through here.
 */
export interface RoomStateBackend {
  /** Hands `apply` every record now (`wipe` true), then other servers' changes in order. Returns the unsubscribe. */
  follow(apply: (records: StateRecord[], wipe: boolean) => void): Promise<() => void>;
  put(...records: StateRecord[]): Promise<void>;
  /** Writes the record only if absent; true when this call wrote it. */
  claim(kind: string, id: string, value: unknown): Promise<boolean>;
  /** Removes every record (the room's end). */
  wipe(): Promise<void>;
  close(): Promise<void>;
  /**
   * A rate limit shared by every server of the room (Redis): takes one of `limit` slots of `key` in
   * the sliding window of `windowMs` ending at `nowMs` (ms since the epoch). Absent: the state
   * counts in this process's memory (one server).
   * @returns 0 when a slot was taken, else the ms until one frees (nothing taken)
   */
  takeSlot?(key: string, limit: number, windowMs: number, nowMs: number): Promise<number>;
}

/** `startRoomServer`'s options. */
export interface RoomServerOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** The address the server listens on (default `0.0.0.0`: the LAN). */
  listenHost?: string;
  /** The host name the printed addresses use (default: the first non-internal IPv4, else 127.0.0.1). */
  publicHost?: string;
  /** Where the room is kept across a restart (node:sqlite); absent: memory only. */
  dataDir?: string;
  /** The built page's folder (default `dist/` of the package). */
  pageDir?: string;
  /** The room's title (default "Workshop room"). */
  title?: string;
  /** Per-participant caps (null: none). */
  caps?: Partial<RoomSettings['caps']>;
  /** A Redis URL: several room servers serve one room (the Hocuspocus Redis extension shares the document and presence). */
  redisUrl?: string;
  /** The private state's backend (with `redisUrl`: a Redis one, so the servers share it); default sqlite under `dataDir`, else memory. */
  stateBackend?: RoomStateBackend;
  forwarder?: RoomForwarder;
  /** Built once the server's deps exist (the forwarder needs `ForwarderDeps`); wins over `forwarder`. */
  makeForwarder?: (deps: ForwarderDeps) => RoomForwarder;
  scorer?: RoomScorer;
  /** Built once the server's deps exist; wins over `scorer`. */
  makeScorer?: (deps: Omit<ScorerDeps, 'llm'>) => RoomScorer;
  /** Who plays the scoring sessions, as the exports name it (llm/model-label.ts; default "unknown model"). */
  model?: ModelIdentity;
  /** Where log lines go (already scrubbed of secrets); default: nowhere. */
  log?: (line: string) => void;
}

/** The room's private state as the server keeps it (code, tokens, usage, submission texts, hidden tasks). */
export interface RoomStateStore {
  readonly code: string;
  /** The teacher's snapshot (`GET /api/room`). */
  snapshot(): RoomSnapshot;
  participant(id: string): ParticipantView | null;
  submissionText(id: string): SubmissionText | null;
}

/** A started room server. */
export interface RunningRoom {
  addresses: RoomAddresses;
  teacherToken: string;
  /** Saves and stops (connections closed, persistence flushed). */
  close(): Promise<void>;
  state: RoomStateStore;
}
