/**
 * Experiments as first-class runs: a declared set of arms × task sets × repeats × model
 * sets, with evolutions (Meta-TTL arms) and optional leave-one-game-out folds, planned into
 * evolution and evaluation steps that are each an ordinary resumable run (src/evolve, src/eval).
 * Plain data, persisted as JSON. No UI, DOM or Node imports.
 */
import type { TaskSetOverlap } from '../eval/vocabulary-overlap.ts';
import type { Comparison, EvaluationReport, ReportWarning } from '../eval/interface.ts';
import type { Interval } from '../ttl/metrics.ts';
import type { SelectionInterval, SessionWAuc } from './selection.ts';
import type { RecallGameResult, RecallItem, RecallProbeOptions } from '../eval/recall-probe.ts';

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
  /** `random`: one sentence of our curated strategies (older runs); `random-neutral`: the matched
   * control, neutral edits sized like `matchEditSizesOf`'s (src/evolve/rules/neutral-mutation.ts). */
  proposer: 'llm' | 'random' | 'random-neutral';
  /** A `random-neutral` evolution's edit sizes are drawn from this evolution's recorded edits (its
   * id; same model set and fold; it must come earlier in `evolutions`). When that evolution has no
   * recorded edit, or none is named, the documented default distribution. */
  matchEditSizesOf?: string;
  /** `no-trace`: the LLM proposer sees the parent strategy but no trajectory (absent = the full
   * reflective dataset; LLM proposer with the GEPA optimizer only). */
  proposerInput?: 'no-trace';
  /** Which outer loop writes the LLM proposals: `gepa` (default, absent) or `opro` (a baseline; LLM proposer only). */
  optimizer?: 'gepa' | 'opro';
  /** The first replicate's rng seed; replicate r (1-based) runs with rngSeed + r − 1 (mod 2³²). */
  rngSeed: number;
  /** Independent runs of this evolution (absent = 1): each its own rng seed, each chosen prompt
   * evaluated as its own policy (`<arm>#r<r>`), the arm aggregated over them (src/experiment/replicates.ts). */
  replicates?: number;
}

/** An arm: a policy by name (static, reflexion, memory, naive, … or a meta-prompt file), or the
 * strategy an evolution of this experiment chose (its best by mean validation W-AUC). `raw: true`
 * (a meta-prompt only): its text is the meta-agent's whole system message, byte for byte, without
 * our header and footer (`metattl eval --raw-meta-prompt FILE`; a paper's prompt run verbatim). */
export type ArmSpec = { id: string; policy: string; raw?: true } | { id: string; evolution: string; replicates?: number };

/** The walkthrough-recall probe as a step of the experiment (src/eval/recall-probe.ts): each model
 * set's actor is asked for the next command of the walkthroughs of the games of `taskSets` (web
 * tasks left out), beside the shuffled control. Walkthroughs: `walkthroughs` (game → commands)
 * first, then (CLI only) Jericho's games.json by game name. */
export interface RecallProbeSpec {
  taskSets: string[];
  /** Commands shown before the asked one (default 5). */
  k: number;
  /** Positions asked per game at most (default 20). */
  probes: number;
  /** The shuffled control's seed (default 0). */
  seed: number;
  walkthroughs?: Record<string, string[]>;
}

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
  /** The walkthrough-recall probe, one step per model set after its runs; absent = none. */
  recallProbe?: RecallProbeSpec;
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
  /** The spec's evolution, `rngSeed` already this replicate's. */
  evolution: EvolutionSpec;
  train: string[];
  val: string[];
  /** Which run of a replicated evolution this is (1-based) of `replicates`; 1 of 1 when not
   * replicated. `group` is the step id every replicate shares (the unreplicated step's id). */
  replicate: number;
  replicates: number;
  group: string;
}

export interface EvaluationStep {
  kind: 'evaluation';
  id: string;
  modelSet: number;
  fold: string | null;
  /** The task set's name ("test" in a fold). */
  taskSet: string;
  tasks: string[];
  /** Arms with an evolution resolved to its step id in the same model set and fold; a replicated
   * evolution gives one arm per replicate, `<arm>#r<r>`, with `replicateOf` = the spec's arm id. */
  arms: { id: string; policy?: string; raw?: true; evolutionStep?: string; replicateOf?: string; replicate?: number }[];
  baseline: string;
  repeats: number;
  /** `fresh-validation`: a fold's arms played afresh on its validation games (the selection test);
   * its comparisons are exploratory (the games were selected on). Absent = an ordinary evaluation. */
  purpose?: 'fresh-validation';
}

