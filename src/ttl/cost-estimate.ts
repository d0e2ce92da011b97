/**
 * The cost estimate of one session shown before a run starts, from real prompt sizes: the actor's
 * messages (buildActorMessages with a typical observation and its 5-turn history), the meta-agent's
 * growing chat (formatEpisodeLog of synthetic episodes, fitted to the context window by fitChat as a
 * session does) and the baselines' reflection calls. Tokens come from the injected counter, USD
 * from the price table (USD per million tokens). A range: `low` = short observations and typical
 * replies, `high` = long observations and every reply at its role's max tokens. Evaluations and
 * evolutions add up sessions (eval/cost-estimate.ts, evolve/cost-estimate.ts). Pure; no DOM.
 */
import { buildActorMessages, DEFAULT_HISTORY_LENGTH } from '../agents/actor-prompt.ts';
import { formatEpisodeLog } from '../agents/episode-log.ts';
import { metaPromptOf } from '../agents/meta-prompt.ts';
import type { ChatMessage, LlmSettings, Role, RoleSettings } from '../llm/interface.ts';
import { SIMULATED_MODEL } from '../llm/model-label.ts';
import { countChatTokens, type TokenCounter } from '../llm/token-count.ts';
import { fitChat, type ChatTurn } from './chat-budget.ts';
import { REWRITE_PROMPT, SUMMARY_PROMPT } from './policies/memory-policy.ts';
import { REFLEXION_PROMPT } from './policies/reflexion-policy.ts';
import { GRADIENT_PROMPT, gradientMessage, UPDATE_PROMPT, updateMessage } from './policies/textgrad-policy.ts';
import type { PolicySpec } from './policy.ts';
import { samples, syntheticTrajectory, type Scenario, type SessionShape } from './cost-samples.ts';

export type { Scenario, SessionShape } from './cost-samples.ts';

/** Calls and tokens of one role. */
export interface RoleTokens {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens expected from the provider's prompt cache (part of promptTokens, priced at the
   * cached-input price); absent = none. */
  cachedPromptTokens?: number;
}

export type UsageByRole = Record<Role, RoleTokens>;

/** One end of a range: tokens by role, their total and their price in USD (models missing from
 * the price table count 0 and are listed in `unpricedModels`). */
export interface CostPoint {
  byRole: UsageByRole;
  totalTokens: number;
  costUsd: number;
}

/** The role models (with their max tokens) and the price table, from the Settings view. */
export interface EstimateModels {
  roles: Record<Role, Pick<RoleSettings, 'model' | 'maxTokens'>>;
  prices: LlmSettings['prices'];
}

const zeroRole = (): RoleTokens => ({ calls: 0, promptTokens: 0, completionTokens: 0 });
export const zeroUsage = (): UsageByRole => ({ actor: zeroRole(), metaAgent: zeroRole(), proposer: zeroRole() });
const ROLE_KEYS: readonly Role[] = ['actor', 'metaAgent', 'proposer'];

/** `a + k·b`, role by role. */
export function addUsage(a: UsageByRole, b: UsageByRole, k = 1): UsageByRole {
  const out = zeroUsage();
  for (const role of ROLE_KEYS) {
    const cached = (a[role].cachedPromptTokens ?? 0) + k * (b[role].cachedPromptTokens ?? 0);
    out[role] = {
      calls: a[role].calls + k * b[role].calls, promptTokens: a[role].promptTokens + k * b[role].promptTokens, completionTokens: a[role].completionTokens + k * b[role].completionTokens,
      ...(cached > 0 ? { cachedPromptTokens: cached } : {}),
    };
  }
  return out;
}

/** Price usage: Σ (promptTokens − cached)·input + cached·cached-input (the input price when the
 * row has none) + completionTokens·output over roles, / 1e6 (as UsageMeter.costUsd prices calls). */
export function priceUsage(usage: UsageByRole, models: EstimateModels): CostPoint {
  let costUsd = 0;
  let totalTokens = 0;
  for (const role of ROLE_KEYS) {
    const u = usage[role];
    totalTokens += u.promptTokens + u.completionTokens;
    const price = models.prices[models.roles[role].model];
    const cached = Math.min(u.cachedPromptTokens ?? 0, u.promptTokens);
    if (price) costUsd += ((u.promptTokens - cached) * price.inputPerMTokUsd + cached * (price.cachedInputPerMTokUsd ?? price.inputPerMTokUsd) + u.completionTokens * price.outputPerMTokUsd) / 1e6;
  }
  return { byRole: usage, totalTokens, costUsd };
}

