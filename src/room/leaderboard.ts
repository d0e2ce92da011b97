/**
 * The room's leaderboard, computed from the shared document's snapshot (room-doc.ts `readRoom`) by
 * the server (`GET /api/room`), the projector and the exports alike. Pure: no I/O, no library.
 *
 * A round's row per participant is their best scored submission of that round (highest W-AUC on
 * the hidden set; of equal W-AUCs, the one submitted first). Removed participants, removed
 * submissions and submissions not yet scored (queued, scoring, failed) are left out. Rows are
 * ordered by W-AUC, highest first, equal W-AUCs by who submitted first; equal W-AUCs share a rank
 * (1, 1, 3: "standard competition ranking"), so a tie is never broken by luck of timing on screen.
 */
import type { LeaderboardRow, RoomFinal, RoomScore, SubmissionPublic } from './protocol.ts';
import type { RoomState } from './room-doc.ts';

/** A submission with its final score. */
interface Scored {
  submission: SubmissionPublic;
  score: RoomScore;
}

/** Earlier first: by submission time (ISO 8601 compares as text), then version, then id. */
function earlier(a: SubmissionPublic, b: SubmissionPublic): number {
  return a.submittedAt.localeCompare(b.submittedAt) || a.version - b.version || a.id.localeCompare(b.id);
}

/** Better first: higher W-AUC, then the earlier submission. */
function better(a: Scored, b: Scored): number {
  return b.score.wauc - a.score.wauc || earlier(a.submission, b.submission);
}

/**
 * The leaderboard of round `roundId` (empty for an unknown round or one without scores).
 * @returns one row per participant with a scored submission in the round, ranked 1…n (ties share a rank)
 */
export function leaderboard(state: RoomState, roundId: string): LeaderboardRow[] {
  const people = new Map(state.participants.filter((p) => !p.removed).map((p) => [p.id, p]));
  const best = new Map<string, Scored>();
  for (const submission of state.submissions) {
    if (submission.roundId !== roundId || !people.has(submission.participantId)) continue;
    const score = state.scores[submission.id];
    if (score?.status !== 'scored' || score.score === null || !Number.isFinite(score.score.wauc)) continue;
    const entry = { submission, score: score.score };
    const current = best.get(submission.participantId);
    if (!current || better(entry, current) < 0) best.set(submission.participantId, entry);
  }
  const ordered = [...best.values()].sort(better);
  const rows: LeaderboardRow[] = [];
  ordered.forEach((entry, i) => {
    const previous = rows[i - 1];
    const rank = previous && previous.score.wauc === entry.score.wauc ? previous.rank : i + 1;
    rows.push({
      roundId, participantId: entry.submission.participantId, name: people.get(entry.submission.participantId)!.name,
      submissionId: entry.submission.id, version: entry.submission.version, score: entry.score, rank,
    });
  });
  return rows;
}

/** A "new best" moment for the projector: a participant's best of the round changed. */
export interface NewBest {
  roundId: string;
  participantId: string;
  name: string;
  submissionId: string;
  /** The new best W-AUC and the participant's best before it (null: their first scored submission). */
  wauc: number;
  previousWauc: number | null;
  /** The row now leads the round (rank 1) and no earlier leader had this W-AUC or more. */
  top: boolean;
}

/**
 * What changed between two leaderboards of one round (`before` as last shown, `after` now): each
 * participant whose best submission is new and scores higher than their best before (or is their
 * first), in `after`'s order. A row that leads `after` with a W-AUC above `before`'s leader is `top`.
 */
export function newBests(before: readonly LeaderboardRow[], after: readonly LeaderboardRow[]): NewBest[] {
  const previous = new Map(before.map((row) => [row.participantId, row]));
  const leader = before.length ? Math.max(...before.map((row) => row.score.wauc)) : null;
  const out: NewBest[] = [];
  for (const row of after) {
    const was = previous.get(row.participantId);
    if (was && (was.submissionId === row.submissionId || row.score.wauc <= was.score.wauc)) continue;
    out.push({
      roundId: row.roundId, participantId: row.participantId, name: row.name, submissionId: row.submissionId, wauc: row.score.wauc,
      previousWauc: was ? was.score.wauc : null, top: row.rank === 1 && (leader === null || row.score.wauc > leader),
    });
  }
  return out;
}

/**
 * The room's final results from its last snapshot (pure): every round with scores and its
 * leaderboard, the class evolution and its credit, names as the projector shows them ("Participant
 * n", n the join order from 1, when the teacher hides names). No submission text.
 */
export function finalResults(state: RoomState, endedAt: string): RoomFinal {
  const hidden = state.settings?.namesHidden ?? false;
  const nameOf = (id: string): string => {
    const index = state.participants.findIndex((p) => p.id === id);
    if (index < 0) return hidden ? 'A participant' : 'Someone who left';
    return hidden ? `Participant ${index + 1}` : state.participants[index]!.name;
  };
  const rounds = state.rounds
    .map((r) => ({ id: r.id, title: r.title, rows: leaderboard(state, r.id).map((row) => ({ ...row, name: nameOf(row.participantId) })) }))
    .filter((r) => r.rows.length > 0);
  const evolution = state.evolution;
  const best = evolution?.candidates.find((c) => c.id === evolution.bestCandidateId);
  const credited = new Set([...(best?.creditParticipantIds ?? []), ...(best?.originParticipantId ? [best.originParticipantId] : [])]);
  const credit = state.participants.filter((p) => credited.has(p.id)).map((p) => p.id);
  const ids = new Set([...rounds.flatMap((r) => r.rows.map((row) => row.participantId)), ...credit, ...(evolution?.candidates.flatMap((c) => (c.originParticipantId ? [c.originParticipantId] : [])) ?? [])]);
  return { endedAt, names: Object.fromEntries([...ids].map((id) => [id, nameOf(id)])), rounds, evolution, credit };
}