/** The walkthrough-recall probe of one model set (`spec.recallProbe`): the actor asked on `games`. */
export interface RecallProbeStep {
  kind: 'recall-probe';
  id: string;
  modelSet: number;
  fold: null;
  /** The games probed (distinct, no web task), in the task sets' order. */
  games: string[];
  /** The same games as task ids (what the vocabulary reader and the library take). */
  tasks: string[];
  options: RecallProbeOptions;
}

export type PlanStep = EvolutionStep | EvaluationStep | RecallProbeStep;

export interface ExperimentPlan {
  spec: ExperimentSpec;
  folds: Fold[];
  /** Evolutions first (an evaluation step names the evolutions it needs), in run order. */
  steps: PlanStep[];
}

/** What a finished evolution step hands to the evaluations and the report. */
export interface EvolutionOutcome {
  /** The edit-size distribution a `random-neutral` run drew from (its config's `editSizes`). */
  editSizeTarget?: { sizes: number[]; source: string };
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
  /** Whether the chosen candidate is the seed (no proposal beat it: no selection happened);
   * absent in outcomes recorded before it was. */
  bestIsSeed?: boolean;
  /** The chosen candidate's recorded mean W-AUC per validation task (what selection saw). */
  bestValScores?: Record<string, number>;
  /** Which replicate of its evolution this run is (1-based; 1 when not replicated) and the rng
   * seed it ran with; absent in outcomes recorded before replicates existed. */
  replicate?: number;
  rngSeed?: number;
  /** Per-arm accounting (src/evolve/accounting.ts): proposer calls or random draws, children that
   * passed acceptance, candidates validated, the proposer's tokens and USD (null = not priced),
   * and each proposal's word edit distance from its parent. Absent in outcomes recorded before. */
  proposals?: number;
  accepted?: number;
  validated?: number;
  proposerTokens?: number;
  proposerUsd?: number | null;
  editSizes?: number[];
}

export interface EvaluationOutcome {
  runId: string;
  status: string;
  report: EvaluationReport;
  /** Every session's W-AUC (the selection test pairs them); absent in outcomes recorded before. */
  sessions?: SessionWAuc[];
}

/** What a finished recall-probe step keeps: the model asked (as the settings named it), where the
 * walkthroughs came from, the per-game and pooled counts and every question (model output:
 * untrusted text). */
export interface RecallOutcome {
  status: 'complete';
  model: string;
  walkthroughSource: string;
  options: RecallProbeOptions;
  games: RecallGameResult[];
  pooled: RecallGameResult | null;
  items: RecallItem[];
}

export interface StepRecord {
  status: 'pending' | 'complete' | 'stopped';
  evolution?: EvolutionOutcome;
  evaluation?: EvaluationOutcome;
  recall?: RecallOutcome;
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
  /** The code that started the experiment (src/common/code-version.ts); absent in older states. */
  codeVersion?: string;
  /** Every resume that was allowed to change the models or settings (`--allow-changed-settings`):
   * when, by which code, and each change ("actor model: a → b"). Absent when none. */
  changes?: { at: string; codeVersion: string; changes: string[] }[];
  /** The provider's base URL and each role's temperature and completion limit the run uses
   * (checked on resume); absent in older states. */
  llm?: { baseUrl: string; roles: Record<'actor' | 'metaAgent' | 'proposer', { temperature: number | null; maxTokens: number }> };
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
  /** The arm ran its meta-prompt raw (the whole system message, byte for byte); absent otherwise. */
  rawMetaPrompt?: true;
  /** The task set's dictionary overlap with the games the step's evolutions trained and validated
   * on (ExperimentReport.vocabulary's `dictionary.share`); null when not computed (no story files,
   * web tasks, no evolution). */
  dictionaryOverlap?: number | null;
}

/**
 * One evaluation step's vocabulary overlap with its training games (src/eval/vocabulary-overlap.ts:
 * overlap(S, T) = |V_r(S) ∩ V_r(T)| / |V_r(S)|, S = the step's games pooled, T = the train and
 * validation games of the evolutions its arms use), pooled and per game.
 */
export type VocabularyOverlapEntry = TaskSetOverlap & { step: string };

/** Pairwise dissimilarity of a replicated arm's chosen prompts (src/experiment/replicates.ts):
 * normalised word edit distance and Jaccard distance over word sets, each in [0, 1], per pair of
 * replicates a < b (1-based) and their means (null below 2 prompts). */
