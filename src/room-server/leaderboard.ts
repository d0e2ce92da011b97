/**
 * The room's leaderboard: each participant's best scored submission in each round, ranked by W-AUC
 * (higher first; ties share a rank, then the earlier submission is listed first). Removed
 * participants and submissions are left out. Pure.
 */
import type { LeaderboardRow, ParticipantPublic, RoundPublic, ScoreState, SubmissionPublic } from '../room/protocol.ts';

/** Rows by round (in round order), rank 1 first. */
export function leaderboard(rounds: RoundPublic[], participants: ParticipantPublic[], submissions: (SubmissionPublic & { score: ScoreState | null })[]): LeaderboardRow[] {
  const people = new Map(participants.filter((p) => !p.removed).map((p) => [p.id, p]));
  const rows: LeaderboardRow[] = [];
  for (const round of rounds) {
    const best = new Map<string, LeaderboardRow>();
    for (const sub of submissions) {
      const person = people.get(sub.participantId);
      const score = sub.score?.status === 'scored' ? sub.score.score : null;
      if (sub.roundId !== round.id || !person || !score) continue;
      const held = best.get(person.id);
      if (held && held.score.wauc >= score.wauc) continue;
      best.set(person.id, { roundId: round.id, participantId: person.id, name: person.name, submissionId: sub.id, version: sub.version, score, rank: 0 });
    }
    const ranked = [...best.values()].sort((a, b) => b.score.wauc - a.score.wauc);
    ranked.forEach((row, i) => (row.rank = i > 0 && ranked[i - 1]!.score.wauc === row.score.wauc ? ranked[i - 1]!.rank : i + 1));
    rows.push(...ranked);
  }
  return rows;
}
