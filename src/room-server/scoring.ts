/**
 * The room's scorer: each submission's meta-prompt scored on its round's hidden tasks on the server
 * (never in a student's browser, so a score cannot be forged), and the class's evolution
 * (evolve-together.ts). A submission's text is the strategy section of a meta-agent policy, exactly
 * as a Library entry or `metattl eval --policies FILE` runs it (fixed header, the text, fixed
 * footer); it is played through the core's evaluation service (`startOrResumeEvaluation`) as
 * hidden tasks × repeats sessions of K episodes of S steps with the teacher's models. The score is
 * the evaluation report's (eval/report.ts): mean W-AUC over the sessions, its 95 % hierarchical
 * bootstrap interval (hidden games, then seeds, then repeats; B = 2,000, seeded), n sessions, and
 * the mean score fraction after each episode.
 *
 * A queue runs `concurrency` submissions at once (default 2; each plays its sessions up to the
 * provider's `maxConcurrent` at once). Progress is published after every session; failures in
 * plain words. Runs are kept in the given store (`--data`: a file store), one evaluation per
 * submission (`room-score:<submission id>`, its header written when queued), so a restarted room
 * re-queues every unfinished one and re-publishes every finished one. Removed submissions are
 * skipped, and one removed while it plays is stopped.
 */
import { join } from 'node:path';
import pLimit from 'p-limit';
import { DEFAULT_GUIDING_PROMPT } from '../agents/actor-prompt.ts';
import { scrubText } from '../common/secrets.ts';
import { startOrResumeEvaluation } from '../eval/evaluation-service.ts';
import { loadEvaluationState, saveEvaluationState } from '../eval/evaluation-store.ts';
import { freshEvaluationState, plannedSessions } from '../eval/fresh-state.ts';
import type { EvaluationConfig, EvaluationState } from '../eval/interface.ts';
import { buildReport } from '../eval/report.ts';
import { EVALUATION_DEFAULTS } from '../eval/run-defaults.ts';
import type { LlmSettings } from '../llm/interface.ts';
import type { RoomScore, ScoreState, SubmissionText } from '../room/protocol.ts';
import { openNodeStore } from '../store/node-store.ts';
import { evaluateSession } from '../ttl/session-evaluator.ts';
import { EVOLVE_PREFIX, runEvolveTogether } from './evolve-together.ts';
import { plainTask, type PlayableTask } from './room-tasks.ts';
import { RoomScoringError, scorerContext, type ScorerContext, type ScoringDeps } from './scorer-context.ts';
import type { RoomScorer, RoundWithId, ScorerDeps } from './seams.ts';

export { RoomScoringError, type ScoringDeps } from './scorer-context.ts';

/** The run id of a submission's scoring. */
export const scoreRunId = (submissionId: string) => `room-score:${submissionId}`;
const SCORE_PREFIX = 'room-score:';

/** The policy id every scoring evaluation holds (one policy: the submission). */
const POLICY_ID = 'submission';

/**
 * The evaluation that scores `sub` on `round`'s hidden tasks: one meta-agent policy whose strategy
 * section is the submission's text, hidden tasks × `round.repeats` sessions of K × S.
 */
export function scoringConfig(sub: SubmissionText, round: RoundWithId, tasks: readonly PlayableTask[], llm: LlmSettings, contextWindow: number): EvaluationConfig {
  return {
    policies: [{ id: POLICY_ID, name: `${sub.participantId} v${sub.version}`, spec: { kind: 'meta', name: sub.id, strategy: sub.text.trim() }, selectedOn: [] }],
    taskSets: [{ name: 'hidden', tasks: tasks.map(plainTask) }], repeats: round.repeats, episodes: round.episodes, maxSteps: round.steps,
    initialGuidingPrompt: DEFAULT_GUIDING_PROMPT, baselinePolicyId: POLICY_ID, bootstrapSeed: EVALUATION_DEFAULTS.bootstrapSeed,
    concurrency: Math.max(1, llm.maxConcurrent), models: { actor: llm.roles.actor.model, metaAgent: llm.roles.metaAgent.model }, contextWindow,
  };
}

/**
 * A scoring evaluation's score so far: the report's W-AUC (mean over the sessions done, with its
 * 95 % interval and n sessions) and its normalised curve's means; null before any session.
 */
export function roomScoreOf(state: EvaluationState): RoomScore | null {
  if (state.results.length === 0) return null;
  const summary = buildReport(state).policies.find((p) => p.policyId === POLICY_ID);
  if (!summary) return null;
  return { wauc: summary.wAuc.estimate, low: summary.wAuc.low, high: summary.wAuc.high, n: summary.sessions, curve: (summary.normalisedCurve ?? []).map((i) => i.estimate) };
}

