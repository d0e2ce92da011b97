/**
 * From the Learn form (or a stored session's config, for resume) to what `buildSession` and the
 * run services take: the session plan, the role settings a resumed session keeps (its recorded
 * models and temperatures, not today's Settings), and the id of a new session. Pure.
 */
import type { RoleSettings, Role } from '../../llm/interface.ts';
import type { SessionConfig, SessionRecord } from '../../ttl/session-record.ts';
import type { SessionPlan } from '../../ttl/session-setup.ts';
import type { PolicySpec } from '../../ttl/policy.ts';
import type { LearnForm } from '../shared/format/learn-form.ts';

/** The plan of a new session from the form (`contextWindow` already resolved to tokens). */
export function planOfForm(form: LearnForm, story: SessionConfig['story'], policy: PolicySpec, contextWindow: number): SessionPlan {
  return {
    story, seed: form.seed, policy, episodes: form.episodes, maxSteps: form.maxSteps,
    initialGuidingPrompt: form.guidingPrompt, contextWindow,
  };
}

/** The plan that rebuilds a stored session's actor and policy (for resume). */
export function planOfConfig(config: SessionConfig, fallbackContextWindow: number): SessionPlan {
  return {
    story: config.story, seed: config.seed, policy: config.policy, episodes: config.episodes, maxSteps: config.maxSteps,
    initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow ?? fallbackContextWindow,
  };
}

/** The role settings a resumed session keeps (actor; meta-agent when it reflected). */
export function roleOverridesOf(config: SessionConfig): Partial<Record<Role, RoleSettings>> {
  return config.models.reflection ? { actor: config.models.actor, metaAgent: config.models.reflection } : { actor: config.models.actor };
}

/** Roles a policy calls (their model must be set). */
export const rolesFor = (policy: PolicySpec): Role[] => (['reflexion', 'memory', 'textgrad', 'meta'].includes(policy.kind) ? ['actor', 'metaAgent'] : ['actor']);

/** A new session id: "learn-<time>-<random>" (sortable, unique per page). */
export function newSessionId(nowMs: number, random: () => number = Math.random): string {
  return `learn-${nowMs.toString(36)}-${Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0')}`;
}

/** The first episode of a record that has not ended (the one running or to resume), or null. */
export function openEpisodeOf(config: SessionConfig, episodes: readonly { index: number; trajectory: unknown }[]): number | null {
  const open = episodes.find((e) => e.trajectory === null);
  if (open) return open.index;
  const ended = episodes.length;
  return ended < config.episodes ? ended + 1 : null;
}

/** The download name of a session export: "session-<story slug>-<id>.json". */
export const exportFileName = (record: SessionRecord): string =>
  `session-${record.config.story.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'story'}-${record.id}.json`;
