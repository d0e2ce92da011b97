/**
 * The proposer seam (GEPA `proposer/base.py`, ProposeNewCandidate; ours as `ttl/policy.ts` is for
 * policies): one interface, one module per proposer in this folder. A proposer reads the running
 * loop, may play its parents (GEPA's subsample evaluation before), and returns the children to play
 * on a subsample with the rule that judges them there; the loop (evolution-runner.ts) plays them,
 * applies the rule and validates accepted children fully. Core module: no UI or DOM imports.
 */
import { MetattlError } from '../../common/errors.ts';
import type { ChatModel } from '../../llm/interface.ts';
import type { SeededRng } from '../../ttl/rng.ts';
import type { CallPurpose, Candidate, ProposalProvenance, EvolutionCache, EvolutionConfig, EvolutionEvent, EvolutionState, EvolutionTask, StopReason } from '../interface.ts';
import type { RunForReflection } from '../reflective-dataset.ts';
import type { MergeSchedule } from '../rules/merge.ts';
import type { EpochMinibatchSampler } from '../rules/minibatch.ts';
import type { ScoreMatrix } from '../rules/pareto.ts';

/** The proposers: GEPA's reflective mutation, OPRO's scored-history prompt, the random-mutation
 * control, and GEPA's merge. */
export type ProposerKind = 'reflective' | 'opro' | 'random' | 'random-neutral' | 'merge';

/** What one part of a sweep runs: a candidate on tasks, for a purpose. */
export interface SweepGroup {
  candidate: Candidate;
  tasks: EvolutionTask[];
  purpose: CallPurpose;
}

/** Thrown inside the loop to end the run with `reason` (caught by `runEvolution`, never escapes it). */
export class LoopStop extends MetattlError {
  constructor(
    readonly reason: StopReason,
    message: string | null,
  ) {
    super('loop_stop', message ?? String(reason));
  }
}

/** The running loop as proposers see it (built once per run by evolution-runner.ts). */
export interface LoopContext {
  /** The live run state; proposers push their children into `state.candidates`. */
  state: EvolutionState;
  /** The run's config (iteration settings in force: `configAt(config, iteration)`, branch.ts). */
  config: EvolutionConfig;
  rng: SeededRng;
  sampler: EpochMinibatchSampler;
  /** GEPA's merge schedule; null when the run does not merge. */
  merges: MergeSchedule | null;
  /** Run each group's candidate × tasks × repeats as one sweep; results per group, in job order. */
  sweepMany(groups: readonly SweepGroup[]): Promise<RunForReflection[][]>;
  sweep(candidate: Candidate, tasks: EvolutionTask[], purpose: CallPurpose): Promise<RunForReflection[]>;
  /** Mean wAUC per task over a candidate's runs. */
  meanByTask(runs: RunForReflection[]): Record<string, number>;
  /** Validation scores of the pool (seed and accepted candidates). */
  scoreMatrix(): ScoreMatrix;
  /** Recompute the fronts, the best and the progress curve after the pool changed. */
  refresh(): void;
  emit(event: EvolutionEvent): Promise<void>;
  /** The proposer model (LLM proposers only), the cache of its replies, Stop, and the extra attempts after a transient fault. */
  model: ChatModel | null;
  cache: EvolutionCache;
  signal: AbortSignal | undefined;
  maxExtraAttempts: number;
  /** Proposals failed in a row; a made proposal resets it (`maxConsecutiveFailures` stops the run). */
  consecutiveFailures: number;
}

/** GEPA's CandidateProposal: a child to play on `tasks` (already in the pool as `child`), and how
 * to judge it there. */
export interface CandidateProposal {
  child: Candidate;
  tasks: EvolutionTask[];
  purpose: 'child-mb' | 'merge-mb';
  /** The child's summed score on its subsample, from its runs there. */
  childSum(runs: RunForReflection[]): number;
  /** Whether `childSum` passes against the parent(s), and the reason recorded on the child. */
  judge(childSum: number): { accepted: boolean; reason: string };
  /** Called once when the child is accepted (the merge schedule's bookkeeping). */
  onAccepted(): void;
}

/** One proposer: proposal or failure, as GEPA's `propose(state) → CandidateProposal | None`. */
export interface Proposer {
  readonly kind: ProposerKind;
  /**
   * The children of this iteration (`loop.state.iteration`, already counted), given the settings
   * `config` in force for it.
   * @returns null when the proposer found nothing to propose (a merge without a pair: the
   *   iteration goes on with the mutation proposer); [] when every proposal failed
   * @throws LoopStop (stopped, provider_error, failures), BudgetReachedError, LlmError('aborted')
   */
  propose(loop: LoopContext, config: EvolutionConfig): Promise<CandidateProposal[] | null>;
}

/** A mutation's text for one parent: the new strategy, or a failure (`strategy: null`) whose
 * `status` says why; `reply` is the proposer's full reply (null for random mutations). */
/** A writer's text for one child (null: a failed proposal, with its status); `usage`: the proposer
 * call's tokens and cost (LLM proposals; recorded on the child as `proposerUsage`); `providerModel` /
 * `systemFingerprint`: what the provider said it used (recorded on the child). */
export type StrategyProposal = ({ strategy: string } | { strategy: null }) & { status: string; reply: string | null; usage?: ProposerUsage } & ProposalProvenance;

/** The tokens and USD of one proposer call. */
export type ProposerUsage = { promptTokens: number; completionTokens: number; costUsd: number };

/** What a mutation proposer's writer gets for one parent. */
export interface MutationInput {
  parentStrategy: string;
  /** The reflective dataset of the parent's worst run on the minibatch (reflective-dataset.ts). */
  dataset: string;
  /** The slot's index within the iteration (the proposal cache's key with the iteration). */
  index: number;
}

/** The step that differs between the mutation proposers: writing one child's text. */
export interface StrategyWriter {
  /** Whether proposals run one after another (they draw from the run's RNG) instead of at once. */
  readonly sequential: boolean;
  write(input: MutationInput, loop: LoopContext, config: EvolutionConfig): Promise<StrategyProposal>;
}
