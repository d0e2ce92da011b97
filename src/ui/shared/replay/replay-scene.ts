/**
 * What the Replay view shows at one frame of a session (`replayFrames`, src/ttl/replay.ts): the
 * current episode with its guiding prompt and the steps played so far, how it ended once it has,
 * a person's edits of the guide (each before the step it applies to), the learning curve and
 * W-AUC as far as the replay has got, and the policy exchanges (the
 * meta-agent's feedback) shown so far; for a web task, the page as it was (the episode's start page
 * before its first step, then the page after each step, the acted element marked). Also how long a frame stays on screen when playing. Pure.
 */
import type { TrajectoryStep } from '../../../agents/trajectory.ts';
import type { ReplayFrame } from '../../../ttl/replay.ts';
import type { PolicyExchange } from '../../../ttl/policy.ts';
import type { GuideIntervention, SessionRecord } from '../../../ttl/session-record.ts';
import type { PageSnapshot } from '../../../web/interface.ts';

export interface ReplayScene {
  /** The frame shown (0-based) and how many there are. */
  position: number;
  total: number;
  kind: ReplayFrame['kind'];
  /** The current episode (1-based) and its guiding prompt. */
  episode: number;
  guidingPrompt: string;
  /** Steps of the current episode shown so far. */
  steps: readonly TrajectoryStep[];
  /** Set once the current episode has ended: its final score, termination and last text. */
  ended: { finalScore: number | null; termination: string | null; finalObservation: string } | null;
  /** Final score of each episode ended so far (the learning curve). */
  curve: readonly number[];
  /** W-AUC of the episodes ended so far (null: none yet, or no max score). */
  wAuc: number | null;
  /** The game's score now: the last step's, or the episode's final score (null: none yet). */
  score: number | null;
  /** The policy exchanges (feedback between episodes) shown so far, oldest first. */
  exchanges: readonly PolicyExchange[];
  /** A person's edits of the guide in the current episode shown so far (each before its step). */
  edits: readonly GuideIntervention[];
  /** The session played a web task. */
  web: boolean;
  /** Web tasks: the page now (the start page, then the last step's page; null when the record
   * holds no pages — records made before pages were recorded). */
  page: PageSnapshot | null;
}

/** The scene at `position` (clamped to the frames); null when there are no frames. */
export function sceneAt(record: SessionRecord, frames: readonly ReplayFrame[], position: number): ReplayScene | null {
  if (frames.length === 0) return null;
  const at = Math.max(0, Math.min(frames.length - 1, Math.floor(position)));
  const scene: ReplayScene = {
    position: at, total: frames.length, kind: frames[at]!.kind, episode: 1, guidingPrompt: record.config.initialGuidingPrompt,
    steps: [], ended: null, curve: [], wAuc: null, score: null, exchanges: [], edits: [], web: record.config.task?.kind === 'web', page: null,
  };
  const steps: TrajectoryStep[] = [];
  const exchanges: PolicyExchange[] = [];
  const edits: GuideIntervention[] = [];
  for (const frame of frames.slice(0, at + 1)) {
    if (frame.kind === 'episode_start') {
      scene.episode = frame.episode;
      scene.guidingPrompt = frame.guidingPrompt;
      steps.length = 0;
      edits.length = 0;
      scene.ended = null;
      scene.score = null;
      scene.page = record.episodes.find((e) => e.index === frame.episode)?.trajectory?.startPage ?? null;
    } else if (frame.kind === 'step') {
      steps.push(frame.step);
      scene.score = frame.step.score;
      scene.page = frame.step.page ?? scene.page;
    } else if (frame.kind === 'episode_end') {
      const finalObservation = record.episodes.find((e) => e.index === frame.episode)?.trajectory?.finalObservation ?? '';
      scene.ended = { finalScore: frame.finalScore, termination: frame.termination, finalObservation };
      scene.curve = frame.curve;
      scene.wAuc = frame.wAuc;
      scene.score = frame.finalScore;
    } else if (frame.kind === 'intervention') {
      edits.push(frame.intervention);
    } else {
      exchanges.push(frame.exchange);
    }
  }
  scene.steps = [...steps];
  scene.edits = [...edits];
  scene.exchanges = exchanges;
  return scene;
}

/** The first frame of episode `episode`, or null when the session has no such episode. */
export function episodeStart(frames: readonly ReplayFrame[], episode: number): number | null {
  const at = frames.findIndex((f) => f.kind === 'episode_start' && f.episode === episode);
  return at < 0 ? null : at;
}

/** Playback speeds offered (× the base pace). */
export const REPLAY_SPEEDS = [0.5, 1, 2, 4, 8, 16, 32] as const;

/** How long a step stays on screen at 1×, ms; an episode's end and the feedback stay longer. */
export const BASE_FRAME_MS = 1_000;

/** How long `frame` stays on screen when playing at `speed` (> 0), ms. */
export function frameDelayMs(frame: ReplayFrame, speed: number): number {
  const weight = frame.kind === 'step' ? 1 : frame.kind === 'episode_start' ? 1.5 : 2.5;
  return (BASE_FRAME_MS * weight) / Math.max(0.01, speed);
}

/** "game over" for `game_over`, and so on (shared with the episodes-side-by-side view). */
export { terminationText } from '../format/termination.ts';
