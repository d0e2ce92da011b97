/**
 * Nothing lost after any stop: a small session, evaluation and evolution (The Lever Room, 2
 * episodes of at most 5 steps, the in-process mock, the file store the CLI uses) are stopped at
 * EVERY write to the store — a process killed before write N, and a disk that fills at write N
 * (the run stops with StorageFullError) — and each store is then resumed, as `--resume` does
 * (resume check without `--from-last-good`, recorded actions replayed): the result is the
 * uninterrupted run's, field for field but wall-clock times.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { runEvaluation } from '../src/eval/evaluation-runner.ts';
import { evaluationEventProblem, loadEvaluationSessions, loadEvaluationState, openEvaluationCache, saveEvaluationState } from '../src/eval/evaluation-store.ts';
import type { EvaluationConfig, EvaluationState } from '../src/eval/interface.ts';
import { cacheEventProblem } from '../src/evolve/evolution-io.ts';
import { runEvolution } from '../src/evolve/evolution-runner.ts';
import { loadEvolutionState, openEvolutionCache, saveEvolutionState } from '../src/evolve/evolution-store.ts';
import type { EvolutionConfig, EvolutionState } from '../src/evolve/interface.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import type { LlmSettings } from '../src/llm/interface.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter, type TokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { checkRunForResume } from '../src/store/run-check.ts';
import { EnginePool } from '../src/ttl/engine-pool.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import { evaluateSession, type EvaluatedTask } from '../src/ttl/session-evaluator.ts';
import { openStoredSession } from '../src/ttl/session-integrity.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { runSession } from '../src/ttl/session-runner.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { loadSession, persistingSink } from '../src/ttl/session-store.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';
import { armWriteFaults, writeFaults } from './support/write-faults.ts';

vi.mock('node:fs/promises', async (importOriginal) => (await import('./support/write-faults.ts')).writeFaultsMock(importOriginal as never));

const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const entry = catalog.stories.find((s) => s.id === 'lever-room')!;
const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', entry.file!)));
/** One game for every run (runs never overlap; each episode resets it to the seed's start). */
const game = syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) }));
const engine = () => game;
const TASK: EvaluatedTask = { id: 'lever-room:1', storyId: entry.id, title: entry.title, md5: entry.md5, seed: 1, maxScore: entry.maxScore! };
const EPISODES = 2;
const STEPS = 3;

let mock: MockLlm;
let countTokens: TokenCounter;
const dirs: string[] = [];
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'], metaAgentReply: 'build' });
  countTokens = await loadTokenCounter();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function settings(concurrency = 1): LlmSettings {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'k' };
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role].model = 'mock-model';
  s.maxRetries = 0;
  s.maxConcurrent = concurrency;
  return s;
}

const newDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'metattl-sweep-'));
  dirs.push(dir);
  return dir;
};

/** Wall-clock fields (they differ between any two runs) dropped, everything else kept. */
const CLOCK_FIELDS = new Set(['startedAt', 'finishedAt', 'wallTimeMs', 'latencyMs', 'updatedAt', 'at']);
const comparable = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (CLOCK_FIELDS.has(key) ? undefined : v)));

// ---- the three kinds of run, each started or resumed from what `dir` holds (as the CLI does) ----

const SESSION_ID = 'sweep-session';
async function sessionRun(dir: string, fromLastGood = false, maxTokens: number | null = null): Promise<unknown> {
  const store = await openNodeStore(dir);
  try {
    const game = engine();
    const stored = await loadSession(store, SESSION_ID);
    const previous = stored ? await openStoredSession(store, SESSION_ID, { engine: game, fromLastGood }) : undefined;
    const s = settings();
    s.caps = { maxUsd: null, maxTokens };
    const parts = buildSession(
      { story: { id: entry.id, title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed: 1, policy: { kind: 'meta', name: 'naive', strategy: '' }, episodes: EPISODES, maxSteps: STEPS, initialGuidingPrompt: 'Explore.', contextWindow: 8000 },
      s, createChatModels(s, new UsageMeter(s.caps, s.prices)), countTokens,
    );
    const record = await runSession({
      id: SESSION_ID, config: previous?.config ?? parts.config, engine: game, actor: parts.actor, policy: parts.policy, sink: persistingSink(store, SESSION_ID), ...(previous ? { resume: previous } : {}),
    });
    return comparable({ record, stored: await loadSession(store, SESSION_ID) });
  } finally {
    store.close();
  }
}

/** Engines for runs that play sessions side by side (`concurrency` > 1): a pool of their own. */
const parallelGames = [game, syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) }))];

