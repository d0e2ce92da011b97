/**
 * Running test-time-learning sessions in the page (method.md, "Inner loop"), wired in one place
 * for every view that runs them (Learn, Evolve, Evaluate): the LLM settings of the Settings view
 * with the key, a usage meter (seeded on resume), the role models, the token counter, a pool of
 * worker engines keyed by task id, the store, and a Web Locks guard so two tabs never run the same
 * run. No Svelte state here; views keep their own `.svelte.ts` state and call this.
 */
import { EngineProxy } from '../../../engine/engine-proxy.ts';
import { createBrowserWorker } from '../../../engine/browser/worker-factory.ts';
import type { LoadOptions } from '../../../engine/interface.ts';
import type { ChatModel, LlmSettings, ParameterAdaptation, Role, RoleSettings } from '../../../llm/interface.ts';
import { loadTokenCounter, resolveContextWindow, type TokenCounter } from '../../../llm/token-count.ts';
import { baseUrlProblem, missingKeyText } from '../../../llm/providers.ts';
import { pricesAtProvider } from '../../../llm/defaults.ts';
import { UsageMeter, type RoleTotals } from '../../../llm/usage-meter.ts';
import type { Store } from '../../../store/interface.ts';
import { EnginePool, type PooledEngine } from '../../../ttl/engine-pool.ts';
import type { SessionConfig } from '../../../ttl/session-record.ts';
import { taskHash } from '../../../ttl/web-engine.ts';
import type { TaskDescriptor } from '../../../agents/kind-texts.ts';
import type { DocumentFactory } from '../../../web/dom/web-environment.ts';
import { isWebTaskId } from './web-task-id.ts';
import type { LlmServices } from './llm-services.ts';
import type { RunLocks } from '../lease-locks.ts';
import { withRetryWait } from './retry-wait.ts';
import type { SettingsState } from './settings.svelte.ts';
import { pricesOf } from './llm-settings.ts';
import type { LoadedStory, StoryShelf } from './story-shelf.svelte.ts';

/** Watchdog budget of one engine step in a session, ms (as the Agent view). */
export const SESSION_STEP_TIMEOUT_MS = 5_000;

/** The task id of a (shelf story, seed): `"<storyId>:<seed>"`, e.g. "advent:0" or
 * "user:<md5>:3" (the same shape as `EvolutionTask.id`). The seed is always the last segment. */
export const taskIdOf = (storyId: string, seed: number): string => `${storyId}:${seed}`;

/** The (storyId, seed) of a task id made by `taskIdOf`. @throws RangeError for another shape */
export function parseTaskId(taskId: string): { storyId: string; seed: number } {
  const at = taskId.lastIndexOf(':');
  const seed = Number(taskId.slice(at + 1));
  if (at <= 0 || !/^\d+$/.test(taskId.slice(at + 1)) || !Number.isSafeInteger(seed)) throw new RangeError(`Not a task id: "${taskId}"`);
  return { storyId: taskId.slice(0, at), seed };
}

/** A task resolved against the story shelf: what `SessionPlan.story` and the engine need. */
export interface ResolvedTask {
  /** `taskIdOf(storyId, seed)`. */
  id: string;
  /** The story picker id ("advent", "local:x.z5", "user:<md5>"). */
  storyId: string;
  seed: number;
  title: string;
  /** md5 of the Z-code image. */
  md5: string;
  /** Max score in score points; null = unknown (W-AUC is n/a). */
  maxScore: number | null;
  /** The story's bytes and catalog entry (null for a web task). */
  story: LoadedStory | null;
  /** The engine options of the task (seed + the catalog's rules); null for a web task. */
  loadOptions: LoadOptions | null;
  /** What is played (`{ kind: 'web', id }` for a web task; absent for a story). */
  task?: TaskDescriptor;
}

