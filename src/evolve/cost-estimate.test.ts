/** The cost estimate: call counts from the budget rules, prices and prompt sizes, hand-computed. */
import { describe, expect, it } from 'vitest';
import { ACTOR_PREAMBLE, REPLY_CONTRACT } from '../agents/actor-prompt.ts';
import { loadTokenCounter } from '../llm/token-count.ts';
import { samples } from './cost-samples.ts';
import { actorUsage, estimateEvolution, evolutionCallCounts, policyUsage, priceUsage, unpricedModels, zeroUsage, type EstimateModels, type EvolutionPlan } from './cost-estimate.ts';

const chars = (text: string): number => text.length;
const models = (prices: EstimateModels['prices'] = { m: { inputPerMTokUsd: 2, outputPerMTokUsd: 10 } }): EstimateModels => ({
  roles: { actor: { model: 'm', maxTokens: 100 }, metaAgent: { model: 'm', maxTokens: 500 }, proposer: { model: 'p', maxTokens: 1000 } },
  prices,
});
const plan = (o: Partial<EvolutionPlan> = {}): EvolutionPlan => ({
  shape: { episodes: 3, maxSteps: 4, initialGuidingPrompt: 'Explore.', contextWindow: 100_000 },
  repeats: 1, trainTasks: 1, valTasks: 2, minibatchSize: 1, budgetMetricCalls: 10, proposer: 'llm', seedStrategy: '', ...o,
});

describe('evolution call counts', () => {
  it('B = 10, V = 2, b = 1, R = 1: seed 2, worst case 4, 2 … 3 proposals, 8 … 10 sessions', () => {
    // all accepted: 2 → 6 → 10 (2 iterations); all rejected: 2 → 4 → 6 → 8, the 4th needs 8 + 4 > 10.
    expect(evolutionCallCounts(plan())).toEqual({
      seedSessions: 2, iterationWorstCase: 4, proposals: { low: 2, high: 3 }, sessions: { low: 8, high: 10 }, budgetForThree: 14,
    });
  });

  it('repeats multiply every sweep; a minibatch larger than the training set is capped for sessions but not for the worst case', () => {
    // R = 2, V = 3, b = 2 but 1 train task: seed 6, worst (4 + 3)·2 = 14; accepted cost (2 + 3)·2 = 10:
    // starts at 6, 16, 26 (26 + 14 = 40 fits), not at 36 → 3 iterations, 36 sessions.
    const c = evolutionCallCounts(plan({ repeats: 2, valTasks: 3, minibatchSize: 2, budgetMetricCalls: 40 }));
    expect(c.seedSessions).toBe(6);
    expect(c.iterationWorstCase).toBe(14);
    expect(c.proposals.low).toBe(3);
    // rejected cost 2·1·2 = 4: starts at 6, 10, …, 26 → 6 iterations, 30 sessions;
    // failed cost 1·2 + 1 = 3: starts at 6, 9, …, 24 (27 + 14 > 40) → 7 iterations.
    expect(c.proposals.high).toBe(7);
    expect(c.sessions).toEqual({ low: 30, high: 40 });
  });

  it('a budget below the seed validation runs only the seed', () => {
    const c = evolutionCallCounts(plan({ valTasks: 5, budgetMetricCalls: 3 }));
    expect(c.proposals).toEqual({ low: 0, high: 0 });
    expect(c.sessions).toEqual({ low: 5, high: 5 });
  });
});

describe('prices', () => {
  it('prompt·input + completion·output per million tokens; unknown models cost 0 and are listed', () => {
    const usage = zeroUsage();
    usage.actor = { calls: 10, promptTokens: 1_000_000, completionTokens: 100_000 };
    usage.proposer = { calls: 1, promptTokens: 5_000, completionTokens: 1_000 };
    const point = priceUsage(usage, models());
    expect(point.costUsd).toBeCloseTo(2 + 1, 10);
    expect(point.totalTokens).toBe(1_106_000);
    expect(unpricedModels(usage, models())).toEqual(['p']);
  });
});

describe('prompt sizes', () => {
  it('the actor prompt is measured with buildActorMessages (K = 1, S = 1, a character counter)', () => {
    const s = samples('low');
    const system = `${ACTOR_PREAMBLE}\n\nFollow this guide:\nExplore.`;
    const user = `Step 1 of 1. Score: 0.\n[OBSERVATION]\n${s.observation}\n\n${REPLY_CONTRACT}`;
    const usage = actorUsage({ episodes: 1, maxSteps: 1, initialGuidingPrompt: 'Explore.', contextWindow: 8000 }, true, 7, chars, 'low');
    expect(usage).toEqual({ calls: 1, promptTokens: system.length + 4 + user.length + 4, completionTokens: 7 });
  });

  it('the meta-agent chat grows per episode; reflexion calls do not', () => {
    const shape = { episodes: 4, maxSteps: 3, initialGuidingPrompt: 'Explore.', contextWindow: 1_000_000 };
    const meta = policyUsage({ kind: 'meta', name: 'n', strategy: '' }, shape, 10, chars, 'low');
    const reflexion = policyUsage({ kind: 'reflexion' }, shape, 10, chars, 'low');
    expect(meta.calls).toBe(3);
    expect(reflexion.calls).toBe(3);
    expect(meta.promptTokens).toBeGreaterThan(2 * reflexion.promptTokens);
    expect(policyUsage({ kind: 'memory' }, shape, 10, chars, 'low').calls).toBe(6);
    expect(policyUsage({ kind: 'static' }, shape, 10, chars, 'low')).toEqual({ calls: 0, promptTokens: 0, completionTokens: 0 });
  });

  it('a small context window caps the meta-agent chat', () => {
    const big = { episodes: 6, maxSteps: 20, initialGuidingPrompt: 'Explore.', contextWindow: 1_000_000 };
    const capped = policyUsage({ kind: 'meta', name: 'n', strategy: '' }, { ...big, contextWindow: 8_000 }, 100, chars, 'low');
    expect(capped.promptTokens).toBeLessThan(policyUsage({ kind: 'meta', name: 'n', strategy: '' }, big, 100, chars, 'low').promptTokens);
    expect(capped.promptTokens).toBeLessThanOrEqual(5 * (8_000 - 100));
  });
});

describe('evolution estimate', () => {
  it('low ≤ high; the random proposer makes no proposer calls; < 3 guaranteed proposals warns', async () => {
    const count = await loadTokenCounter();
    const e = estimateEvolution(plan(), models({ m: { inputPerMTokUsd: 2, outputPerMTokUsd: 10 }, p: { inputPerMTokUsd: 1, outputPerMTokUsd: 1 } }), count);
    expect(e.low.costUsd).toBeGreaterThan(0);
    expect(e.high.costUsd).toBeGreaterThan(e.low.costUsd);
    expect(e.low.byRole.actor.calls).toBe(8 * 3 * 4);
    expect(e.high.byRole.actor.calls).toBe(10 * 3 * 4);
    expect(e.low.byRole.proposer.calls).toBe(2);
    expect(e.high.byRole.proposer.calls).toBe(3);
    expect(e.warnings.join(' ')).toContain('guarantees only 2 proposals');
    expect(e.warnings.join(' ')).toContain('A budget of 14 guarantees 3');
    const random = estimateEvolution(plan({ proposer: 'random', budgetMetricCalls: 14 }), models(), count);
    expect(random.high.byRole.proposer.calls).toBe(0);
    expect(random.warnings).toEqual([]);
    expect(random.unpricedModels).toEqual([]);
  });
});
