/**
 * Experiments as first-class runs: a declared set of arms × task sets × repeats × model
 * sets, with evolutions (Meta-TTL arms) and optional leave-one-game-out folds, planned into
 * evolution and evaluation steps that are each an ordinary resumable run (src/evolve, src/eval).
 * Plain data, persisted as JSON. No UI, DOM or Node imports.
 */
import type { Comparison, EvaluationReport, ReportWarning } from '../eval/interface.ts';
import type { Interval } from '../ttl/metrics.ts';

/** One set of role models; a role left out takes the CLI's flag (or the page's setting). */
export interface ModelSet {
  label?: string;
  actor?: string;
  metaAgent?: string;
  proposer?: string;
}

/** An evolution of the meta-agent's strategy section (GEPA outer loop, method.md). `train` and
 * `val` name task sets of the experiment; in a fold experiment they are left out (the fold gives them). */
export interface EvolutionSpec {
  id: string;
  train?: string;
  val?: string;
  /** Budget in metric calls (one candidate on one task, whatever its repeats). */
  budget: number;
  /** Minibatch size b (reference 1). */
  minibatch: number;
  /** Sessions per (candidate, minibatch task) and per (candidate, validation task). */
  trainRepeats: number;
  valRepeats: number;
  proposer: 'llm' | 'random';
  /** Which outer loop writes the LLM proposals: `gepa` (default, absent) or `opro` (a baseline; LLM proposer only). */
  optimizer?: 'gepa' | 'opro';
  rngSeed: number;
}

/** An arm: a policy by name (static, reflexion, memory, naive, … or a meta-prompt file), or the
 * strategy an evolution of this experiment chose (its best by mean validation W-AUC). */
export type ArmSpec = { id: string; policy: string } | { id: string; evolution: string };

/** Which of the paper's reported numbers the report sets beside ours. */
export type PaperReference = 'jericho' | 'webarena-lite' | null;

export interface ExperimentSpec {
  format: 'metattl-experiment-1';
  name: string;
  description: string;
  /** K episodes of at most S steps, in every session. */
  episodes: number;
  steps: number;
  /** Sessions per (arm, task) in the evaluations. */
  repeats: number;
  bootstrapSeed: number;
  /** Each model set runs every step; empty = one set taken from the provider flags. */
  models: ModelSet[];
  /** Task set name → tasks (`story`, `story:seed`, `web:<site>/<template>:<seed>` or a named set such as ID). */
  taskSets: Record<string, string[]>;
  evolutions: EvolutionSpec[];
  /** Leave one game of this task set out per fold: test = that game, train = the next, validation = the rest. */
  folds: { leaveOneOut: string } | null;
  arms: ArmSpec[];
  /** The arm paired differences are taken against. */
  baseline: string;
  /** The experiment's key contrasts a − b (arm ids), tested and Holm-corrected together with each
   * arm against the baseline; absent = only those. */
  contrasts?: { a: string; b: string }[];
  /** Task sets the arms are evaluated on (a fold experiment evaluates on its fold's "test"). */
  evaluateOn: string[];
  paper: PaperReference;
}

/** A fold of a leave-one-out experiment: pairwise disjoint game lists. */
export interface Fold {
  id: string;
  train: string[];
  val: string[];
  test: string[];
}

export interface EvolutionStep {
  kind: 'evolution';
  id: string;
  modelSet: number;
  fold: string | null;
  evolution: EvolutionSpec;
  train: string[];
  val: string[];
}

export interface EvaluationStep {
  kind: 'evaluation';
  id: string;
  modelSet: number;
  fold: string | null;
  /** The task set's name ("test" in a fold). */
  taskSet: string;
  tasks: string[];
  /** Arms with an evolution resolved to its step id in the same model set and fold. */
  arms: { id: string; policy?: string; evolutionStep?: string }[];
  baseline: string;
  repeats: number;
}

export type PlanStep = EvolutionStep | EvaluationStep;

export interface ExperimentPlan {
  spec: ExperimentSpec;
  folds: Fold[];
  /** Evolutions first (an evaluation step names the evolutions it needs), in run order. */
  steps: PlanStep[];
}

