/** The cost estimate: call counts from the budget rules, prices and prompt sizes, hand-computed. */
import { describe, expect, it } from 'vitest';
import { ACTOR_PREAMBLE, REPLY_CONTRACT } from '../agents/actor-prompt.ts';
import { loadTokenCounter } from '../llm/token-count.ts';
import { REFLEXION_PROMPT } from '../ttl/policies/reflexion-policy.ts';
import { GRADIENT_PROMPT, UPDATE_PROMPT } from '../ttl/policies/textgrad-policy.ts';
import { samples } from '../ttl/cost-samples.ts';
import { actorUsage, policyUsage, priceUsage, simulatedOnly, unpricedModels, zeroUsage, type EstimateModels } from '../ttl/cost-estimate.ts';
import { estimateEvolution, evolutionCallCounts, type EvolutionPlan } from './cost-estimate.ts';

const chars = (text: string): number => text.length;
const models = (prices: EstimateModels['prices'] = { m: { inputPerMTokUsd: 2, outputPerMTokUsd: 10 } }): EstimateModels => ({
  roles: { actor: { model: 'm', maxTokens: 100 }, metaAgent: { model: 'm', maxTokens: 500 }, proposer: { model: 'p', maxTokens: 1000 } },
  prices,
});
const plan = (o: Partial<EvolutionPlan> = {}): EvolutionPlan => ({
  shape: { episodes: 3, maxSteps: 4, initialGuidingPrompt: 'Explore.', contextWindow: 100_000 },
  trainRepeats: 1, valRepeats: 1, trainTasks: 1, valTasks: 2, minibatchSize: 1, budgetMetricCalls: 10, proposer: 'llm', seedStrategy: '', ...o,
});

