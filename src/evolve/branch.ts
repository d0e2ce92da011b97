/**
 * Branching an evolution: a new run whose state after iteration N is the source run's
 * state after iteration N — pool, scores, budget spent, RNG state — with changed settings from
 * then on. It works by replay, like resume (evolution-runner.ts): the source's metric calls and
 * proposer replies of iterations 1…N are copied into the new run's cache, and the loop replays
 * those iterations with the source's own settings (`configAt`), then goes on with the new ones.
 * No UI or DOM imports.
 */
import type { RunEvent, Store } from '../store/interface.ts';
import { evolutionHeader } from './evolution-store.ts';
import { evolutionEventOf, upgradeEvolutionPayload } from './evolution-payload.ts';
import { freshEvolutionState } from './fresh-state.ts';
import type { EvolutionConfig, EvolutionState, MetricCall } from './interface.ts';
import { MetattlError } from '../common/errors.ts';

/** Settings a branch may change (the rest define the state it forks from: tasks, K, S, repeats,
 * minibatch size, seeds). */
export type BranchChanges = Partial<Pick<EvolutionConfig,
  'budgetMetricCalls' | 'candidateSelection' | 'epsilon' | 'topK' | 'acceptance' | 'proposer' | 'proposerInstruction' | 'maxConsecutiveFailures' | 'stopConditions' | 'concurrency' | 'models'>>;

/** Thrown when a branch cannot be made (the message says why, for people). */
export class BranchError extends MetattlError {
  override readonly name = 'BranchError';
  constructor(message: string) {
    super('branch', message);
  }
}

/**
 * The settings that govern iteration `iteration` (1-based; 0 = the seed's validation) of a run
 * with `config`: a branch's iterations up to its fork are the source's (recursively, for a branch
 * of a branch), later ones its own.
 */
export function configAt(config: EvolutionConfig, iteration: number): EvolutionConfig {
  const origin = config.branchedFrom;
  return origin && iteration <= origin.iteration ? configAt(origin.config, iteration) : config;
}

/** The iteration a run forked at (0 for a run that is not a branch): its own stop conditions are
 * checked from the boundary after it, as they would be in a new invocation. */
export function forkIteration(config: EvolutionConfig): number {
  return config.branchedFrom?.iteration ?? 0;
}

/**
 * The config of a branch of `source` after iteration `iteration` with `changes`: the source's
 * settings, the changes, the source's human candidates added before that boundary, and
 * `branchedFrom`.
 * @throws BranchError when iteration N has not finished in the source run, or the budget is not
 *   above what the source had spent by then
 */
export function branchConfig(source: EvolutionState, iteration: number, changes: BranchChanges): EvolutionConfig {
  const done = source.iterationsDone ?? (source.status === 'complete' ? source.iteration : source.iteration - 1);
  if (!Number.isInteger(iteration) || iteration < 0 || iteration > done) {
    throw new BranchError(`Run ${source.id} has finished iterations 0–${done}; cannot branch from iteration ${iteration}.`);
  }
  const spent = spentAfter(source, iteration);
  const budget = changes.budgetMetricCalls ?? source.config.budgetMetricCalls;
  if (budget <= spent) throw new BranchError(`Run ${source.id} had spent ${spent} metric calls by iteration ${iteration}: a branch needs a larger budget than ${budget}.`);
  const { branchedFrom: _b, humanCandidates, ...rest } = source.config;
  const humans = (humanCandidates ?? []).filter((h) => h.afterIteration < iteration);
  return {
    ...rest, ...changes,
    ...(humans.length > 0 ? { humanCandidates: humans } : {}),
    branchedFrom: { runId: source.id, iteration, config: source.config },
  };
}

/** Whether a metric call belongs to the state after iteration N (human candidates evaluated at
 * boundary N come after it). */
function beforeFork(call: MetricCall, iteration: number): boolean {
  return call.iteration < iteration || (call.iteration === iteration && !call.purpose.startsWith('human'));
}

/** Metric calls the source had charged by the end of iteration N: one per (candidate, task) of
 * its metric calls then, plus one per failed proposal then. */
export function spentAfter(source: EvolutionState, iteration: number): number {
  const charged = new Set(source.metricCalls.filter((c) => beforeFork(c, iteration)).map((c) => `${c.iteration}:${c.purpose}:${c.candidateId}:${c.taskId}`));
  const failed = source.candidates.filter((c) => c.status === 'failed' && c.iteration >= 1 && c.iteration <= iteration && c.reason.startsWith('proposal ')).length;
  return charged.size + failed;
}

/** The source's cache events the branch replays: metric calls and proposer replies up to iteration N. */
export function branchEvents(events: readonly RunEvent[], iteration: number): RunEvent[] {
  const kept = events.filter((e) => {
    const data = evolutionEventOf(e.data);
    if (data.type === 'call') return beforeFork(data.call, iteration);
    if (data.type === 'proposal') return data.iteration <= iteration;
    return false;
  });
  return kept.map((e, i) => ({ seq: i + 1, data: e.data }));
}

/**
 * Store a new run `id` branched from stored run `sourceId` after iteration `iteration`: its
 * header (a fresh state of the branch's config) and the copied events, in one write. Run it
 * (`runEvolution` with the stored config) to replay to the fork and go on.
 * @returns the branch's config
 * @throws BranchError when the source is missing, `id` is taken, or `branchConfig` refuses
 */
export async function createBranch(store: Store, sourceId: string, id: string, iteration: number, changes: BranchChanges, now: Date): Promise<EvolutionConfig> {
  const run = await store.getRun(sourceId);
  if (!run || run.header.kind !== 'evolution') throw new BranchError(`There is no evolution run "${sourceId}" to branch from.`);
  if (await store.getRun(id)) throw new BranchError(`A run with the id "${id}" already exists.`);
  const source = upgradeEvolutionPayload(run.header.data, run.header.payloadVersion);
  const config = branchConfig(source, iteration, changes);
  const state: EvolutionState = { ...freshEvolutionState(id, config, now), status: 'stopped', stopReason: 'stopped' };
  await store.appendRunEvents(id, branchEvents(run.events, iteration), evolutionHeader(state, now.getTime()));
  return config;
}
