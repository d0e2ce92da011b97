/**
 * Replay of recorded runs without a provider: a session record becomes an ordered list of frames
 * (episode starts with their guiding prompt, steps, a person's edits of the guide, episode ends with the learning curve so far,
 * the meta-agent's feedback between episodes) for a view to step through at any speed; and a
 * check that the recorded actions, replayed on the engine, give the recorded scores and W-AUC.
 */
import type { TrajectoryStep } from '../agents/trajectory.ts';
import type { EpisodeEngine } from './episode-runner.ts';
import { wAuc } from './metrics.ts';
import type { PolicyExchange } from './policy.ts';
import type { GuideIntervention, SessionRecord } from './session-record.ts';

export type ReplayFrame =
  | { kind: 'episode_start'; episode: number; guidingPrompt: string; observation: string }
  | { kind: 'step'; episode: number; step: TrajectoryStep }
  /** A person edited the guide: placed before the first step played with the new one. */
  | { kind: 'intervention'; episode: number; intervention: GuideIntervention }
  | { kind: 'episode_end'; episode: number; finalScore: number | null; termination: string | null; curve: number[]; wAuc: number | null }
  | { kind: 'feedback'; afterEpisode: number; exchange: PolicyExchange };

/** The frames of a session, in the order things happened. */
export function replayFrames(record: SessionRecord): ReplayFrame[] {
  const frames: ReplayFrame[] = [];
  const curve: number[] = [];
  for (const episode of record.episodes) {
    frames.push({ kind: 'episode_start', episode: episode.index, guidingPrompt: episode.guidingPrompt, observation: episode.trajectory?.startObservation ?? '' });
    const edits = (record.interventions ?? []).filter((i) => i.episode === episode.index);
    for (const step of episode.steps) {
      for (const intervention of edits.filter((i) => i.step === step.index)) frames.push({ kind: 'intervention', episode: episode.index, intervention });
      frames.push({ kind: 'step', episode: episode.index, step });
    }
    // An edit made before a step that was never played (the session stopped) still shows.
    for (const intervention of edits.filter((i) => !episode.steps.some((s) => s.index === i.step))) frames.push({ kind: 'intervention', episode: episode.index, intervention });
    if (episode.trajectory) {
      curve.push(episode.finalScore ?? 0);
      frames.push({
        kind: 'episode_end', episode: episode.index, finalScore: episode.finalScore, termination: episode.termination,
        curve: [...curve], wAuc: wAuc(curve, record.config.story.maxScore),
      });
    }
    for (const exchange of record.exchanges.filter((e) => e.afterEpisode === episode.index)) frames.push({ kind: 'feedback', afterEpisode: episode.index, exchange });
  }
  return frames;
}

export interface ReplayCheck {
  /** Final score per episode when the recorded actions are replayed. */
  scores: number[];
  wAuc: number | null;
  /** Differences from the record ("episode 2 step 5: score 3, recorded 4"); empty when faithful. */
  mismatches: string[];
}

/** Replay every episode's recorded actions on `engine` (same story and seed) and compare. */
export async function checkReplay(record: SessionRecord, engine: EpisodeEngine): Promise<ReplayCheck> {
  const mismatches: string[] = [];
  const scores: number[] = [];
  for (const episode of record.episodes.filter((e) => e.trajectory)) {
    let last = await engine.reset();
    for (const step of episode.steps) {
      if (step.action === null) continue;
      last = await engine.step(step.action);
      if (last.score !== step.score) mismatches.push(`episode ${episode.index} step ${step.index}: score ${last.score}, recorded ${step.score}`);
    }
    scores.push(last.score ?? 0);
    if (last.score !== episode.finalScore) mismatches.push(`episode ${episode.index}: final score ${last.score}, recorded ${episode.finalScore}`);
  }
  return { scores, wAuc: wAuc(scores, record.config.story.maxScore), mismatches };
}
