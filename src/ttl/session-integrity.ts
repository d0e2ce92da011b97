/**
 * What a resume checks before it replays a stored session (docs/reliability.md): the store's
 * own checks (every event record intact, none lost that the header counted — `Store.getRun`), then
 * the session's: each step record readable (the trajectory step schema) and in its place (steps
 * 1, 2, 3 … of each episode with no gap, seq = episode × 100,000 + step), every ended episode whole
 * (as many steps as its termination implies, rewards that add up to the recorded scores, the last
 * step's score equal to the episode's final score) and, given an engine, the recorded actions
 * replayed from the story's start reproduce every recorded score (and the game's end for
 * `game_over`). The first problem becomes a `DamagedRunError` naming the file or IndexedDB store
 * and the record; the intact episodes before it can be kept (`fromLastGood`).
 */
import { episodeStepsProblem } from '../agents/consistency.ts';
import { stepSchema } from '../agents/trajectory-io.ts';
import { DamagedRunError, type RunDamage, type RunEvent, type Store, type StoredRun } from '../store/interface.ts';
import type { EpisodeEngine } from './episode-runner.ts';
import { averageScore, bestScore, wAuc } from './metrics.ts';
import type { EpisodeRecord, SessionRecord } from './session-record.ts';
import { assembleSession, replaceSession, SEQ_PER_EPISODE } from './session-store.ts';

/** The result of checking a stored session. */
export interface SessionCheck {
  /** The session as stored (the events before any store damage). */
  record: SessionRecord;
  /** The first problem, or null when the session is whole and consistent. */
  damage: RunDamage | null;
  /** How many leading episodes are intact and ended (all of them when there is no damage). */
  intactEpisodes: number;
}

interface Problem {
  episode: number;
  step: number | null;
  problem: string;
}

const label = (p: Problem): string => `episode ${p.episode}${p.step === null ? '' : ` step ${p.step} (seq ${p.episode * SEQ_PER_EPISODE + p.step})`}`;

/** Problems in the step records themselves: unreadable, misplaced, or a gap in the step numbers. */
function eventProblems(record: SessionRecord, events: readonly RunEvent[]): Problem[] {
  const problems: Problem[] = [];
  const next = new Map<number, number>();
  const lastEpisode = Math.max(0, ...record.episodes.map((e) => e.index));
  for (const event of events) {
    const episode = Math.floor(event.seq / SEQ_PER_EPISODE);
    const step = event.seq % SEQ_PER_EPISODE;
    const expected = next.get(episode) ?? 1;
    const parsed = stepSchema.safeParse(event.data);
    if (episode < 1 || episode > lastEpisode + 1) problems.push({ episode, step, problem: 'it belongs to an episode the session never reached' });
    else if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      problems.push({ episode, step, problem: `it is not a readable step (${issue.path.join('.') || 'record'}: ${issue.message})` });
    } else if (parsed.data.index !== step) problems.push({ episode, step, problem: `it holds step ${parsed.data.index}, not the step its seq says` });
    else if (step !== expected) problems.push({ episode, step: expected, problem: `it is missing (the next stored step is ${step})` });
    next.set(episode, Math.max(expected, step + 1));
  }
  return problems;
}

/** Problems of one ended episode: its steps do not add up to what the episode recorded (the
 * checker every import uses too: agents/consistency.ts). */
function episodeProblem(episode: EpisodeRecord, maxSteps: number): Problem | null {
  const trajectory = episode.trajectory!;
  const found = episodeStepsProblem({
    steps: episode.steps, startScore: trajectory.startScore, finalScore: episode.finalScore, termination: episode.termination ?? trajectory.termination, maxSteps,
    web: trajectory.task?.kind === 'web',
  });
  return found && { episode: episode.index, step: found.step, problem: found.problem };
}

/** The first step whose recorded score the replayed actions do not reproduce. */
async function replayProblem(episode: EpisodeRecord, engine: EpisodeEngine): Promise<Problem | null> {
  let last = await engine.reset();
  for (const step of episode.steps) {
    if (step.action === null) continue;
    if (last.done) return { episode: episode.index, step: step.index, problem: 'the game had already ended before this recorded step' };
    last = await engine.step(step.action);
    if (last.score !== step.score) return { episode: episode.index, step: step.index, problem: `its action "${step.action}" replays to score ${last.score}, the record says ${step.score}` };
  }
  if (episode.termination === 'game_over' && !last.done) return { episode: episode.index, step: (episode.steps.at(-1)?.index ?? 0) + 1, problem: 'it is missing: the episode ended with the game over, but the stored steps do not end the game' };
  return null;
}

