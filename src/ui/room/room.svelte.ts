/**
 * The student's side of a workshop room: joining by code and name (the identity kept in
 * localStorage, so a reload rejoins as the same participant), the read-only live document
 * (`connectRoom`: connected / reconnecting), the page's LLM settings switched to the room's
 * forwarder while joined (`useRoom`; leaving restores the user's own), the meta-prompt draft and its
 * submission through the outbox (kept before it is sent, sent again on reconnect), and presence
 * ("writing", "learn", "submitted"). Every I/O is injected (`RoomStudentDeps`).
 */
import { registerSecret } from '../../common/secrets.ts';
import type { RoomConnection, RoomConnectionOptions, RoomConnectionStatus } from '../../room/room-client.ts';
import type { RoomState } from '../../room/room-doc.ts';
import { ROOM_LIMITS, type RoomInfo, type SubmitRequest } from '../../room/protocol.ts';
import type { RoomProvider } from '../shared/state/llm-settings.ts';
import { ErrorSlot } from '../shared/state/error-slot.svelte.ts';
import { errorText } from '../shared/state/error-text.ts';
import { dateAt } from '../shared/state/services.ts';
import { RoomApi, RoomCallError } from './room-api.ts';
import { loadIdentity, roomCodeOf, saveIdentity, type KeyValueStorage, type RoomIdentity } from './room-identity.ts';
import { Outbox, type OutboxItem } from './room-outbox.ts';
import { currentRound } from './room-standing.ts';
import { joinedNameNote, taskLabel } from './room-guidance.ts';
import { roomAllowance, type RoomAllowance } from '../shared/room/room-allowance.ts';

export interface RoomStudentDeps {
  api: RoomApi;
  /** localStorage (identity and outbox). */
  storage: KeyValueStorage;
  /** The room's WebSocket address (`ws://<host>:<port>`). */
  socketUrl: string;
  connect(options: RoomConnectionOptions): RoomConnection;
  /** Switch the page's LLM settings to the room (null: back to the user's own). */
  useRoom(provider: RoomProvider | null): void | Promise<void>;
  /** Open Learn on a practice task with the round's K and S (and the draft as the meta-prompt when given), with the room's model. */
  openPractice(practice: PracticeRequest): void;
  /** A story's title by its id (the story shelf), or null when the shelf does not have it. */
  storyTitle(storyId: string): string | null;
  /** A random id (no secure context needed: page-abilities `newId`). */
  newId(): string;
  now(): number;
  /** The meta-prompt Library's entries (built-in and the user's) to pick a draft from. */
  libraryEntries(): Promise<readonly LibraryPick[]>;
}

/** A Library entry as the draft picker needs it. */
export interface LibraryPick {
  id: string;
  name: string;
  strategy: string;
}

/** Learn opened for a room's practice: the task (`zork1:12`), the round's K and S, and the draft to run as the meta-prompt (null: Learn's chosen policy). */
export interface PracticeRequest {
  task: string;
  episodes: number;
  steps: number;
  draft: string | null;
}

/** What a student reads once the teacher has ended the room (the projector keeps the final results). */
export const ROOM_ENDED_TEXT = 'The room has ended. Thank you! The final results stay on the projector.';

/** Where the student is: the join form, in the room, or out of it (removed, ended) with the reason. */
export type RoomPhase = 'join' | 'joining' | 'joined' | 'out';

export class RoomStudentState {
  phase = $state<RoomPhase>('join');
  info = $state.raw<RoomInfo | null>(null);
  code = $state('');
  name = $state('');
  /** What the room did to the typed name (cut, made unique), said once joined; null: kept as typed. */
  nameNote = $state<string | null>(null);
  /** Why the last join failed, in plain words; null when it did not. */
  joinError = $state<string | null>(null);
  /** Why the student is out of the room (removed, ended), in plain words. */
  outReason = $state<string | null>(null);
  identity = $state.raw<RoomIdentity | null>(null);
  status = $state<RoomConnectionStatus>('connecting');
  /** The browser says it is online, and the room's last request got an answer (a socket can look
   * connected for a while after the network went). */
  reachable = $state(true);
  /** What the view says of the connection: connected only when the socket and the network both are. */
  readonly connected = $derived(this.status === 'connected' && this.reachable);
  room = $state.raw<RoomState | null>(null);
  /** The model the room serves (every role uses it while joined). */
  model = $state<string | null>(null);
  draft = $state('');
  /** Where the draft came from: "written", a Library entry's name, or "<name>, edited". */
  draftSource = $state('written');
  /** Submissions kept but not yet received by the room ("waiting to send"). */
  waiting = $state.raw<OutboxItem[]>([]);
  /** Submitting or flushing now. */
  sending = $state(false);
  /** The last submission's outcome in words (sent / kept to send). */
  notice = $state<string | null>(null);
  /** The Library's entries offered to pick from (loaded at start). */
  entries = $state.raw<readonly LibraryPick[]>([]);
  readonly errors = new ErrorSlot();
  /** The current round, from the live document. */
  readonly round = $derived(this.room ? currentRound(this.room) : null);

