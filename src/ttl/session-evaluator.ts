/**
 * Running one whole session as a metric call (used by evolution and evaluation): a fresh session
 * record for (policy, task, repeat), an engine from the pool, the shared models. Repeats of a task
 * reuse its seed; variation comes from LLM sampling (method.md, "Metrics").
 */
import type { ChatModel, LlmSettings, Role } from '../llm/interface.ts';
import type { TokenCounter } from '../llm/token-count.ts';
import type { TaskDescriptor } from '../agents/kind-texts.ts';
import type { EnginePool } from './engine-pool.ts';
import type { PolicySpec } from './policy.ts';
import type { SessionRecord } from './session-record.ts';
import { runSession, type SessionSink } from './session-runner.ts';
import { buildSession } from './session-setup.ts';

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
}

/** Run one session; W-AUC is 0 for a session that could not be scored (no steps). */
export async function evaluateSession(
  options: SessionEvaluatorOptions, policy: PolicySpec, task: EvaluatedTask, sessionId: string, signal?: AbortSignal,
): Promise<{ session: SessionRecord; wAuc: number; scores: number[] }> {
  const parts = buildSession(
    {
      story: { id: task.storyId, title: task.title, md5: task.md5, maxScore: task.maxScore }, seed: task.seed, policy,
      episodes: options.episodes, maxSteps: options.maxSteps, initialGuidingPrompt: options.initialGuidingPrompt, contextWindow: options.contextWindow,
      ...(task.task ? { task: task.task } : {}),
    },
    options.settings, options.models, options.countTokens,
  );
  const session = await options.pool.with(task.id, (engine) =>
    runSession({ id: sessionId, config: parts.config, engine, actor: parts.actor, policy: parts.policy, signal, sink: options.sink?.(sessionId) }),
  );
  return { session, wAuc: session.wAuc ?? 0, scores: session.scores };
}
