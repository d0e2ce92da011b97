/**
 * The cost estimate of an evaluation before it starts: every (policy, task, repeat) session,
 * measured per policy kind with the session estimator of src/evolve/cost-estimate.ts (real prompt
 * sizes; `low` = short observations and typical replies, `high` = long ones and max replies),
 * priced with the price table (USD per million tokens). Pure; no DOM.
 */
import { addUsage, priceUsage, sessionUsage, unpricedModels, zeroUsage, type CostPoint, type EstimateModels, type RunEstimate, type SessionShape } from '../ttl/cost-estimate.ts';
import type { TokenCounter } from '../llm/token-count.ts';
import type { PolicySpec } from '../ttl/policy.ts';

export interface EvaluationPlan {
  shape: SessionShape;
  policies: readonly PolicySpec[];
  /** Tasks over all task sets (a task in two sets runs twice). */
  tasks: number;
  repeats: number;
}

export interface EvaluationEstimate extends RunEstimate {
  /** policies × tasks × repeats. */
  sessions: number;
  /** Per policy, in plan order. */
  perPolicy: { low: CostPoint; high: CostPoint }[];
}

export function estimateEvaluation(plan: EvaluationPlan, models: EstimateModels, count: TokenCounter): EvaluationEstimate {
  const per = plan.tasks * plan.repeats;
  let low = zeroUsage();
  let high = zeroUsage();
  const perPolicy = plan.policies.map((policy) => {
    const l = addUsage(zeroUsage(), sessionUsage(policy, plan.shape, models, count, 'low'), per);
    const h = addUsage(zeroUsage(), sessionUsage(policy, plan.shape, models, count, 'high'), per);
    low = addUsage(low, l);
    high = addUsage(high, h);
    return { low: priceUsage(l, models), high: priceUsage(h, models) };
  });
  return {
    sessions: plan.policies.length * per, perPolicy, low: priceUsage(low, models), high: priceUsage(high, models),
    unpricedModels: unpricedModels(high, models), warnings: plan.policies.length * per === 0 ? ['Pick at least one policy and one task.'] : [],
  };
}
