/**
 * The trajectory of one episode: every step's observation, full reply, parsed action, parse
 * status, reward, score, tokens, latency and error, plus the episode's termination (method.md,
 * "Termination and outcomes"). Plain data, JSON-serialisable; never holds a key.
 */
import type { EndReason, PlayerLocation } from '../engine/interface.ts';
import type { LlmErrorKind } from '../llm/interface.ts';
import type { PageSnapshot } from '../web/interface.ts';
import type { TaskDescriptor } from './kind-texts.ts';
import type { ParseStatus } from './reply-parser.ts';

/** Why an episode ended (method.md vocabulary). */
export type Termination = 'step_limit' | 'game_over' | 'error' | 'aborted' | 'interpreter_hang' | 'interpreter_error';
export const TERMINATIONS: readonly Termination[] = ['step_limit', 'game_over', 'error', 'aborted', 'interpreter_hang', 'interpreter_error'];

/** `llm_error`: the LLM call failed after retries (no action was sent). */
export type StepStatus = ParseStatus | 'llm_error';

export interface TrajectoryStep {
  /** 1-based step index. */
  index: number;
  /** What the game showed before this step (the text the actor read). */
  observation: string;
  /** The actor's full reply ('' when the call failed). */
  reply: string;
  finishReason: string | null;
  /** The command sent to the game (after input normalisation); null when nothing was sent. */
  action: string | null;
  parseStatus: StepStatus;
  /** Further ACTION lines the actor wrote (ignored). */
  extraActions: string[];
  /** Score change of this step, in score points (signed). */
  reward: number;
  /** Game score after this step (signed), null when the game keeps none. */
  score: number | null;
  moves: number | null;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Prompt tokens the provider served from its cache (part of promptTokens); absent when it
   * reported none. */
  cachedPromptTokens?: number;
  latencyMs: number;
  costUsd: number;
  error: { kind: LlmErrorKind | 'budget' | 'interpreter'; message: string } | null;
  /** Web tasks: the page after this step (drawn by replays; never sent to a model). */
  page?: PageSnapshot;
  /** Z-machine: where the player is after this step (the engine's `location`: the player
   * object's parent and its short name); null when the story's player object is unknown. Absent
   * in records made before locations were reported, and for web tasks. */
  location?: PlayerLocation | null;
  /** The model the provider says answered this step's actor call (the reply's `model`, which may
   * be a dated snapshot of the model asked for); absent when the provider named none. */
  providerModel?: string;
  /** The reply's `system_fingerprint`, where the provider sent one. */
  systemFingerprint?: string;
}

export interface Trajectory {
  format: 'metattl-trajectory-1';
  story: { title: string; md5: string; maxScore: number | null };
  /** The task played (absent in records made before web tasks; then a Z-machine story). */
  task?: TaskDescriptor;
  seed: number;
  maxSteps: number;
  guidingPrompt: string;
  actorModel: string;
  /** The game's opening text (the first observation). */
  startObservation: string;
  startScore: number | null;
  /** Web tasks: the page at the episode's start (drawn by replays; never sent to a model). */
  startPage?: PageSnapshot;
  /** Z-machine: where the player is at the start (see `TrajectoryStep.location`). */
  startLocation?: PlayerLocation | null;
  steps: TrajectoryStep[];
  /** What the game showed after the last step (the start text when there was no step); while
   * the episode runs, the answer to the newest step so far. */
  finalObservation: string;
  termination: Termination;
  /** Why the run stopped when termination is 'aborted': the user, or the budget cap. */
  stopReason: 'user' | 'budget' | null;
  /** Game score at the end of the episode, whatever the termination (null: no score kept). */
  finalScore: number | null;
  endReason: EndReason | null;
  /** ISO 8601 wall-clock times. */
  startedAt: string;
  finishedAt: string;
  /** A single watched episode (the Agent view): a person's edits of the guide mid-episode, in
   * order — from `step` on the actor played with `newGuide` (absent: none; a session keeps its
   * edits in the session record instead). */
  interventions?: GuideEdit[];
}

/** A person's edit of the guiding prompt before step `step` (1-based) of an episode. */
export interface GuideEdit {
  step: number;
  oldGuide: string;
  newGuide: string;
  /** ISO 8601 time of the edit. */
  at: string;
}