  private connection: RoomConnection | null = null;
  /** The presence activity last sent. */
  private activity = 'joined';
  private readonly outbox: Outbox;
  private started: Promise<void> | null = null;

  constructor(private readonly deps: RoomStudentDeps) {
    this.outbox = new Outbox(deps.storage);
    this.waiting = this.outbox.items();
  }

  /** Read the room's info and rejoin with a kept identity (a code from the page's `?room=` prefills the form). Runs once. */
  start(pageUrl: URL): Promise<void> {
    this.started ??= this.begin(roomCodeOf(pageUrl));
    return this.started;
  }

  private async begin(code: string | null): Promise<void> {
    void this.errors.attempt(async () => (this.entries = await this.deps.libraryEntries()));
    this.info = await this.deps.api.info();
    const kept = loadIdentity(this.deps.storage);
    if (code !== null) this.code = code;
    if (kept && (code === null || code === kept.code)) {
      this.name = kept.name;
      this.code = kept.code;
      await this.enter(kept);
    }
  }

  /** Join with the form's code and name (`POST /api/join`); a refusal is shown in plain words. */
  async join(): Promise<void> {
    const code = this.code.trim();
    const name = this.name.trim();
    if (code === '' || name === '') {
      this.joinError = code === '' ? 'Type the room code shown on the projector.' : 'Type your name (as the class will see it).';
      return;
    }
    this.phase = 'joining';
    this.joinError = null;
    try {
      const reply = await this.deps.api.join(code, name.slice(0, ROOM_LIMITS.name));
      this.nameNote = joinedNameNote(name, reply.name);
      const identity: RoomIdentity = { participantId: reply.participantId, token: reply.token, name: reply.name, code };
      saveIdentity(this.deps.storage, identity);
      await this.enter(identity);
    } catch (error) {
      this.phase = 'join';
      this.joinError = errorText(error);
    }
  }

  /** In the room as `identity`: check it is still a member, use the room's model, connect, send what waits. */
  private async enter(identity: RoomIdentity): Promise<void> {
    registerSecret(identity.token);
    this.phase = 'joining';
    try {
      await this.deps.api.me(identity.token);
    } catch (error) {
      if (error instanceof RoomCallError && error.status !== null) return this.out(error.message, error.status === 401);
      // offline: go in with what is kept; the connection and the outbox catch up
    }
    this.identity = identity;
    this.phase = 'joined';
    this.connect(identity);
    await this.useRoomModel(identity);
    void this.flush();
  }

  private async useRoomModel(identity: RoomIdentity): Promise<void> {
    await this.errors.attempt(async () => {
      const { id: model, price } = await this.deps.api.model(identity.token);
      this.model = model;
      await this.deps.useRoom({ title: this.info?.title ?? 'Workshop room', baseUrl: `${this.deps.api.origin}/v1`, token: identity.token, model, price });
    });
  }

  private connect(identity: RoomIdentity): void {
    this.connection?.close();
    this.connection = this.deps.connect({
      url: this.deps.socketUrl,
      token: identity.token,
      presence: { role: 'student', participantId: identity.participantId, name: identity.name, activity: 'joined' },
      onState: (state) => this.onRoom(state),
      onStatus: (status) => {
        this.status = status;
        if (status === 'connected') {
          this.reachable = true;
          void this.flush();
          if (this.model === null) void this.useRoomModel(identity);
        }
      },
      onRefused: () => void this.refused(identity),
    });
  }

  /** The room's server refused the connection: ask it why (removed, ended, unknown) and say so. */
  private async refused(identity: RoomIdentity): Promise<void> {
    // An ended room forgets every token: its info says it is no longer joinable.
    if ((await this.deps.api.info())?.joinable === false) return this.out(ROOM_ENDED_TEXT, true);
    try {
      await this.deps.api.me(identity.token);
    } catch (error) {
      if (error instanceof RoomCallError && error.status !== null) return this.out(error.message, true);
    }
    await this.out('The room refused this page (you were removed, or the room ended). Join again with the code.', true);
  }

  private onRoom(state: RoomState): void {
    this.room = state;
    const me = this.identity ? state.participants.find((p) => p.id === this.identity!.participantId) : undefined;
    if (state.ended) void this.out(ROOM_ENDED_TEXT, true);
    else if (me?.removed) void this.out('The teacher removed you from this room.', true);
  }

