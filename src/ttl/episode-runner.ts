/**
 * The episode runner: the actor plays a (story, seed) from the game's start for at most S steps or
 * until the game ends, and every step is recorded as it happens (method.md, "Inner loop" and
 * "Termination and outcomes"). LLM faults, interpreter faults, Stop and the budget cap end the
 * episode with the matching termination and keep every step recorded so far.
 */
import { Actor } from '../agents/actor.ts';
import type { ActorTurn } from '../agents/actor-prompt.ts';
import { ZMACHINE_TEXTS, type TaskDescriptor } from '../agents/kind-texts.ts';
import type { Termination, Trajectory, TrajectoryStep } from '../agents/trajectory.ts';
import type { StepResult } from '../engine/interface.ts';
import { BudgetReachedError, LlmError } from '../llm/errors.ts';
import type { EnvironmentTexts, PageSnapshot } from '../web/interface.ts';
import type { StepGate } from './pace.ts';
import { MetattlError } from '../common/errors.ts';

/**
 * The environment surface the runner needs; `EngineProxy` has it, `syncEngine()` adapts an Engine
 * and `webEpisodeEngine()` (web-engine.ts) adapts a web task's `Environment`.
 */
/** A step's result as the runner sees it: the engine's, plus (web tasks) the page it shows. */
export type EpisodeStepResult = StepResult & { page?: PageSnapshot };

export interface EpisodeEngine {
  readonly info: { md5: string };
  readonly seed: number;
  /** What the actor's prompt says about this kind of environment, and its fallback action
   * (default: the Z-machine's). */
  readonly texts?: EnvironmentTexts;
  /** The task played, recorded in the trajectory (absent for a plain story engine). */
  readonly task?: TaskDescriptor;
  /** Restart the game from its start state (same seed); returns the opening observation. */
  reset(): Promise<EpisodeStepResult>;
  step(command: string): Promise<EpisodeStepResult>;
  /** The episode hit the step limit: the final judgement with no further action (a web task's
   * check runs then). Absent for the Z-machine, whose score is already final. */
  stop?(): Promise<EpisodeStepResult>;
}

export interface EpisodeOptions {
  engine: EpisodeEngine;
  actor: Actor;
  story: { title: string; maxScore: number | null };
  guidingPrompt: string;
  /** Step limit S (method.md default 50). */
  maxSteps: number;
  signal?: AbortSignal;
  /** Called after every recorded step (persist it, update the UI). */
  onStep?: (step: TrajectoryStep, trajectory: Trajectory) => void | Promise<void>;
  /** Wall clock for the ISO timestamps (default: Date). */
  now?: () => Date;
  /** Resume: steps already recorded for this episode; their actions are replayed on the engine
   * (deterministic for the same seed) and kept, without calling the actor or `onStep` again. */
  resumeSteps?: readonly TrajectoryStep[];
  /** Resume: the episode's original start time. */
  startedAt?: string;
  /** Presenter pace (pace.ts): awaited before each new step's actor call; it decides only when
   * a step starts, never what it does. */
  gate?: StepGate;
  /** The guide for step `stepIndex` (a person may have edited it: session-runner.ts), awaited
   * after the gate and before the step's actor call; absent = `guidingPrompt` for every step. */
  guideFor?: (stepIndex: number) => Promise<string>;
}

/** The recorded steps do not replay to the same scores: the story or seed differs. */
export class ReplayMismatchError extends MetattlError {
  override readonly name = 'ReplayMismatchError';
  constructor(message: string) {
    super('replay_mismatch', message);
  }
}

