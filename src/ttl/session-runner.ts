/**
 * A test-time-learning session (method.md, "Inner loop"): K episodes of at most S steps on one
 * task; every episode restarts the game from the same seed; between episodes the adaptation
 * policy rewrites the guiding prompt. Every step, episode and policy exchange is reported to a
 * sink as it happens (to persist it), and a session can resume from such a record.
 *
 * A failed call is never play: when an actor call fails after the provider layer's retries, the
 * episode attempt is set aside (kept in `record.faults`, counted in `faultedEpisodes`, never
 * scored nor shown to the policy) and the session stops with reason `provider`; Resume plays
 * that episode again from its start. A failed policy call likewise stops the session and its
 * update is made again on resume. A stop (user or cap) mid-episode keeps the steps played, and
 * Resume continues the same episode by replaying them.
 *
 * A person may edit the guide between two steps (an injected `InterventionSource`): the actor
 * plays the next step on with the edited guide, the edit is recorded in `record.interventions`
 * (so a resume replays it and equals the uninterrupted session), and the policy's next update
 * starts from the guide the episode ended with.
 */
import { codeVersion } from '../common/code-version.ts';
import { Actor } from '../agents/actor.ts';
import type { Trajectory, TrajectoryStep } from '../agents/trajectory.ts';
import { BudgetReachedError, LlmError } from '../llm/errors.ts';
import { runEpisode, type EpisodeEngine } from './episode-runner.ts';
import { averageScore, bestScore, wAuc } from './metrics.ts';
import type { PaceSettings, StepGate } from './pace.ts';
import type { AdaptationPolicy, PolicyExchange } from './policy.ts';
import { guideInEffect, type EpisodeRecord, type FaultedAttempt, type SessionConfig, type SessionRecord } from './session-record.ts';


/** Receives the session's progress as it happens (persistence, UI). Awaited in order. */
export interface SessionSink {
  onStep?(episodeIndex: number, step: TrajectoryStep, trajectory: Trajectory): void | Promise<void>;
  onEpisode?(episode: EpisodeRecord, record: SessionRecord): void | Promise<void>;
  onExchange?(exchange: PolicyExchange, record: SessionRecord): void | Promise<void>;
  /** The whole record changed: at start, when an episode begins, and at the end. */
  onRecord?(record: SessionRecord): void | Promise<void>;
}

export interface SessionOptions {
  id: string;
  config: SessionConfig;
  engine: EpisodeEngine;
  actor: Actor;
  policy: AdaptationPolicy;
  sink?: SessionSink;
  signal?: AbortSignal;
  /** Resume from this (incomplete) record instead of starting afresh. */
  resume?: SessionRecord;
  now?: () => Date;
  /** Monotonic ms clock for wall time (default performance-like Date.now). */
  clockMs?: () => number;
  /** Presenter pace (pace.ts), passed to every episode: when steps start, never what they do. */
  gate?: StepGate;
  /** The pace to record with the run (`record.pace`); absent keeps what a resumed record had. */
  pace?: PaceSettings;
  /** A person's edits of the guide between steps; each is recorded in `record.interventions`
   * (and reported with `onRecord`) before the step it applies to. */
  interventions?: InterventionSource;
}

/**
 * Where a person's edits of the guide come from (the page's Pause → "Edit the guide" → Resume).
 * Asked before every step the actor plays (never for steps a resume replays), with the guide in
 * force for that step; returns the edited guide, or null (or the same text) for no edit.
 */
export interface InterventionSource {
  take(at: { episode: number; step: number; guide: string }): string | null | Promise<string | null>;
}

