/**
 * Who produced a recorded session, in words for the page: the actor's model and the model (or
 * person) that rewrote the guide between episodes, read from the record's config. The names come
 * from llm/model-label.ts (the one place for them): the mock's `scripted-test-model` reads
 * "scripted test model", `simulated` reads "simulated model", so nobody mistakes a recording for a
 * real model's play. Pure.
 */
import type { SessionConfig } from '../../../ttl/session-record.ts';
import { modelName, SCRIPTED_TEST_MODEL } from '../../../llm/model-label.ts';

export { SCRIPTED_TEST_MODEL };

/** A model id as shown: "scripted test model" for the mock, "simulated model", "(unknown model)" for ''. */
export const modelLabel = (id: string): string => modelName(id);

export interface ModelCredits {
  /** The actor's model, as shown. */
  actor: string;
  /** What rewrote the guide, e.g. "meta-agent: gpt-4o-mini", "reflection model: …", "a person
   * (human meta-agent)", "nothing (static guide)". */
  adapter: string;
}

/** The actor and the adapter of a session, as shown. */
export function creditsOf(config: Pick<SessionConfig, 'models' | 'policy'>): ModelCredits {
  const actor = modelLabel(config.models.actor.model);
  const reflection = config.models.reflection ? modelLabel(config.models.reflection.model) : null;
  switch (config.policy.kind) {
    case 'human':
      return { actor, adapter: 'a person (human meta-agent)' };
    case 'static':
      return { actor, adapter: 'nothing (static guide)' };
    case 'meta':
      return { actor, adapter: `meta-agent: ${reflection ?? '(unknown model)'}` };
    default:
      return { actor, adapter: `reflection model: ${reflection ?? '(unknown model)'}` };
  }
}

/** One line for lists: "actor scripted test model · meta-agent: scripted test model". */
export const creditsLine = (config: Pick<SessionConfig, 'models' | 'policy'>): string => {
  const c = creditsOf(config);
  return `actor ${c.actor} · ${c.adapter}`;
};
