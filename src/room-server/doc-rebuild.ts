/**
 * The shared document written again from the private state, for a room that outlived its
 * document: several servers on one Redis all stopped without `--data`, and one starts again — the
 * records (participants, rounds, submissions, final scores) are in Redis, the document was only in
 * the servers' memory. The document then holds what it held, but presence and a score still
 * being computed when the servers stopped (written as failed: submit again).
 */
import type { ScoreState, SubmissionPublic } from '../room/protocol.ts';
import type { RoomDocWriter } from '../room/room-doc.ts';
import type { RoomState } from './room-state.ts';

/** The record kind a submission's final score (scored, failed) is kept under, by submission id. */
export const SCORE_RECORD = 'score';

/** A score worth keeping in the private state: a final one. */
export const isFinalScore = (score: ScoreState): boolean => score.status === 'scored' || score.status === 'failed';

const LOST: ScoreState = { status: 'failed', done: 0, total: 0, score: null, message: 'Its scoring stopped when every room server stopped: submit it again.' };
const REMOVED: ScoreState = { status: 'removed', done: 0, total: 0, score: null, message: 'Removed by the teacher.' };

/** Writes the whole document from `state` (one transaction); the document is expected empty. */
export function rebuildDocument(state: RoomState, writer: RoomDocWriter): void {
  writer.doc.transact(() => {
    writer.setSettings(state.settings());
    writer.setEnded(state.ended());
    for (const p of state.participants()) writer.putParticipant(p);
    for (const r of state.rounds()) writer.putRound(r.public);
    writer.setCurrentRound(state.get<string>('meta', 'currentRound') ?? null);
    for (const { text: _text, removed, ...pub } of state.submissions()) {
      writer.appendSubmission(pub satisfies SubmissionPublic);
      writer.putScore(pub.id, removed ? REMOVED : (state.get<ScoreState>(SCORE_RECORD, pub.id) ?? LOST));
    }
  });
}