/** What a finished evolution step hands to the evaluations and the report. */
export interface EvolutionOutcome {
  runId: string;
  status: string;
  stopReason: string | null;
  metricCallsUsed: number;
  budget: number;
  sessionsPlayed: number;
  bestCandidateId: string | null;
  bestStrategy: string;
  /** The chosen candidate's mean W-AUC over its validation tasks. */
  bestValWAuc: number | null;
  candidates: number;
}

export interface EvaluationOutcome {
  runId: string;
  status: string;
  report: EvaluationReport;
}

export interface StepRecord {
  status: 'pending' | 'complete' | 'stopped';
  evolution?: EvolutionOutcome;
  evaluation?: EvaluationOutcome;
}

/** The experiment's stored state (`<store>/experiments/<name>/experiment.json`). */
export interface ExperimentState {
  format: 'metattl-experiment-state-1';
  spec: ExperimentSpec;
  status: 'running' | 'complete' | 'stopped';
  /** The model each role used in each model set (after the flags filled the gaps). */
  models: { actor: string; metaAgent: string; proposer: string }[];
  steps: Record<string, StepRecord>;
  startedAt: string;
  finishedAt: string | null;
}

/** One arm on one task set of one evaluation step, with the paper's number where it gives one. */
export interface ExperimentRow {
  step: string;
  modelSet: number;
  fold: string | null;
  taskSet: string;
  /** Which games the number is on and whether they were the evolution's (train/val) games. */
  split: { games: string[]; role: 'held-out' | 'selected-on' | 'not-selected' };
  arm: string;
  sessions: number;
  games: number;
  wAuc: Interval;
  averageScore: Interval;
  bestScore: Interval;
  diffVsBaseline: Interval | null;
  leakWarning: string | null;
  curve: Interval[];
  /** The curve normalised per game (score ÷ the game's max score); absent or [] when unknown. */
  normalisedCurve?: Interval[];
  paper: { wAuc: number; averageScore: number | null } | null;
}

/** A skeptic-holdout fold's result: the held-out gap and the selection inflation. */
export interface FoldResult {
  fold: string;
  modelSet: number;
  train: string[];
  val: string[];
  test: string[];
  /** Evolved − baseline W-AUC on the held-out game, paired, 95% CI. */
  heldOutGap: Interval | null;
  heldOutWAuc: Interval | null;
  validationWAuc: number | null;
  /** The chosen candidate's validation W-AUC − its held-out W-AUC (positive = selection flattered it). */
  selectionInflation: number | null;
}

export interface ExperimentReport {
  format: 'metattl-experiment-report-1';
  name: string;
  description: string;
  status: ExperimentState['status'];
  settings: { episodes: number; steps: number; repeats: number; bootstrapSeed: number };
  models: ExperimentState['models'];
  folds: Fold[];
  evolutions: (EvolutionOutcome & { step: string; modelSet: number; fold: string | null; train: string[]; val: string[]; proposer: string; optimizer: 'gepa' | 'opro' })[];
  rows: ExperimentRow[];
  /** The same per game (one level down; intervals over that game's seeds and repeats). */
  perGame: { step: string; taskSet: string; arm: string; game: string; sessions: number; wAuc: Interval; averageScore: Interval; bestScore: Interval }[];
  foldResults: FoldResult[];
  /** The paper's numbers this report compares with, and their setting. */
  paperReference: { source: string; setting: string; numbers: { taskSet: string; arm: string; wAuc: number; averageScore: number | null }[] } | null;
  /** Steps not finished yet (their numbers are missing). */
  pendingSteps: string[];
  /** The declared contrasts on every evaluation step (each arm against the baseline, then the
   * spec's `contrasts`), Holm-corrected over the whole report; `step` names the evaluation. */
  comparisons?: (Comparison & { step: string })[];
  /** Every other pair of arms, uncorrected (the page's "any pair" picker). */
  exploratoryComparisons?: (Comparison & { step: string })[];
  /** `few_games`, `identical_repeats` (from each evaluation, naming its step). */
  warnings?: ReportWarning[];
  /** The Δ the comparisons' repeats-needed estimate is for. */
  powerDelta?: number;
  /** Present when a model set is the simulated model (llm/simulated-model.ts): its notice; then
   * `paperReference` is null — the paper's numbers are never printed beside a simulation's. */
  simulated?: string;
}