describe('evolution call counts', () => {
  it('B = 10, V = 2, b = 1, R = 1: seed 2, worst case 4, 2 … 3 proposals, 5 … 10 sessions', () => {
    // all accepted (4 calls, 4 sessions): starts at 2, 6 → 2 iterations, 2 + 8 sessions;
    // all rejected (2 calls, 2 sessions): starts at 2, 4, 6; 8 + 4 > 10 → 3 iterations, 2 + 6 sessions;
    // all failed (2 calls: b + 1, 1 session): 3 iterations, 2 + 3 sessions.
    expect(evolutionCallCounts(plan())).toEqual({
      seedCalls: 2, seedSessions: 2, iterationWorstCase: 4, minimumBudget: 6, canStart: true,
      proposals: { low: 2, high: 3 }, sessions: { low: 5, high: 10 }, budgetForThree: 14,
    });
  });

  it('the reference configuration (3 train, 3 validation ×5, minibatch ×1, b = 1, budget 100): 19 … 47 proposals', () => {
    // A metric call is a (candidate, task) evaluation whatever its repeats: seed 3 calls (15 sessions),
    // worst case 2 + 3 = 5. All accepted: starts at 3, 8, …, 93 → 19; all rejected (2 calls): 3, 5, …, 95 → 47.
    const c = evolutionCallCounts(plan({ trainTasks: 3, valTasks: 3, trainRepeats: 1, valRepeats: 5, budgetMetricCalls: 100 }));
    expect(c.seedCalls).toBe(3);
    expect(c.seedSessions).toBe(15);
    expect(c.iterationWorstCase).toBe(5);
    expect(c.proposals).toEqual({ low: 19, high: 47 });
    // accepted: 15 + 19 · (2 + 15) = 338 sessions; failed: 15 + 47 · 1 = 62.
    expect(c.sessions).toEqual({ low: 62, high: 338 });
  });

  it('a minibatch larger than the training set is capped everywhere', () => {
    const c = evolutionCallCounts(plan({ valTasks: 3, minibatchSize: 2, trainTasks: 1, budgetMetricCalls: 40 }));
    expect(c.iterationWorstCase).toBe(5);
  });

  it('a budget that cannot pay for the seed validation plus one iteration cannot start, and the estimate says why', async () => {
    const c = evolutionCallCounts(plan({ valTasks: 5, budgetMetricCalls: 3 }));
    expect(c.canStart).toBe(false);
    expect(c.minimumBudget).toBe(12);
    expect(c.proposals).toEqual({ low: 0, high: 0 });
    expect(c.sessions).toEqual({ low: 5, high: 5 });
    const e = estimateEvolution(plan({ valTasks: 5, budgetMetricCalls: 3 }), models(), await loadTokenCounter());
    expect(e.warnings).toEqual([expect.stringContaining('at least 12 are needed')]);
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

  it('the simulated model is never unpriced: it costs nothing; a run it alone plays is simulatedOnly', () => {
    const simulated: EstimateModels = { roles: { actor: { model: 'simulated', maxTokens: 100 }, metaAgent: { model: 'simulated', maxTokens: 500 }, proposer: { model: 'p', maxTokens: 1000 } }, prices: {} };
    const usage = zeroUsage();
    usage.actor = { calls: 10, promptTokens: 1_000, completionTokens: 100 };
    usage.metaAgent = { calls: 2, promptTokens: 500, completionTokens: 50 };
    expect(unpricedModels(usage, simulated)).toEqual([]);
    expect(priceUsage(usage, simulated).costUsd).toBe(0);
    expect(simulatedOnly(usage, simulated)).toBe(true);
    // A proposer call by a real model without a price: listed, and the run is not the simulation alone.
    usage.proposer = { calls: 1, promptTokens: 5_000, completionTokens: 1_000 };
    expect(unpricedModels(usage, simulated)).toEqual(['p']);
    expect(simulatedOnly(usage, simulated)).toBe(false);
    expect(simulatedOnly(zeroUsage(), simulated)).toBe(false);
    expect(simulatedOnly(usage, models())).toBe(false);
  });
});

describe('prompt sizes', () => {
  it('the actor prompt is measured with buildActorMessages (K = 1, S = 1, a character counter)', () => {
    const s = samples('low');
    const system = `${ACTOR_PREAMBLE}\n\nFollow this guide:\nExplore.`;
    const user = `${s.observation}\n\n${REPLY_CONTRACT}`;
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

  it('textgrad: a critique and an update call per episode, each reading the guide and the log', () => {
    const shape = { episodes: 2, maxSteps: 3, initialGuidingPrompt: 'Explore.', contextWindow: 1_000_000 };
    // One update (after episode 1); with 1 token per character and 4 per message, reflexion = R + L + 8.
    const logChars = policyUsage({ kind: 'reflexion' }, shape, 10, chars, 'low').promptTokens - REFLEXION_PROMPT.length - 8;
    const gradientUser = '<guiding_prompt>\nExplore.\n</guiding_prompt>\n\nThe attempt played with it:\n'.length + logChars;
    const updateUser = `<guiding_prompt>\nExplore.\n</guiding_prompt>\n\n<critique>\n${samples('low').summary}\n</critique>\n\nThe attempt the critique is about:\n`.length + logChars;
    expect(policyUsage({ kind: 'textgrad' }, shape, 10, chars, 'low')).toEqual({
      calls: 2, promptTokens: GRADIENT_PROMPT.length + gradientUser + UPDATE_PROMPT.length + updateUser + 16, completionTokens: 20,
    });
  });

  it('OPRO proposals show the scored pool: the seed alone (low), up to 20 strategies (high)', () => {
    const gepa = estimateEvolution(plan(), models(), chars);
    const opro = estimateEvolution(plan({ optimizer: 'opro' }), models(), chars);
    expect(opro.high.byRole.proposer.promptTokens).toBeGreaterThan(gepa.high.byRole.proposer.promptTokens);
    expect(opro.high.byRole.actor).toEqual(gepa.high.byRole.actor);
    expect(opro.low.byRole.proposer.calls).toBe(gepa.low.byRole.proposer.calls);
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
    // Sessions: 5 (every proposal fails) … 10 (every child accepted), K = 3, S = 4.
    expect(e.low.byRole.actor.calls).toBe(5 * 3 * 4);
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

describe('cached input in estimates', () => {
  it('cached prompt tokens cost the cached-input price (the input price when the row has none)', () => {
    const usage = zeroUsage();
    usage.actor = { calls: 2, promptTokens: 3_000_000, completionTokens: 1_000_000, cachedPromptTokens: 2_000_000 };
    // 1 M uncached × 2 + 2 M cached × 0.5 + 1 M out × 10 = 13 USD
    expect(priceUsage(usage, models({ m: { inputPerMTokUsd: 2, outputPerMTokUsd: 10, cachedInputPerMTokUsd: 0.5 } })).costUsd).toBeCloseTo(13, 10);
    expect(priceUsage(usage, models()).costUsd).toBeCloseTo(16, 10);
  });

  it("the low end expects an episode's later actor calls to find the preamble and a long guide cached (from 1,024 tokens, in 128s); the high end none", () => {
    const shape = { episodes: 2, maxSteps: 4, initialGuidingPrompt: 'x'.repeat(2000), contextWindow: 100_000 };
    const low = actorUsage(shape, false, 10, chars, 'low');
    // The stable prefix: the system message up to the guide, in characters here (chars counts 1 a character).
    const prefix = `${ACTOR_PREAMBLE}\n\nFollow this guide:\n${'x'.repeat(2000)}`.length;
    expect(prefix).toBeGreaterThan(1024);
    const perCall = Math.floor(prefix / 128) * 128;
    expect(low.cachedPromptTokens).toBe(2 * 3 * perCall);
    expect(actorUsage(shape, false, 10, chars, 'high').cachedPromptTokens).toBeUndefined();
    expect(actorUsage({ ...shape, initialGuidingPrompt: 'Explore.' }, false, 10, (t) => Math.ceil(t.length / 4), 'low').cachedPromptTokens).toBeUndefined();
  });
});
