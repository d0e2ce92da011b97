/**
 * The live booth's sessions in the page: the Settings view's provider, models and cost cap (read
 * from the page's store, as every view reads them), The Lever Room (seed 1) under the naive
 * meta-agent, K = 5 episodes of S = 15 steps, run by the same session runner as Learn with the
 * booth's sessions' usage counted together against the cap (`RunServices.prepare` `previousUsage`).
 * Nothing is saved: a booth's sessions are not the user's runs.
 */
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import type { Role } from '../../llm/interface.ts';
import { SIMULATED_PROVIDER } from '../../llm/simulated-model.ts';
import type { RoleTotals } from '../../llm/usage-meter.ts';
import { buildSession, type SessionPlan } from '../../ttl/session-setup.ts';
import { startOrResumeSession } from '../../ttl/session-service.ts';
import { usageOf, type SessionRecord } from '../../ttl/session-record.ts';
import { createBrowserLlmServices } from '../shared/state/llm-services.ts';
import { RunServices, sessionStoryOf } from '../shared/state/run-services.ts';
import { createBrowserServices } from '../shared/state/services.ts';
import { SettingsState } from '../shared/state/settings.svelte.ts';
import { StoryShelf } from '../shared/state/story-shelf.svelte.ts';
import { liveCapOf, type LiveCap, type LiveRunner } from './kiosk-live.svelte.ts';

/** What the live booth plays: a teaching game the simulated model and the mock both know. */
export const LIVE_STORY = { id: 'lever-room', seed: 1, episodes: 5, maxSteps: 15 } as const;

const ROLES: readonly Role[] = ['actor', 'metaAgent'];

/** A live booth ready to run: its cap, its runner, what a session cost, and who plays (in words). */
export interface LiveBooth {
  cap: LiveCap;
  run: LiveRunner;
  costOf: (record: SessionRecord) => number;
  /** "simulated model — not a language model" or the actor's model id. */
  model: string;
}

const sum = (a: Record<Role, RoleTotals>, b: Record<Role, RoleTotals>): Record<Role, RoleTotals> => {
  const out = structuredClone(a);
  for (const role of Object.keys(out) as Role[]) {
    for (const key of Object.keys(out[role]) as (keyof RoleTotals)[]) out[role][key] = (out[role][key] ?? 0) + (b[role][key] ?? 0);
  }
  return out;
};

/**
 * Read the Settings view's provider and cap and return the live booth, or why it cannot run live.
 * @param sessionsParam the URL's `sessions` (see `liveCapOf`)
 */
export async function openLiveBooth(sessionsParam: string | null): Promise<LiveBooth | { problem: string }> {
  const services = createBrowserServices(document, fetch.bind(globalThis));
  const llm = createBrowserLlmServices(location.origin);
  const shelf = new StoryShelf(services);
  const settings = new SettingsState(llm);
  await shelf.init();
  await settings.init(shelf.store);
  const runs = new RunServices({ shelf, settings, llm });
  const problem = runs.settingsProblem(ROLES);
  if (problem !== null) return { problem: `Live mode needs a provider: ${problem}` };
  const current = runs.llmSettings();
  const cap = liveCapOf(sessionsParam, runs.costKnownFor(ROLES.map((r) => current.roles[r].model)), current.caps.maxUsd);
  if ('problem' in cap) return cap;
  let previous: Record<Role, RoleTotals> | undefined;
  const run: LiveRunner = async (n) => {
    const ctx = await runs.prepare({ roles: ROLES, previousUsage: previous });
    try {
      const task = await ctx.resolveTask(LIVE_STORY.id, LIVE_STORY.seed);
      const plan: SessionPlan = {
        story: sessionStoryOf(task), seed: LIVE_STORY.seed, policy: { kind: 'meta', name: 'naive', strategy: '' }, episodes: LIVE_STORY.episodes,
        maxSteps: LIVE_STORY.maxSteps, initialGuidingPrompt: DEFAULT_GUIDING_PROMPT, contextWindow: (await runs.contextWindow(ctx.settings)).tokens,
      };
      const parts = buildSession(plan, ctx.settings, ctx.models, ctx.countTokens);
      // The booth keeps no live session (no store): the core's session service runs it unsaved.
      const record = await ctx.engines.with(task.id, (engine) => startOrResumeSession(null, `kiosk-live-${n}`, parts.config, { engine, actor: parts.actor, policy: parts.policy }));
      previous = previous ? sum(previous, usageOf(record)) : usageOf(record);
      return record;
    } finally {
      ctx.dispose();
    }
  };
  const costOf = (record: SessionRecord): number => Object.values(usageOf(record)).reduce((total, t) => total + t.costUsd, 0);
  const model = current.provider.presetId === SIMULATED_PROVIDER ? 'simulated model — not a language model' : current.roles.actor.model;
  return { cap, run, costOf, model };
}