export interface PromptDissimilarity {
  pairs: { a: number; b: number; editDistance: number; jaccardDistance: number }[];
  meanEditDistance: number | null;
  meanJaccardDistance: number | null;
}

/** One replicate of a replicated arm on one evaluation step. */
export interface ReplicateRow {
  replicate: number;
  /** The policy id it was evaluated under (`<arm>#r<r>`). */
  policyId: string;
  evolutionStep: string;
  rngSeed: number | null;
  chosenCandidate: string | null;
  chosenIsSeed: boolean | null;
  /** The chosen prompt (the strategy section), as the evolution returned it: untrusted model text. */
  prompt: string;
  /** Mean W-AUC of its sessions, and its mean paired Δ against the baseline (null without pairs). */
  wAuc: number | null;
  delta: number | null;
  sessions: number;
}

/** A replicated arm on one evaluation step, aggregated over its replicates. */
export interface ReplicatedArm {
  step: string;
  taskSet: string;
  arm: string;
  replicates: number;
  baseline: string;
  /** W-AUC and Δ vs the baseline over replicates → games → seeds → repeats (module docstring). */
  wAuc: Interval | null;
  delta: Interval | null;
  perReplicate: ReplicateRow[];
  /** The spread of the replicates' mean W-AUCs: min, max, max − min and the sample SD (null below 2). */
  wAucSpread: { min: number; max: number; range: number; sd: number | null } | null;
  dissimilarity: PromptDissimilarity;
}

/** The contrast a registration stakes its claim on: arm `a` − arm `b`, on one evaluated task set
 * (`taskSet`) or on every one (null). */
export interface PrimaryContrast {
  a: string;
  b: string;
  taskSet: string | null;
}

/** How a report stands to its registration (report.json's `registration`; null without one). */
export interface RegistrationCheck {
  registeredAt: string;
  codeVersion: string;
  specHash: string;
  primaryContrast: PrimaryContrast;
  alpha: number;
  /** The hash of the spec the run used, and the code that started the run. */
  runSpecHash: string;
  runCodeVersion: string | null;
  /** The run's spec is the registered one and the registration came before the run began. */
  matches: boolean;
  registeredBeforeRun: boolean;
  /** Top-level spec fields whose values differ ("repeats", "taskSets.OOD", …); [] when none. */
  differences: string[];
  /** 'confirmatory' when the run matches; else 'exploratory' (every comparison then is). */
  standing: 'confirmatory' | 'exploratory';
  /** The primary contrast on each evaluation step that measured it: Δ (bootstrap), the
   * its Holm p (the game-level sign-flip p, Holm-adjusted over the report's declared contrasts)
   * and `supported`: the run matches, Holm p ≤ α and Δ > 0 as registered. */
  primary: { step: string; taskSet: string; delta: Comparison['delta']; holmP: number | null; supported: boolean }[];
}

/** A skeptic-holdout fold's result: the held-out gap and the selection test (src/experiment/selection.ts). */
export interface FoldResult {
  fold: string;
  modelSet: number;
  train: string[];
  val: string[];
  test: string[];
  /** Evolved − baseline W-AUC on the held-out game, paired, 95% CI. */
  heldOutGap: Interval | null;
  heldOutWAuc: Interval | null;
  /** The chosen candidate's recorded validation W-AUC (mean over its validation tasks). */
  validationWAuc: number | null;
  /** The chosen candidate's W-AUC in fresh sessions on the same validation games. */
  freshValidationWAuc: Interval | null;
  /** The chosen candidate (null when the evolution has not finished). */
  chosenCandidate: string | null;
  /** The chosen prompt is the seed: no selection happened in this fold (null = unknown). */
  chosenIsSeed: boolean | null;
  /** Recorded − fresh validation W-AUC of the chosen candidate (the winner's curse); Welch
   * t-interval over the fresh sessions, the recorded number held fixed. */
  selectionOptimism: SelectionInterval | null;
  /** (chosen − naive) on the validation games, fresh, − (chosen − naive) on the held-out game;
   * Welch t-interval over the two sets of paired (task, repeat) differences. */
  transferGap: SelectionInterval | null;
}

/** The selection test pooled over folds: each fold weighs 1/F; `selectionOptimism` and
 * `transferGap` are Welch intervals over every fold's sessions (folds fixed), `acrossFolds` the
 * t-interval over the F fold estimates (F − 1 df: the folds as the unit). */
