/**
 * A session's defaults, defined once (as `llm/defaults.ts` does for the LLM settings): episodes K
 * and steps per episode S — method.md's K = 6, S = 50 for stories, 3 × 10 when every task is a web
 * task. The page's forms, the CLI's parsers and the CLI's help text all read these; evaluations
 * (`eval/run-defaults.ts`) and evolutions (`evolve/run-defaults.ts`) build on them. No imports
 * but a constant module, so `metattl --help` and the forms stay light.
 */
import { WEB_DEFAULT_EPISODES, WEB_DEFAULT_MAX_STEPS } from '../web/tasks/session-shape.ts';

/** Episodes per session K and steps per episode at most S. */
export interface SessionShape {
  readonly episodes: number;
  readonly maxSteps: number;
}

/** A story session's shape: K episodes of at most S steps (method.md). */
export const SESSION_DEFAULTS: SessionShape = { episodes: 6, maxSteps: 50 };

/** A web task session's shape (the web task sets' defaults). */
export const WEB_SESSION_DEFAULTS: SessionShape = { episodes: WEB_DEFAULT_EPISODES, maxSteps: WEB_DEFAULT_MAX_STEPS };

/** The session shape runs on these tasks default to: the web one when every task is a web task. */
export function sessionDefaults(allWeb: boolean): SessionShape {
  return allWeb ? WEB_SESSION_DEFAULTS : SESSION_DEFAULTS;
}