function evaluatorOptions(store: Awaited<ReturnType<typeof openNodeStore>>, concurrency = 1, fromLastGood = false) {
  const s = settings(concurrency);
  const idle = concurrency > 1 ? [...parallelGames] : [game];
  const pool = new EnginePool(async () => ({ ...idle.pop()!, dispose: () => undefined }));
  return { settings: s, models: createChatModels(s, new UsageMeter(s.caps, s.prices)), countTokens, pool, episodes: EPISODES, maxSteps: STEPS, initialGuidingPrompt: 'Explore.', contextWindow: 8000, store, fromLastGood };
}

const EVAL_ID = 'sweep-eval';
const evalConfig: EvaluationConfig = {
  policies: [{ id: 'static', spec: { kind: 'static' }, selectedOn: [] }, { id: 'naive', spec: { kind: 'meta', name: 'naive', strategy: '' }, selectedOn: [] }],
  taskSets: [{ name: 'custom', tasks: [TASK] }], repeats: 1, episodes: EPISODES, maxSteps: STEPS, initialGuidingPrompt: 'Explore.',
  baselinePolicyId: 'naive', bootstrapSeed: 0, concurrency: 1, models: { actor: 'mock-model', metaAgent: 'mock-model' }, contextWindow: 8000,
};
async function evaluationRun(dir: string, fromLastGood = false, concurrency = 1): Promise<unknown> {
  const config = { ...evalConfig, concurrency };
  const store = await openNodeStore(dir);
  const options = evaluatorOptions(store, concurrency, fromLastGood);
  try {
    const previous = await loadEvaluationState(store, EVAL_ID);
    if (previous) await checkRunForResume(store, EVAL_ID, 'evaluation', evaluationEventProblem, fromLastGood);
    const fresh = (): EvaluationState => ({
      format: 'metattl-evaluation-1', id: EVAL_ID, config, status: 'running', stopReason: null, stopMessage: null, results: [], totalSessions: 0, startedAt: new Date().toISOString(), finishedAt: null,
    });
    const state = await runEvaluation(EVAL_ID, config, {
      cache: await openEvaluationCache(store, EVAL_ID, fresh), faultedEpisodesBefore: previous?.faultedEpisodes ?? 0,
      evaluate: (policy, task, _repeat, sessionId, signal) => evaluateSession(options, policy, task, sessionId, signal),
      onEvent: async (_event, st) => saveEvaluationState(store, st),
    });
    return comparable({ state, stored: await loadEvaluationState(store, EVAL_ID), sessions: Object.fromEntries(await loadEvaluationSessions(store, EVAL_ID)) });
  } finally {
    options.pool.disposeAll();
    store.close();
  }
}