/** `SessionConfig['story']` of a resolved task. */
export const sessionStoryOf = (task: ResolvedTask): SessionConfig['story'] => ({ id: task.storyId, title: task.title, md5: task.md5, maxScore: task.maxScore });

/** Starts one engine (in its own worker) with a story loaded. The default is a module Worker
 * through `EngineProxy.load(createBrowserWorker, …)`; unit tests inject an in-process engine. */
export type EngineLoader = (bytes: Uint8Array, options: LoadOptions) => Promise<PooledEngine>;

const browserEngineLoader: EngineLoader = (bytes, options) =>
  EngineProxy.load(createBrowserWorker, bytes, options, { stepTimeoutMs: SESSION_STEP_TIMEOUT_MS });

export type { RunLocks } from '../lease-locks.ts';

const pageLocks = (): RunLocks | null => (typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null);

/** The lock name of a run (one name per run id, shared by every tab of the origin). */
export const runLockName = (runId: string): string => `metattl-run:${runId}`;

/**
 * Run `body` while holding the run's exclusive Web Lock, so two tabs never run the same run.
 * @returns body's result; `null` without calling `body` when another tab holds the lock (show
 *   the run read-only). Without `navigator.locks`, `body` runs unguarded.
 * @throws whatever `body` throws (the lock is released)
 */
export async function withRunLock<T>(runId: string, body: () => Promise<T>, locks: RunLocks | null = pageLocks()): Promise<T | null> {
  if (!locks) return body();
  const held = { acquired: false };
  const result = await locks.request(runLockName(runId), { ifAvailable: true }, async (lock) => {
    if (lock === null) return null;
    held.acquired = true;
    return body();
  });
  return held.acquired ? (result as T) : null;
}

/** True when some tab (this one included) holds the run's lock; false without Web Locks. */
export async function isRunLocked(runId: string, locks: RunLocks | null = pageLocks()): Promise<boolean> {
  if (!locks) return false;
  const snapshot = await locks.query();
  return (snapshot.held ?? []).some((l) => l.name === runLockName(runId));
}

/** What a run needs, built by `RunServices.prepare`. Dispose it when the run ends. */
export interface RunContext {
  /** The Settings view's settings with the key: pass to models only, never persist or show. */
  settings: LlmSettings;
  /** Counts this run's tokens and USD against `settings.caps` (seeded with earlier usage). */
  meter: UsageMeter;
  /** The three role models, accounting to `meter` (wrapped to report provider waits). */
  models: Record<Role, ChatModel>;
  /** cl100k_base token counter (context-window fitting, token counts shown). */
  countTokens: TokenCounter;
  /** Worker engines keyed by task id (`taskIdOf`); `engines.with(task.id, …)` per session. */
  engines: EnginePool;
  /** The page's store (IndexedDB, or memory when unavailable). */
  store: Store;
  /** Resolve a task (cached per context). @throws Error for a story no longer on the story shelf */
  resolveTask(storyId: string, seed: number): Promise<ResolvedTask>;
  /** The request parameters adapted so far for this run's provider and models (for its record). */
  adaptations(): ParameterAdaptation[];
  /** Terminate the pooled engines' workers. */
  dispose(): void;
}

export interface PrepareOptions {
  /** Usage already recorded by the run being resumed (e.g. `usageOf(record)`), counted against the caps. */
  previousUsage?: Record<Role, RoleTotals>;
  /** Roles whose model must be set (default: actor and meta-agent). */
  roles?: readonly Role[];
  /** Role settings that replace the Settings view's (e.g. a resumed session keeps the models and
   * temperatures it was started with, `SessionConfig.models`). */
  roleOverrides?: Partial<Record<Role, RoleSettings>>;
  /** Called before each wait for a retry (the provider's Retry-After, or our backoff), per role. */
  onRetryWait?: (role: Role, waitMs: number) => void;
  /** Adaptations recorded by the run being resumed: its calls are adapted from the first one. */
  previousAdaptations?: readonly ParameterAdaptation[];
}

