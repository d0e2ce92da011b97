/**
 * Types of an evaluation (policies × tasks × repeats; method.md "Metrics", "Baselines", "Where we
 * do better"): its config, one result per session, the persisted state, and the report's shapes.
 * No UI or DOM imports.
 */
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
  /** Whether the reply contracts were enforced with grammars (`--provider local`'s
   * `--reply-grammar`); absent for providers that take no grammar (= off). */
  replyGrammar?: boolean;
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
   * resume), over every attempt of this evaluation. Absent in older states = 0. */
  faultedEpisodes?: number;
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
  /** True when the difference's CI excludes 0 in the policy's favour. */
  beatsBaseline: boolean;
  /** "the evaluated meta-prompt was selected on these games: …" when a test game leaks. */
  leakWarning: string | null;
  /** Mean final score per episode index with a CI band (hierarchical over games). */
  curve: Interval[];
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
}
