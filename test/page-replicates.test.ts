/**
 * The page's experiment executor runs an evolution's replicates side by side, as the CLI does:
 * min(replicates, concurrency) at once on drivers of their own, each with ⌊concurrency ÷ that⌋
 * sessions at once, and every replicate ends exactly as when the replicates run one after
 * another. Real evolutions: the simulated model on a teaching game, in-process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import type { EvaluationConfig, EvaluationState } from '../src/eval/interface.ts';
import { runEvolution } from '../src/evolve/evolution-runner.ts';
import type { EvolutionConfig, EvolutionState, EvolutionTask } from '../src/evolve/interface.ts';
import { freshExperimentState, runExperiment } from '../src/experiment/experiment-runner.ts';
import { planExperiment } from '../src/experiment/plan.ts';
import { validateExperiment } from '../src/experiment/schema.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createSimulatedChatModels, SIMULATED_MODEL } from '../src/llm/simulated-model.ts';
import { approximateTokens } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { EnginePool } from '../src/ttl/engine-pool.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import { evaluateSession } from '../src/ttl/session-evaluator.ts';
import { browserExecutor, sideBySide, type StepDriver } from '../src/ui/experiments/experiment-executor.ts';
import { policyOptions } from '../src/ui/shared/state/policy-options.ts';
import { MemoryCache } from './support/scripted-evolution.ts';
import { REPO_ROOT } from './support/shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const entry = catalog.stories.find((s) => s.id === 'lever-room')!;
const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', entry.file!)));
const settings = defaultLlmSettings();
settings.provider = { presetId: 'simulated', baseUrl: 'in-page:simulated', apiKey: '' };
for (const role of ['actor', 'metaAgent', 'proposer'] as const) settings.roles[role].model = SIMULATED_MODEL;

const spec = validateExperiment({
  format: 'metattl-experiment-1', name: 'page-replicates', description: 'Three replicates of one evolution', episodes: 3, steps: 12, repeats: 1, bootstrapSeed: 0, models: [],
  taskSets: { T: ['lever-room:1', 'lever-room:2'] }, evolutions: [{ id: 'e', train: 'T', val: 'T', budget: 8, rngSeed: 3, proposer: 'llm', replicates: 3 }], folds: null,
  arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolution: 'e' }], baseline: 'naive', evaluateOn: ['T'], paper: null,
});
const plan = planExperiment(spec);
const task = (id: string): EvolutionTask => ({ id, storyId: 'lever-room', title: entry.title, md5: entry.md5, seed: Number(id.split(':')[1]), maxScore: entry.maxScore! });

/** A driver that runs a real evolution in-process; `log` records starts and ends. */
function driver(log: string[], inFlight: { now: number; most: number }): StepDriver<EvolutionState, EvolutionConfig> {
  const d: StepDriver<EvolutionState, EvolutionConfig> & { state: EvolutionState | null } = {
    state: null,
    async run(id, config) {
      inFlight.now++;
      inFlight.most = Math.max(inFlight.most, inFlight.now);
      log.push(`start ${id} concurrency ${config.concurrency}`);
      const models = createSimulatedChatModels(settings, new UsageMeter(settings.caps, settings.prices));
      const pool = new EnginePool(async () => ({ ...syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) })), dispose: () => undefined }));
      const options = { settings, models, countTokens: approximateTokens, pool, episodes: config.episodes, maxSteps: config.maxSteps, initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow };
      const state = await runEvolution(id, config, {
        proposer: models.proposer, cache: new MemoryCache(), now: () => new Date('2026-01-01T00:00:00.000Z'),
        evaluate: (strategy, t, repeat, sessionId, signal) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, t, sessionId, signal, repeat),
      });
      inFlight.now--;
      d.state = state;
      return state;
    },
  };
  return d;
}

async function run(sideDrivers: number, concurrency: number) {
  const log: string[] = [];
  const inFlight = { now: 0, most: 0 };
  const unused = { state: null as EvaluationState | null, run: async (): Promise<EvaluationState | null> => null } satisfies StepDriver<EvaluationState, EvaluationConfig>;
  const exec = browserExecutor(plan, {
    experimentId: 'x', evolution: driver(log, inFlight), sideDrivers: Array.from({ length: sideDrivers }, () => driver(log, inFlight)), concurrency, evaluation: unused,
    resolve: async (id) => task(id), storedConfig: async () => undefined, policies: async () => policyOptions([]), save: async () => undefined, now: () => '2026-01-01T00:00:00.000Z',
    shape: async () => ({ models: { actor: SIMULATED_MODEL, metaAgent: SIMULATED_MODEL, proposer: SIMULATED_MODEL }, concurrency, contextWindow: 32_000 }),
  });
  const state = freshExperimentState(plan, [{ actor: SIMULATED_MODEL, metaAgent: SIMULATED_MODEL, proposer: SIMULATED_MODEL }], '2026-01-01T00:00:00.000Z');
  // Only the evolutions: the plan's evaluation step is left pending (the unused driver does not run it).
  await runExperiment(plan, state, exec);
  return { log, most: inFlight.most, parallel: exec.parallelEvolutions, outcomes: ['evolve-e.r1', 'evolve-e.r2', 'evolve-e.r3'].map((id) => state.steps[id]!.evolution!) };
}

describe('replicates side by side in the page', () => {
  it('share the concurrency as the CLI does', () => {
    expect(sideBySide(plan, 4, 3)).toEqual({ parallel: 3, each: 1 });
    expect(sideBySide(plan, 8, 3)).toEqual({ parallel: 3, each: 2 });
    expect(sideBySide(plan, 2, 3)).toEqual({ parallel: 2, each: 1 });
    // No more side by side than drivers.
    expect(sideBySide(plan, 8, 1)).toEqual({ parallel: 1, each: 8 });
  });

  it('three replicates at once end exactly as one after another', async () => {
    const together = await run(2, 6);
    expect(together.parallel).toBe(3);
    expect(together.most).toBe(3);
    // All three started before any ended; each with 6 ÷ 3 = 2 sessions at once.
    expect(together.log).toEqual(['start x.evolve-e.r1 concurrency 2', 'start x.evolve-e.r2 concurrency 2', 'start x.evolve-e.r3 concurrency 2']);
    const alone = await run(0, 6);
    expect(alone.parallel).toBe(1);
    expect(alone.most).toBe(1);
    expect(alone.log).toEqual(['start x.evolve-e.r1 concurrency 6', 'start x.evolve-e.r2 concurrency 6', 'start x.evolve-e.r3 concurrency 6']);
    expect(together.outcomes).toEqual(alone.outcomes);
    expect(together.outcomes.map((o) => [o.replicate, o.rngSeed, o.status])).toEqual([[1, 3, 'complete'], [2, 4, 'complete'], [3, 5, 'complete']]);
    // Real runs: sessions were played and proposals made.
    for (const o of together.outcomes) expect(o.sessionsPlayed).toBeGreaterThan(0);
    expect(together.outcomes.some((o) => (o.proposals ?? 0) > 0)).toBe(true);
  }, 60_000);
});
