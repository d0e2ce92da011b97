/**
 * The evaluation service: what running a stored evaluation means, written once for every
 * composition root (the Evaluate view's driver, `metattl eval`, the page's experiment executor).
 * It stores a new evaluation's fresh state (fresh-state.ts) as its header, opens its cache
 * (evaluation-store.ts) so a resume skips the finished sessions, runs every session
 * (`runEvaluation`) and saves the state after every event (ttl/run-observers.ts: one rule, every
 * event); display observers get a copy of each event and state, not awaited. The roots keep only
 * their wiring: models, worker pool, abort signal, Web Lock, and what they show.
 */
import type { Store } from '../store/interface.ts';
import { observedRun, type RunObserver } from '../ttl/run-observers.ts';
import { runEvaluation, type EvaluationDeps, type EvaluationEvent } from './evaluation-runner.ts';
import { openEvaluationCache, saveEvaluationState } from './evaluation-store.ts';
import { freshEvaluationState } from './fresh-state.ts';
import type { EvaluationConfig, EvaluationState } from './interface.ts';

/** A display of an evaluation's progress (not awaited; a copy of the state). */
export type EvaluationObserver = RunObserver<EvaluationEvent, EvaluationState>;

export interface StoredEvaluationDeps extends Omit<EvaluationDeps, 'cache' | 'onEvent'> {
  /** Displays, called after each event's save, in order. */
  observers?: readonly EvaluationObserver[];
  /** Called once the evaluation is stored (a new one's header written) and before any session. */
  prepare?: () => Promise<void>;
}

/**
 * Start stored evaluation `id` with `config` (a new one: its fresh state is stored first), or
 * resume it (finished sessions taken from its events), to its end or a stop.
 * @returns the final state (also stored)
 * @throws whatever the store throws on a save
 */
export async function startOrResumeEvaluation(store: Store, id: string, config: EvaluationConfig, deps: StoredEvaluationDeps): Promise<EvaluationState> {
  const { observers = [], prepare, ...run } = deps;
  const now = deps.now ?? (() => new Date());
  const cache = await openEvaluationCache(store, id, () => freshEvaluationState(id, config, now()));
  await prepare?.();
  return runEvaluation(id, config, { ...run, cache, onEvent: observedRun((state: EvaluationState) => saveEvaluationState(store, state), observers) });
}