export interface FoldsPooled {
  modelSet: number;
  folds: number;
  seedFolds: number;
  selectionOptimism: SelectionInterval | null;
  transferGap: SelectionInterval | null;
  acrossFolds: { selectionOptimism: { mean: number; low: number | null; high: number | null } | null; transferGap: { mean: number; low: number | null; high: number | null } | null };
}

/** With a registration: the registered primary contrast, another declared one, or exploratory
 * (an undeclared pair, or anything of a run that does not match its registration). */
export type RegisteredAs = 'primary' | 'secondary' | 'exploratory';

export interface ExperimentReport {
  format: 'metattl-experiment-report-1';
  name: string;
  description: string;
  status: ExperimentState['status'];
  settings: { episodes: number; steps: number; repeats: number; bootstrapSeed: number };
  /** The model each role used in each model set, with the set's `label` from the spec when it has one. */
  models: (ExperimentState['models'][number] & { label?: string })[];
  folds: Fold[];
  evolutions: (EvolutionOutcome & { step: string; modelSet: number; fold: string | null; train: string[]; val: string[]; proposer: string; optimizer: 'gepa' | 'opro'; proposerInput?: 'no-trace' })[];
  rows: ExperimentRow[];
  /** The same per game (one level down; intervals over that game's seeds and repeats). */
  perGame: { step: string; taskSet: string; arm: string; game: string; sessions: number; wAuc: Interval; averageScore: Interval; bestScore: Interval }[];
  foldResults: FoldResult[];
  /** The selection test pooled over folds, one row per model set (absent without folds). */
  foldsPooled?: FoldsPooled[];
  /** The fold regime in words (games per split, against the paper's), absent without folds. */
  foldRegime?: string;
  /** The paper's numbers this report compares with, and their setting. `games`: the games each of
   * the paper's task sets consists of; a row shows a paper number only when its evaluated games are
   * exactly that task set's games (a task set not listed, e.g. WebArena-Lite's, is none of ours). */
  paperReference: { source: string; setting: string; games: Record<string, string[]>; numbers: { taskSet: string; arm: string; wAuc: number; averageScore: number | null }[] } | null;
  /** Steps not finished yet (their numbers are missing). */
  pendingSteps: string[];
  /** The declared contrasts on every evaluation step (each arm against the baseline, then the
   * spec's `contrasts`), Holm-corrected over the whole report; `step` names the evaluation. */
  comparisons?: (Comparison & { step: string; registered?: RegisteredAs })[];
  /** Every other pair of arms, uncorrected (the page's "any pair" picker). */
  exploratoryComparisons?: (Comparison & { step: string; registered?: RegisteredAs })[];
  /** The code that started the run (experiment.json's codeVersion; null for older runs). */
  codeVersion?: string | null;
  /** How the run stands to its registration (registration.ts); null when it has none. */
  registration?: RegistrationCheck | null;
  /** `few_games`, `identical_repeats` (from each evaluation, naming its step). */
  warnings?: ReportWarning[];
  /** The Δ the comparisons' repeats-needed estimate is for. */
  powerDelta?: number;
  /** Whether the evolutions run side by side (same model set and fold) are matched in proposals,
   * accepted and validated candidates, one sentence per group of two or more (report.ts
   * `armMatchingOf`); absent or [] when there is no such group. */
  armMatching?: { modelSet: number; fold: string | null; steps: string[]; matched: boolean; text: string }[];
  /** Each evaluation step's vocabulary overlap with its training games (absent when the report
   * was built without the story files, e.g. on the page). */
  vocabulary?: VocabularyOverlapEntry[];
  /** Present when a model set is the simulated model (llm/simulated-model.ts): its notice; then
   * `paperReference` is null — the paper's numbers are never printed beside a simulation's. */
  simulated?: string;
  /** Each replicated evolution arm per evaluation step, aggregated over its replicates (W-AUC and Δ
   * intervals that include the replicates' spread), with each replicate's row, chosen prompt and
   * their pairwise dissimilarity (src/experiment/replicates.ts); absent without replicates. */
  replicated?: ReplicatedArm[];
  /** Each finished recall-probe step (one per model set): recall vs the shuffled control and the
   * best constant guess per game and pooled; absent when the spec has no `recallProbe`. */
  recall?: (Omit<RecallOutcome, 'items' | 'status'> & { step: string; modelSet: number })[];
}
