/**
 * Test support: the small runs of the resume sweeps (test/resume-sweep.test.ts over the CLI's file
 * store, test/resume-sweep-idb.test.ts over the page's IndexedDB store) — a session, an evaluation
 * and an evolution (The Lever Room, 2 episodes of at most 3 steps, the mock LLM), each started or
 * resumed from what the store at `where` holds, as `--resume` and the page's Resume do (resume check
 * without "from the last good record" unless asked, recorded actions replayed). Each returns its
 * result and what the store then holds, wall-clock fields dropped (`comparable`), so a resumed run
 * can be compared with the uninterrupted one field for field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCatalog, rulesFor } from '../../src/engine/catalog.ts';
import { loadStory } from '../../src/engine/zvm-engine.ts';
import { startOrResumeEvaluation } from '../../src/eval/evaluation-service.ts';
import { evaluationEventProblem, loadEvaluationSessions, loadEvaluationState } from '../../src/eval/evaluation-store.ts';
import type { EvaluationConfig } from '../../src/eval/interface.ts';
import { cacheEventProblem } from '../../src/evolve/evolution-io.ts';
import { startOrResumeEvolution } from '../../src/evolve/evolution-service.ts';
import { loadEvolutionState } from '../../src/evolve/evolution-store.ts';
import type { EvolutionConfig } from '../../src/evolve/interface.ts';
import { defaultLlmSettings } from '../../src/llm/defaults.ts';
import type { LlmSettings } from '../../src/llm/interface.ts';
import { createChatModels } from '../../src/llm/openai-chat-model.ts';
import type { TokenCounter } from '../../src/llm/token-count.ts';
import { UsageMeter } from '../../src/llm/usage-meter.ts';
import type { Store } from '../../src/store/interface.ts';
import { checkRunForResume } from '../../src/store/run-check.ts';
import { EnginePool } from '../../src/ttl/engine-pool.ts';
import { syncEngine } from '../../src/ttl/episode-runner.ts';
import { evaluateSession, type EvaluatedTask } from '../../src/ttl/session-evaluator.ts';
import { openStoredSession } from '../../src/ttl/session-integrity.ts';
import { runSession } from '../../src/ttl/session-runner.ts';
import { buildSession } from '../../src/ttl/session-setup.ts';
import { loadSession, persistingSink } from '../../src/ttl/session-store.ts';
import type { MockOptions } from '../mock-llm/interface.ts';
import { REPO_ROOT } from './shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const entry = catalog.stories.find((s) => s.id === 'lever-room')!;
const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', entry.file!)));
/** One game for every run (runs never overlap; each episode resets it to the seed's start). */
const game = syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) }));
const engine = () => game;
const TASK: EvaluatedTask = { id: 'lever-room:1', storyId: entry.id, title: entry.title, md5: entry.md5, seed: 1, maxScore: entry.maxScore! };
const EPISODES = 2;
const STEPS = 3;

/** Mock replies that make the small runs play (and score) the same on every run. */
export const SWEEP_MOCK: MockOptions = { exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'], metaAgentReply: 'build' };

/** Wall-clock fields (they differ between any two runs) dropped, everything else kept. */
export const CLOCK_FIELDS = new Set(['startedAt', 'finishedAt', 'wallTimeMs', 'latencyMs', 'updatedAt', 'at']);
export const comparable = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (CLOCK_FIELDS.has(key) ? undefined : v)));


export const SESSION_ID = 'sweep-session';
/** Engines for runs that play sessions side by side (`concurrency` > 1): a pool of their own. */
const parallelGames = [game, syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) }))];

export const EVAL_ID = 'sweep-eval';
export const evalConfig: EvaluationConfig = {
  policies: [{ id: 'static', spec: { kind: 'static' }, selectedOn: [] }, { id: 'naive', spec: { kind: 'meta', name: 'naive', strategy: '' }, selectedOn: [] }],
  taskSets: [{ name: 'custom', tasks: [TASK] }], repeats: 1, episodes: EPISODES, maxSteps: STEPS, initialGuidingPrompt: 'Explore.',
  baselinePolicyId: 'naive', bootstrapSeed: 0, concurrency: 1, models: { actor: 'mock-model', metaAgent: 'mock-model' }, contextWindow: 8000,
};
export const EVOLVE_ID = 'sweep-evolve';
const evolveTask = { id: TASK.id, storyId: entry.id, title: entry.title, md5: entry.md5, seed: 1, maxScore: entry.maxScore! };
export const evolveConfig: EvolutionConfig = {
  train: [evolveTask], val: [evolveTask], repeats: 1, episodes: EPISODES, maxSteps: STEPS,
  initialGuidingPrompt: 'Explore.', seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 4, maxConsecutiveFailures: 3, proposer: 'llm', rngSeed: 11, concurrency: 1,
  models: { actor: 'mock-model', metaAgent: 'mock-model', proposer: 'mock-model' }, contextWindow: 8000,
};

/** What the runs need: the mock's base URL and the token counter (both ready once the test's
 * `beforeAll` ran), and the store opener — a directory for the file store, a database name for
 * IndexedDB; the run closes the store it opened. */
