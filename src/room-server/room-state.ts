/**
 * The room's private state (what never enters the shared document before its time): the room's
 * code and the teacher's and projector's tokens, participants with their token's hash and usage,
 * rounds with their hidden tasks, submission texts and the `clientId` of each submission. Kept as
 * records (`StateRecord`: kind, id → JSON) in a memory copy for synchronous reads, written through a
 * `RoomStateBackend` (memory, node:sqlite under `--data`, or Redis shared by several servers).
 *
 * Record kinds: `meta` (`room` identity, `settings`, `currentRound`, `ended`), `participant`
 * (ParticipantPublic), `token` (sha-256 of a participant token → participant id: a copied data
 * folder holds no usable token), `name` (a name taken, lower case → participant id), `usage`
 * (`<participant>:<server>` → RoomUsage, one grow-only counter per server, summed), `round`
 * (`StoredRound`), `submission` (`StoredSubmission`), `submitted` (`<participant>:<clientId>` →
 * submission id). Rate limits (`takeSlot`) are counted by the backend when it can (Redis), else in memory.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { leaderboard } from '../room/leaderboard.ts';
import type { ParticipantPublic, ParticipantView, RoomSettings, RoomSnapshot, RoomUsage, RoundConfig, RoundPublic, ScoreState, SubmissionPublic, SubmissionText } from '../room/protocol.ts';
import type { RoomState as RoomDocState } from '../room/room-doc.ts';
import type { RoomStateBackend, RoomStateStore, StateRecord } from './seams.ts';

/** The room's identity, made once (and claimed once across servers). */
export interface RoomIdentity {
  code: string;
  teacherToken: string;
  projectorToken: string;
  createdAt: string;
}

/** A round with its configuration (hidden tasks included). */
export interface StoredRound {
  public: RoundPublic;
  config: RoundConfig;
}

/** A submission with its text; `removed` by the teacher. */
export type StoredSubmission = SubmissionText & { removed: boolean };