/** Models of roles that make calls but are missing from the price table. The simulated model
 * (llm/model-label.ts) is never among them: it costs nothing, with or without a price. */
export function unpricedModels(usage: UsageByRole, models: EstimateModels): string[] {
  return [...new Set(ROLE_KEYS.filter((r) => usage[r].calls > 0).map((r) => models.roles[r].model).filter((m) => m !== SIMULATED_MODEL && !(m in models.prices)))];
}

/** True when every role that makes calls is the simulated model (and some role does): the run
 * costs nothing, and a real model's token counts do not apply to it. */
export function simulatedOnly(usage: UsageByRole, models: EstimateModels): boolean {
  const calling = ROLE_KEYS.filter((r) => usage[r].calls > 0);
  return calling.length > 0 && calling.every((r) => models.roles[r].model === SIMULATED_MODEL);
}

/** A text of about `tokens` tokens (the sample proposer reply repeated), for max-length replies. */
export function textOfTokens(tokens: number, count: TokenCounter): string {
  const unit = `${samples('low').proposerReply}\n`;
  const perUnit = Math.max(1, count(unit));
  return unit.repeat(Math.max(1, Math.ceil(tokens / perUnit)));
}

/** Completion tokens per call: typical (low, at most the role's max) or the role's max (high). */
export function completionTokensOf(role: Role, models: EstimateModels, scenario: Scenario, count: TokenCounter): number {
  const max = models.roles[role].maxTokens;
  if (scenario === 'high') return max;
  const s = samples('low');
  return Math.min(max, count(role === 'actor' ? s.actorReply : role === 'metaAgent' ? s.metaReply : s.proposerReply));
}

/** OpenAI's prompt caching: prefixes from 1,024 tokens, in steps of 128. */
export const PROMPT_CACHE_MIN_TOKENS = 1024;
export const PROMPT_CACHE_STEP_TOKENS = 128;

/** Tokens a provider caching prompt prefixes serves from its cache for a repeated prefix of `prefixTokens`. */
export function cacheableTokens(prefixTokens: number): number {
  return prefixTokens < PROMPT_CACHE_MIN_TOKENS ? 0 : Math.floor(prefixTokens / PROMPT_CACHE_STEP_TOKENS) * PROMPT_CACHE_STEP_TOKENS;
}

/** The actor's K·S calls: episode 1 follows the initial guide, later ones a learned guide (the
 * initial one again when nothing learns). Prompts are measured at step S (widest step numbers).
 * `low` expects every call after an episode's first to find the stable prefix (the preamble and
 * the guide, when long enough to be cached: cacheableTokens) in the provider's cache; `high`
 * expects no cache. */
export function actorUsage(shape: SessionShape, learns: boolean, completionTokens: number, count: TokenCounter, scenario: Scenario): RoleTokens {
  const s = samples(scenario);
  const turn = { observation: s.observation, reply: s.actorReply };
  const episodeTokens = (guidingPrompt: string): number => {
    let total = 0;
    // Steps 1 … 5 have 0 … 4 earlier turns; every later step has the full 5-turn history.
    for (let h = 0; h <= DEFAULT_HISTORY_LENGTH && h < shape.maxSteps; h++) {
      const steps = h < DEFAULT_HISTORY_LENGTH ? 1 : shape.maxSteps - DEFAULT_HISTORY_LENGTH;
      const history = Array.from({ length: h }, () => turn);
      total += steps * countChatTokens(buildActorMessages({ guidingPrompt, history, observation: s.observation }), count);
    }
    return total;
  };
  const cachedPerEpisode = (guidingPrompt: string): number => {
    if (scenario === 'high') return 0;
    const prefix = buildActorMessages({ guidingPrompt, history: [], observation: '' }).slice(0, 1);
    return (shape.maxSteps - 1) * cacheableTokens(countChatTokens(prefix, count) - 1);
  };
  const laterGuide = learns ? s.learnedGuide : shape.initialGuidingPrompt;
  const first = episodeTokens(shape.initialGuidingPrompt);
  const later = shape.episodes > 1 ? episodeTokens(laterGuide) : 0;
  const calls = shape.episodes * shape.maxSteps;
  const cached = cachedPerEpisode(shape.initialGuidingPrompt) + (shape.episodes > 1 ? (shape.episodes - 1) * cachedPerEpisode(laterGuide) : 0);
  return { calls, promptTokens: first + (shape.episodes - 1) * later, completionTokens: calls * completionTokens, ...(cached > 0 ? { cachedPromptTokens: cached } : {}) };
}