export interface RunServicesDeps {
  shelf: StoryShelf;
  settings: SettingsState;
  llm: LlmServices;
  /** Default: a module Worker per engine. */
  loadEngine?: EngineLoader;
  /** Default: `navigator.locks` (null = no locking); the page passes page-abilities.ts `pageRunLocks()` (localStorage leases where Web Locks are absent). */
  locks?: RunLocks | null;
  /** The document a web task's site draws into (default: a detached document; tests: jsdom). */
  webDocument?: DocumentFactory;
}

const ROLE_LABELS: Record<Role, string> = { actor: 'actor', metaAgent: 'meta-agent', proposer: 'proposer' };

export class RunServices {
  readonly shelf: StoryShelf;
  private readonly loadEngine: EngineLoader;
  private readonly locks: RunLocks | null;

  /** A web task's engine on this page's document factory (the sites and the task catalog load
   * with the first web task, not with the page). @throws Error for an unknown task */
  async createWebEngine(taskId: string): Promise<PooledEngine> {
    const { createWebTaskEngine } = await import('./web-tasks.ts');
    return createWebTaskEngine(taskId, this.deps.webDocument);
  }

  constructor(private readonly deps: RunServicesDeps) {
    this.shelf = deps.shelf;
    this.loadEngine = deps.loadEngine ?? browserEngineLoader;
    this.locks = deps.locks === undefined ? pageLocks() : deps.locks;
  }

  /** The page's store (after `shelf.init()`). */
  get store(): Store {
    return this.deps.shelf.store;
  }

  /** The current settings with the key (for one run; never persist). */
  llmSettings(): LlmSettings {
    return this.deps.settings.llmSettings();
  }

  /**
   * Whether every model in `models` ('' ignored) has a price at `provider` (default: the Settings
   * view's provider) in the Settings view's price table (`pricesAtProvider`: never OpenAI's price
   * at another provider). The one rule of every cost meter: false shows "—", not "$0.0000".
   */
  costKnownFor(models: readonly string[], provider?: { presetId: string; baseUrl: string }): boolean {
    const form = this.deps.settings.form;
    const at = provider ?? { presetId: form.presetId, baseUrl: form.baseUrl };
    const prices = pricesAtProvider({ presetId: at.presetId, baseUrl: at.baseUrl.trim(), apiKey: '' }, pricesOf(form.prices), models);
    return models.filter((m) => m !== '').every((m) => m in prices);
  }

  /** Why a run cannot start with the current settings (user-readable), or null when it can. */
  settingsProblem(roles: readonly Role[] = ['actor', 'metaAgent'], settings: LlmSettings = this.llmSettings()): string | null {
    if (settings.provider.baseUrl === '') return 'Set the provider’s base URL in Settings first.';
    const badUrl = baseUrlProblem(settings.provider.baseUrl);
    if (badUrl !== null) return `${badUrl} (Settings)`;
    const noKey = missingKeyText(settings.provider);
    if (noKey !== null) return noKey;
    const missing = roles.find((role) => settings.roles[role].model === '');
    return missing ? `Set the ${ROLE_LABELS[missing]}’s model in Settings first.` : null;
  }

  /** An error's message with the key scrubbed (show every thrown error with this). */
  messageOf(error: unknown): string {
    return this.deps.settings.messageOf(error);
  }

