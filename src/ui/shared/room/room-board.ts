/**
 * What the projector and the teacher's view compute from the room's document (a `RoomState`,
 * src/room/room-doc.ts) beside the leaderboard (src/room/leaderboard.ts): display names (the
 * names-hidden setting shows "Participant 3"), a score in words with its unit, a participant's
 * usage with its estimates marked, the timer, the
 * scoring in progress, the class evolution's credit, and a round's tasks from stories × seeds. Pure.
 */
import type { ParticipantPublic, RoomScore, RoomTask, RoomUsage, RoundPublic } from '../../../room/protocol.ts';
import type { RoomState } from '../../../room/room-doc.ts';

/** "Participant n" (n: the join order, from 1) when names are hidden, else the stored name. */
export function displayName(participants: readonly ParticipantPublic[], participantId: string, namesHidden: boolean): string {
  const index = participants.findIndex((p) => p.id === participantId);
  if (index < 0) return namesHidden ? 'A participant' : 'Someone who left';
  return namesHidden ? `Participant ${index + 1}` : participants[index]!.name;
}

/** W-AUC to two decimals (a fraction of the max score, 0–1). */
export const waucText = (value: number): string => value.toFixed(2);

/** "0.62 (95 % CI 0.55–0.70, n = 6 sessions)"; one session has no interval: "0.62 (n = 1 session, no interval)". */
export function scoreText(score: RoomScore): string {
  if (score.n < 2) return `${waucText(score.wauc)} (n = ${score.n} session, no interval)`;
  return `${waucText(score.wauc)} (95 % CI ${waucText(score.low)}–${waucText(score.high)}, n = ${score.n} sessions)`;
}

/** The timer as "m:ss" left (never negative), or null when the round has none. */
export function timerText(endsAt: string | null, nowMs: number): string | null {
  if (endsAt === null) return null;
  const left = Math.max(0, Math.ceil((Date.parse(endsAt) - nowMs) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

/** A participant's model usage as the teacher's table shows it. */
export interface UsageCells {
  calls: string;
  /** "~1234" when some calls' tokens were estimated. */
  tokens: string;
  /** "$0.0012", "~$0.0012" when estimated, "—" without a price. */
  cost: string;
  /** "2 of 5 calls estimated" (the provider sent no believable usage for them), else null. */
  estimated: string | null;
}

/** `usage` in words: a "~" on tokens and cost when the forwarder estimated some calls' tokens (`estimatedCalls` > 0). */
export function usageCells(usage: RoomUsage): UsageCells {
  const estimated = usage.estimatedCalls ?? 0;
  const about = estimated > 0 ? '~' : '';
  return {
    calls: String(usage.calls),
    tokens: `${about}${usage.tokens}`,
    cost: usage.usd === null ? '—' : `${about}$${usage.usd.toFixed(4)}`,
    estimated: estimated > 0 ? `${estimated} of ${usage.calls} call${usage.calls === 1 ? '' : 's'} estimated` : null,
  };
}

/** The round shown: the current one, else the latest. */
export function currentRound(state: RoomState): RoundPublic | null {
  return state.rounds.find((r) => r.id === state.currentRoundId) ?? state.rounds.at(-1) ?? null;
}

/** A submission being scored or waiting: whose, which version, sessions done of total, the running curve. */
export interface ScoringRow {
  submissionId: string;
  participantId: string;
  version: number;
  status: 'queued' | 'scoring';
  done: number;
  total: number;
  /** Mean score fraction per episode so far ([] before the first session ends). */
  curve: number[];
}

/** The round's submissions queued or being scored, in submission order. */
export function scoringRows(state: RoomState, roundId: string): ScoringRow[] {
  return state.submissions.flatMap((sub): ScoringRow[] => {
    const s = state.scores[sub.id];
    if (sub.roundId !== roundId || !s || (s.status !== 'queued' && s.status !== 'scoring')) return [];
    return [{ submissionId: sub.id, participantId: sub.participantId, version: sub.version, status: s.status, done: s.done, total: s.total, curve: s.score?.curve ?? [] }];
  });
}

/** The participants whose ideas the class evolution's best descends from (ids, in join order). */
export function evolutionCredit(state: RoomState): string[] {
  const evolution = state.evolution;
  const best = evolution?.candidates.find((c) => c.id === evolution.bestCandidateId);
  if (!best) return [];
  const credited = new Set([...best.creditParticipantIds, ...(best.originParticipantId ? [best.originParticipantId] : [])]);
  return state.participants.filter((p) => credited.has(p.id)).map((p) => p.id);
}

/**
 * A round's tasks, every chosen story with every seed (`lever-room:1`): the CLI's task names. Seeds
 * from text like "1, 2, 5-7" (whole numbers ≥ 0; ranges inclusive, at most 100 seeds).
 * @throws RangeError naming the bad part when the text is not such a list
 */
export function roundTasks(storyIds: readonly string[], seedsText: string): RoomTask[] {
  const seeds: number[] = [];
  for (const part of seedsText.split(/[\s,]+/).filter(Boolean)) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) throw new RangeError(`"${part}" is not a seed or a range like 3-5.`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) throw new RangeError(`The range "${part}" runs backwards.`);
    for (let s = from; s <= to; s++) seeds.push(s);
    if (seeds.length > 100) throw new RangeError('At most 100 seeds.');
  }
  return storyIds.flatMap((id) => [...new Set(seeds)].map((seed) => `${id}:${seed}`));
}