/** Run (or resume) a session to K episodes, or until Stop / the budget cap. */
export async function runSession(options: SessionOptions): Promise<SessionRecord> {
  const { config, engine, actor, policy, sink = {}, signal } = options;
  const now = options.now ?? (() => new Date());
  const clock = options.clockMs ?? (() => Date.now());
  const record = openedRecord(options, now);
  policy.restore(record.exchanges);
  const startedMs = clock() - record.wallTimeMs;
  await sink.onRecord?.(record);
  let guidingPrompt = currentGuidingPrompt(record);

  /** The policy update after episode `index`; false when the session stopped meanwhile. */
  const update = async (index: number, trajectory: Trajectory, current: string): Promise<string | false> => {
    try {
      const result = await policy.update(index, trajectory, current, signal);
      const failed = result.exchanges.find((e) => e.error);
      if (failed?.error) {
        // Nothing of a failed update is kept as the session's: it is made again on resume.
        await fault({ phase: 'policy', episodeIndex: index, kind: failed.error.kind, message: failed.error.message, steps: [], exchanges: result.exchanges, at: now().toISOString() });
        return (await stop('provider', failed.error.message), false);
      }
      for (const exchange of result.exchanges) {
        record.exchanges.push(exchange);
        await sink.onExchange?.(exchange, record);
      }
      return result.guidingPrompt;
    } catch (error) {
      if (error instanceof BudgetReachedError) return (await stop('budget', error.message), false);
      if (error instanceof LlmError && error.kind === 'aborted') return (await stop('user', null), false);
      throw error;
    }
  };

  const fault = async (attempt: FaultedAttempt) => {
    record.faults.push(attempt);
    if (attempt.phase === 'episode') record.faultedEpisodes += 1;
    await sink.onRecord?.(record);
  };

  const stop = async (reason: 'user' | 'budget' | 'provider', message: string | null): Promise<SessionRecord> => {
    record.status = 'stopped';
    record.stopReason = reason;
    record.stopMessage = message;
    return finish(record, startedMs, clock, now, sink);
  };

  // A session stopped between two episodes (e.g. a reload during the meta-agent's call) makes the
  // missing policy update first, so the next episode gets the guide it would have had.
  const pending = pendingUpdateOf(record);
  if (pending !== null) {
    const episode = record.episodes.find((e) => e.index === pending)!;
    const next = await update(pending, episode.trajectory!, guideInEffect(record, episode.index, Infinity));
    if (next === false) return record;
    guidingPrompt = next;
  }

  for (let index = completedEpisodes(record) + 1; index <= config.episodes; index++) {
    const episode = await episodeAt(record, index, guidingPrompt, sink);
    const trajectory = await runEpisode({
      engine, actor, maxSteps: config.maxSteps, signal, now, guidingPrompt: episode.guidingPrompt,
      story: { title: config.story.title, maxScore: config.story.maxScore },
      resumeSteps: episode.steps, ...(options.gate ? { gate: options.gate } : {}),
      guideFor: (step) => guideForStep(record, index, step, options, now, sink),
      onStep: async (step, t) => {
        episode.steps = t.steps;
        await sink.onStep?.(index, step, t);
      },
    });
    if (trajectory.termination === 'aborted') {
      // A cap recorded its refused call as a step with no action: it was not played.
      const capped = trajectory.steps.at(-1)?.parseStatus === 'llm_error' ? trajectory.steps.at(-1) : undefined;
      episode.steps = capped ? trajectory.steps.slice(0, -1) : trajectory.steps;
      return stop(trajectory.stopReason ?? 'user', capped?.error?.message ?? null);
    }
    if (trajectory.termination === 'error') {
      // An actor call failed after retries: this attempt is not a result. Keep it aside and play
      // the episode again from its start on resume.
      const error = trajectory.steps.at(-1)?.error ?? { kind: 'server', message: 'The provider failed.' };
      episode.steps = [];
      await fault({ phase: 'episode', episodeIndex: index, kind: error.kind, message: error.message, steps: trajectory.steps, exchanges: [], at: now().toISOString() });
      return stop('provider', error.message);
    }
    episode.trajectory = trajectory;
    episode.steps = trajectory.steps;
    episode.finalScore = trajectory.finalScore;
    episode.termination = trajectory.termination;
    updateMetrics(record);
    await sink.onEpisode?.(episode, record);
    if (index === config.episodes) break;
    if (config.policy.kind !== 'static') {
      await options.gate?.beforeUpdate?.(index, signal);
      if (signal?.aborted) return stop('user', null); // Stop while held: the update is made on resume
    }
    const next = await update(index, trajectory, guideInEffect(record, index, Infinity));
    if (next === false) return record;
    guidingPrompt = next;
  }
  record.status = 'complete';
  return finish(record, startedMs, clock, now, sink);
}

/**
 * The guide for step `step` of episode `episode`: the recorded one (a resume replays earlier
 * edits), or a person's new edit from the intervention source, which is recorded and reported
 * first.
 */