  /** A task's story, md5, max score and engine options.
   * @throws Error when the story is not on the story shelf or cannot be loaded */
  async resolveTask(storyId: string, seed: number): Promise<ResolvedTask> {
    if (isWebTaskId(storyId)) {
      const { parseWebTaskId } = await import('../../../web/tasks/catalog.ts');
      const ref = parseWebTaskId(taskIdOf(storyId, seed));
      return { id: ref.id, storyId, seed, title: ref.id, md5: taskHash(ref.id), maxScore: 1, story: null, loadOptions: null, task: { kind: 'web', id: ref.id } };
    }
    await this.shelf.init();
    const entry = this.shelf.find(storyId);
    if (!entry) throw new Error(`The story “${storyId}” is not on the story shelf (add it again to run this task).`);
    const story = await this.shelf.load(entry);
    return {
      id: taskIdOf(storyId, seed), storyId, seed, title: story.catalog?.title ?? entry.title, md5: story.md5,
      maxScore: await this.shelf.maxScoreOf(story), story, loadOptions: this.shelf.loadOptions(story, seed),
    };
  }

  /**
   * Build what a run needs: settings (with key), meter, models, token counter, engine pool, store.
   * @throws Error (settings problem, the SDK or the tokenizer failing to load)
   */
  async prepare(options: PrepareOptions = {}): Promise<RunContext> {
    const current = this.llmSettings();
    const settings: LlmSettings = { ...current, roles: { ...current.roles, ...options.roleOverrides } };
    const problem = this.settingsProblem(options.roles, settings);
    if (problem !== null) throw new Error(problem);
    const meter = new UsageMeter(settings.caps, settings.prices);
    if (options.previousUsage) meter.addPrevious(options.previousUsage);
    if (options.previousAdaptations) this.deps.llm.adaptations?.restore(options.previousAdaptations);
    const [raw, countTokens] = await Promise.all([this.deps.llm.createModels(settings, meter), loadTokenCounter()]);
    const roleModels = Object.values(settings.roles).map((r) => r.model);
    const adaptations = (): ParameterAdaptation[] => this.deps.llm.adaptations?.listFor(settings.provider.baseUrl, roleModels) ?? [];
    const onWait = options.onRetryWait;
    const models = onWait
      ? { actor: withRetryWait(raw.actor, (ms) => onWait('actor', ms)), metaAgent: withRetryWait(raw.metaAgent, (ms) => onWait('metaAgent', ms)), proposer: withRetryWait(raw.proposer, (ms) => onWait('proposer', ms)) }
      : raw;
    const tasks = new Map<string, Promise<ResolvedTask>>();
    const resolveTask = (storyId: string, seed: number): Promise<ResolvedTask> => {
      const id = taskIdOf(storyId, seed);
      let found = tasks.get(id);
      if (!found) {
        found = this.resolveTask(storyId, seed);
        found.catch(() => tasks.delete(id));
        tasks.set(id, found);
      }
      return found;
    };
    const engines = new EnginePool(async (taskId) => {
      const { storyId, seed } = parseTaskId(taskId);
      const task = await resolveTask(storyId, seed);
      if (!task.story || !task.loadOptions) return this.createWebEngine(task.id);
      return this.loadEngine(task.story.bytes, task.loadOptions);
    });
    return { settings, meter, models, countTokens, engines, store: this.store, resolveTask, adaptations, dispose: () => engines.disposeAll() };
  }

  /**
   * The meta-agent's context window for a new run (tokens): the user's value wins, then the
   * window the provider reports, then the built-in table, then the documented default — with a
   * note to show the user in that last case (never sent to a model).
   */
  async contextWindow(settings: LlmSettings, user: number | null = null): Promise<{ tokens: number; note: string | null }> {
    const model = settings.roles.metaAgent.model;
    const reported = user ? null : ((await this.deps.llm.reportedContextWindow?.(settings, model).catch(() => null)) ?? null);
    const { tokens, note } = resolveContextWindow(model, { user, reported });
    return { tokens, note };
  }

  /** `withRunLock` with this page's locks. @returns null when another tab runs `runId` */
  withRunLock<T>(runId: string, body: () => Promise<T>): Promise<T | null> {
    return withRunLock(runId, body, this.locks);
  }

  /** True when some tab holds the run's lock (it is running there, or here). */
  isRunLocked(runId: string): Promise<boolean> {
    return isRunLocked(runId, this.locks);
  }
}
