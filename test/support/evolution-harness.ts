/**
 * Test support: an evolution wired to the mock provider and in-thread engines on the shared
 * Jericho stories (detective, temple), persisted in a Node file store.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findByMd5, parseCatalog, rulesFor } from '../../src/engine/catalog.ts';
import { md5Hex } from '../../src/engine/story-file.ts';
import { EngineProxy } from '../../src/engine/engine-proxy.ts';
import { createNodeWorker } from '../../src/engine/node/worker-factory.ts';
import { loadStory } from '../../src/engine/zvm-engine.ts';
import { startOrResumeEvolution } from '../../src/evolve/evolution-service.ts';
import type { EvolutionConfig, EvolutionEvent, EvolutionState, EvolutionTask } from '../../src/evolve/interface.ts';
import { defaultLlmSettings } from '../../src/llm/defaults.ts';
import { createChatModels } from '../../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../../src/llm/token-count.ts';
import { UsageMeter } from '../../src/llm/usage-meter.ts';
import type { Store } from '../../src/store/interface.ts';
import { openNodeStore } from '../../src/store/node-store.ts';
import { EnginePool } from '../../src/ttl/engine-pool.ts';
import { syncEngine } from '../../src/ttl/episode-runner.ts';
import { evaluateSession } from '../../src/ttl/session-evaluator.ts';
import type { MockLlm } from '../mock-llm/server.ts';
import { readShared, REPO_ROOT } from './shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));

export function task(name: string, seed = 0): EvolutionTask & { bytes: Uint8Array } {
  const bytes = new Uint8Array(readShared(`stories/${name}.z5`));
  const entry = findByMd5(catalog, md5Hex(bytes))!;
  return { id: `${name}:${seed}`, storyId: entry.id, title: entry.title, md5: entry.md5, seed, maxScore: entry.maxScore!, bytes };
}

export function config(overrides: Partial<EvolutionConfig> = {}): EvolutionConfig {
  const { bytes: _d, ...detective } = task('detective');
  const { bytes: _t, ...temple } = task('temple');
  return {
    train: [detective], val: [detective, temple], repeats: 1, episodes: 4, maxSteps: 10,
    initialGuidingPrompt: 'Explore systematically.', seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 10,
    maxConsecutiveFailures: 3, proposer: 'llm', rngSeed: 11, concurrency: 2,
    models: { actor: 'mock-model', metaAgent: 'mock-model', proposer: 'mock-model' }, contextWindow: 8000,
    ...overrides,
  };
}

export interface HarnessRun {
  state: EvolutionState;
  store: Store;
  dir: string;
}

/** Run (or resume, given the same dir and id) an evolution against the mock. */
export async function evolve(
  mock: MockLlm, cfg: EvolutionConfig,
  o: { dir?: string; id?: string; signal?: AbortSignal; onEvent?: (e: EvolutionEvent) => void; workers?: boolean } = {},
): Promise<HarnessRun> {
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'metattl-evolve-'));
  const store = await openNodeStore(dir);
  const id = o.id ?? 'evo-1';
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'test-key' };
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role].model = 'mock-model';
  s.maxConcurrent = cfg.concurrency;
  const models = createChatModels(s, new UsageMeter(s.caps, s.prices));
  const stories = new Map([...cfg.train, ...cfg.val].map((t) => [t.id, task(t.id.split(':')[0]!, t.seed)]));
  const pool = new EnginePool(async (key) => {
    const t = stories.get(key)!;
    const rules = rulesFor(findByMd5(catalog, t.md5)!);
    // Worker engines as the CLI and the page use them, or in-thread engines (faster to start, for tests).
    if (o.workers) return EngineProxy.load(createNodeWorker, t.bytes, { seed: t.seed, rules });
    return { ...syncEngine(loadStory(t.bytes, { seed: t.seed, rules })), dispose: () => undefined };
  });
  const options = {
    settings: s, models, countTokens: await loadTokenCounter(), pool, episodes: cfg.episodes, maxSteps: cfg.maxSteps,
    initialGuidingPrompt: cfg.initialGuidingPrompt, contextWindow: cfg.contextWindow,
  };
  // The core's evolution service: the one builder of a new run's state, the state saved after every event.
  const state = await startOrResumeEvolution(store, id, cfg, {
    proposer: models.proposer, signal: o.signal,
    evaluate: (strategy, t, _repeat, sessionId, signal) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, { ...t, storyId: t.storyId }, sessionId, signal),
    observers: o.onEvent ? [(event) => o.onEvent!(event)] : [],
  });
  pool.disposeAll();
  return { state, store, dir };
}
