/**
 * The cost estimate of one Learn session before it starts (shown in every mode, up front in
 * workshop mode): the session estimator of src/evolve/cost-estimate.ts — real prompt sizes from
 * the actor's and the policy's prompt builders, `low` = short observations and typical replies,
 * `high` = long ones and every reply at its role's max tokens — priced with the Settings' price
 * table (USD per million tokens). Pure.
 */
import { priceUsage, sessionUsage, simulatedOnly, unpricedModels, type CostPoint, type EstimateModels } from '../../ttl/cost-estimate.ts';
import type { TokenCounter } from '../../llm/token-count.ts';
import type { PolicySpec } from '../../ttl/policy.ts';
import type { RoomAllowance } from '../shared/room/room-allowance.ts';

export interface SessionEstimate {
  low: CostPoint;
  high: CostPoint;
  /** Calls per role (the same at both ends) and the models making them. */
  actorCalls: number;
  policyCalls: number;
  actorModel: string;
  policyModel: string;
  /** Models that make calls but have no price (counted as $0; never the simulated model). */
  unpricedModels: string[];
  /** Every model making calls is the simulated model: free, and the token range (a real model's
   * prompts and replies) does not apply. */
  simulated: boolean;
}

export interface SessionShapeInput {
  episodes: number;
  maxSteps: number;
  guidingPrompt: string;
  /** Context window of the meta-agent / reflection model, tokens. */
  contextWindow: number;
}

/** Tokens and USD of one session of `policy`. */
export function estimateSession(policy: PolicySpec, shape: SessionShapeInput, models: EstimateModels, count: TokenCounter): SessionEstimate {
  const sessionShape = { episodes: shape.episodes, maxSteps: shape.maxSteps, initialGuidingPrompt: shape.guidingPrompt, contextWindow: shape.contextWindow };
  const low = sessionUsage(policy, sessionShape, models, count, 'low');
  const high = sessionUsage(policy, sessionShape, models, count, 'high');
  return {
    low: priceUsage(low, models), high: priceUsage(high, models), actorCalls: high.actor.calls, policyCalls: high.metaAgent.calls,
    actorModel: models.roles.actor.model, policyModel: models.roles.metaAgent.model,
    unpricedModels: unpricedModels(high, models), simulated: simulatedOnly(high, models),
  };
}

/** USD with 2 decimals, or 4 below a cent ("$0.0042"). */
export const formatUsd = (usd: number): string => `$${usd !== 0 && Math.abs(usd) < 0.01 ? usd.toFixed(4) : usd.toFixed(2)}`;

/** One formatter for every call: making an Intl.NumberFormat costs far more than formatting. */
const GROUPED = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** Tokens rounded for reading ("12,300", "1.2M"). */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)}M`;
  return GROUPED.format(Math.round(tokens / 100) * 100);
}

/**
 * A warning when the session about to start may not fit in what the room still allows (its high
 * estimate is over the tokens left, or it makes more calls than are left), null when it fits, when
 * there is no estimate yet, or no allowance (not in a room). A warning only: Start stays offered.
 * "This session needs about 30,200–107,400 tokens; you have 2,663 left. Fewer episodes or steps, or ask the teacher."
 */
export function roomFitText(estimate: SessionEstimate | null, left: RoomAllowance | null): string | null {
  if (estimate === null || left === null) return null;
  const calls = estimate.actorCalls + estimate.policyCalls;
  const problems: string[] = [];
  if (left.tokens !== null && estimate.high.totalTokens > left.tokens) {
    problems.push(`needs about ${formatTokens(estimate.low.totalTokens)}–${formatTokens(estimate.high.totalTokens)} tokens; you have ${GROUPED.format(left.tokens)} left`);
  }
  if (left.calls !== null && calls > left.calls) problems.push(`makes up to ${GROUPED.format(calls)} model calls; you have ${GROUPED.format(left.calls)} left`);
  if (problems.length === 0) return null;
  return `This session ${problems.join(', and ')}. Fewer episodes or steps, or ask the teacher.`;
}
