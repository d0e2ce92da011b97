/**
 * Scores for a room that outlived its document: several servers on one Redis all stopped without
 * `--data`, and one starts again. The records (participants, rounds, submissions) are in Redis and
 * `RoomActions.start` writes them back into the empty document; a submission's score lives in the
 * document, so each final score (scored, failed) is kept as a record too and written back here. A
 * score still being computed when the servers stopped is written as failed (submit again).
 */
import type { ScoreState } from '../room/protocol.ts';
import { readRoom, type RoomDocWriter } from '../room/room-doc.ts';
import type { RoomState } from './room-state.ts';

/** The record kind a submission's final score is kept under, by submission id. */
export const SCORE_RECORD = 'score';

/** A score worth keeping in the private state: a final one. */
export const isFinalScore = (score: ScoreState): boolean => score.status === 'scored' || score.status === 'failed';

const LOST: ScoreState = { status: 'failed', done: 0, total: 0, score: null, message: 'Its scoring stopped when every room server stopped: submit it again.' };

/**
 * Writes every kept submission's score the document lacks: its record, else LOST. Call only when
 * the document was found empty (a score another server is still writing must not be overwritten).
 */
export function restoreScores(state: RoomState, writer: RoomDocWriter): void {
  const scores = readRoom(writer.doc).scores;
  writer.doc.transact(() => {
    for (const sub of state.submissions()) {
      if (sub.removed || scores[sub.id] !== undefined) continue;
      writer.putScore(sub.id, state.get<ScoreState>(SCORE_RECORD, sub.id) ?? LOST);
    }
  });
}
