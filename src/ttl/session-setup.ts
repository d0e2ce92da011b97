/**
 * Building a session's parts in one place (used by the page and the CLI alike): the frozen
 * config record (no key), the actor, and the adaptation policy. Baselines reflect with the
 * meta-agent's model by default so that every arm that reflects uses the same model
 * (method.md, "Where we do better").
 */
import { Actor } from '../agents/actor.ts';
import { metaPromptOf, textHash } from '../agents/meta-prompt.ts';
import type { ChatModel, LlmSettings, Role } from '../llm/interface.ts';
import type { TokenCounter } from '../llm/token-count.ts';
import type { AdaptationPolicy, PolicySpec } from './policy.ts';
import type { AskHuman } from './policies/human-policy.ts';
import { createPolicy } from './policies/index.ts';
import type { SessionConfig } from './session-record.ts';
import { ZMACHINE_TEXTS, type TaskDescriptor } from '../agents/kind-texts.ts';
import type { EnvironmentKind, EnvironmentTexts } from '../web/interface.ts';
import { WEB_TEXTS } from '../web/texts.ts';

/** The texts of a kind of environment (what its actor preamble, reply contract and log header say). */
export function textsOfKind(kind: EnvironmentKind): EnvironmentTexts {
  return kind === 'web' ? WEB_TEXTS : ZMACHINE_TEXTS;
}

export interface SessionPlan {
  story: SessionConfig['story'];
  seed: number;
  policy: PolicySpec;
  /** K episodes (method.md default 6) of at most S steps (default 50). */
  episodes: number;
  maxSteps: number;
  initialGuidingPrompt: string;
  /** Context window of the meta-agent / reflection model, tokens. */
  contextWindow: number;
  /** The task played (a web task's kind sets the meta-prompt's header); absent = a Z-machine story. */
  task?: TaskDescriptor;
}

export interface SessionParts {
  config: SessionConfig;
  actor: Actor;
  policy: AdaptationPolicy;
}

/** @throws RangeError for K or S below 1 */
export function buildSession(
  plan: SessionPlan, settings: LlmSettings, models: Record<Role, ChatModel>, countTokens: TokenCounter, askHuman?: AskHuman,
): SessionParts {
  if (!(plan.episodes >= 1) || !(plan.maxSteps >= 1)) throw new RangeError(`K and S must be ≥ 1 (got K=${plan.episodes}, S=${plan.maxSteps})`);
  const logHeader = textsOfKind(plan.task?.kind ?? 'zmachine').logHeader;
  const metaPromptText = plan.policy.kind === 'meta' ? metaPromptOf(plan.policy, logHeader) : null;
  const reflects = plan.policy.kind !== 'static' && plan.policy.kind !== 'human';
  const config: SessionConfig = {
    story: plan.story, ...(plan.task ? { task: plan.task } : {}), seed: plan.seed, policy: plan.policy,
    metaPrompt: metaPromptText === null ? null : { text: metaPromptText, hash: textHash(metaPromptText) },
    episodes: plan.episodes, maxSteps: plan.maxSteps, initialGuidingPrompt: plan.initialGuidingPrompt,
    models: { actor: { ...settings.roles.actor }, reflection: reflects ? { ...settings.roles.metaAgent } : null },
    provider: { presetId: settings.provider.presetId, baseUrl: settings.provider.baseUrl },
    contextWindow: reflects ? plan.contextWindow : null,
    ...(models.actor.replyGrammar === undefined ? {} : { replyGrammar: models.actor.replyGrammar }),
  };
  const policy = createPolicy(plan.policy, { reflectionModel: models.metaAgent, countTokens, contextWindow: plan.contextWindow, askHuman, logHeader });
  return { config, actor: new Actor(models.actor), policy };
}
