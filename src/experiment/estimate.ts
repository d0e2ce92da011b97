/**
 * What an experiment will cost before any call: per step the metric calls, sessions, LLM calls,
 * tokens and USD (a low … high range, from the evolution and evaluation estimators of
 * src/evolve/cost-estimate.ts and src/eval/cost-estimate.ts), their totals, and one session's
 * tokens beside the paper's (v4: about 364K tokens per 6-episode Jericho session for Meta-TTL,
 * 196K for static). Pure; the token counter and prices are injected. No UI or DOM imports.
 */
import { estimateEvaluation } from '../eval/cost-estimate.ts';
import { estimateEvolution } from '../evolve/cost-estimate.ts';
import { priceUsage, sessionUsage, unpricedModels, zeroUsage, type CostPoint, type EstimateModels } from '../ttl/cost-estimate.ts';
import { recallMessages } from '../eval/recall-probe.ts';
import { SIMULATED_MODEL } from '../llm/model-label.ts';
import { countChatTokens } from '../llm/token-count.ts';
import type { TokenCounter } from '../llm/token-count.ts';
import type { PolicySpec } from '../ttl/policy.ts';
import type { ExperimentPlan, RecallProbeStep } from './interface.ts';

/** The paper's token counts per session (Lou et al. 2026, v4), K = 6 Jericho episodes. */
export const PAPER_SESSION_TOKENS = { episodes: 6, metaTtl: 364_000, static: 196_000 } as const;

export interface Range {
  low: number;
  high: number;
}

export interface StepEstimate {
  step: string;
  kind: 'evolution' | 'evaluation' | 'recall-probe';
  /** An evolution's budget (it never spends more); an evaluation's sessions (one metric each); 0 for the recall probe (no session). */
  metricCalls: number;
  sessions: Range;
  llmCalls: Range;
  tokens: Range;
  /** USD; null when a model the step calls has no known price at this provider (then listed in
   * `unpricedModels`): no invented cost. */
  costUsd: Range | null;
  warnings: string[];
}

export interface ExperimentEstimate {
  steps: StepEstimate[];
  total: Omit<StepEstimate, 'step' | 'kind' | 'warnings'>;
  /** One session's tokens at this experiment's K and S, beside the paper's. */
  perSessionTokens: { metaTtl: Range; static: Range; paper: typeof PAPER_SESSION_TOKENS };
  unpricedModels: string[];
}

const calls = (p: CostPoint) => p.byRole.actor.calls + p.byRole.metaAgent.calls + p.byRole.proposer.calls;
const range = (low: number, high: number): Range => ({ low, high });
/** A sample evolved strategy for arms whose strategy is not known before the run. */
const EVOLVED_SAMPLE: PolicySpec = { kind: 'meta', name: 'evolved', strategy: 'Keep a list of the rooms, objects and actions that scored; replay the scoring route first, then explore the unexplored exits.' };

function policyOf(arm: { policy?: string; evolutionStep?: string }): PolicySpec {
  if (arm.evolutionStep || !arm.policy) return EVOLVED_SAMPLE;
  if (arm.policy === 'static' || arm.policy === 'reflexion' || arm.policy === 'memory') return { kind: arm.policy } as PolicySpec;
  return { kind: 'meta', name: arm.policy, strategy: '' };
}

/** A recall reply's tokens: one command (low) or a short sentence around it (high). */
const RECALL_REPLY_TOKENS = { low: 4, high: 24 } as const;

/**
 * The recall probe's calls and tokens: 2 questions (recall, control) per position; positions per
 * game min(probes, walkthrough − k) when the spec gives the walkthrough, else 1 … probes (the
 * walkthroughs are read at run time); each question's prompt counted on k sample commands.
 */
function estimateRecall(step: RecallProbeStep, walkthroughs: Record<string, string[]> | undefined, models: EstimateModels, count: TokenCounter): { low: CostPoint; high: CostPoint; unpriced: string[] } {
  const { k, probes } = step.options;
  const positions = (scenario: 'low' | 'high') => step.games.reduce((n, g) => {
    const known = walkthroughs?.[g]?.length;
    return n + (known !== undefined ? Math.max(0, Math.min(probes, known - k)) : scenario === 'low' ? 1 : probes);
  }, 0);
  const prompt = countChatTokens(recallMessages('A text adventure', Array.from({ length: k }, () => 'take the brass lantern')), count);
  const point = (scenario: 'low' | 'high') => {
    const calls = 2 * positions(scenario);
    const usage = zeroUsage();
    usage.actor = { calls, promptTokens: calls * prompt, completionTokens: calls * RECALL_REPLY_TOKENS[scenario] };
    return priceUsage(usage, models);
  };
  const low = point('low');
  return { low, high: point('high'), unpriced: unpricedModels(low.byRole, models) };
}

