/**
 * Running an evaluation in the page: `runEvaluation` (every policy × task × repeat session, in
 * parallel up to the Settings' max concurrent requests) with sessions through `evaluateSession`
 * on the shared run services; the state is saved after every event and every finished session is
 * stored, so a stopped, reloaded or crashed evaluation resumes where it was. Locks, read-only
 * watching, meters and the service's wiring: run-driver.svelte.ts.
 */
import { startOrResumeEvaluation } from '../../../eval/evaluation-service.ts';
import { evaluationEventProblem, loadEvaluationSessions, loadEvaluationState } from '../../../eval/evaluation-store.ts';
import type { EvaluationConfig, EvaluationState } from '../../../eval/interface.ts';
import type { Role } from '../../../llm/interface.ts';
import type { RoleTotals } from '../../../llm/usage-meter.ts';
import { evaluateSession } from '../../../ttl/session-evaluator.ts';
import { usageOf, type SessionRecord } from '../../../ttl/session-record.ts';
import { RunDriver } from './run-driver.svelte.ts';

/** Usage recorded by stored sessions, by role. */
export function sessionsUsage(sessions: Iterable<SessionRecord>): Record<Role, RoleTotals> {
  const zero = (): RoleTotals => ({ calls: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cachedPromptTokens: 0, latencyMs: 0, costUsd: 0 });
  const total: Record<Role, RoleTotals> = { actor: zero(), metaAgent: zero(), proposer: zero() };
  for (const session of sessions) {
    const u = usageOf(session);
    for (const role of Object.keys(total) as Role[]) for (const k of Object.keys(total[role]) as (keyof RoleTotals)[]) total[role][k] = (total[role][k] ?? 0) + (u[role][k] ?? 0);
  }
  return total;
}

export class EvaluationDriver extends RunDriver<EvaluationState, EvaluationConfig> {
  protected readonly noun = 'evaluation';
  protected readonly kind = 'evaluation';
  protected readonly validateRecord = evaluationEventProblem;

  protected load(id: string): Promise<EvaluationState | undefined> {
    return loadEvaluationState(this.runs.store, id);
  }

  protected async drive(id: string, config: EvaluationConfig, signal: AbortSignal): Promise<EvaluationState> {
    const previous = await loadEvaluationSessions(this.runs.store, id);
    const before = (await loadEvaluationState(this.runs.store, id))?.faultedEpisodes ?? 0;
    const roles: Role[] = config.policies.every((p) => p.spec.kind === 'static') ? ['actor'] : ['actor', 'metaAgent'];
    // The core stores, saves after every event and resumes (eval/evaluation-service.ts); this is wiring and display.
    return this.driveWith(id, config, roles, previous.size ? sessionsUsage(previous.values()) : undefined, ({ ctx, options, shown, observers }) =>
      startOrResumeEvaluation(ctx.store, id, config, {
        signal, now: this.now, faultedEpisodesBefore: before, prices: ctx.settings.prices,
        evaluate: (policy, task, repeat, sessionId, s) => evaluateSession(options, policy, task, sessionId, s, repeat),
        prepare: () => shown(previous.size === 0),
        observers,
      }));
  }
}
