/**
 * "Evolve together": one evolution (the core's `startOrResumeEvolution`) whose pool is seeded with
 * the class's submissions as human candidates (evolve/human-candidate.ts), each evaluated right
 * after the naive seed's validation as the loop evaluates a proposal — the naive seed and the
 * submission on one practice task, kept when it beats the seed by the acceptance rule, then
 * validated — and then the outer loop (GEPA's, with merges) proposes from the pool until the
 * budget (metric calls) is spent.
 *
 * Training (minibatches, whose worst run the proposer reads) is on the round's practice tasks;
 * validation (what selects parents and the best candidate) is on its hidden tasks, with the
 * round's repeats, so the best candidate's W-AUC is measured as a submission's score is. The
 * proposer never reads a hidden task's trajectory — only the practice tasks' the students saw.
 *
 * After every event the room's view (room/evolution-credit.ts) is published: candidates with
 * their parents, origins and credits, the best-so-far curve. Stop leaves the run resumable:
 * evolving again with the same seeds continues it (resume is replay).
 */
import { DEFAULT_GUIDING_PROMPT } from '../agents/actor-prompt.ts';
import { scrubText } from '../common/secrets.ts';
import { startOrResumeEvolution } from '../evolve/evolution-service.ts';
import { loadEvolutionState } from '../evolve/evolution-store.ts';
import { humanMinibatch } from '../evolve/human-candidate.ts';
import type { EvolutionConfig, EvolutionState } from '../evolve/interface.ts';
import { effectiveMinibatch } from '../evolve/rules/budget.ts';
import { DEFAULT_MAX_MERGES } from '../evolve/rules/merge.ts';
import { EVOLUTION_DEFAULTS } from '../evolve/run-defaults.ts';
import { roomEvolutionOf } from '../room/evolution-credit.ts';
import type { EvolveTogetherRequest, RoomEvolution, SubmissionText } from '../room/protocol.ts';
import { evaluateSession } from '../ttl/session-evaluator.ts';
import { plainTask, type PlayableTask } from './room-tasks.ts';
import type { ScorerContext } from './scorer-context.ts';
import type { RoundWithId } from './seams.ts';

/** The start of every class evolution's run id. */
export const EVOLVE_PREFIX = 'room-evolve:';

/** The run id of a round's class evolution with these seeds (same seeds: the same run, resumed). */
export function evolutionRunId(roundId: string, seeds: readonly SubmissionText[]): string {
  const ids = seeds.map((s) => s.id).sort().join(',');
  let hash = 2166136261;
  for (const ch of ids) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  return `${EVOLVE_PREFIX}${roundId}:${hash.toString(16).padStart(8, '0')}`;
}

/** Metric calls the seeds need at least: the naive seed's validation, each submission as a human
 * candidate (2b + V), and one proposal after them (2b + V). */
export function evolveTogetherMinimumBudget(seeds: number, trainTasks: number, valTasks: number): number {
  const b = effectiveMinibatch(EVOLUTION_DEFAULTS.minibatchSize, trainTasks);
  return valTasks + (seeds + 1) * (2 * b + valTasks);
}

/**
 * A new class evolution's config: GEPA's defaults with merges on, K and S and the validation
 * repeats of the round, the naive seed, and one human candidate per submission after the seed's
 * validation (minibatches drawn as human-candidate.ts draws them).
 */
export function evolveTogetherConfig(seeds: readonly SubmissionText[], round: RoundWithId, train: readonly PlayableTask[], val: readonly PlayableTask[], budget: number, ctx: Pick<ScorerContext, 'deps' | 'contextWindow'>): EvolutionConfig {
  const { llm } = ctx.deps;
  const base: EvolutionConfig = {
    train: train.map(plainTask), val: val.map(plainTask), repeats: 1, trainRepeats: EVOLUTION_DEFAULTS.trainRepeats, valRepeats: round.repeats,
    episodes: round.episodes, maxSteps: round.steps, initialGuidingPrompt: DEFAULT_GUIDING_PROMPT, seedStrategy: EVOLUTION_DEFAULTS.seedStrategy,
    minibatchSize: EVOLUTION_DEFAULTS.minibatchSize, budgetMetricCalls: budget, maxConsecutiveFailures: EVOLUTION_DEFAULTS.maxConsecutiveFailures,
    proposer: 'llm', proposerInstruction: EVOLUTION_DEFAULTS.proposerInstruction, optimizer: EVOLUTION_DEFAULTS.optimizer, rngSeed: EVOLUTION_DEFAULTS.rngSeed,
    concurrency: Math.max(1, llm.maxConcurrent), models: { actor: llm.roles.actor.model, metaAgent: llm.roles.metaAgent.model, proposer: llm.roles.proposer.model },
    contextWindow: ctx.contextWindow, candidateSelection: EVOLUTION_DEFAULTS.candidateSelection, acceptance: EVOLUTION_DEFAULTS.acceptance, merge: { maxMerges: DEFAULT_MAX_MERGES },
  };
  return { ...base, humanCandidates: seeds.map((s, k) => ({ afterIteration: 0, parentId: 'c0', strategy: s.text.trim(), minibatch: humanMinibatch(base, k) })) };
}