/** Code letters: no 0/O, 1/I/L (read aloud and typed from a projector). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A short room code, 6 characters from `CODE_ALPHABET`. */
export function newRoomCode(): string {
  const bytes = randomBytes(6);
  return [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

/** A bearer token: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The sha-256 (hex) a participant token is stored as. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

const ZERO_USAGE: RoomUsage = { calls: 0, tokens: 0, usd: 0 };

/** `a` + `b`: USD null once either is (a model without a price); `estimatedCalls` kept only when some were. */
function plusUsage(a: RoomUsage, b: RoomUsage): RoomUsage {
  const estimated = (a.estimatedCalls ?? 0) + (b.estimatedCalls ?? 0);
  return { calls: a.calls + b.calls, tokens: a.tokens + b.tokens, usd: a.usd === null || b.usd === null ? null : a.usd + b.usd, ...(estimated > 0 ? { estimatedCalls: estimated } : {}) };
}

/** The private state: memory copy + backend. Reads are synchronous; writes return once stored. */
export class RoomState implements RoomStateStore {
  private readonly records = new Map<string, Map<string, unknown>>();
  private unfollow: () => void = () => {};
  /** This process's id (its own usage counters). */
  readonly serverId = randomUUID();
  private scores: () => Record<string, ScoreState> = () => ({});
  /** Slot times by rate-limit key when the backend counts none (one server). */
  private readonly slots = new Map<string, number[]>();

  constructor(private readonly backend: RoomStateBackend) {}

  /** Loads every record and follows other servers' changes. */
  async open(): Promise<void> {
    this.unfollow = await this.backend.follow((records, wipe) => this.apply(records, wipe));
  }

  /** Where `snapshot()` reads scores from (the shared document). */
  setScoreSource(scores: () => Record<string, ScoreState>): void {
    this.scores = scores;
  }

  private apply(records: StateRecord[], wipe: boolean): void {
    if (wipe) this.records.clear();
    for (const r of records) {
      const kind = this.kind(r.kind);
      if (r.value === null || r.value === undefined) kind.delete(r.id);
      else kind.set(r.id, r.value);
    }
  }

  private kind(kind: string): Map<string, unknown> {
    let map = this.records.get(kind);
    if (!map) this.records.set(kind, (map = new Map()));
    return map;
  }

  /** One record's value, or undefined. */
  get<T>(kind: string, id: string): T | undefined {
    return this.records.get(kind)?.get(id) as T | undefined;
  }

  /** Every value of a kind. */
  all<T>(kind: string): T[] {
    return [...(this.records.get(kind)?.values() ?? [])] as T[];
  }

  /** Writes records to memory at once and to the backend. */
  async put(...records: StateRecord[]): Promise<void> {
    this.apply(records, false);
    await this.backend.put(...records);
  }

  /** Writes the record only if nobody did (here or on another server); true when this call did. */
  async claim(kind: string, id: string, value: unknown): Promise<boolean> {
    if (this.get(kind, id) !== undefined) return false;
    const won = await this.backend.claim(kind, id, value);
    if (won) this.apply([{ kind, id, value }], false);
    return won;
  }

  /** The room's identity: the stored one, else a new one claimed (the first server of a room makes it). */
  async identity(): Promise<{ identity: RoomIdentity; created: boolean }> {
    const stored = this.get<RoomIdentity>('meta', 'room');
    if (stored) return { identity: stored, created: false };
    const made: RoomIdentity = { code: newRoomCode(), teacherToken: newToken(), projectorToken: newToken(), createdAt: new Date().toISOString() };
    const created = await this.backend.claim('meta', 'room', made);
    if (created) this.apply([{ kind: 'meta', id: 'room', value: made }], false);
    // Lost to another server: its identity arrives through `follow` (published with the claim).
    for (let waited = 0; !this.get('meta', 'room') && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const identity = this.get<RoomIdentity>('meta', 'room');
    if (!identity) throw new Error('the room identity was claimed elsewhere but cannot be read');
    return { identity, created };
  }

  get code(): string {
    return this.get<RoomIdentity>('meta', 'room')?.code ?? '';
  }

  settings(): RoomSettings {
    const settings = this.get<RoomSettings>('meta', 'settings');
    if (!settings) throw new Error('the room has no settings yet');
    return settings;
  }

  ended(): boolean {
    return this.get<boolean>('meta', 'ended') === true;
  }

  /** The participant id a participant token belongs to, or null. */
  participantOfToken(token: string): string | null {
    return this.get<string>('token', tokenHash(token)) ?? null;
  }

  /** A participant's usage summed over every server. */
  usage(participantId: string): RoomUsage {
    let sum: RoomUsage = { ...ZERO_USAGE };
    for (const [id, value] of this.records.get('usage') ?? []) {
      if (!id.startsWith(`${participantId}:`)) continue;
      sum = plusUsage(sum, value as RoomUsage);
    }
    return sum;
  }

  /** Adds to this server's usage counter of the participant. */
  async addUsage(participantId: string, usage: RoomUsage): Promise<void> {
    const id = `${participantId}:${this.serverId}`;
    await this.put({ kind: 'usage', id, value: plusUsage(this.get<RoomUsage>('usage', id) ?? ZERO_USAGE, usage) });
  }

  participant(id: string): ParticipantView | null {
    const p = this.get<ParticipantPublic>('participant', id);
    return p ? { ...p, usage: this.usage(id), caps: this.settings().caps } : null;
  }

  participants(): ParticipantPublic[] {
    return this.all<ParticipantPublic>('participant').sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.id.localeCompare(b.id));
  }

  round(id: string): StoredRound | null {
    return this.get<StoredRound>('round', id) ?? null;
  }

  rounds(): StoredRound[] {
    return this.all<StoredRound>('round').sort((a, b) => a.public.index - b.public.index);
  }

  submission(id: string): StoredSubmission | null {
    return this.get<StoredSubmission>('submission', id) ?? null;
  }

  submissions(): StoredSubmission[] {
    return this.all<StoredSubmission>('submission').sort((a, b) => a.submittedAt.localeCompare(b.submittedAt) || a.id.localeCompare(b.id));
  }

  submissionText(id: string): SubmissionText | null {
    const s = this.submission(id);
    if (!s || s.removed) return null;
    const { removed: _removed, ...text } = s;
    return text;
  }

  /**
   * The room as the shared document shows it (src/room/room-doc.ts `RoomState`), from the private
   * state: the input of the one leaderboard (src/room/leaderboard.ts) and of the exports. Removed
   * submissions are left out; `withHiddenTasks` puts each round's hidden tasks in (the teacher's export).
   */
  roomView(withHiddenTasks = false): RoomDocState {
    return {
      settings: this.settings(),
      currentRoundId: this.get<string | null>('meta', 'currentRound') ?? null,
      ended: this.ended(),
      participants: this.participants(),
      rounds: this.rounds().map((r) => (withHiddenTasks ? { ...r.public, hiddenTasks: [...r.config.hiddenTasks] } : r.public)),
      submissions: this.submissions().filter((s) => !s.removed).map(({ text: _text, removed: _removed, ...pub }): SubmissionPublic => pub),
      scores: this.scores(),
      evolution: null,
    };
  }

  /**
   * The teacher's snapshot: every participant with usage, rounds, kept submissions with scores, and
   * the leaderboard of every round (in round order) ranked as every client ranks it from its own
   * document (src/room/leaderboard.ts: equal W-AUCs share a rank, the earlier submission listed first).
   */
  snapshot(): RoomSnapshot {
    const view = this.roomView();
    const submissions = view.submissions.map((pub) => ({ ...pub, score: view.scores[pub.id] ?? null }));
    const participants = view.participants.map((p) => ({ ...p, usage: this.usage(p.id), caps: this.settings().caps }));
    const board = view.rounds.flatMap((round) => leaderboard(view, round.id));
    return { code: this.code, settings: this.settings(), participants, rounds: view.rounds, leaderboard: board, submissions };
  }

  /**
   * Takes one of `limit` slots of `key` in the sliding window of `windowMs` ending at `nowMs`: in
   * the backend when it counts them (Redis: every server of the room counts one limit), else here.
   * @returns 0 when a slot was taken, else the ms until one frees (nothing taken)
   */
  async takeSlot(key: string, limit: number, windowMs: number, nowMs: number): Promise<number> {
    if (this.backend.takeSlot) return await this.backend.takeSlot(key, limit, windowMs, nowMs);
    const recent = (this.slots.get(key) ?? []).filter((at) => nowMs - at < windowMs);
    if (recent.length >= limit) return windowMs - (nowMs - recent[0]!);
    this.slots.set(key, [...recent, nowMs]);
    return 0;
  }

  /** Removes every record (the room's end) except what says it ended. */
  async wipe(): Promise<void> {
    this.records.clear();
    this.slots.clear();
    await this.backend.wipe();
  }

  async close(): Promise<void> {
    this.unfollow();
    await this.backend.close();
  }
}