/** The policy's calls after episodes 1 … K−1 (reflexion 1 each, memory and textgrad 2 each, meta-agent 1 each
 * with its growing chat fitted to the context window; static and human none). */
export function policyUsage(policy: PolicySpec, shape: SessionShape, completionTokens: number, count: TokenCounter, scenario: Scenario): RoleTokens {
  if (policy.kind === 'static' || policy.kind === 'human') return zeroRole();
  const s = samples(scenario);
  const calls = Math.max(0, shape.episodes - 1);
  const log = (e: number) => formatEpisodeLog(e, syntheticTrajectory(e === 1 ? shape.initialGuidingPrompt : s.learnedGuide, shape, scenario));
  const chat = (system: string, user: string): ChatMessage[] => [{ role: 'system', content: system }, { role: 'user', content: user }];
  let promptTokens = 0;
  if (policy.kind === 'reflexion') {
    for (let e = 1; e <= calls; e++) promptTokens += countChatTokens(chat(REFLEXION_PROMPT, log(e)), count);
    return { calls, promptTokens, completionTokens: calls * completionTokens };
  }
  if (policy.kind === 'memory') {
    const summaries: string[] = [];
    for (let e = 1; e <= calls; e++) {
      promptTokens += countChatTokens(chat(SUMMARY_PROMPT, log(e)), count);
      summaries.push(`Attempt ${e}: ${s.summary}`);
      promptTokens += countChatTokens(chat(REWRITE_PROMPT, `${summaries.join('\n\n')}\n\nThe guide used in attempt ${e}:\n${s.learnedGuide}`), count);
    }
    return { calls: 2 * calls, promptTokens, completionTokens: 2 * calls * completionTokens };
  }
  if (policy.kind === 'textgrad') {
    // The critique stands in as a summary-sized text; both calls read the guide and the log.
    for (let e = 1; e <= calls; e++) {
      const guide = e === 1 ? shape.initialGuidingPrompt : s.learnedGuide;
      promptTokens += countChatTokens(chat(GRADIENT_PROMPT, gradientMessage(guide, log(e))), count);
      promptTokens += countChatTokens(chat(UPDATE_PROMPT, updateMessage(guide, s.summary, log(e))), count);
    }
    return { calls: 2 * calls, promptTokens, completionTokens: 2 * calls * completionTokens };
  }
  const system = metaPromptOf(policy);
  const reply = scenario === 'low' ? s.metaReply : textOfTokens(completionTokens, count);
  const turns: ChatTurn[] = [];
  for (let e = 1; e <= calls; e++) {
    const fitted = fitChat(system, turns, log(e), { count, contextWindow: shape.contextWindow, replyReserve: completionTokens });
    promptTokens += countChatTokens(fitted.messages, count);
    turns.push({ episode: e, userMessage: fitted.userMessage, reply });
  }
  return { calls, promptTokens, completionTokens: calls * completionTokens };
}

/** One session of `policy`; the policy's calls count as metaAgent (as usageOf does). */
export function sessionUsage(policy: PolicySpec, shape: SessionShape, models: EstimateModels, count: TokenCounter, scenario: Scenario): UsageByRole {
  const usage = zeroUsage();
  usage.actor = actorUsage(shape, policy.kind !== 'static', completionTokensOf('actor', models, scenario, count), count, scenario);
  usage.metaAgent = policyUsage(policy, shape, completionTokensOf('metaAgent', models, scenario, count), count, scenario);
  return usage;
}

export interface RunEstimate {
  low: CostPoint;
  high: CostPoint;
  unpricedModels: string[];
  warnings: string[];
}
