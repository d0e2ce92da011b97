/**
 * Types of an evaluation (policies × tasks × repeats; method.md "Metrics", "Baselines", "Where we
 * do better"): its config, one result per session, the persisted state, and the report's shapes.
 * No UI or DOM imports.
 */
import type { RecordedLlmSettings, SettingsChangeRecord } from '../llm/interface.ts';
import type { Interval } from '../ttl/metrics.ts';
import type { PolicySpec } from '../ttl/policy.ts';
import type { EvaluatedTask } from '../ttl/session-evaluator.ts';

export interface EvaluatedPolicy {
  /** Unique within the evaluation, e.g. "static", "naive", "fact-bank", "evolved-c3". */
  id: string;
  /** The policy's name for people ("Static", "Fact bank", "Evolved c1 (run evo-…)"); absent in
   * older states = the id. */
  name?: string;
  spec: PolicySpec;
  /** Story ids the policy's meta-prompt was selected on (its evolution's train + validation). */
  selectedOn: string[];
}

export interface TaskSet {
  /** e.g. "ID", "OOD", "custom". */
  name: string;
  tasks: EvaluatedTask[];
}

export interface EvaluationConfig {
  policies: EvaluatedPolicy[];
  taskSets: TaskSet[];
  repeats: number;
  episodes: number;
  maxSteps: number;
  initialGuidingPrompt: string;
  /** The policy differences are measured against. */
  baselinePolicyId: string;
  /** Seed of every bootstrap (B = 2,000). */
  bootstrapSeed: number;
  concurrency: number;
  models: { actor: string; metaAgent: string };
  contextWindow: number;
  /** Contrasts (a − b, policy ids) the report tests and Holm-corrects beside each policy against
   * the baseline (an experiment's key contrasts); absent = only each policy against the baseline. */
  contrasts?: { a: string; b: string }[];
  /** Whether the reply contracts were enforced with grammars (`--provider local`'s
   * `--reply-grammar`); absent for providers that take no grammar (= off). */
  replyGrammar?: boolean;
  /** The provider's base URL and each role's temperature and completion limit the run uses (checked
   * on resume, cli/resume-check.ts); absent in runs made before it was recorded. */
  llm?: RecordedLlmSettings;
  /** Every resume that was allowed to change the models or settings, in order; absent when none. */
  settingsChanges?: SettingsChangeRecord[];
}

/** One session of the evaluation. */
export interface EvaluationResult {
  key: string;
  policyId: string;
  taskId: string;
  /** The game the task is on (the bootstrap's top level). */
  storyId: string;
  taskSet: string;
  repeat: number;
  sessionId: string;
  wAuc: number;
  /** Mean raw episode score, score points. */
  averageScore: number;
  bestScore: number;
  /** Final score per episode. */
  scores: number[];
  /** What the session cost, USD; null when a model it called has no known price at its provider
   * (`EvaluationDeps.prices`), never an invented 0. */
  costUsd: number | null;
}

export interface EvaluationState {
  format: 'metattl-evaluation-1';
  id: string;
  config: EvaluationConfig;
  status: 'running' | 'complete' | 'stopped';
  stopReason: 'stopped' | 'usd_cap' | 'token_cap' | 'provider_error' | null;
  stopMessage: string | null;
  /** In job order (policy, task set, task, repeat), whatever order sessions finished in. */
  results: EvaluationResult[];
  totalSessions: number;
  /** Episodes cut short by provider faults (never scored; their sessions are played again on
   * resume), over every attempt of this evaluation (0 for states stored before they were counted:
   * evaluation-payload.ts). */
  faultedEpisodes: number;
  startedAt: string;
  finishedAt: string | null;
}

export interface MetricSummary {
  wAuc: Interval;
  averageScore: Interval;
  bestScore: Interval;
}