const EVOLVE_ID = 'sweep-evolve';
const evolveTask = { id: TASK.id, storyId: entry.id, title: entry.title, md5: entry.md5, seed: 1, maxScore: entry.maxScore! };
const evolveConfig: EvolutionConfig = {
  train: [evolveTask], val: [evolveTask], repeats: 1, episodes: EPISODES, maxSteps: STEPS,
  initialGuidingPrompt: 'Explore.', seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 4, maxConsecutiveFailures: 3, proposer: 'llm', rngSeed: 11, concurrency: 1,
  models: { actor: 'mock-model', metaAgent: 'mock-model', proposer: 'mock-model' }, contextWindow: 8000,
};
async function evolutionRun(dir: string, fromLastGood = false): Promise<unknown> {
  const store = await openNodeStore(dir);
  const options = evaluatorOptions(store, 1, fromLastGood);
  try {
    const previous = await loadEvolutionState(store, EVOLVE_ID);
    if (previous) await checkRunForResume(store, EVOLVE_ID, 'evolution', cacheEventProblem, fromLastGood);
    const fresh = (): EvolutionState => ({
      format: 'metattl-evolution-1', id: EVOLVE_ID, config: evolveConfig, status: 'running', stopReason: null, stopMessage: null, candidates: [], metricCalls: [],
      metricCallsUsed: 0, sessionsPlayed: 0, faultedEpisodes: 0, failedProposals: 0, fronts: {}, iteration: 0, rngState: evolveConfig.rngSeed, best: { byMean: null, byZScore: null },
      progress: [], startedAt: new Date().toISOString(), finishedAt: null,
    });
    const state = await runEvolution(EVOLVE_ID, evolveConfig, {
      proposer: options.models.proposer, cache: await openEvolutionCache(store, EVOLVE_ID, fresh), faultedEpisodesBefore: previous?.faultedEpisodes ?? 0,
      evaluate: (strategy, task, _repeat, sessionId, signal) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, task, sessionId, signal),
      // As the CLI does (cli/evolve-run.ts): the state is saved after every event that is not a cached replay.
      onEvent: async (event, st) => {
        if ((event.type === 'metric_call_done' && !event.fromCache) || event.type === 'proposal_failed' || event.type === 'finished') await saveEvolutionState(store, st);
      },
    });
    const run = await store.getRun(EVOLVE_ID);
    return comparable({ state, stored: await loadEvolutionState(store, EVOLVE_ID), events: run?.events.map((e) => e.data) });
  } finally {
    options.pool.disposeAll();
    store.close();
  }
}

/**
 * The sweep: the uninterrupted run, with its W writes to the store, then for every N in 1…W the
 * store a stop at write N leaves, resumed with the disk healthy; each must give the uninterrupted
 * result. A kill leaves the store as it was before write N (copied there during the uninterrupted
 * run: the process does nothing more); a torn kill (at every append) leaves half of that append's
 * bytes too — whole lines are committed events, the torn last one is not and is dropped by the
 * store, so it too resumes without `--from-last-good`; a full disk
 * fails write N and every later one while the run goes on and stops with StorageFullError.
 * Returns W.
 */
async function sweep(run: (dir: string, fromLastGood?: boolean) => Promise<unknown>, kind: 'kill' | 'torn' | 'full'): Promise<number> {
  const cleanDir = newDir();
  armWriteFaults(cleanDir, Infinity, kind === 'full' ? 'full' : 'kill');
  const killed: (string | null)[] = [];
  if (kind === 'kill') writeFaults.beforeWrite = () => killed.push(copyStore(cleanDir));
  if (kind === 'torn') {
    writeFaults.beforeWrite = (_n, write) => {
      if (write.kind !== 'appendFile') return void killed.push(null);
      const copy = copyStore(cleanDir);
      const data = String(write.data);
      appendFileSync(join(copy, relative(cleanDir, write.path)), data.slice(0, Math.ceil(data.length / 2)));
      killed.push(copy);
    };
  }
  const clean = await run(cleanDir);
  const writes = writeFaults.count;
  armWriteFaults('', Infinity, 'kill');
  for (let n = 1; n <= writes; n++) {
    let dir = killed[n - 1] ?? null;
    if (kind === 'torn' && dir === null) continue;
    if (kind === 'full') {
      dir = newDir();
      armWriteFaults(dir, n, kind);
      const stopped = await run(dir).then(() => null, (error: unknown) => error as Error);
      expect(stopped, `write ${n} of ${writes} failed but the run did not stop`).not.toBeNull();
      expect(stopped!.name, `write ${n}: ${stopped!.message}`).toBe('StorageFullError');
      armWriteFaults('', Infinity, kind);
    }
    const resumed = await run(dir!).catch((error: unknown) => {
      throw new Error(`resume after ${kind} at write ${n} of ${writes}: ${(error as Error).name}: ${(error as Error).message}`);
    });
    expect(resumed, `resume after ${kind} at write ${n} of ${writes}`).toEqual(clean);
  }
  return writes;
}

/** A copy of the store directory `dir` (in a new directory). */
function copyStore(dir: string): string {
  const copy = newDir();
  cpSync(dir, copy, { recursive: true });
  return copy;
}

