/**
 * The state of an evolution run before its first event, built in one place: the header a new run
 * is stored with (the cache's first write), the state the loop starts from, and — with its status
 * changed — a branch's header. The RNG state is the config's seed as an unsigned 32-bit integer
 * (Mulberry32's state, ttl/rng.ts). Pure.
 */
import { codeVersion } from '../common/code-version.ts';
import type { EvolutionConfig, EvolutionState } from './interface.ts';

/**
 * A new run's state: no candidates, no metric calls, nothing spent, iteration 0.
 * @param now the start time (`startedAt`, ISO 8601)
 * @param faultedEpisodesBefore faulted episodes of earlier attempts of this run (a resume carries them on)
 */
export function freshEvolutionState(id: string, config: EvolutionConfig, now: Date, faultedEpisodesBefore = 0): EvolutionState {
  return {
    format: 'metattl-evolution-1', id, config, status: 'running', stopReason: null, stopMessage: null,
    candidates: [], metricCalls: [], metricCallsUsed: 0, sessionsPlayed: 0, faultedEpisodes: faultedEpisodesBefore, failedProposals: 0, fronts: {}, iteration: 0,
    rngState: config.rngSeed >>> 0, best: { byMean: null, byZScore: null }, progress: [], startedAt: now.toISOString(), finishedAt: null, codeVersion: codeVersion(),
  };
}
