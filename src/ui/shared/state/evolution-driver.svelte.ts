/**
 * Running an evolution in the page (method.md, "Outer loop"): `runEvolution` with sessions through
 * `evaluateSession` on the shared run services (worker engines per task, the Settings' models and
 * caps), through the core's evolution service: the state is saved after every event, and every metric call and
 * proposal is cached, so a run stopped, reloaded or crashed resumes by replay to the same final
 * state. Pause holds the run at the next iteration boundary (status `paused`, resumable); a
 * person's candidate (human-candidate.ts) is added to a run between iterations and evaluated by
 * the same replay, which then holds again at that boundary. Locks, read-only watching, meters
 * and the service's wiring: run-driver.svelte.ts.
 */
import { startOrResumeEvolution } from '../../../evolve/evolution-service.ts';
import { loadEvolutionState } from '../../../evolve/evolution-store.ts';
import { cacheEventProblem, readEvolutionRun, recordedUsage } from '../../../evolve/evolution-io.ts';
import { addHumanCandidate, humanCandidateProblem, proposeFromFeedback, type HumanCandidateInput } from '../../../evolve/human-candidate.ts';
import type { EvolutionConfig, EvolutionState } from '../../../evolve/interface.ts';
import type { Role } from '../../../llm/interface.ts';
import { evaluateSession } from '../../../ttl/session-evaluator.ts';
import { RunDriver } from './run-driver.svelte.ts';
import type { RunContext } from './run-services.ts';

type RunContextModels = RunContext['models'];

export { type DriverMode } from './run-driver.svelte.ts';

/** A person's candidate as asked for in the page: a strategy, or feedback for the proposer. */
export type HumanRequest = { parentId: string } & ({ strategy: string; feedback?: undefined } | { feedback: string; strategy?: undefined });

export class EvolutionDriver extends RunDriver<EvolutionState, EvolutionConfig> {
  /** Pause was pressed: the run holds at the next iteration boundary. */
  pausing = $state(false);
  /** The human candidate the next drive adds, and the boundary it then holds at. */
  private pending: { request: HumanRequest; holdAt: number } | null = null;
  protected readonly noun = 'evolution run';
  protected readonly kind = 'evolution';
  protected readonly validateRecord = cacheEventProblem;

  /** Hold the run this tab drives after the iteration in flight (its sessions finish first). */
  pause(): void {
    if (this.driving && this.mode !== 'stopping') this.pausing = true;
  }

  /**
   * Add a person's candidate to the run shown (between iterations, not driven anywhere) and
   * evaluate it now; the run then holds at the same boundary. Problems are shown in `error`.
   * @returns the final state, or null when it did not run
   */
  async addCandidate(request: HumanRequest): Promise<EvolutionState | null> {
    const state = this.state;
    if (!state || this.driving || this.mode === 'watching') return null;
    const problem = humanCandidateProblem(state, request.parentId) ?? (request.feedback !== undefined && request.feedback.trim() === '' ? 'The feedback is empty.' : null);
    if (problem) {
      this.error = problem;
      return null;
    }
    if (request.strategy !== undefined) {
      const { strategy } = request;
      if (!(await this.errors.attempt(() => addHumanCandidate(state, { parentId: request.parentId, strategy })))) return null;
    }
    this.pending = { request, holdAt: state.iteration };
    try {
      return await this.run(state.id, state.config);
    } finally {
      this.pending = null;
    }
  }

  /** The config to drive: `config` with the pending human candidate added (its strategy asked of
   * the proposer first when it is feedback). */
  private async withPending(id: string, config: EvolutionConfig, proposer: RunContextModels['proposer'], signal: AbortSignal): Promise<EvolutionConfig> {
    const pending = this.pending;
    if (!pending) return config;
    this.pending = null;
    const stored = (await loadEvolutionState(this.runs.store, id)) ?? this.state!;
    const { request } = pending;
    let input: HumanCandidateInput = { parentId: request.parentId, strategy: request.strategy ?? '' };
    if (request.feedback !== undefined) {
      const parent = stored.candidates.find((c) => c.id === request.parentId);
      const proposed = await proposeFromFeedback(proposer, parent?.strategy ?? '', request.feedback.trim(), stored.config, signal);
      input = { parentId: request.parentId, strategy: proposed.strategy, feedback: request.feedback.trim(), proposerReply: proposed.reply, ...(proposed.providerModel ? { providerModel: proposed.providerModel } : {}) };
    }
    return addHumanCandidate(stored, input);
  }

  protected load(id: string): Promise<EvolutionState | undefined> {
    return loadEvolutionState(this.runs.store, id);
  }

  protected async drive(id: string, config: EvolutionConfig, signal: AbortSignal): Promise<EvolutionState> {
    const existing = await readEvolutionRun(this.runs.store, id);
    const roles: Role[] = config.proposer === 'llm' || this.pending?.request.feedback !== undefined ? ['actor', 'metaAgent', 'proposer'] : ['actor', 'metaAgent'];
    const holdAt = this.pending?.holdAt ?? null;
    try {
      // The core stores, saves after every event and replays (evolve/evolution-service.ts); this is wiring and display.
      return await this.driveWith(id, config, roles, existing ? recordedUsage(existing.events) : undefined, ({ ctx, options, shown, observers }) =>
        startOrResumeEvolution(ctx.store, id, config, {
          proposer: config.proposer === 'llm' ? ctx.models.proposer : null, signal, now: this.now, faultedEpisodesBefore: existing?.state.faultedEpisodes ?? 0,
          pauseRequested: (done) => this.pausing || (holdAt !== null && done >= holdAt),
          // The proposer's own spend for `stopConditions.maxProposerUsd` (null: its price is unknown).
          proposerCostUsd: () => (ctx.settings.prices[config.models.proposer] ? ctx.meter.byRole.proposer.costUsd : null),
          evaluate: (strategy, task, repeat, sessionId, s) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, task, sessionId, s, repeat),
          prepare: async () => {
            await shown(!existing);
            return this.withPending(id, config, ctx.models.proposer, signal);
          },
          observers,
        }));
    } finally {
      this.pending = null;
      this.pausing = false;
    }
  }
}
