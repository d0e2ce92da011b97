/**
 * Running one whole session as a metric call (used by evolution and evaluation): a fresh session
 * record for (policy, task, repeat), an engine from the pool, the shared models. Repeats of a task
 * reuse its seed; variation comes from LLM sampling (method.md, "Metrics"): every call of repeat r
 * carries `sampleSalt: r`, so a local model (whose sampling seed is a hash of the request,
 * src/llm/request-seed.ts) samples each repeat differently and deterministically.
 *
 * The session service (session-service.ts) runs it: with a store, the session is persisted as it runs (one `session` run per metric call, id =
 * `sessionId`, as `metattl session --store` does) and a stored unfinished one is continued from its
 * last finished episode after the resume check (`openStoredSession`: records intact, recorded
 * actions replayed reproduce the recorded scores); a provider fault thus costs at most the episode
 * it cut. A session that completes stays there until the caller's cache holds its record (the
 * evaluation's or evolution run's events; their `put` removes it), so a stop or a full disk between
 * the two loses nothing: the resume finds the session complete and makes no call for it.
 */
import type { ChatModel, LlmSettings, Role } from '../llm/interface.ts';
import type { TokenCounter } from '../llm/token-count.ts';
import type { TaskDescriptor } from '../agents/kind-texts.ts';
import type { Store } from '../store/interface.ts';
import type { EnginePool } from './engine-pool.ts';
import type { PolicySpec } from './policy.ts';
import type { SessionRecord } from './session-record.ts';
import type { SessionSink } from './session-runner.ts';
import { buildSession } from './session-setup.ts';
import { startOrResumeSession } from './session-service.ts';

/**
 * The models with `sampleSalt: salt` added to every call's options (the repeat index): a Proxy, so
 * every other member of a model is the model's own.
 */
export function saltedModels(models: Record<Role, ChatModel>, salt: number): Record<Role, ChatModel> {
  const wrap = (model: ChatModel): ChatModel => new Proxy(model, {
    get(target, prop) {
      if (prop === 'complete') return (messages: Parameters<ChatModel['complete']>[0], o?: Parameters<ChatModel['complete']>[1]) => target.complete(messages, { ...o, sampleSalt: salt });
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return Object.fromEntries(Object.entries(models).map(([role, m]) => [role, wrap(m)])) as Record<Role, ChatModel>;
}

export interface EvaluatedTask {
  /** Pool key of the task's engine. */
  id: string;
  storyId: string | null;
  title: string;
  md5: string;
  seed: number;
  maxScore: number;
  /** The task's kind and id when it is not a Z-machine story (a web task). */
  task?: TaskDescriptor;
}

export interface SessionEvaluatorOptions {
  settings: LlmSettings;
  models: Record<Role, ChatModel>;
  countTokens: TokenCounter;
  pool: EnginePool;
  episodes: number;
  maxSteps: number;
  initialGuidingPrompt: string;
  contextWindow: number;
  /** Persist or display each session as it runs. */
  sink?: (sessionId: string) => SessionSink;
  /**
   * Where unfinished sessions are kept between attempts (the evaluation's or evolution's store:
   * `--store DIR`, the page's IndexedDB). Without it a session always starts afresh.
   */
  store?: Store;
  /** A damaged stored session keeps its intact episodes instead of failing (`--from-last-good`). */
  fromLastGood?: boolean;
}

/**
 * Run (or, with `options.store`, continue) one session; W-AUC is 0 for a session that could not be
 * scored (no steps); `faultedNow` counts the episodes faulted in this attempt (the record's
 * `faultedEpisodes` also counts a continued session's earlier ones) and `finishedNow` the episodes
 * finished in it (the progress ttl/session-passes.ts measures). A session stopped by a provider
 * fault comes back with status `stopped` and reason `provider`, its finished episodes kept in the
 * store.
 * @throws DamagedRunError when the stored session fails the resume check and `fromLastGood` is not set
 */
export async function evaluateSession(
  options: SessionEvaluatorOptions, policy: PolicySpec, task: EvaluatedTask, sessionId: string, signal?: AbortSignal, repeat = 0,
): Promise<{ session: SessionRecord; wAuc: number; scores: number[]; faultedNow: number; finishedNow: number }> {
  const models = repeat ? saltedModels(options.models, repeat) : options.models;
  const parts = buildSession(
    {
      story: { id: task.storyId, title: task.title, md5: task.md5, maxScore: task.maxScore }, seed: task.seed, policy,
      episodes: options.episodes, maxSteps: options.maxSteps, initialGuidingPrompt: options.initialGuidingPrompt, contextWindow: options.contextWindow,
      ...(task.task ? { task: task.task } : {}),
    },
    options.settings, models, options.countTokens,
  );
  const store = options.store;
  let faultedBefore = 0;
  let finishedBefore = 0;
  const session = await options.pool.with(task.id, (engine) => startOrResumeSession(store ?? null, sessionId, parts.config, {
    engine, actor: parts.actor, policy: parts.policy, resume: 'if-stored', fromLastGood: options.fromLastGood ?? false, ...(signal ? { signal } : {}),
    onResumed: (previous) => {
      faultedBefore = previous.faultedEpisodes;
      finishedBefore = previous.scores.length;
    },
    ...(options.sink ? { display: options.sink(sessionId) } : {}),
  }));
  return { session, wAuc: session.wAuc ?? 0, scores: session.scores, faultedNow: session.faultedEpisodes - faultedBefore,
    finishedNow: session.scores.length - finishedBefore,
  };
}