export interface ResumeRunDeps {
  baseUrl(): string;
  countTokens(): TokenCounter;
  openStore(where: string): Promise<Store>;
}

/** A run started or resumed from the store at `where`; resolves to its comparable result. */
export type ResumeRun = (where: string, fromLastGood?: boolean) => Promise<unknown>;

/** The three runs over the stores `deps.openStore` opens (see module doc). */
export function resumeRuns(deps: ResumeRunDeps): {
  sessionRun: (where: string, fromLastGood?: boolean, maxTokens?: number | null) => Promise<unknown>;
  evaluationRun: (where: string, fromLastGood?: boolean, concurrency?: number) => Promise<unknown>;
  evolutionRun: ResumeRun;
} {
  function settings(concurrency = 1): LlmSettings {
    const s = defaultLlmSettings();
    s.provider = { presetId: 'custom', baseUrl: deps.baseUrl(), apiKey: 'k' };
    for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role].model = 'mock-model';
    s.maxRetries = 0;
    s.maxConcurrent = concurrency;
    return s;
  }

  async function sessionRun(where: string, fromLastGood = false, maxTokens: number | null = null): Promise<unknown> {
    const store = await deps.openStore(where);
    try {
      const game = engine();
      const stored = await loadSession(store, SESSION_ID);
      const previous = stored ? await openStoredSession(store, SESSION_ID, { engine: game, fromLastGood }) : undefined;
      const s = settings();
      s.caps = { maxUsd: null, maxTokens };
      const parts = buildSession(
        { story: { id: entry.id, title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed: 1, policy: { kind: 'meta', name: 'naive', strategy: '' }, episodes: EPISODES, maxSteps: STEPS, initialGuidingPrompt: 'Explore.', contextWindow: 8000 },
        s, createChatModels(s, new UsageMeter(s.caps, s.prices)), deps.countTokens(),
      );
      const record = await runSession({
        id: SESSION_ID, config: previous?.config ?? parts.config, engine: game, actor: parts.actor, policy: parts.policy, sink: persistingSink(store, SESSION_ID), ...(previous ? { resume: previous } : {}),
      });
      return comparable({ record, stored: await loadSession(store, SESSION_ID) });
    } finally {
      store.close();
    }
  }

  function evaluatorOptions(store: Store, concurrency = 1, fromLastGood = false) {
    const s = settings(concurrency);
    const idle = concurrency > 1 ? [...parallelGames] : [game];
    const pool = new EnginePool(async () => ({ ...idle.pop()!, dispose: () => undefined }));
    return { settings: s, models: createChatModels(s, new UsageMeter(s.caps, s.prices)), countTokens: deps.countTokens(), pool, episodes: EPISODES, maxSteps: STEPS, initialGuidingPrompt: 'Explore.', contextWindow: 8000, store, fromLastGood };
  }

  async function evaluationRun(where: string, fromLastGood = false, concurrency = 1): Promise<unknown> {
    const config = { ...evalConfig, concurrency };
    const store = await deps.openStore(where);
    const options = evaluatorOptions(store, concurrency, fromLastGood);
    try {
      const previous = await loadEvaluationState(store, EVAL_ID);
      if (previous) await checkRunForResume(store, EVAL_ID, 'evaluation', evaluationEventProblem, fromLastGood);
      // As the CLI does (cli/eval.ts): the core's evaluation service.
      const state = await startOrResumeEvaluation(store, EVAL_ID, config, {
        faultedEpisodesBefore: previous?.faultedEpisodes ?? 0,
        evaluate: (policy, task, _repeat, sessionId, signal) => evaluateSession(options, policy, task, sessionId, signal),
      });
      return comparable({ state, stored: await loadEvaluationState(store, EVAL_ID), sessions: Object.fromEntries(await loadEvaluationSessions(store, EVAL_ID)) });
    } finally {
      options.pool.disposeAll();
      store.close();
    }
  }

  async function evolutionRun(where: string, fromLastGood = false): Promise<unknown> {
    const store = await deps.openStore(where);
    const options = evaluatorOptions(store, 1, fromLastGood);
    try {
      const previous = await loadEvolutionState(store, EVOLVE_ID);
      if (previous) await checkRunForResume(store, EVOLVE_ID, 'evolution', cacheEventProblem, fromLastGood);
      // As the CLI does (cli/evolve-run.ts): the core's evolution service, the state saved after every event.
      const state = await startOrResumeEvolution(store, EVOLVE_ID, evolveConfig, {
        proposer: options.models.proposer, faultedEpisodesBefore: previous?.faultedEpisodes ?? 0,
        evaluate: (strategy, task, _repeat, sessionId, signal) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, task, sessionId, signal),
      });
      const run = await store.getRun(EVOLVE_ID);
      return comparable({ state, stored: await loadEvolutionState(store, EVOLVE_ID), events: run?.events.map((e) => e.data) });
    } finally {
      options.pool.disposeAll();
      store.close();
    }
  }

  return { sessionRun, evaluationRun, evolutionRun };
}