  /** Out of the room with `reason`: disconnected, the user's own settings back; the identity forgotten when `forget`. */
  private async out(reason: string, forget: boolean): Promise<void> {
    this.outReason = reason;
    this.phase = 'out';
    this.connection?.close();
    this.connection = null;
    if (forget) saveIdentity(this.deps.storage, null);
    this.identity = forget ? null : this.identity;
    await this.deps.useRoom(null);
  }

  /** Leave the room on this page: the user's own settings come back; rejoining needs the code again. */
  async leave(): Promise<void> {
    await this.out('You left the room. Join again with the code to take part.', true);
  }

  /** Back to the join form after being out. */
  rejoin(): void {
    this.outReason = null;
    this.joinError = null;
    this.phase = 'join';
  }

  /** Edit the draft (presence: "writing"); a picked entry's text edited is "<entry>, edited". */
  write(text: string): void {
    this.draft = text.slice(0, ROOM_LIMITS.submission);
    if (this.draft === '') this.draftSource = 'written';
    else if (this.draftSource !== 'written' && !this.draftSource.endsWith(', edited')) this.draftSource = `${this.draftSource}, edited`;
    this.setActivity('writing');
  }

  /** Put a Library entry's strategy in the draft. */
  pick(entry: { name: string; strategy: string }): void {
    this.draft = entry.strategy.slice(0, ROOM_LIMITS.submission);
    this.draftSource = entry.name.slice(0, 80);
    this.setActivity('writing');
  }

  /**
   * Open Learn on a practice task of the current round with the room's model, the round's K and S
   * (presence: "learn"); `withDraft`: the draft runs as the meta-prompt (an empty draft: Learn's own choice).
   */
  practise(task: string, withDraft = false): void {
    const round = this.round;
    if (!round) return;
    this.setActivity('learn');
    const draft = withDraft && this.draft.trim() !== '' ? this.draft : null;
    this.deps.openPractice({ task, episodes: round.episodes, steps: round.steps, draft });
  }

  /** What the room still allows this participant (tokens and calls left), or null when not joined or the room did not answer. */
  async allowance(): Promise<RoomAllowance | null> {
    const identity = this.identity;
    if (this.phase !== 'joined' || !identity) return null;
    try {
      const me = await this.deps.api.me(identity.token);
      return roomAllowance(me.usage, me.caps);
    } catch {
      return null;
    }
  }

  /** A room task as a reader names it: "The Lever Room, seed 1" (room-guidance.ts `taskLabel`). */
  taskLabel(task: string): string {
    return taskLabel(task, (id) => this.deps.storyTitle(id));
  }

  /** Tell the room what the student is doing (sent only when it changes: not on every keystroke). */
  setActivity(activity: string): void {
    if (activity === this.activity) return;
    this.activity = activity;
    this.connection?.setActivity(activity);
  }

  /**
   * Submit the draft to the current round: kept in the outbox first (with its clientId), then sent;
   * offline it waits and is sent on reconnect.
   */
  async submit(): Promise<void> {
    const round = this.round;
    const identity = this.identity;
    if (!round || !identity) return;
    if (this.draft.trim() === '') {
      this.notice = 'Write a meta-prompt (or pick one from the Library) first.';
      return;
    }
    const request: SubmitRequest = { roundId: round.id, text: this.draft, clientId: this.deps.newId(), source: this.draftSource };
    this.outbox.add({ request, madeAt: dateAt(this.deps.now()).toISOString(), participantId: identity.participantId });
    this.waiting = this.outbox.items();
    this.setActivity('submitted');
    await this.flush();
  }

  /** The browser went offline or came back online: back online, what waits is sent. */
  setOnline(online: boolean): void {
    this.reachable = online;
    if (online) void this.flush();
  }

  /** Send every waiting submission; what the network did not carry stays (and is said so). */
  async flush(): Promise<void> {
    const identity = this.identity;
    if (!identity || this.outbox.items().length === 0) return;
    this.sending = true;
    try {
      const result = await this.outbox.flush(identity.participantId, (request) => this.deps.api.submit(identity.token, request));
      this.reachable = result.waiting === 0 || result.sent.length > 0;
      const refused = result.refused.at(-1);
      if (refused) this.notice = `Not accepted: ${refused.message}`;
      else if (result.waiting > 0) this.notice = 'No connection to the room: your submission is kept and will be sent when the connection is back.';
      else if (result.sent.length > 0) this.notice = `Submitted (version ${result.sent.at(-1)!.version}): the room scores it on the hidden tasks.`;
    } finally {
      this.waiting = this.outbox.items();
      this.sending = false;
    }
  }

  /** Close the connection (the page goes away). */
  close(): void {
    this.connection?.close();
    this.connection = null;
  }
}