/** Plain words for a scoring that stopped without finishing. */
function stoppedWords(state: EvaluationState): string {
  const why = state.stopMessage ? `: ${state.stopMessage}` : '';
  if (state.stopReason === 'usd_cap' || state.stopReason === 'token_cap') return `Scoring stopped at the room's spending cap${why}.`;
  if (state.stopReason === 'provider_error') return `The room's model failed while scoring${why}. The scoring continues when the room restarts.`;
  return 'Scoring stopped before it finished.';
}

/** A submission in the queue or playing. */
interface Job {
  controller: AbortController;
  done: Promise<void>;
}

/** How a scoring reports: publish a state (skipped for a removed submission), and whether it was removed. */
interface ScoringOutlet {
  publish(id: string, state: ScoreState): void;
  removed(id: string): boolean;
}

/**
 * Play (or resume) one submission's scoring evaluation to its end, publishing progress after each
 * session and the score (or plain words) at the end; a stop by the room (closing, or the
 * submission removed) leaves it resumable and says nothing.
 */
async function playScoring(ctx: ScorerContext, out: ScoringOutlet, id: string, config: EvaluationConfig, controller: AbortController): Promise<void> {
  const { deps } = ctx;
  const { publish, removed } = out;
  const runId = scoreRunId(id);
  const total = plannedSessions(config);
  const previous = await loadEvaluationState(ctx.store, runId);
  // A resume first replays the stored sessions: progress is shown from where it was.
  let shown = previous?.results.length ?? 0;
  publish(id, { status: 'scoring', done: shown, total, score: previous ? roomScoreOf(previous) : null, message: null });
  const options = await ctx.sessionOptions({ episodes: config.episodes, maxSteps: config.maxSteps, initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow });
  const state = await startOrResumeEvaluation(ctx.store, runId, config, {
    signal: controller.signal, faultedEpisodesBefore: previous?.faultedEpisodes ?? 0, prices: deps.llm.prices, ...(deps.now ? { now: deps.now } : {}),
    evaluate: (policy, task, repeat, sessionId, signal) => evaluateSession(options, policy, task, sessionId, signal, repeat),
    observers: [(event, copy) => {
      if (event.type !== 'session_done') return;
      if (removed(id)) return void controller.abort();
      if (event.done <= shown) return;
      shown = event.done;
      publish(id, { status: 'scoring', done: event.done, total: event.total, score: roomScoreOf(copy), message: null });
    }],
  });
  if (state.status === 'complete') publish(id, { status: 'scored', done: total, total, score: roomScoreOf(state), message: null });
  // Stopped by the room (closing, or the submission removed): left resumable, nothing to say.
  else if (!controller.signal.aborted) publish(id, { status: 'failed', done: state.results.length, total, score: roomScoreOf(state), message: stoppedWords(state) });
}

/**
 * The room's scorer (`RoomScorer`, seams.ts). Returns at once; a restart's unfinished scorings are
 * re-queued (and finished ones re-published) in the background. `close()` stops every scoring and
 * the evolution resumably; `wipe()` closes and deletes every run of the room from the store ("end
 * room": nothing about the students is kept).
 */