/** Estimate every step of `plan`; `modelsOf(i)` gives model set i's roles and prices. */
export function estimateExperiment(plan: ExperimentPlan, modelsOf: (modelSet: number) => EstimateModels, count: TokenCounter, contextWindow: number): ExperimentEstimate {
  const { spec } = plan;
  const shape = { episodes: spec.episodes, maxSteps: spec.steps, initialGuidingPrompt: 'Explore systematically.', contextWindow };
  const unpriced = new Set<string>();
  const steps: StepEstimate[] = plan.steps.map((step) => {
    const models = modelsOf(step.modelSet);
    if (step.kind === 'evolution') {
      const e = estimateEvolution({ shape, trainRepeats: step.evolution.trainRepeats, valRepeats: step.evolution.valRepeats, trainTasks: step.train.length, valTasks: step.val.length, minibatchSize: step.evolution.minibatch, budgetMetricCalls: step.evolution.budget, proposer: step.evolution.proposer, ...(step.evolution.optimizer ? { optimizer: step.evolution.optimizer } : {}), seedStrategy: '' }, models, count);
      e.unpricedModels.forEach((m) => unpriced.add(m));
      return { step: step.id, kind: 'evolution', metricCalls: step.evolution.budget, sessions: range(e.counts.sessions.low, e.counts.sessions.high), llmCalls: range(calls(e.low), calls(e.high)), tokens: range(e.low.totalTokens, e.high.totalTokens), costUsd: e.unpricedModels.length ? null : range(e.low.costUsd, e.high.costUsd), warnings: e.warnings };
    }
    if (step.kind === 'recall-probe') {
      const r = estimateRecall(step, spec.recallProbe?.walkthroughs, models, count);
      r.unpriced.forEach((m) => unpriced.add(m));
      return { step: step.id, kind: 'recall-probe', metricCalls: 0, sessions: range(0, 0), llmCalls: range(calls(r.low), calls(r.high)), tokens: range(r.low.totalTokens, r.high.totalTokens), costUsd: r.unpriced.length ? null : range(r.low.costUsd, r.high.costUsd), warnings: [] };
    }
    const e = estimateEvaluation({ shape, policies: step.arms.map(policyOf), tasks: step.tasks.length, repeats: step.repeats }, models, count);
    e.unpricedModels.forEach((m) => unpriced.add(m));
    return { step: step.id, kind: 'evaluation', metricCalls: e.sessions, sessions: range(e.sessions, e.sessions), llmCalls: range(calls(e.low), calls(e.high)), tokens: range(e.low.totalTokens, e.high.totalTokens), costUsd: e.unpricedModels.length ? null : range(e.low.costUsd, e.high.costUsd), warnings: e.warnings };
  });
  const sum = (pick: (s: StepEstimate) => Range): Range => steps.reduce((t, s) => range(t.low + pick(s).low, t.high + pick(s).high), range(0, 0));
  const models = modelsOf(0);
  const session = (policy: PolicySpec): Range => {
    const tokens = (scenario: 'low' | 'high') => { const u = sessionUsage(policy, shape, models, count, scenario); return u.actor.promptTokens + u.actor.completionTokens + u.metaAgent.promptTokens + u.metaAgent.completionTokens; };
    return range(tokens('low'), tokens('high'));
  };
  return {
    steps, total: { metricCalls: steps.reduce((n, s) => n + s.metricCalls, 0), sessions: sum((s) => s.sessions), llmCalls: sum((s) => s.llmCalls), tokens: sum((s) => s.tokens), costUsd: steps.some((s) => s.costUsd === null) ? null : sum((s) => s.costUsd!) },
    perSessionTokens: { metaTtl: session(EVOLVED_SAMPLE), static: session({ kind: 'static' } as PolicySpec), paper: PAPER_SESSION_TOKENS }, unpricedModels: [...unpriced],
  };
}

/** One model the plan's estimate priced: its roles and its price (USD per million tokens), or null when the provider's list has none. */
export interface PriceUsed {
  model: string;
  /** 'actor', 'meta-agent', 'proposer': the roles it plays in any model set. */
  roles: string[];
  price: { inputPerMTokUsd: number; outputPerMTokUsd: number; cachedInputPerMTokUsd?: number } | null;
}

/**
 * The models of every model set of `spec` (at least one), each once, with the roles it plays and
 * the price the estimate used (`modelsOf(i)` as given to estimateExperiment). Both the CLI's
 * `experiment plan` and the page's plan name them beside the cost range.
 */
export function pricesOfPlan(spec: Pick<ExperimentPlan['spec'], 'models'>, modelsOf: (modelSet: number) => EstimateModels): PriceUsed[] {
  const byModel = new Map<string, PriceUsed>();
  const names = { actor: 'actor', metaAgent: 'meta-agent', proposer: 'proposer' } as const;
  for (let i = 0; i < Math.max(1, spec.models.length); i++) {
    const { roles, prices } = modelsOf(i);
    for (const role of ['actor', 'metaAgent', 'proposer'] as const) {
      const model = roles[role].model;
      const entry = byModel.get(model) ?? { model, roles: [], price: prices[model] ? { ...prices[model] } : null };
      if (!entry.roles.includes(names[role])) entry.roles.push(names[role]);
      byModel.set(model, entry);
    }
  }
  return [...byModel.values()];
}

/** "gpt-4o-mini $0.15/$0.60 per M tokens in/out (cached in $0.075) (actor, meta-agent, proposer)",
 * one clause per model joined by "; "; "no price" for an unpriced one, "free" for the simulated
 * model (it costs nothing). */
export function pricesText(list: readonly PriceUsed[]): string {
  // Two decimals unless that would round the price (gpt-5's cached input: $0.125).
  const usd = (n: number) => `$${Number(n.toFixed(2)) === n ? n.toFixed(2) : String(Number(n.toPrecision(3)))}`;
  return list.map((p) => `${p.model} ${p.price ? `${usd(p.price.inputPerMTokUsd)}/${usd(p.price.outputPerMTokUsd)} per M tokens in/out${p.price.cachedInputPerMTokUsd === undefined ? '' : ` (cached in ${usd(p.price.cachedInputPerMTokUsd)})`}` : p.model === SIMULATED_MODEL ? 'free' : 'no price'} (${p.roles.join(', ')})`).join('; ');
}