/**
 * Check a stored session (see the module comment).
 * @param engine the session's story at its seed; without it the replay check is skipped
 */
export async function checkStoredSession(run: StoredRun, engine?: EpisodeEngine): Promise<SessionCheck> {
  const record = assembleSession(run.header, run.events);
  const ended = record.episodes.filter((e) => e.trajectory !== null);
  let problem: Problem | null = eventProblems(record, run.events)[0] ?? null;
  for (const episode of ended) {
    if (problem && episode.index >= problem.episode) break;
    problem = episodeProblem(episode, record.config.maxSteps) ?? problem;
  }
  if (engine) {
    for (const episode of record.episodes) {
      if (problem && episode.index >= problem.episode) break;
      problem = (await replayProblem(episode, engine)) ?? problem;
    }
  }
  // Ended episodes 1, 2, … in order, before any problem.
  let intact = 0;
  while (ended[intact]?.index === intact + 1 && (!problem || intact + 1 < problem.episode)) intact++;
  let damage: RunDamage | null = problem && { where: run.where, record: label(problem), problem: problem.problem };
  if (run.damage) {
    // Records after the store damage are lost: the episode of the last intact record is kept only
    // when it ended and its ending is stored (its last step is the one its termination implies).
    const lastEvent = run.events.at(-1);
    const episode = lastEvent ? Math.floor(lastEvent.seq / SEQ_PER_EPISODE) : 0;
    const whole = ended.find((e) => e.index === episode && e.termination !== 'game_over') !== undefined;
    const keep = Math.min(intact, whole ? episode : episode - 1, ended.length);
    // A problem among the intact records comes first; one found past them is the store damage.
    const problemSeq = problem ? problem.episode * SEQ_PER_EPISODE + (problem.step ?? 0) : Infinity;
    if (problemSeq >= (lastEvent?.seq ?? 0)) damage = run.damage;
    intact = Math.max(0, Math.min(intact, keep));
  }
  return { record, damage, intactEpisodes: damage ? intact : ended.length };
}

/** The record with only its first `episodes` episodes (and the policy exchanges after them). */
export function keepEpisodes(record: SessionRecord, episodes: number): SessionRecord {
  const kept = structuredClone(record);
  kept.episodes = kept.episodes.filter((e) => e.index <= episodes);
  kept.exchanges = kept.exchanges.filter((x) => x.afterEpisode <= episodes);
  const scores = kept.episodes.map((e) => e.finalScore ?? 0);
  kept.scores = scores;
  kept.wAuc = wAuc(scores, kept.config.story.maxScore);
  kept.averageScore = scores.length ? averageScore(scores) : null;
  kept.bestScore = scores.length ? bestScore(scores) : null;
  if (kept.status === 'complete') kept.status = 'stopped';
  return kept;
}

export interface OpenSessionOptions {
  /** The session's story at its seed, for the replay check. */
  engine?: EpisodeEngine;
  /** When damaged: keep the intact episodes (rewriting the stored run) instead of throwing. */
  fromLastGood?: boolean;
}

/**
 * Load a stored session for a resume, checked (see the module comment); undefined when absent.
 * @throws DamagedRunError when it is damaged and `fromLastGood` is not set (nothing is changed)
 */
export async function openStoredSession(store: Store, id: string, options: OpenSessionOptions = {}): Promise<SessionRecord | undefined> {
  const run = await store.getRun(id);
  if (!run || run.header.kind !== 'session') return undefined;
  const check = await checkStoredSession(run, options.engine);
  if (!check.damage) return check.record;
  const keep = check.intactEpisodes;
  if (!options.fromLastGood) throw new DamagedRunError(id, check.damage, keep === 1 ? 'episode 1' : `episodes 1–${keep}`, keep, 'session');
  const kept = keepEpisodes(check.record, keep);
  await replaceSession(store, kept);
  return kept;
}
