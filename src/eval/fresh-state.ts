/**
 * The state of an evaluation before its first event, built in one place: the header a new
 * evaluation is stored with (the cache's first write) and the state the runner starts from.
 * Pure.
 */
import type { EvaluationConfig, EvaluationState } from './interface.ts';

/** Sessions an evaluation plays: policies × tasks of every task set × repeats (the length of
 * `evaluationJobs(config)`). */
export function plannedSessions(config: EvaluationConfig): number {
  return config.policies.length * config.taskSets.reduce((n, set) => n + set.tasks.length, 0) * config.repeats;
}

/**
 * A new evaluation's state: no results yet, every planned session to play.
 * @param now the start time (`startedAt`, ISO 8601)
 * @param faultedEpisodesBefore faulted episodes of earlier attempts (a resume carries them on)
 */
export function freshEvaluationState(id: string, config: EvaluationConfig, now: Date, faultedEpisodesBefore = 0): EvaluationState {
  return {
    format: 'metattl-evaluation-1', id, config, status: 'running', stopReason: null, stopMessage: null, results: [],
    totalSessions: plannedSessions(config), faultedEpisodes: faultedEpisodesBefore, startedAt: now.toISOString(), finishedAt: null,
  };
}