export interface PolicySetSummary extends MetricSummary {
  policyId: string;
  /** The policy's name (`EvaluatedPolicy.name`, else its id; absent in reports built elsewhere = the id). */
  policyName?: string;
  taskSet: string;
  /** Sessions behind these figures. */
  sessions: number;
  games: number;
  /** Paired W-AUC difference against the baseline (null for the baseline itself). */
  diffVsBaseline: Interval | null;
  /** The flag "Δ > 0 (Holm)": the policy-vs-baseline comparison is `positive` (its game-level
   * sign-flip p, Holm-adjusted over the report's declared comparisons, ≤ 0.05 and Δ > 0). */
  beatsBaseline: boolean;
  /** "the evaluated meta-prompt was selected on these games: …" when a test game leaks. */
  leakWarning: string | null;
  /** The policy's meta-agent system message was its meta-prompt's text alone, byte for byte (no
   * header, no footer: policy.ts `raw`); absent otherwise. */
  rawMetaPrompt?: true;
  /** Mean final score per episode index with a CI band (hierarchical over games), raw points. */
  curve: Interval[];
  /** The same normalised per game: final score ÷ the game's max score, so every game weighs the
   * same whatever its scale (absent in older reports, or [] when no max score is known). */
  normalisedCurve?: Interval[];
  /** What these sessions cost in total, USD; null when one of them called a model with no known
   * price at its provider (absent in reports made before it was recorded). */
  costUsd?: number | null;
}

export interface GameSummary extends MetricSummary {
  policyId: string;
  /** The policy's name (`EvaluatedPolicy.name`, else its id; absent in reports built elsewhere = the id). */
  policyName?: string;
  taskSet: string;
  storyId: string;
  sessions: number;
}

/** `{mean, low, high}` of a difference. */
export interface DeltaInterval {
  mean: number;
  low: number;
  high: number;
}

/**
 * One contrast a − b (paired W-AUC difference on the same (game, seed, repeat) units) on one task
 * set: the nested bootstrap (`delta`), each game's own Δ with its interval (`perGame`: bootstrap
 * over that game's seeds and repeats), and the game-level test on the G game means (`gameLevel`:
 * t-interval with G − 1 df, its p, the exact sign-flip p and the smallest p G games can reach).
 * `holmP` is the sign-flip p Holm-adjusted over the report's declared comparisons (null for an
 * exploratory pair); `positive` = holmP ≤ 0.05 and Δ > 0 (the flag "Δ > 0 (Holm)").
 */
export interface Comparison {
  a: string;
  b: string;
  taskSet: string;
  /** Declared (tested, in the Holm family) or an exploratory pair a user may look at. */
  declared: boolean;
  /** Matched session pairs behind the figures. */
  sessions: number;
  delta: DeltaInterval;
  perGame: (DeltaInterval & { game: string; sessions: number })[];
  gameLevel: { tLow: number; tHigh: number; tP: number; signFlipP: number; minP: number; games: number; exact: boolean };
  holmP: number | null;
  positive: boolean;
  /** Repeats per task the game-level t-test needs for 80 % power at Δ = `delta` (the run's own
   * σ and τ; `repeats` null with `reason` when no number of repeats reaches it). */
  power: { delta: number; sessionSd: number; tau: number; seedsPerGame: number; repeatsNow: number; repeatsNeeded: number | null; powerNow: number; reason: string | null };
}

/** A report-wide warning: `few_games` (G < 6), `identical_repeats` (zero-width intervals). */
export interface ReportWarning {
  code: 'few_games' | 'identical_repeats';
  message: string;
  /** The policy an `identical_repeats` warning is about (absent on `few_games`, and in reports written before it was recorded). */
  policyId?: string;
  /** The experiment step whose evaluation gave the warning (set by the experiment's report; absent in an evaluation's own). */
  step?: string;
}

export interface EvaluationReport {
  id: string;
  /** The evaluation's status: a report of a stopped evaluation is partial. */
  status: EvaluationState['status'];
  stopReason: EvaluationState['stopReason'];
  stopMessage: string | null;
  /** Sessions planned (policies × tasks × repeats). */
  plannedSessions: number;
  /** Episodes cut short by provider faults (not scored). */
  faultedEpisodes: number;
  baselinePolicyId: string;
  bootstrap: { resamples: number; seed: number; level: number };
  policies: PolicySetSummary[];
  games: GameSummary[];
  totalSessions: number;
  /** Declared contrasts (each policy against the baseline, plus the config's `contrasts`), Holm-corrected together. */
  comparisons?: Comparison[];
  /** Every other pair of policies, uncorrected (the page's "any pair" picker). */
  exploratoryComparisons?: Comparison[];
  warnings?: ReportWarning[];
  /** Present when the simulated model played (llm/simulated-model.ts): its notice, printed at the top of every report format. */
  simulated?: string;
  /** Who played (llm/model-label.ts `line`: "model: gpt-4o-mini", or the scripted mock's caveat),
   * printed at the top of every report format; absent for the simulated model (`simulated` says it)
   * and in reports made before it was recorded. */
  model?: string;
}