export function createScorer(deps: ScoringDeps): RoomScorer & { wipe(): Promise<void> } {
  const ctx = scorerContext(deps);
  const limit = pLimit(Math.max(1, deps.concurrency ?? 2));
  const jobs = new Map<string, Job>();
  let closing = false;
  let evolution: { controller: AbortController; done: Promise<void> } | null = null;
  const removed = (id: string) => deps.isRemoved?.(id) ?? false;
  const publish = (id: string, state: ScoreState) => {
    if (!removed(id)) deps.onScore(id, state);
  };

  /**
   * Queue a scoring: `prepare` resolves and stores its config at once, while the scoring waits for
   * a slot; slots go in the order the scorings were queued (first submitted, first scored), however
   * long each one's `prepare` takes. A failed `prepare` is said at once and gives its slot up.
   */
  const schedule = (id: string, total: number, prepare: () => Promise<EvaluationConfig>, stored: EvaluationState | null = null): void => {
    if (closing || jobs.has(id) || removed(id)) return;
    const controller = new AbortController();
    publish(id, { status: 'queued', done: stored?.results.length ?? 0, total, score: stored ? roomScoreOf(stored) : null, message: null });
    const fail = (error: unknown): null => {
      if (!controller.signal.aborted) publish(id, { status: 'failed', done: 0, total, score: null, message: scrubText(error instanceof Error ? error.message : String(error)) });
      return null;
    };
    const prepared = prepare().catch(fail);
    const done = limit(async () => {
      const config = await prepared;
      if (config === null || controller.signal.aborted || removed(id)) return;
      await playScoring(ctx, { publish, removed }, id, config, controller);
    })
      .catch(fail)
      .finally(() => jobs.delete(id));
    jobs.set(id, { controller, done: done.then(() => undefined) });
  };

  const enqueue = (sub: SubmissionText, round: RoundWithId): void => {
    schedule(sub.id, round.hiddenTasks.length * round.repeats, async () => {
      if (sub.text.trim() === '') throw new RoomScoringError('The submission is empty: there is no meta-prompt to score.');
      if (round.hiddenTasks.length === 0) throw new RoomScoringError('The round has no hidden tasks to score on.');
      const tasks = await ctx.resolve(round.hiddenTasks);
      const runId = scoreRunId(sub.id);
      const config = (await loadEvaluationState(ctx.store, runId))?.config ?? scoringConfig(sub, round, tasks, deps.llm, ctx.contextWindow);
      // The header is stored when queued, so a restart finds it.
      if (!(await ctx.store.getRun(runId))) await saveEvaluationState(ctx.store, freshEvaluationState(runId, config, (deps.now ?? (() => new Date()))()));
      return config;
    });
  };

  /** A restarted room: finished scorings re-published, unfinished ones queued again. */
  const restore = async (): Promise<void> => {
    for (const run of await ctx.store.listRuns('evaluation')) {
      if (!run.id.startsWith(SCORE_PREFIX)) continue;
      const id = run.id.slice(SCORE_PREFIX.length);
      const state = await loadEvaluationState(ctx.store, run.id);
      if (!state || removed(id) || jobs.has(id)) continue;
      if (state.status === 'complete') {
        publish(id, { status: 'scored', done: state.totalSessions, total: state.totalSessions, score: roomScoreOf(state), message: null });
        continue;
      }
      schedule(id, state.totalSessions, async () => {
        await ctx.resolve(state.config.taskSets.flatMap((s) => s.tasks.map((t) => t.id)));
        return state.config;
      }, state);
    }
  };
  const restored = restore().catch(() => undefined);
  const close = async (): Promise<void> => {
    closing = true;
    await restored;
    for (const job of jobs.values()) job.controller.abort();
    evolution?.controller.abort();
    await Promise.allSettled([...[...jobs.values()].map((j) => j.done), evolution?.done]);
    ctx.pool.disposeAll();
  };

  return {
    enqueue,
    evolve: async (req, seeds, round) => {
      if (evolution) throw new RoomScoringError('The class is already evolving a meta-prompt: stop it first.');
      const controller = new AbortController();
      const done = runEvolveTogether(ctx, req, seeds, round, controller.signal);
      evolution = { controller, done };
      try {
        await done;
      } finally {
        evolution = null;
      }
    },
    stopEvolution: () => evolution?.controller.abort(),
    checkTasks: async (tasks) => void (await ctx.resolve(tasks)),
    close,
    wipe: async () => {
      await close();
      await wipeRoomRuns(ctx.store);
    },
  };
}

/** Every scoring, evolution and session run of the room in `store` deleted (the room's end). */
export async function wipeRoomRuns(store: ScorerContext['store']): Promise<void> {
  const ours = (id: string) => id.startsWith(SCORE_PREFIX) || id.startsWith(EVOLVE_PREFIX);
  for (const kind of ['session', 'evaluation', 'evolution'] as const) {
    for (const run of await store.listRuns(kind)) if (ours(run.id)) await store.deleteRun(run.id);
  }
}

/** What the room's scorer is made of where `metattl room` chooses its services (services.ts). */
export interface RoomScorerOptions extends Pick<ScoringDeps, 'llm' | 'models' | 'contextWindow' | 'concurrency'> {
  /** The room's `--data` dir: runs are kept in `<dataDir>/scoring` (a file store); absent: memory. */
  dataDir?: string;
}

/**
 * The `makeScorer` of `RoomServerOptions`: a scorer over the teacher's models whose runs are kept
 * under the room's data dir, so a restarted room resumes its scoring.
 * @throws StorageError when the data dir cannot be opened
 */
export async function roomScorerMaker(o: RoomScorerOptions): Promise<(deps: Omit<ScorerDeps, 'llm'>) => RoomScorer> {
  const store = o.dataDir === undefined ? undefined : await openNodeStore(join(o.dataDir, 'scoring'));
  return (deps) => createScorer({ ...deps, ...o, ...(store ? { store } : {}) });
}
