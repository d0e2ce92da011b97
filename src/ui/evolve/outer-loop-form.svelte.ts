/**
 * The Evolve form's outer-loop options (GEPA ≥ 0.1.4's knobs, the same as `metattl
 * evolve`'s flags): candidate selection (`--selection`, with ε or k), acceptance (`--accept`), the
 * merge proposer (`--merge`, `--max-merges`), proposals per iteration (`--proposals PxN`) and the
 * stop conditions besides the budget (`--stop-no-improvement`, `--stop-score`, `--stop-minutes`,
 * `--max-proposer-usd`). Fields are flat (form-memory.svelte.ts keeps plain fields); `options()`
 * gives the run config's fields exactly as the CLI records them. No I/O.
 */
import type { EvolutionConfig } from '../../evolve/interface.ts';
import { ACCEPTANCES, type Acceptance } from '../../evolve/rules/acceptance.ts';
import { CANDIDATE_SELECTIONS, type CandidateSelection } from '../../evolve/rules/candidate-selection.ts';
import { DEFAULT_MAX_MERGES } from '../../evolve/rules/merge.ts';
import { EVOLUTION_DEFAULTS } from '../../evolve/run-defaults.ts';
import { MAX_PROPOSALS_PER_ITERATION } from '../../evolve/rules/proposals.ts';
import type { StopConditionsConfig } from '../../evolve/rules/stop-conditions.ts';

/** The kept fields (null = off / default). */
export interface OuterLoopFields {
  selection: string;
  /** ε of epsilon_greedy (0–1; null = 0.1). */
  epsilon: number | null;
  /** k of top_k_pareto (null = 5). */
  topK: number | null;
  acceptance: string;
  merge: boolean;
  maxMerges: number;
  proposalParents: number;
  proposalMutations: number;
  stopNoImprovement: number | null;
  stopScore: number | null;
  stopMinutes: number | null;
  maxProposerUsd: number | null;
}

export const OUTER_LOOP_FIELDS: OuterLoopFields = {
  selection: EVOLUTION_DEFAULTS.candidateSelection, epsilon: null, topK: null, acceptance: EVOLUTION_DEFAULTS.acceptance, merge: false, maxMerges: DEFAULT_MAX_MERGES,
  proposalParents: 1, proposalMutations: 1, stopNoImprovement: null, stopScore: null, stopMinutes: null, maxProposerUsd: null,
};

/** The run-config fields of the outer-loop options (as `metattl evolve` records them). */
export type OuterLoopOptions = Pick<EvolutionConfig, 'candidateSelection' | 'epsilon' | 'topK' | 'acceptance' | 'stopConditions' | 'merge' | 'proposals'>;

export class OuterLoopForm {
  selection = $state<CandidateSelection>('pareto');
  epsilon = $state<number | null>(null);
  topK = $state<number | null>(null);
  acceptance = $state<Acceptance>('strict_improvement');
  merge = $state(false);
  maxMerges = $state<number>(DEFAULT_MAX_MERGES);
  proposalParents = $state(1);
  proposalMutations = $state(1);
  stopNoImprovement = $state<number | null>(null);
  stopScore = $state<number | null>(null);
  stopMinutes = $state<number | null>(null);
  maxProposerUsd = $state<number | null>(null);

  /** P · N. */
  readonly proposalsPerIteration = $derived(this.proposalParents * this.proposalMutations);
  /** What keeps the options from starting a run (empty = fine). */
  readonly problems = $derived.by(() => (this.proposalsPerIteration > MAX_PROPOSALS_PER_ITERATION ? [`At most ${MAX_PROPOSALS_PER_ITERATION} proposals per iteration (parents × mutations), got ${this.proposalsPerIteration}.`] : []));
  /** True when any option differs from GEPA 0.1.0's loop (the form says so when folded). */
  readonly changed = $derived(JSON.stringify(this.snapshot()) !== JSON.stringify(OUTER_LOOP_FIELDS));

  /** The config fields for a run (defaults recorded as the CLI records them; off options absent). */
  options(): OuterLoopOptions {
    const stop: StopConditionsConfig = {
      ...(this.stopNoImprovement !== null ? { noImprovementIterations: this.stopNoImprovement } : {}),
      ...(this.stopScore !== null ? { scoreThreshold: this.stopScore } : {}),
      ...(this.stopMinutes !== null ? { timeLimitMinutes: this.stopMinutes } : {}),
      ...(this.maxProposerUsd !== null ? { maxProposerUsd: this.maxProposerUsd } : {}),
    };
    return {
      candidateSelection: this.selection,
      ...(this.selection === 'epsilon_greedy' && this.epsilon !== null ? { epsilon: this.epsilon } : {}),
      ...(this.selection === 'top_k_pareto' && this.topK !== null ? { topK: this.topK } : {}),
      acceptance: this.acceptance, stopConditions: stop,
      ...(this.merge ? { merge: { maxMerges: this.maxMerges } } : {}),
      ...(this.proposalsPerIteration > 1 ? { proposals: { parents: this.proposalParents, mutations: this.proposalMutations } } : {}),
    };
  }

  snapshot(): OuterLoopFields {
    return {
      selection: this.selection, epsilon: this.epsilon, topK: this.topK, acceptance: this.acceptance, merge: this.merge, maxMerges: this.maxMerges,
      proposalParents: this.proposalParents, proposalMutations: this.proposalMutations, stopNoImprovement: this.stopNoImprovement, stopScore: this.stopScore,
      stopMinutes: this.stopMinutes, maxProposerUsd: this.maxProposerUsd,
    };
  }

  /** Fill from kept fields (an unknown selection or acceptance keeps the default). */
  restore(f: OuterLoopFields): void {
    this.selection = (CANDIDATE_SELECTIONS as readonly string[]).includes(f.selection) ? (f.selection as CandidateSelection) : 'pareto';
    this.acceptance = (ACCEPTANCES as readonly string[]).includes(f.acceptance) ? (f.acceptance as Acceptance) : 'strict_improvement';
    Object.assign(this, {
      epsilon: f.epsilon, topK: f.topK, merge: f.merge, maxMerges: f.maxMerges, proposalParents: f.proposalParents, proposalMutations: f.proposalMutations,
      stopNoImprovement: f.stopNoImprovement, stopScore: f.stopScore, stopMinutes: f.stopMinutes, maxProposerUsd: f.maxProposerUsd,
    });
  }

  /** Fill from an earlier run's config ("New run like this"). */
  fillFrom(c: EvolutionConfig): void {
    const s = c.stopConditions ?? {};
    this.restore({
      selection: c.candidateSelection ?? 'pareto', epsilon: c.epsilon ?? null, topK: c.topK ?? null, acceptance: c.acceptance ?? 'strict_improvement',
      merge: c.merge !== undefined, maxMerges: c.merge?.maxMerges ?? DEFAULT_MAX_MERGES, proposalParents: c.proposals?.parents ?? 1, proposalMutations: c.proposals?.mutations ?? 1,
      stopNoImprovement: s.noImprovementIterations ?? null, stopScore: s.scoreThreshold ?? null, stopMinutes: s.timeLimitMinutes ?? null, maxProposerUsd: s.maxProposerUsd ?? null,
    });
  }
}