async function guideForStep(record: SessionRecord, episode: number, step: number, options: SessionOptions, now: () => Date, sink: SessionSink): Promise<string> {
  const guide = guideInEffect(record, episode, step);
  const edited = await options.interventions?.take({ episode, step, guide });
  if (edited === undefined || edited === null || edited === guide) return guide;
  (record.interventions ??= []).push({ episode, step, oldGuide: guide, newGuide: edited, at: now().toISOString() });
  await sink.onRecord?.(record);
  return edited;
}

/** The record a run starts from: a copy of the resumed one, or a new one; running, no stop. */
function openedRecord(options: SessionOptions, now: () => Date): SessionRecord {
  const record: SessionRecord = options.resume ? structuredClone(options.resume) : newRecord(options.id, options.config, now());
  record.status = 'running';
  record.stopReason = null;
  // A resumed session is no longer stopped: the old stop message must not outlive it.
  record.stopMessage = null;
  if (options.pace) record.pace = { ...options.pace };
  return record;
}

/** Episode `index` of the record: the partial one a resume continues, or a new one with
 * `guidingPrompt` (added to the record and reported). */
async function episodeAt(record: SessionRecord, index: number, guidingPrompt: string, sink: SessionSink): Promise<EpisodeRecord> {
  const partial = record.episodes.find((e) => e.index === index);
  if (!partial) {
    record.episodes.push({ index, guidingPrompt, trajectory: null, finalScore: null, termination: null, steps: [] });
    await sink.onRecord?.(record);
  }
  return record.episodes.find((e) => e.index === index)!;
}

function newRecord(id: string, config: SessionConfig, at: Date): SessionRecord {
  return {
    format: 'metattl-session-1', id, config, status: 'running', stopReason: null, stopMessage: null,
    episodes: [], exchanges: [], faultedEpisodes: 0, faults: [], scores: [], wAuc: null, averageScore: null, bestScore: null,
    startedAt: at.toISOString(), finishedAt: null, wallTimeMs: 0, codeVersion: codeVersion(),
  };
}

/**
 * The episode whose policy update is missing from a record: the last finished episode when it is
 * not the last of the session, no later episode began, and the policy recorded nothing after it.
 * Null otherwise, and always for the static policy (it records nothing).
 */
export function pendingUpdateOf(record: SessionRecord): number | null {
  if (record.config.policy.kind === 'static') return null;
  const last = record.episodes.filter((e) => e.trajectory !== null).at(-1);
  if (!last || last.index >= record.config.episodes) return null;
  if (record.episodes.some((e) => e.index > last.index)) return null;
  return record.exchanges.some((x) => x.afterEpisode === last.index) ? null : last.index;
}

/** Episodes that ended (the first incomplete one is resumed). */
function completedEpisodes(record: SessionRecord): number {
  return record.episodes.filter((e) => e.trajectory !== null).length;
}

/** The guiding prompt for the next episode to run, from the record: the policy's last update,
 * or (no update after the last episode: the static policy) the guide that episode ended with. */
function currentGuidingPrompt(record: SessionRecord): string {
  const pending = record.episodes.find((e) => e.trajectory === null);
  if (pending) return pending.guidingPrompt;
  const last = record.episodes.at(-1);
  const exchange = record.exchanges.at(-1);
  if (exchange && (!last || exchange.afterEpisode >= last.index)) return exchange.guidingPromptAfter;
  return last ? guideInEffect(record, last.index, Infinity) : record.config.initialGuidingPrompt;
}

function updateMetrics(record: SessionRecord): void {
  const scores = record.episodes.filter((e) => e.trajectory !== null).map((e) => e.finalScore ?? 0);
  record.scores = scores;
  record.wAuc = wAuc(scores, record.config.story.maxScore);
  record.averageScore = scores.length ? averageScore(scores) : null;
  record.bestScore = scores.length ? bestScore(scores) : null;
}

async function finish(record: SessionRecord, startedMs: number, clock: () => number, now: () => Date, sink: SessionSink): Promise<SessionRecord> {
  updateMetrics(record);
  record.wallTimeMs = clock() - startedMs;
  record.finishedAt = now().toISOString();
  await sink.onRecord?.(record);
  return record;
}
