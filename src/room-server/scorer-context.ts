/**
 * What the room scorer's parts (scoring.ts, evolve-together.ts) share: the deps the server and the
 * CLI hand in beyond the `ScorerDeps` seam, the room's models (the teacher's provider, built as
 * the CLI builds them: llm/openai-chat-model.ts, or the simulated model), one engine pool over the
 * rounds' tasks, the store, and the session evaluator's options.
 */
import { MetattlError } from '../common/errors.ts';
import type { ChatModel, Role } from '../llm/interface.ts';
import { createChatModels } from '../llm/openai-chat-model.ts';
import { createSimulatedChatModels, SIMULATED_CONTEXT_WINDOW, SIMULATED_PROVIDER } from '../llm/simulated-model.ts';
import { loadTokenCounter, resolveContextWindow, type TokenCounter } from '../llm/token-count.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import type { Store } from '../store/interface.ts';
import { MemoryStore } from '../store/memory-store.ts';
import { EnginePool } from '../ttl/engine-pool.ts';
import type { SessionEvaluatorOptions } from '../ttl/session-evaluator.ts';
import { resolveRoomTasks, type PlayableTask, type RoomTaskResolver } from './room-tasks.ts';
import type { ScorerDeps } from './seams.ts';

/** The CLI's preset id of a local model (`--provider local`). */
const LOCAL_PRESET = 'local';

/** What the scorer takes beyond the server's seam: where runs are kept and how it plays. */
export interface ScoringDeps extends ScorerDeps {
  /** Where scoring and evolution runs are kept (the room's `--data` dir as a file store,
   * store/node-store.ts); absent: memory (nothing survives a restart). */
  store?: Store;
  /** Submissions scored at once (default 2). */
  concurrency?: number;
  /** The role models; absent: built from `llm` (llm/openai-chat-model.ts, or the simulated
   * model). A local model (`--provider local`) is built by the CLI and passed here. */
  models?: Record<Role, ChatModel>;
  /** The meta-agent's context window, tokens; absent: the model's known window or the default. */
  contextWindow?: number;
  /** Whether a submission was removed by the teacher (skipped, or stopped while it plays). */
  isRemoved?: (submissionId: string) => boolean;
  /** Resolves a round's tasks (default: catalog stories in worker engines, room-tasks.ts). */
  resolveTasks?: RoomTaskResolver;
  now?: () => Date;
}

/** The scorer refuses work (an empty submission, a round without hidden tasks, a second evolution). */
export class RoomScoringError extends MetattlError {
  override readonly name = 'RoomScoringError';
  constructor(message: string) {
    super('room_scoring', message);
  }
}

/** The room's models and context window, built once. */
function modelsOf(deps: ScoringDeps): { models: Record<Role, ChatModel>; contextWindow: number } {
  const meter = new UsageMeter(deps.llm.caps, deps.llm.prices);
  const simulated = deps.llm.provider.presetId === SIMULATED_PROVIDER;
  // A local model is loaded once per process by whoever chooses the room's services, and shared.
  if (!deps.models && deps.llm.provider.presetId === LOCAL_PRESET) throw new RoomScoringError('A room on a local model needs its loaded models passed to the scorer (ScoringDeps.models).');
  const models = deps.models ?? (simulated ? createSimulatedChatModels(deps.llm, meter) : createChatModels(deps.llm, meter));
  const contextWindow = deps.contextWindow ?? (simulated ? SIMULATED_CONTEXT_WINDOW : resolveContextWindow(deps.llm.roles.metaAgent.model).tokens);
  return { models, contextWindow };
}

/** What the scorer's parts share: the store, models, engines and the server's callbacks. */
export interface ScorerContext {
  deps: ScoringDeps;
  store: Store;
  models: Record<Role, ChatModel>;
  contextWindow: number;
  pool: EnginePool;
  /** Tasks whose engines the pool can start, by task id. */
  tasks: Map<string, PlayableTask>;
  countTokens: () => Promise<TokenCounter>;
  resolve(ids: readonly string[]): Promise<PlayableTask[]>;
  /** The session evaluator's options for a round's shape. */
  sessionOptions(shape: { episodes: number; maxSteps: number; initialGuidingPrompt: string; contextWindow: number }): Promise<SessionEvaluatorOptions>;
}

/** The scorer's shared parts for `deps`. */
export function scorerContext(deps: ScoringDeps): ScorerContext {
  const { models, contextWindow } = modelsOf(deps);
  const tasks = new Map<string, PlayableTask>();
  const store = deps.store ?? new MemoryStore();
  let counter: Promise<TokenCounter> | null = null;
  const ctx: ScorerContext = {
    deps, store, models, contextWindow, tasks,
    pool: new EnginePool(async (key) => {
      const task = tasks.get(key);
      if (!task) throw new Error(`unknown task ${key}`);
      return task.open();
    }),
    countTokens: () => (counter ??= loadTokenCounter()),
    resolve: async (ids) => {
      const resolved = await (deps.resolveTasks ?? resolveRoomTasks)(ids);
      for (const t of resolved) tasks.set(t.id, t);
      return resolved;
    },
    sessionOptions: async (shape) => ({ settings: deps.llm, models, countTokens: await ctx.countTokens(), pool: ctx.pool, store, ...shape }),
  };
  return ctx;
}