/** Run one episode. Never throws for LLM or interpreter faults: they become the termination. */
export async function runEpisode(options: EpisodeOptions): Promise<Trajectory> {
  const { engine, actor, maxSteps, signal } = options;
  const now = options.now ?? (() => new Date());
  const start = await engine.reset();
  const texts = engine.texts ?? ZMACHINE_TEXTS;
  // Z-machine steps carry the player's location; a web task's carry its page instead.
  const zmachine = (engine.task?.kind ?? 'zmachine') === 'zmachine';
  const trajectory: Trajectory = {
    format: 'metattl-trajectory-1',
    story: { title: options.story.title, md5: engine.info.md5, maxScore: options.story.maxScore },
    ...(engine.task ? { task: engine.task } : {}),
    seed: engine.seed, maxSteps, guidingPrompt: options.guidingPrompt, actorModel: actor.model.settings.model,
    startObservation: start.text, startScore: start.score, ...(start.page ? { startPage: start.page } : {}),
    ...(zmachine ? { startLocation: start.location ?? null } : {}), steps: [], finalObservation: start.text,
    termination: 'step_limit', stopReason: null, finalScore: start.score, endReason: null,
    startedAt: options.startedAt ?? now().toISOString(), finishedAt: '',
  };
  const history: ActorTurn[] = [];
  const replay = await replaySteps(engine, playedSteps(options.resumeSteps ?? []), start, trajectory, history);
  let last = replay.last;
  const ended = replay.ended;
  const finish = (termination: Termination, stopReason: Trajectory['stopReason'] = null): Trajectory => {
    trajectory.termination = termination;
    trajectory.stopReason = stopReason;
    trajectory.finalScore = last.score;
    trajectory.finalObservation = last.text;
    trajectory.endReason = last.endReason;
    trajectory.finishedAt = now().toISOString();
    return trajectory;
  };
  if (start.done) return finish('game_over');
  if (ended) return finish(ended);

  for (let index = trajectory.steps.length + 1; index <= maxSteps; index++) {
    await options.gate?.beforeStep(index, signal);
    if (signal?.aborted) return finish('aborted', 'user');
    const guidingPrompt = options.guideFor ? await options.guideFor(index) : options.guidingPrompt;
    const observation = last.text;
    const base = {
      index, observation, reply: '', finishReason: null, action: null, extraActions: [] as string[], reward: 0,
      score: last.score, moves: last.moves, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0, error: null,
      // A step that sent nothing leaves the player where the last one did.
      ...(zmachine ? { location: last.location ?? null } : {}),
    };
    let decision;
    try {
      decision = await actor.act({ guidingPrompt, history, observation, ...(engine.texts ? { texts } : {}) }, signal);
    } catch (error) {
      if (error instanceof BudgetReachedError) {
        await record(options, trajectory, { ...base, parseStatus: 'llm_error', error: { kind: 'budget', message: error.message } });
        return finish('aborted', 'budget');
      }
      if (error instanceof LlmError && error.kind === 'aborted') return finish('aborted', 'user');
      if (signal?.aborted) return finish('aborted', 'user');
      const kind = error instanceof LlmError ? error.kind : 'server';
      await record(options, trajectory, { ...base, parseStatus: 'llm_error', error: { kind, message: (error as Error).message } });
      return finish('error');
    }
    // Stop pressed while the reply arrived: nothing from it is executed.
    if (signal?.aborted) return finish('aborted', 'user');
    const { completion, parsed } = decision;
    const action = parsed.action ?? texts.fallbackAction;
    const result = await engine.step(action);
    const reward = (result.score ?? 0) - (last.score ?? 0);
    // The live trajectory's last text is this step's answer (the transcript draws it under the command).
    trajectory.finalObservation = result.text;
    await record(options, trajectory, {
      ...base, reply: completion.content, finishReason: completion.finishReason, action: result.command,
      parseStatus: parsed.status, extraActions: parsed.extraActions, reward, score: result.score, moves: result.moves,
      promptTokens: completion.usage.promptTokens, completionTokens: completion.usage.completionTokens,
      reasoningTokens: completion.usage.reasoningTokens, latencyMs: completion.usage.latencyMs, costUsd: completion.usage.costUsd,
      ...(completion.usage.cachedPromptTokens ? { cachedPromptTokens: completion.usage.cachedPromptTokens } : {}),
      error: result.fault ? { kind: 'interpreter', message: result.fault.message } : null,
      ...(result.page ? { page: result.page } : {}),
      ...(zmachine ? { location: result.location ?? null } : {}),
      ...(completion.providerModel ? { providerModel: completion.providerModel } : {}),
      ...(completion.systemFingerprint ? { systemFingerprint: completion.systemFingerprint } : {}),
    });
    history.push({ observation, reply: completion.content });
    last = result;
    if (result.fault) return finish(result.fault.kind);
    if (result.done) return finish('game_over');
  }
  if (engine.stop) last = await engine.stop();
  return finish('step_limit');
}

type EngineResult = Awaited<ReturnType<EpisodeOptions['engine']['reset']>>;

/**
 * Replay a resume's recorded steps (`playedSteps`) into `trajectory` and `history`.
 * @returns the last result (`start` when there is none) and how the game ended on the last
 *   recorded step (null while it goes on)
 * @throws ReplayMismatchError when a step sent no action, replays to another score, or the game
 *   ends before the last recorded step
 */
async function replaySteps(
  engine: EpisodeOptions['engine'], resumeSteps: ReturnType<typeof playedSteps>, start: EngineResult, trajectory: Trajectory, history: ActorTurn[],
): Promise<{ last: EngineResult; ended: Termination | null }> {
  let last = start;
  let ended: Termination | null = null;
  for (const [i, step] of resumeSteps.entries()) {
    if (step.action === null) throw new ReplayMismatchError(`Step ${step.index} sent no action and cannot be resumed past.`);
    const replayed = await engine.step(step.action);
    if (replayed.score !== step.score) {
      throw new ReplayMismatchError(`Replaying step ${step.index} ("${step.action}") gave score ${replayed.score}, the record says ${step.score}.`);
    }
    trajectory.steps.push(step);
    history.push({ observation: step.observation, reply: step.reply });
    last = replayed;
    trajectory.finalObservation = replayed.text;
    if (replayed.done || replayed.fault) {
      // The game ended on the last recorded step (a stop between the step's write and the
      // episode's end): the episode ends as the game did. Earlier, the record is not this game's.
      if (i < resumeSteps.length - 1) throw new ReplayMismatchError(`The game ended while replaying step ${step.index}.`);
      ended = replayed.fault ? replayed.fault.kind : 'game_over';
    }
  }
  return { last, ended };
}

/**
 * The recorded steps a resume replays: all but a trailing call that played nothing (an actor call
 * refused by a cap or failed, `action` null, `parseStatus` 'llm_error'; written before the stop
 * that set it aside) — that call is made again. A step with no action anywhere else is kept (and
 * refused by the replay).
 */
export function playedSteps(steps: readonly TrajectoryStep[]): readonly TrajectoryStep[] {
  const last = steps.at(-1);
  return last && last.action === null && last.parseStatus === 'llm_error' ? steps.slice(0, -1) : steps;
}

async function record(options: EpisodeOptions, trajectory: Trajectory, step: TrajectoryStep): Promise<void> {
  trajectory.steps.push(step);
  await options.onStep?.(step, trajectory);
}

/** Adapt an in-thread `Engine` (tests, trusted stories) to the runner's async surface. */
export function syncEngine(engine: import('../engine/interface.ts').Engine): EpisodeEngine {
  return { info: engine.info, seed: engine.seed, reset: async () => engine.reset(), step: async (command) => engine.step(command) };
}
