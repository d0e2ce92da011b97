/**
 * The evolution service: what running a stored evolution means, written once for every
 * composition root (the Evolve view's driver, `metattl evolve` and `add-candidate`, both
 * experiment executors). It stores a new run's fresh state (fresh-state.ts) as its header, opens
 * the run's cache (evolution-store.ts) so a resume replays, runs the loop (`runEvolution`, which
 * refuses a budget too small, BudgetTooSmallError) and saves the state after every event
 * (ttl/run-observers.ts: one rule, every event); display observers get a copy of each event and
 * state, not awaited. The roots keep only their wiring: models, worker pool, abort signal, stop
 * file, pause, Web Lock, and what they show.
 */
import type { Store } from '../store/interface.ts';
import { observedRun, type RunObserver } from '../ttl/run-observers.ts';
import { runEvolution, type EvolutionDeps } from './evolution-runner.ts';
import { openEvolutionCache, saveEvolutionState } from './evolution-store.ts';
import { freshEvolutionState } from './fresh-state.ts';
import type { EvolutionConfig, EvolutionEvent, EvolutionState } from './interface.ts';

/** A display of an evolution's progress (not awaited; a copy of the state). */
export type EvolutionObserver = RunObserver<EvolutionEvent, EvolutionState>;

export interface StoredEvolutionDeps extends Omit<EvolutionDeps, 'cache' | 'onEvent'> {
  /** Displays, called after each event's save, in order. */
  observers?: readonly EvolutionObserver[];
  /** Called once the run is stored (a new run's header written) and before the loop starts;
   * returns the config to run (e.g. with a person's candidate added, human-candidate.ts).
   * Absent: `config`. */
  prepare?: () => Promise<EvolutionConfig>;
}

/**
 * Start stored run `id` with `config` (a new run: its fresh state is stored first), or resume it
 * (its stored events replayed), to its end, a stop or a pause.
 * @returns the final state (also stored)
 * @throws BudgetTooSmallError before any call when the budget cannot pay for the seed's
 *   validation plus one full iteration; whatever the store throws on a save
 */
export async function startOrResumeEvolution(store: Store, id: string, config: EvolutionConfig, deps: StoredEvolutionDeps): Promise<EvolutionState> {
  const { observers = [], prepare, ...loop } = deps;
  const now = deps.now ?? (() => new Date());
  const cache = await openEvolutionCache(store, id, () => freshEvolutionState(id, config, now()));
  const runConfig = prepare ? await prepare() : config;
  return runEvolution(id, runConfig, { ...loop, cache, onEvent: observedRun((state: EvolutionState) => saveEvolutionState(store, state), observers) });
}