describe('a run stopped at any write resumes to the uninterrupted result', () => {
  for (const kind of ['kill', 'full'] as const) {
    it(`session (naive, K = 2, S = 3): ${kind === 'kill' ? 'killed before' : 'disk full at'} every write`, async () => {
      expect(await sweep(sessionRun, kind)).toBeGreaterThanOrEqual(8);
    });
    it(`evaluation (static and naive, 1 repeat): ${kind === 'kill' ? 'killed before' : 'disk full at'} every write`, async () => {
      expect(await sweep(evaluationRun, kind)).toBeGreaterThanOrEqual(20);
    });
    it(`evolution (budget 4 metric calls): ${kind === 'kill' ? 'killed before' : 'disk full at'} every write`, async () => {
      expect(await sweep(evolutionRun, kind)).toBeGreaterThanOrEqual(30);
    });
  }

  for (const [name, run] of [['session', sessionRun], ['evaluation', evaluationRun], ['evolution', evolutionRun]] as const) {
    it(`${name}: killed in the middle of every append (a torn last line), resumed without --from-last-good`, async () => {
      expect(await sweep(run, 'torn')).toBeGreaterThanOrEqual(8);
    });
  }

  it('evaluation with two sessions at a time (static and naive side by side): killed before every write', async () => {
    expect(await sweep((dir, fromLastGood) => evaluationRun(dir, fromLastGood, 2), 'kill')).toBeGreaterThanOrEqual(20);
  });

  it('a full disk at the write of a finished session\'s result loses nothing: the resume makes no call for that session', async () => {
    const cleanDir = newDir();
    armWriteFaults(cleanDir, Infinity, 'full');
    const from = mock.requests.length;
    const clean = (await evaluationRun(cleanDir)) as { sessions: Record<string, SessionRecord> };
    const cleanCalls = mock.requests.length - from;
    const resultWrite = writeFaults.paths.findIndex((path) => path.endsWith(`${createHash('sha1').update(EVAL_ID).digest('hex')}.events.jsonl`)) + 1;
    expect(resultWrite).toBeGreaterThan(0);
    const dir = newDir();
    armWriteFaults(dir, resultWrite, 'full');
    await expect(evaluationRun(dir)).rejects.toThrow(/space|full/i);
    armWriteFaults('', Infinity, 'full');
    const resumedFrom = mock.requests.length;
    expect(await evaluationRun(dir)).toEqual(comparable(clean));
    // The static session (one actor call per step, no meta-agent) finished before the disk filled.
    const staticCalls = clean.sessions['static|custom|lever-room:1|0']!.episodes.reduce((n, e) => n + e.steps.length, 0);
    expect(staticCalls).toBeGreaterThan(0);
    expect(mock.requests.length - resumedFrom).toBe(cleanCalls - staticCalls);
  });
});

describe('a session stopped by a token cap resumes (no cap) to the uncapped result', () => {
  it('at every cap that stops it mid-episode; also from a store holding the refused call as a step with no action (older versions)', async () => {
    const clean = await sessionRun(newDir());
    const stops = new Set<string>();
    for (let cap = 200; cap <= 4000; cap += 200) {
      for (const legacy of [false, true]) {
        const dir = newDir();
        const capped = (await sessionRun(dir, false, cap)) as { record: SessionRecord; stored: SessionRecord };
        if (capped.record.stopReason !== 'budget') continue;
        const episode = capped.stored.episodes.at(-1)!;
        if (episode.trajectory !== null) continue; // stopped between episodes (the meta-agent's call)
        stops.add(`${episode.index}:${episode.steps.length}`);
        expect(episode.steps.every((step) => step.action !== null)).toBe(true);
        if (legacy) {
          const store = await openNodeStore(dir);
          const last = episode.steps.at(-1);
          const index = episode.steps.length + 1;
          const refused = {
            index, observation: '', reply: '', finishReason: null, action: null, extraActions: [], reward: 0, score: last?.score ?? 0, moves: last?.moves ?? 0,
            promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0, parseStatus: 'llm_error', error: { kind: 'budget', message: capped.record.stopMessage },
          };
          await store.appendRunEvents(SESSION_ID, [{ seq: episode.index * 100_000 + index, data: refused }]);
          store.close();
        }
        expect(await sessionRun(dir), `cap ${cap}${legacy ? ', refused call stored' : ''}`).toEqual(clean);
      }
    }
    // The caps stopped it at several places inside episodes.
    expect(stops.size).toBeGreaterThanOrEqual(2);
  });
});
