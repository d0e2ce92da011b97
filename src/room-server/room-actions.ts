/**
 * What the room's routes do, checked and applied: each action validates its untrusted input,
 * writes the private state (`RoomState`) and then the shared document (`RoomDocWriter`), so the
 * document only ever holds what the state already holds. Joining, submitting (idempotent on
 * `clientId`, rate-limited), rounds with their timer, moderation, settings, the class's evolution
 * (delegated to the injected scorer), the export and the room's end.
 */
import { randomUUID } from 'node:crypto';
import { ROOM_LIMITS, type EvolveTogetherRequest, type JoinReply, type JoinRequest, type ParticipantPublic, type RoomCaps, type RoomSettings, type RoundConfig, type RoundPublic, type ScoreState, type SubmissionPublic, type SubmitRequest } from '../room/protocol.ts';
import { describeModel, type ModelIdentity } from '../llm/model-label.ts';
import { finalResults } from '../room/leaderboard.ts';
import { readRoom, type RoomDocWriter } from '../room/room-doc.ts';
import { roomExport, roomExportJson, type RoomExportFile, type RoomExportFormat, type RoomExportInput } from '../room/room-export.ts';
import { cleanText, RoomRequestError } from './room-errors.ts';
import { newToken, tokenHash, type RoomState, type StoredRound, type StoredSubmission } from './room-state.ts';
import type { RoomScorer, RoundWithId } from './seams.ts';

/** Bounds of a round's configuration. */
export const ROUND_LIMITS = { tasks: 50, task: 120, episodes: 50, steps: 1000, repeats: 20, minutes: 600, title: 80 } as const;

/** Who asks: the teacher, or a participant (by id). */
export type Viewer = { role: 'teacher' } | { role: 'participant'; participantId: string } | { role: 'none' };

export interface RoomActionsDeps {
  state: RoomState;
  writer: RoomDocWriter;
  scorer?: RoomScorer;
  /** Closes the live connections of a participant (null: every participant's). */
  disconnect(participantId: string | null): void;
  /** After the room's end: the wiped document stored, the data file compacted and sealed (no later
   * write reaches it); `elsewhere`: the end was made on another server of the room (Redis). */
  afterEnd?(elsewhere?: boolean): Promise<void>;
  log(line: string): void;
  now?: () => Date;
  /** Who plays the scoring sessions, as the exports name it (default: "unknown model"). */
  model?: ModelIdentity;
}

/** A removed submission's score entry. */
const REMOVED_SCORE: ScoreState = { status: 'removed', done: 0, total: 0, score: null, message: 'Removed by the teacher.' };

const bad = (message: string): RoomRequestError => new RoomRequestError('room_bad_request', message);

/** A non-negative number or null (no cap). */
function capValue(value: unknown, name: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw bad(`${name} must be a number ≥ 0 or null`);
  return value;
}

function isoOrNull(value: unknown, name: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw bad(`${name} must be an ISO date or null`);
  return new Date(value).toISOString();
}

