/**
 * Typed reading and writing of the room's shared Yjs document (layout: `ROOM_DOC_KEYS` in
 * protocol.ts). The only importer of yjs. Readers (`readRoom`, `observeRoom`) serve the page and the
 * load test; writers (`RoomDocWriter`) serve the room server alone, the one writer of the document.
 * Values are plain JSON objects (a Y.Map's value is replaced whole, never mutated in place), except
 * each participant's submissions, an append-only Y.Array.
 */
import * as Y from 'yjs';
import {
  ROOM_DOC_KEYS,
  type ParticipantPublic,
  type RoomEvolution,
  type RoomFinal,
  type RoomSettings,
  type RoundPublic,
  type ScoreState,
  type SubmissionPublic,
} from './protocol.ts';

export { Doc as RoomYDoc } from 'yjs';

/** A plain snapshot of the document, as the views draw it. */
export interface RoomState {
  settings: RoomSettings | null;
  currentRoundId: string | null;
  ended: boolean;
  participants: ParticipantPublic[];
  rounds: RoundPublic[];
  /** Every submission, in each participant's order, participants in join order. */
  submissions: SubmissionPublic[];
  scores: Record<string, ScoreState>;
  evolution: RoomEvolution | null;
  /** The final results once the room has ended (null before, and after a restart of an ended room). */
  final?: RoomFinal | null;
}

const meta = (doc: Y.Doc): Y.Map<unknown> => doc.getMap(ROOM_DOC_KEYS.meta);
const participants = (doc: Y.Doc): Y.Map<ParticipantPublic> => doc.getMap(ROOM_DOC_KEYS.participants);
const rounds = (doc: Y.Doc): Y.Map<RoundPublic> => doc.getMap(ROOM_DOC_KEYS.rounds);
const submissions = (doc: Y.Doc): Y.Map<Y.Array<SubmissionPublic>> => doc.getMap(ROOM_DOC_KEYS.submissions);
const scores = (doc: Y.Doc): Y.Map<ScoreState> => doc.getMap(ROOM_DOC_KEYS.scores);
const evolution = (doc: Y.Doc): Y.Map<RoomEvolution> => doc.getMap(ROOM_DOC_KEYS.evolution);

/** The document as plain values (participants by join time, rounds by index). */
export function readRoom(doc: Y.Doc): RoomState {
  const people = [...participants(doc).values()].sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.id.localeCompare(b.id));
  const subs = submissions(doc);
  return {
    settings: (meta(doc).get('settings') as RoomSettings | undefined) ?? null,
    currentRoundId: (meta(doc).get('currentRoundId') as string | undefined) ?? null,
    ended: meta(doc).get('ended') === true,
    participants: people,
    rounds: [...rounds(doc).values()].sort((a, b) => a.index - b.index),
    submissions: people.flatMap((p) => subs.get(p.id)?.toArray() ?? []),
    scores: Object.fromEntries(scores(doc).entries()),
    evolution: evolution(doc).get('current') ?? null,
    final: (meta(doc).get('final') as RoomFinal | undefined) ?? null,
  };
}

/**
 * Calls `listener` with a fresh snapshot after every change of the document (one call per
 * transaction) and once now. Returns the unsubscribe function.
 */
export function observeRoom(doc: Y.Doc, listener: (state: RoomState) => void): () => void {
  const onUpdate = (): void => listener(readRoom(doc));
  doc.on('afterTransaction', onUpdate);
  onUpdate();
  return () => doc.off('afterTransaction', onUpdate);
}

/** The room server's writes, each one Yjs transaction. */
export class RoomDocWriter {
  constructor(readonly doc: Y.Doc) {}

  setSettings(settings: RoomSettings): void {
    meta(this.doc).set('settings', settings);
  }

  setCurrentRound(roundId: string | null): void {
    meta(this.doc).set('currentRoundId', roundId);
  }

  setEnded(ended: boolean): void {
    meta(this.doc).set('ended', ended);
  }

  /** The final results (after the end's wipe). */
  setFinal(final: RoomFinal): void {
    meta(this.doc).set('final', final);
  }

  putParticipant(participant: ParticipantPublic): void {
    participants(this.doc).set(participant.id, participant);
  }

  putRound(round: RoundPublic): void {
    rounds(this.doc).set(round.id, round);
  }

  /** Appends to the participant's submissions (created on first use). */
  appendSubmission(submission: SubmissionPublic): void {
    this.doc.transact(() => {
      const all = submissions(this.doc);
      let list = all.get(submission.participantId);
      if (list === undefined) {
        list = new Y.Array<SubmissionPublic>();
        all.set(submission.participantId, list);
      }
      list.push([submission]);
    });
  }

  putScore(submissionId: string, state: ScoreState): void {
    scores(this.doc).set(submissionId, state);
  }

  putEvolution(state: RoomEvolution | null): void {
    if (state === null) evolution(this.doc).delete('current');
    else evolution(this.doc).set('current', state);
  }

  /** Empties every part of the document (the room's end). */
  wipe(): void {
    this.doc.transact(() => {
      for (const key of Object.values(ROOM_DOC_KEYS)) {
        const map = this.doc.getMap(key);
        for (const k of [...map.keys()]) map.delete(k);
      }
    });
  }
}

/** The document's state as one update (persistence) and back. */
export function encodeRoomDoc(doc: Y.Doc): Uint8Array {
  return Y.encodeStateAsUpdate(doc);
}

export function applyRoomUpdate(doc: Y.Doc, update: Uint8Array): void {
  Y.applyUpdate(doc, update);
}
