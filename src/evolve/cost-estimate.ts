/**
 * The cost estimate of an evolution shown before it starts: its sessions (ttl/cost-estimate.ts)
 * times the call counts its budget allows (rules/budget.ts), plus the proposer's calls from
 * real prompt sizes (formatReflectiveDataset of a synthetic session; OPRO's scored pool). A range,
 * `low` and `high`, as for a session. Pure; no DOM.
 */
import { countChatTokens, type TokenCounter } from '../llm/token-count.ts';
import { addUsage, completionTokensOf, priceUsage, sessionUsage, textOfTokens, unpricedModels, zeroUsage, type EstimateModels, type RoleTokens, type RunEstimate, type UsageByRole } from '../ttl/cost-estimate.ts';
import { samples, syntheticSession, type Scenario, type SessionShape } from '../ttl/cost-samples.ts';
import type { ProposerMode } from './interface.ts';
import { formatReflectiveDataset } from './reflective-dataset.ts';
import { budgetRefusal, planBudget, type BudgetPlan } from './rules/budget.ts';
import { buildProposerMessages } from './rules/llm-proposer.ts';
import { buildOproMessages, OPRO_MAX_HISTORY, type Optimizer } from './rules/opro-proposer.ts';

/** One proposer call: the parent's strategy and the worst run's reflective dataset (K episode logs with the
 * meta-agent's feedback after each). OPRO's call (`optimizer: 'opro'`) shows the scored pool
 * instead: the seed alone (low), or `historyHigh` strategies of this size (high, at most 20). */
export function proposerUsage(parentStrategy: string, shape: SessionShape, models: EstimateModels, count: TokenCounter, scenario: Scenario, optimizer: Optimizer = 'gepa', historyHigh = OPRO_MAX_HISTORY): RoleTokens {
  const metaReply = scenario === 'low' ? samples('low').metaReply : textOfTokens(models.roles.metaAgent.maxTokens, count);
  const dataset = formatReflectiveDataset(syntheticSession(shape, scenario, metaReply));
  const history = Array.from({ length: scenario === 'low' ? 1 : Math.min(OPRO_MAX_HISTORY, Math.max(1, historyHigh)) }, (_, i) => ({ candidateId: `c${i}`, strategy: parentStrategy, score: 0.123 }));
  const messages = optimizer === 'opro' ? buildOproMessages(history, dataset) : buildProposerMessages(parentStrategy, dataset);
  return { calls: 1, promptTokens: countChatTokens(messages, count), completionTokens: completionTokensOf('proposer', models, scenario, count) };
}

/** What an evolution's budget allows. */
export interface EvolutionPlan {
  shape: SessionShape;
  /** Sessions per (candidate, minibatch task) and per (candidate, validation task). */
  trainRepeats: number;
  valRepeats: number;
  trainTasks: number;
  valTasks: number;
  minibatchSize: number;
  budgetMetricCalls: number;
  proposer: ProposerMode;
  /** The LLM proposer's outer loop (absent = 'gepa'). */
  optimizer?: Optimizer;
  /** Proposals per iteration, P · N (rules/proposals.ts; absent = 1). */
  proposalsPerIteration?: number;
  seedStrategy: string;
}

/** Metric calls and sessions an evolution's budget allows (rules/budget.ts). */
export type EvolutionCallCounts = BudgetPlan;

/** Call counts of an evolution (the loop starts an iteration only when its worst case fits). */
export function evolutionCallCounts(plan: EvolutionPlan): EvolutionCallCounts {
  return planBudget({
    budgetMetricCalls: plan.budgetMetricCalls, minibatchSize: plan.minibatchSize, trainTasks: plan.trainTasks, valTasks: plan.valTasks,
    trainRepeats: plan.trainRepeats, valRepeats: plan.valRepeats, ...(plan.proposalsPerIteration ? { proposalsPerIteration: plan.proposalsPerIteration } : {}),
  });
}

export interface EvolutionEstimate extends RunEstimate {
  counts: EvolutionCallCounts;
}

/** Tokens and USD of an evolution (sessions of candidate strategies + proposer calls). */
export function estimateEvolution(plan: EvolutionPlan, models: EstimateModels, count: TokenCounter): EvolutionEstimate {
  const counts = evolutionCallCounts(plan);
  const point = (scenario: Scenario): UsageByRole => {
    const strategy = scenario === 'low' || plan.seedStrategy.length > samples('high').strategy.length ? plan.seedStrategy : samples('high').strategy;
    const session = sessionUsage({ kind: 'meta', name: 'candidate', strategy }, plan.shape, models, count, scenario);
    const total = addUsage(zeroUsage(), session, counts.sessions[scenario]);
    if (plan.proposer !== 'llm') return total;
    const proposer = zeroUsage();
    proposer.proposer = proposerUsage(strategy, plan.shape, models, count, scenario, plan.optimizer ?? 'gepa', 1 + counts.proposals.high);
    return addUsage(total, proposer, counts.proposals[scenario]);
  };
  const low = point('low');
  const high = point('high');
  const warnings: string[] = [];
  const refusal = budgetRefusal(counts, plan.budgetMetricCalls);
  if (refusal) warnings.push(refusal);
  else if (counts.proposals.low < 3) {
    warnings.push(`The budget guarantees only ${counts.proposals.low} proposal${counts.proposals.low === 1 ? '' : 's'}: an iteration may need ${counts.iterationWorstCase} metric calls (2 × minibatch + validation tasks). A budget of ${counts.budgetForThree} guarantees 3.`);
  }
  return { counts, low: priceUsage(low, models), high: priceUsage(high, models), unpricedModels: unpricedModels(high, models), warnings };
}