function intIn(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw bad(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

function taskList(value: unknown, name: string, min: number): string[] {
  if (!Array.isArray(value) || value.length < min || value.length > ROUND_LIMITS.tasks) throw bad(`${name} must be a list of ${min} to ${ROUND_LIMITS.tasks} task ids`);
  return value.map((t) => {
    const task = cleanText(t, ROUND_LIMITS.task);
    if (!task || !/^[\w./:-]+$/.test(task)) throw bad(`${name}: "${task}" is not a task id (lever-room:1, zork1:12, web:shop/t12:3)`);
    return task;
  });
}

/** A round's configuration from an untrusted body. @throws RoomRequestError (400) naming the
 * field, or the hidden tasks that repeat practice tasks (the hidden set is never shown before the reveal) */
export function parseRoundConfig(body: Record<string, unknown>): RoundConfig {
  const practiceTasks = taskList(body.practiceTasks ?? [], 'practiceTasks', 0);
  const hiddenTasks = taskList(body.hiddenTasks, 'hiddenTasks', 1);
  const overlap = hiddenTasks.filter((t) => practiceTasks.includes(t));
  if (overlap.length > 0) throw bad(`The hidden set repeats practice tasks (${overlap.slice(0, 3).join(', ')}): give it other seeds.`);
  return {
    title: cleanText(body.title, ROUND_LIMITS.title) || 'Round',
    practiceTasks,
    hiddenTasks,
    episodes: intIn(body.episodes, 'episodes', 1, ROUND_LIMITS.episodes),
    steps: intIn(body.steps, 'steps', 1, ROUND_LIMITS.steps),
    repeats: intIn(body.repeats ?? 1, 'repeats', 1, ROUND_LIMITS.repeats),
    minutes: body.minutes === null || body.minutes === undefined ? null : intIn(body.minutes, 'minutes', 1, ROUND_LIMITS.minutes),
  };
}

/** The room's actions over its state and document. */
export class RoomActions {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly now: () => Date;

  constructor(private readonly deps: RoomActionsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private get state(): RoomState {
    return this.deps.state;
  }

  private get writer(): RoomDocWriter {
    return this.deps.writer;
  }

  /** The room's first settings (a new room), the document brought in line with the state, and the timers of open rounds (a restart). */
  async start(initial: RoomSettings, created: boolean): Promise<void> {
    if (created || !this.state.get('meta', 'settings')) await this.state.put({ kind: 'meta', id: 'settings', value: initial });
    this.reconcile();
    for (const round of this.state.rounds()) this.schedule(round.public);
  }

  /**
   * Writes into the document what the state holds and the document lacks or holds otherwise (after
   * a crash between a state write and the document's debounced store): settings, the ended flag,
   * participants, rounds, the current round, missing submissions, removed submissions' scores.
   * Writes nothing when both agree.
   */
  private reconcile(): void {
    const doc = readRoom(this.writer.doc);
    const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
    if (!same(doc.settings, this.state.settings())) this.writer.setSettings(this.state.settings());
    if (doc.ended !== this.state.ended()) this.writer.setEnded(this.state.ended());
    const current = this.state.get<string | null>('meta', 'currentRound') ?? null;
    if (doc.currentRoundId !== current) this.writer.setCurrentRound(current);
    const people = new Map(doc.participants.map((p) => [p.id, p]));
    for (const p of this.state.participants()) if (!same(people.get(p.id), p)) this.writer.putParticipant(p);
    const rounds = new Map(doc.rounds.map((r) => [r.id, r]));
    for (const r of this.state.rounds()) if (!same(rounds.get(r.public.id), r.public)) this.writer.putRound(r.public);
    const present = new Set(doc.submissions.map((s) => s.id));
    for (const sub of this.state.submissions()) {
      if (!present.has(sub.id)) this.writer.appendSubmission(docEntryOf(sub));
      if (sub.removed && doc.scores[sub.id]?.status !== 'removed') this.writer.putScore(sub.id, REMOVED_SCORE);
    }
  }

  /** `POST /api/join`. @throws RoomRequestError 403 wrong code, 400 no name, 410 ended */
  async join(body: Partial<JoinRequest>): Promise<JoinReply> {
    if (this.state.ended()) throw new RoomRequestError('room_ended', 'This room has ended.');
    const code = cleanText(body.code, ROOM_LIMITS.code).toUpperCase().replace(/[\s-]/g, '');
    if (code !== this.state.code) throw new RoomRequestError('room_wrong_code', 'That is not this room\'s code: check it on the projector.');
    const base = cleanText(body.name, ROOM_LIMITS.name);
    if (!base) throw bad('Type a display name.');
    const participantId = `p-${randomUUID().slice(0, 8)}`;
    const name = await this.uniqueName(base, participantId);
    const token = newToken();
    const participant: ParticipantPublic = { id: participantId, name, joinedAt: this.now().toISOString(), removed: false, killed: false };
    await this.state.put({ kind: 'participant', id: participantId, value: participant }, { kind: 'token', id: tokenHash(token), value: participantId });
    this.writer.putParticipant(participant);
    this.deps.log(`joined: ${participantId}`);
    return { participantId, token, name };
  }

  /** `name`, or `name (2)`, `name (3)`… : the first not taken (claimed, so two servers agree). */
  private async uniqueName(base: string, participantId: string): Promise<string> {
    for (let n = 1; n < 1000; n++) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const name = `${base.slice(0, ROOM_LIMITS.name - suffix.length).trim()}${suffix}`;
      if (await this.state.claim('name', name.toLowerCase(), participantId)) return name;
    }
    throw bad('That name is taken: choose another.');
  }

  /** The participant of a token, refusing a removed one (403) and an ended room (410). */
  participantOf(participantId: string): ParticipantPublic {
    const p = this.state.get<ParticipantPublic>('participant', participantId);
    if (!p) throw new RoomRequestError('room_unauthorized', 'Unknown participant: join the room again.');
    if (p.removed) throw new RoomRequestError('room_forbidden', 'The teacher removed you from this room.');
    return p;
  }

  /** `POST /api/submissions`. @throws RoomRequestError 400, 409 round not open, 413 too long, 429 too fast */
  async submit(participantId: string, body: Partial<SubmitRequest>): Promise<SubmissionPublic> {
    this.participantOf(participantId);
    const clientId = cleanText(body.clientId, 100);
    if (!clientId) throw bad('clientId is required (made by the page once per submission).');
    const existing = this.state.get<string>('submitted', `${participantId}:${clientId}`);
    const first = existing ? this.state.submission(existing) : null;
    if (first) return publicOf(first);
    const round = this.state.round(typeof body.roundId === 'string' ? body.roundId : '');
    if (!round) throw new RoomRequestError('room_not_found', 'No such round.');
    if (!this.isOpen(round.public)) throw new RoomRequestError('room_round_not_open', 'This round is not open for submissions.');
    const text = cleanText(body.text, ROOM_LIMITS.submission * 2, true);
    if (!text) throw bad('The meta-prompt is empty.');
    if (text.length > ROOM_LIMITS.submission) throw new RoomRequestError('room_too_large', `The meta-prompt is ${text.length} characters; the room takes at most ${ROOM_LIMITS.submission}.`);
    await this.rateCheck(participantId);
    const id = `s-${randomUUID().slice(0, 12)}`;
    if (!(await this.state.claim('submitted', `${participantId}:${clientId}`, id))) return this.submit(participantId, body);
    const version = this.state.submissions().filter((s) => s.participantId === participantId && s.roundId === round.public.id).length + 1;
    const stored: StoredSubmission = { id, participantId, roundId: round.public.id, version, submittedAt: this.now().toISOString(), chars: text.length, source: cleanText(body.source, 80) || 'written', text, removed: false };
    await this.state.put({ kind: 'submission', id, value: stored });
    this.writer.appendSubmission(docEntryOf(stored));
    this.enqueue(stored, round);
    return publicOf(stored);
  }

  private enqueue(sub: StoredSubmission, round: StoredRound): void {
    const scorer = this.deps.scorer;
    if (!scorer) return;
    const total = round.config.hiddenTasks.length * round.config.repeats;
    this.writer.putScore(sub.id, { status: 'queued', done: 0, total, score: null, message: null });
    const { removed: _removed, ...text } = sub;
    scorer.enqueue(text, { ...round.config, id: round.public.id });
  }

  /** One of the participant's submissions a minute, counted across every server of the room. @throws RoomRequestError 429 */
  private async rateCheck(participantId: string): Promise<void> {
    const waitMs = await this.state.takeSlot(`submit:${participantId}`, ROOM_LIMITS.submissionsPerMinute, 60_000, this.now().getTime());
    if (waitMs > 0) throw new RoomRequestError('room_too_fast', `At most ${ROOM_LIMITS.submissionsPerMinute} submissions a minute: wait ${Math.ceil(waitMs / 1000)} s.`);
  }

  private isOpen(round: RoundPublic): boolean {
    return round.state === 'open' && (round.endsAt === null || Date.parse(round.endsAt) > this.now().getTime());
  }

  /** A scorer's report, written unless the submission was removed meanwhile. */
  reportScore(submissionId: string, score: ScoreState): void {
    const sub = this.state.submission(submissionId);
    if (!sub || sub.removed) return;
    this.writer.putScore(submissionId, score);
  }

  /** `GET /api/submissions/:id`: the owner, the teacher, or anyone once its round is revealed. */
  submissionText(id: string, viewer: Viewer): StoredSubmission {
    const sub = this.state.submission(id);
    if (!sub || sub.removed) throw new RoomRequestError('room_not_found', 'No such submission.');
    const revealed = this.state.round(sub.roundId)?.public.state === 'revealed';
    const owner = viewer.role === 'participant' && viewer.participantId === sub.participantId;
    if (viewer.role === 'teacher' || owner || revealed) return sub;
    throw new RoomRequestError(viewer.role === 'none' ? 'room_unauthorized' : 'room_forbidden', 'This submission is shown once its round is revealed.');
  }

  /**
   * `POST /api/rounds`: opens a round (the current one), closing the round that was current; hidden
   * tasks stay out of the document.
   * @throws RoomRequestError 410 ended; 400 when the scorer cannot play a hidden task (unknown
   *   story, file not on this machine), before anything changes
   */
  async openRound(config: RoundConfig): Promise<RoundPublic> {
    if (this.state.ended()) throw new RoomRequestError('room_ended', 'This room has ended.');
    try {
      await this.deps.scorer?.checkTasks?.(config.hiddenTasks);
    } catch (error) {
      throw bad(`The hidden set cannot be scored: ${error instanceof Error ? error.message : String(error)}`);
    }
    const previous = this.state.get<string | null>('meta', 'currentRound') ?? null;
    if (previous !== null && this.state.round(previous)?.public.state !== 'closed') await this.roundAction(previous, 'close');
    const rounds = this.state.rounds();
    const opened = this.now();
    const pub: RoundPublic = {
      id: `r-${randomUUID().slice(0, 8)}`, index: rounds.length + 1, title: config.title, practiceTasks: config.practiceTasks, hiddenTasks: null,
      hiddenTaskCount: config.hiddenTasks.length, episodes: config.episodes, steps: config.steps, repeats: config.repeats, state: 'open',
      openedAt: opened.toISOString(), endsAt: config.minutes === null ? null : new Date(opened.getTime() + config.minutes * 60_000).toISOString(),
    };
    await this.state.put({ kind: 'round', id: pub.id, value: { public: pub, config } satisfies StoredRound }, { kind: 'meta', id: 'currentRound', value: pub.id });
    this.writer.putRound(pub);
    this.writer.setCurrentRound(pub.id);
    this.schedule(pub);
    return pub;
  }

  /** Locks an open round when its timer ends (also after a restart). */
  private schedule(round: RoundPublic): void {
    clearTimeout(this.timers.get(round.id));
    if (round.state !== 'open' || round.endsAt === null) return;
    const wait = Math.max(0, Date.parse(round.endsAt) - this.now().getTime());
    const timer = setTimeout(() => void this.roundAction(round.id, 'lock').catch((e: Error) => this.deps.log(`timer: ${e.message}`)), Math.min(wait, 2 ** 31 - 1));
    timer.unref();
    this.timers.set(round.id, timer);
  }

  /** `POST /api/rounds/:id/lock|reveal|close`. Reveal puts the hidden tasks into the round's public record. */
  async roundAction(id: string, action: 'lock' | 'reveal' | 'close'): Promise<RoundPublic> {
    const round = this.state.round(id);
    if (!round) throw new RoomRequestError('room_not_found', 'No such round.');
    const state = action === 'lock' ? 'locked' : action === 'reveal' ? 'revealed' : 'closed';
    const pub: RoundPublic = { ...round.public, state, hiddenTasks: action === 'reveal' || round.public.hiddenTasks !== null ? round.config.hiddenTasks : null };
    const closesCurrent = action === 'close' && this.state.get('meta', 'currentRound') === id;
    await this.state.put({ kind: 'round', id, value: { ...round, public: pub } }, ...(closesCurrent ? [{ kind: 'meta', id: 'currentRound', value: null }] : []));
    if (action !== 'lock' || state !== round.public.state) clearTimeout(this.timers.get(id));
    this.writer.putRound(pub);
    if (closesCurrent) this.writer.setCurrentRound(null);
    return pub;
  }

  /** `POST /api/participants/:id/remove`: kept in the record (removed), its live connections closed. */
  async removeParticipant(id: string): Promise<ParticipantPublic> {
    const p = await this.updateParticipant(id, { removed: true });
    this.deps.disconnect(id);
    return p;
  }

  /** `POST /api/participants/:id/kill` `{ killed }`. */
  async killParticipant(id: string, killed: unknown): Promise<ParticipantPublic> {
    if (typeof killed !== 'boolean') throw bad('killed must be true or false');
    return this.updateParticipant(id, { killed });
  }

  private async updateParticipant(id: string, change: Partial<ParticipantPublic>): Promise<ParticipantPublic> {
    const p = this.state.get<ParticipantPublic>('participant', id);
    if (!p) throw new RoomRequestError('room_not_found', 'No such participant.');
    const next = { ...p, ...change };
    await this.state.put({ kind: 'participant', id, value: next });
    this.writer.putParticipant(next);
    return next;
  }

  /** `DELETE /api/submissions/:id`: hidden from everyone; its score is marked removed. */
  async removeSubmission(id: string): Promise<void> {
    const sub = this.state.submission(id);
    if (!sub) throw new RoomRequestError('room_not_found', 'No such submission.');
    await this.state.put({ kind: 'submission', id, value: { ...sub, removed: true } });
    this.writer.putScore(id, REMOVED_SCORE);
  }

  /** `PATCH /api/settings` and `POST /api/kill` (`{ killedAll }`). @throws RoomRequestError 400 */
  async patchSettings(body: Record<string, unknown>): Promise<RoomSettings> {
    const now = this.state.settings();
    const next: RoomSettings = { ...now, caps: { ...now.caps } };
    if ('title' in body) next.title = cleanText(body.title, ROUND_LIMITS.title) || now.title;
    if ('namesHidden' in body) next.namesHidden = body.namesHidden === true;
    if ('killedAll' in body) {
      if (typeof body.killedAll !== 'boolean') throw bad('killedAll must be true or false');
      next.killedAll = body.killedAll;
    }
    if ('caps' in body) next.caps = parseCaps(body.caps, now.caps);
    await this.state.put({ kind: 'meta', id: 'settings', value: next });
    this.writer.setSettings(next);
    return next;
  }

  /** `POST /api/evolution`: seeds (the given submissions, else each participant's best, else latest) and runs it in the background. */
  startEvolution(body: Partial<EvolveTogetherRequest>): { started: true; seeds: number } {
    const scorer = this.deps.scorer;
    if (!scorer) throw new RoomRequestError('room_no_model', 'This room has no scorer: start it with a model (--base-url or --provider).');
    const round = this.state.round(typeof body.roundId === 'string' ? body.roundId : '');
    if (!round) throw new RoomRequestError('room_not_found', 'No such round.');
    const budget = intIn(body.budget, 'budget', 1, 10_000);
    const seeds = this.seedsFor(round, Array.isArray(body.submissionIds) ? body.submissionIds.filter((x): x is string => typeof x === 'string') : undefined);
    if (seeds.length === 0) throw bad('No submissions to seed the evolution with.');
    const req: EvolveTogetherRequest = { roundId: round.public.id, budget, submissionIds: seeds.map((s) => s.id) };
    const withId: RoundWithId = { ...round.config, id: round.public.id };
    scorer.evolve(req, seeds.map(({ removed: _r, ...s }) => s), withId).catch((e: Error) => {
      this.deps.log(`evolution failed: ${e.message}`);
      this.writer.putEvolution({ roundId: req.roundId, state: 'failed', budget, used: 0, candidates: [], curve: [], bestCandidateId: null, message: e.message.slice(0, 300) });
    });
    return { started: true, seeds: seeds.length };
  }

  private seedsFor(round: StoredRound, ids: string[] | undefined): StoredSubmission[] {
    const kept = this.state.submissions().filter((s) => !s.removed && s.roundId === round.public.id && !this.state.get<ParticipantPublic>('participant', s.participantId)?.removed);
    if (ids) return kept.filter((s) => ids.includes(s.id));
    const best = new Map(this.state.snapshot().leaderboard.filter((r) => r.roundId === round.public.id).map((r) => [r.participantId, r.submissionId]));
    const latest = new Map<string, StoredSubmission>();
    for (const s of kept) latest.set(s.participantId, s);
    return [...latest.values()].map((s) => kept.find((k) => k.id === best.get(s.participantId)) ?? s);
  }

  /** `POST /api/evolution/stop`. */
  stopEvolution(): void {
    if (!this.deps.scorer) throw new RoomRequestError('room_no_model', 'This room has no scorer.');
    this.deps.scorer.stopEvolution();
  }

  /** The export's input (the teacher's: hidden tasks and submission texts included). */
  exportInput(): RoomExportInput {
    const texts = Object.fromEntries(this.state.submissions().filter((s) => !s.removed).map((s) => [s.id, s.text]));
    return { state: this.state.roomView(true), texts, model: this.deps.model ?? describeModel({}), exportedAt: this.now().toISOString() };
  }

  /** `GET /api/export?format=…`: the file (src/room/room-export.ts), named `room-<yyyymmdd-hhmm>…` in UTC. */
  exportFile(format: RoomExportFormat): RoomExportFile {
    const input = this.exportInput();
    const stamp = input.exportedAt.slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    return roomExport(input, format, stamp);
  }

  /**
   * `POST /api/end`: answers the final JSON export, then wipes the room's data (state, document,
   * `--data` file, the scorer's runs) keeping only its identity and that it ended; every
   * participant is disconnected.
   */
  async end(): Promise<{ ended: true; export: unknown }> {
    const data: unknown = JSON.parse(roomExportJson(this.exportInput()));
    const final = finalResults(readRoom(this.writer.doc), this.now().toISOString());
    await this.stopAndWipeHere();
    const identity = this.state.get('meta', 'room');
    const settings = { ...this.state.settings(), killedAll: true };
    await this.state.wipe();
    await this.state.put({ kind: 'meta', id: 'room', value: identity }, { kind: 'meta', id: 'settings', value: settings }, { kind: 'meta', id: 'ended', value: true });
    this.writer.wipe();
    this.writer.setSettings(settings);
    this.writer.setEnded(true);
    this.deps.disconnect(null);
    await this.deps.afterEnd?.();
    // After the stored document is sealed: the final results stay in this process's memory only.
    this.writer.setFinal(final);
    return { ended: true, export: data };
  }

  /**
   * The teacher ended the room on another server (several servers on one Redis): what `end` does
   * to this server's own part — its round timers, its class evolution, its scorer's runs, its
   * `--data` file (wiped document, compacted, sealed). The shared state and document were wiped
   * by the server that ended it.
   */
  async endedElsewhere(): Promise<void> {
    await this.stopAndWipeHere();
    await this.deps.afterEnd?.(true);
  }

  /** The room's end on this server: its round timers cleared, its class evolution stopped, its scorer's runs deleted. */
  private async stopAndWipeHere(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.deps.scorer?.stopEvolution();
    await this.deps.scorer?.wipe?.();
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
  }
}

function parseCaps(value: unknown, now: RoomCaps): RoomCaps {
  if (typeof value !== 'object' || value === null) throw bad('caps must be an object');
  const c = value as Record<string, unknown>;
  return {
    maxCalls: 'maxCalls' in c ? capValue(c.maxCalls, 'caps.maxCalls') : now.maxCalls,
    maxTokens: 'maxTokens' in c ? capValue(c.maxTokens, 'caps.maxTokens') : now.maxTokens,
    maxUsd: 'maxUsd' in c ? capValue(c.maxUsd, 'caps.maxUsd') : now.maxUsd,
    opensAt: 'opensAt' in c ? isoOrNull(c.opensAt, 'caps.opensAt') : now.opensAt,
    closesAt: 'closesAt' in c ? isoOrNull(c.closesAt, 'caps.closesAt') : now.closesAt,
  };
}

/** A stored submission's public part (its owner's answer: with `source`). */
function publicOf(s: StoredSubmission): SubmissionPublic {
  return { id: s.id, participantId: s.participantId, roundId: s.roundId, version: s.version, submittedAt: s.submittedAt, chars: s.chars, source: s.source };
}

/**
 * A submission's entry in the shared document: `source` (which Library entry it started from) is
 * left empty, as every classmate reads the document; the owner gets it from their own answers, the
 * teacher from `GET /api/room`, and everyone with a token from `GET /api/submissions/:id` after the
 * reveal. `chars` stays (a length says nothing of the text).
 */
function docEntryOf(s: StoredSubmission): SubmissionPublic {
  return { ...publicOf(s), source: '' };
}
