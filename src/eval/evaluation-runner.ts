/**
 * Running an evaluation: every (policy, task, repeat) session, in parallel up to the concurrency
 * limit, each result cached as it completes so a stopped or crashed evaluation resumes where it
 * was; results are kept in job order. Deterministic given the cached results.
 *
 * A provider fault costs only its own session's episode: that session stops (its finished episodes
 * kept where `evaluate` keeps them, see ttl/session-evaluator.ts) while every other session goes
 * on, and the faulted session is continued from its last finished episode as soon as its attempt
 * ends, while the evaluation progresses (ttl/session-passes.ts). Only when it stops progressing does the run stop with
 * `provider_error`, and a resume continues each unfinished session the same way. A cap or Stop
 * still stops every session in flight.
 */
import pLimit from 'p-limit';
import { BudgetReachedError, LlmError } from '../llm/errors.ts';
import { averageScore, bestScore } from '../ttl/metrics.ts';
import type { PolicySpec } from '../ttl/policy.ts';
import type { SessionRecord } from '../ttl/session-record.ts';
import { usageOf } from '../ttl/session-record.ts';
import { knownUsd } from '../llm/defaults.ts';
import type { LlmSettings } from '../llm/interface.ts';
import type { EvaluatedTask } from '../ttl/session-evaluator.ts';
import { faultOutcome, MAX_EXTRA_ATTEMPTS, runRetryingFaults } from '../ttl/session-passes.ts';
import { freshEvaluationState } from './fresh-state.ts';
import type { EvaluationConfig, EvaluationResult, EvaluationState } from './interface.ts';

export interface EvaluationCache {
  get(key: string): Promise<EvaluationResult | undefined>;
  put(result: EvaluationResult, session: SessionRecord): Promise<void>;
}

export type EvaluationEvent =
  | { type: 'session_done'; result: EvaluationResult; done: number; total: number }
  | { type: 'finished'; state: EvaluationState };

export interface EvaluationDeps {
  /** Run or continue one session; `finishedNow`: episodes finished in this attempt (absent = 0,
   * i.e. no progress of its own). */
  evaluate(policy: PolicySpec, task: EvaluatedTask, repeat: number, sessionId: string, signal?: AbortSignal): Promise<{ session: SessionRecord; wAuc: number; scores: number[]; faultedNow?: number; finishedNow?: number }>;
  cache: EvaluationCache;
  onEvent?(event: EvaluationEvent, state: EvaluationState): void | Promise<void>;
  signal?: AbortSignal;
  now?: () => Date;
  /** Faulted episodes counted by earlier attempts of this evaluation (a resume carries them on). */
  faultedEpisodesBefore?: number;
  /** Extra attempts per faulted session per invocation (default `MAX_EXTRA_ATTEMPTS`). */
  maxExtraAttempts?: number;
  /** The prices that hold at this run's provider (llm/defaults.ts `pricesAtProvider`), USD per
   * million tokens by model: a session that called a model missing here gets `costUsd: null`.
   * Absent: every cost is taken as known. */
  prices?: LlmSettings['prices'];
}

/** The jobs of an evaluation, in their fixed order. */
export function evaluationJobs(config: EvaluationConfig) {
  return config.policies.flatMap((policy) =>
    config.taskSets.flatMap((set) =>
      set.tasks.flatMap((task) => Array.from({ length: config.repeats }, (_, repeat) => ({ policy, set, task, repeat, key: `${policy.id}|${set.name}|${task.id}|${repeat}` }))),
    ),
  );
}

export async function runEvaluation(id: string, config: EvaluationConfig, deps: EvaluationDeps): Promise<EvaluationState> {
  const now = deps.now ?? (() => new Date());
  const jobs = evaluationJobs(config);
  const state = freshEvaluationState(id, config, now(), deps.faultedEpisodesBefore ?? 0);
  const limit = pLimit(Math.max(1, config.concurrency));
  const slots: (EvaluationResult | undefined)[] = new Array(jobs.length);
  let done = 0;
  const publish = async (index: number, result: EvaluationResult) => {
    slots[index] = result;
    done++;
    state.results = slots.filter((r): r is EvaluationResult => r !== undefined);
    await deps.onEvent?.({ type: 'session_done', result, done, total: jobs.length }, state);
  };
  try {
    // A faulted session is continued as soon as its attempt ends, while the batch progresses (ttl/session-passes.ts).
    const { fault } = await runRetryingFaults<null>(jobs.length, async (index, signal) => {
      const job = jobs[index]!;
      const cached = await deps.cache.get(job.key);
      if (cached) return (await publish(index, cached), { kind: 'done', value: null });
      if (signal.aborted) throw new LlmError('aborted', 'stopped');
      const sessionId = `${id}:${job.key}`;
      const { session, wAuc, scores, faultedNow, finishedNow } = await deps.evaluate(job.policy.spec, job.task, job.repeat, sessionId, signal);
      state.faultedEpisodes = state.faultedEpisodes + (faultedNow ?? session.faultedEpisodes);
      if (session.status !== 'complete') {
        if (session.stopReason === 'budget') throw new BudgetReachedError(session.stopMessage ?? 'Budget reached.', /token/.test(session.stopMessage ?? '') ? 'tokens' : 'usd');
        if (session.stopReason === 'provider') return faultOutcome(session, finishedNow ?? 0);
        throw new LlmError('aborted', 'stopped');
      }
      const result: EvaluationResult = {
        key: job.key, policyId: job.policy.id, taskId: job.task.id, storyId: job.task.storyId ?? job.task.md5, taskSet: job.set.name, repeat: job.repeat,
        sessionId, wAuc, averageScore: averageScore(scores), bestScore: bestScore(scores), scores,
        costUsd: sessionCostUsd(session, deps.prices),
      };
      await deps.cache.put(result, session);
      await publish(index, result);
      return { kind: 'done', value: null };
    }, { limit, signal: deps.signal, stopped: () => new LlmError('aborted', 'stopped'), maxExtraAttempts: deps.maxExtraAttempts ?? MAX_EXTRA_ATTEMPTS });
    if (fault !== null) throw new LlmError('server', fault);
    state.status = 'complete';
  } catch (error) {
    state.status = 'stopped';
    if (error instanceof BudgetReachedError) {
      state.stopReason = error.cap === 'tokens' ? 'token_cap' : 'usd_cap';
      state.stopMessage = error.message;
    } else if (error instanceof LlmError && error.kind === 'aborted') {
      state.stopReason = 'stopped';
    } else if (error instanceof LlmError) {
      state.stopReason = 'provider_error';
      state.stopMessage = error.message;
    } else {
      throw error;
    }
  }
  state.finishedAt = now().toISOString();
  await deps.onEvent?.({ type: 'finished', state }, state);
  return state;
}

/** A finished session's cost in USD, or null when a model it called has no price in `prices`. */
export function sessionCostUsd(session: SessionRecord, prices?: LlmSettings['prices']): number | null {
  const usage = usageOf(session);
  const costUsd = usage.actor.costUsd + usage.metaAgent.costUsd;
  if (!prices) return costUsd;
  const called = [
    ...(usage.actor.calls > 0 ? [session.config.models.actor.model] : []),
    ...(usage.metaAgent.calls > 0 && session.config.models.reflection ? [session.config.models.reflection.model] : []),
  ];
  return knownUsd(costUsd, called, prices);
}