/** The room's state word and message for a finished run. */
function ending(state: EvolutionState): { status: RoomEvolution['state']; message: string | null } {
  if (state.status === 'complete') return { status: 'done', message: state.stopMessage };
  if (state.stopReason === 'stopped' || state.stopReason === 'paused') return { status: 'stopped', message: 'Stopped; evolve again with the same submissions to continue.' };
  return { status: 'failed', message: `The evolution stopped (${state.stopReason ?? 'unknown'})${state.stopMessage ? `: ${state.stopMessage}` : ''}. Evolve again to continue it.` };
}

/** A failure before the run starts, as the room shows it. */
function failedBeforeStart(req: EvolveTogetherRequest, message: string): RoomEvolution {
  return { roundId: req.roundId, state: 'failed', budget: req.budget, used: 0, candidates: [], curve: [], bestCandidateId: null, message };
}

/** The seeds as given: non-empty texts (an empty one would be the naive seed again). */
function usableSeeds(seeds: readonly SubmissionText[]): SubmissionText[] {
  return seeds.filter((s) => s.text.trim() !== '');
}

/**
 * Run (or continue) the class's evolution; every change is published through `onEvolution`, and
 * failures are published, not thrown.
 */
export async function runEvolveTogether(ctx: ScorerContext, req: EvolveTogetherRequest, given: readonly SubmissionText[], round: RoundWithId, signal: AbortSignal): Promise<void> {
  const publish = ctx.deps.onEvolution;
  const seeds = usableSeeds(given);
  const origins = seeds.map((s) => s.participantId);
  try {
    if (seeds.length === 0) return publish(failedBeforeStart(req, 'No submission with a meta-prompt to seed the evolution with.'));
    if (round.practiceTasks.length === 0) return publish(failedBeforeStart(req, 'The round has no practice tasks to train on (the hidden tasks only validate).'));
    if (round.hiddenTasks.length === 0) return publish(failedBeforeStart(req, 'The round has no hidden tasks to validate on.'));
    const minimum = evolveTogetherMinimumBudget(seeds.length, round.practiceTasks.length, round.hiddenTasks.length);
    if (!Number.isInteger(req.budget) || req.budget < minimum) {
      return publish(failedBeforeStart(req, `A budget of ${req.budget} metric calls is too small for ${seeds.length} submission${seeds.length === 1 ? '' : 's'} on ${round.hiddenTasks.length} hidden task${round.hiddenTasks.length === 1 ? '' : 's'}: at least ${minimum} are needed (the naive seed's validation, each submission's minibatch and validation, and one proposal).`));
    }
    const [train, val] = [await ctx.resolve(round.practiceTasks), await ctx.resolve(round.hiddenTasks)];
    const id = evolutionRunId(round.id, seeds);
    const stored = await loadEvolutionState(ctx.store, id);
    const config = stored ? { ...stored.config, budgetMetricCalls: Math.max(req.budget, stored.metricCallsUsed) } : evolveTogetherConfig(seeds, round, train, val, req.budget, ctx);
    const options = await ctx.sessionOptions({ episodes: config.episodes, maxSteps: config.maxSteps, initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow });
    const state = await startOrResumeEvolution(ctx.store, id, config, {
      proposer: ctx.models.proposer, signal, faultedEpisodesBefore: stored?.faultedEpisodes ?? 0, ...(ctx.deps.now ? { now: ctx.deps.now } : {}),
      evaluate: (strategy, task, repeat, sessionId, s) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, task, sessionId, s, repeat),
      observers: [(event, copy) => {
        if (event.type !== 'finished') publish(roomEvolutionOf(copy, round.id, origins, 'running'));
      }],
    });
    const { status, message } = ending(state);
    publish(roomEvolutionOf(state, round.id, origins, status, message && scrubText(message)));
  } catch (error) {
    publish(failedBeforeStart(req, scrubText(error instanceof Error ? error.message : String(error))));
  }
}
