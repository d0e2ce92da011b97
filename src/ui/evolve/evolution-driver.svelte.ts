/**
 * Running an evolution in the page (method.md, "Outer loop"): `runEvolution` with sessions through
 * `evaluateSession` on the shared run services (worker engines per task, the Settings' models and
 * caps); the state is saved with `saveEvolutionState` after every event, and every metric call and
 * proposal is cached, so a run stopped, reloaded or crashed resumes by replay to the same final
 * state. Locks, read-only watching and meters: run-driver.svelte.ts.
 */
import { runEvolution } from '../../evolve/evolution-runner.ts';
import { loadEvolutionState, openEvolutionCache, saveEvolutionState } from '../../evolve/evolution-store.ts';
import { cacheEventProblem, readEvolutionRun, recordedUsage } from '../../evolve/evolution-io.ts';
import type { EvolutionConfig, EvolutionState } from '../../evolve/interface.ts';
import type { Role } from '../../llm/interface.ts';
import { evaluateSession } from '../../ttl/session-evaluator.ts';
import type { Schedule } from '../shared/stores/retry-countdown.svelte.ts';
import type { RunServices } from '../shared/stores/run-services.ts';
import { dateAt } from '../shared/stores/services.ts';
import { RunDriver } from '../shared/stores/run-driver.svelte.ts';

export { type DriverMode } from '../shared/stores/run-driver.svelte.ts';

/** The state of a new run (the cache's first header). */
export function initialEvolutionState(id: string, config: EvolutionConfig, now: Date): EvolutionState {
  return {
    format: 'metattl-evolution-1', id, config, status: 'running', stopReason: null, stopMessage: null, candidates: [], metricCalls: [],
    metricCallsUsed: 0, failedProposals: 0, fronts: {}, iteration: 0, rngState: config.rngSeed >>> 0, best: { byMean: null, byZScore: null },
    progress: [], startedAt: now.toISOString(), finishedAt: null,
  };
}

export class EvolutionDriver extends RunDriver<EvolutionState, EvolutionConfig> {
  protected readonly noun = 'evolution run';
  protected readonly kind = 'evolution';
  protected readonly validateRecord = cacheEventProblem;

  constructor(
    runs: RunServices,
    schedule: Schedule,
    private readonly now: () => Date = () => dateAt(Date.now()),
  ) {
    super(runs, schedule);
  }

  protected load(id: string): Promise<EvolutionState | undefined> {
    return loadEvolutionState(this.runs.store, id);
  }

  protected async drive(id: string, config: EvolutionConfig, signal: AbortSignal): Promise<EvolutionState> {
    const existing = await readEvolutionRun(this.runs.store, id);
    const roles: Role[] = config.proposer === 'llm' ? ['actor', 'metaAgent', 'proposer'] : ['actor', 'metaAgent'];
    const { ctx, done } = await this.prepareRun(roles, existing ? recordedUsage(existing.events) : undefined);
    try {
      const cache = await openEvolutionCache(ctx.store, id, () => initialEvolutionState(id, config, this.now()));
      if (!existing) this.state = (await loadEvolutionState(ctx.store, id)) ?? null;
      this.started();
      const options = this.sessionOptions(ctx, config);
      return await runEvolution(id, config, {
        proposer: config.proposer === 'llm' ? ctx.models.proposer : null, cache, signal, now: this.now, faultedEpisodesBefore: existing?.state.faultedEpisodes ?? 0,
        // The proposer's own spend for `stopConditions.maxProposerUsd` (null: its price is unknown).
        proposerCostUsd: () => (ctx.settings.prices[config.models.proposer] ? ctx.meter.byRole.proposer.costUsd : null),
        evaluate: (strategy, task, _repeat, sessionId, s) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, task, sessionId, s),
        onEvent: async (event, st) => {
          // While a resume replays cached results, the stored state is already ahead of `st`.
          if (event.type !== 'metric_call_done' || !event.fromCache) await saveEvolutionState(ctx.store, st);
          this.state = structuredClone(st);
        },
      });
    } finally {
      done();
    }
  }
}
