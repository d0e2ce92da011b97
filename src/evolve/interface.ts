/**
 * Types of the outer loop (method.md, "Outer loop"; GEPA, Agrawal et al. 2025): tasks, candidates
 * (strategy sections), metric calls (one candidate on one task, over its repeats; one session each
 * repeat), the run's config and state, and the
 * typed progress events. Plain data, persisted as an evolution run. No UI or DOM imports.
 */
import type { TaskDescriptor } from '../agents/kind-texts.ts';
import type { CallUsage, RecordedLlmSettings, SettingsChangeRecord } from '../llm/interface.ts';
import type { SessionRecord } from '../ttl/session-record.ts';
import type { Acceptance } from './rules/acceptance.ts';
import type { CandidateSelection } from './rules/candidate-selection.ts';
import type { ProposerInput, ProposerInstruction } from './rules/llm-proposer.ts';
import type { Optimizer } from './rules/opro-proposer.ts';
import type { ProposalsConfig } from './rules/proposals.ts';

/** A task: a story file and a seed, or a web task. `id` is unique within a run (e.g. "detective:0", "web:shop/t3:2"). */
export interface EvolutionTask {
  id: string;
  storyId: string;
  title: string;
  md5: string;
  seed: number;
  maxScore: number;
  /** A web task's kind and id (absent: a Z-machine story). */
  task?: TaskDescriptor;
}

/** 'random': one sentence from our curated strategies (random-mutation.ts, kept for the runs that
 * used it); 'random-neutral': the matched control (rules/neutral-mutation.ts). */
export type ProposerMode = 'llm' | 'random' | 'random-neutral';

export interface EvolutionConfig {
  train: EvolutionTask[];
  val: EvolutionTask[];
  /** Sessions per (candidate, task) when `trainRepeats` / `valRepeats` are not set (runs stored
   * before they existed); fitness on a task = mean W-AUC over its sessions. */
  repeats: number;
  /** Sessions per (candidate, minibatch task) (reference: 1). Default `repeats`. */
  trainRepeats?: number;
  /** Sessions per (candidate, validation task) (reference: 5). Default `repeats`. */
  valRepeats?: number;
  /** K and S of every session. */
  episodes: number;
  maxSteps: number;
  initialGuidingPrompt: string;
  /** The seed candidate's strategy section (default '' = naive). */
  seedStrategy: string;
  /** Minibatch size b (reference 1). */
  minibatchSize: number;
  /** Budget in metric calls (one metric call = one candidate evaluated on one task, whatever its
   * repeats, as in GEPA). */
  budgetMetricCalls: number;
  /** Stop after this many consecutive failed proposals (empty, truncated, unchanged). */
  maxConsecutiveFailures: number;
  proposer: ProposerMode;
  /** The word edit sizes `random-neutral` draws from, and where they came from ("measured: …" from
   * the LLM arm's recorded candidates, "given", or "default": rules/neutral-mutation.ts
   * DEFAULT_EDIT_SIZES). Absent = the default. Recorded so a resumed run draws the same edits. */
  editSizes?: { sizes: number[]; source: string };
  /** What the LLM proposer sees besides the parent (rules/llm-proposer.ts ProposerInput):
   * absent = 'full' (the worst run's reflective dataset); 'no-trace' = no trajectory (GEPA optimizer only). */
  proposerInput?: ProposerInput;
  /** The LLM proposer's instruction: 'gepa' (keep game facts; the default for new runs) or
   * 'general-rules' (the ablation). Absent in runs made before the choice = 'general-rules'. */
  proposerInstruction?: ProposerInstruction;
  /** Which outer loop writes the LLM proposals: 'gepa' (reflective mutation of the parent; absent =
   * 'gepa') or 'opro' (rules/opro-proposer.ts: the scored history of the pool, best last). Budget,
   * pool, selection and acceptance are the same for both. Needs `proposer: 'llm'`. */
  optimizer?: Optimizer;
  /** Seed of the run's RNG (parent selection, minibatches, random mutations). */
  rngSeed: number;
  /** Sessions run at once. */
  concurrency: number;
  models: { actor: string; metaAgent: string; proposer: string };
  contextWindow: number;
  /** How the next parent is chosen (GEPA's `candidate_selection_strategy`); absent = 'pareto'. */
  candidateSelection?: CandidateSelection;
  /** ε of 'epsilon_greedy' (default 0.1) and k of 'top_k_pareto' (default 5). */
  epsilon?: number;
  topK?: number;
  /** The local acceptance rule (GEPA's `acceptance_criterion`); absent = 'strict_improvement'. */
  acceptance?: Acceptance;
  /** Stop conditions besides the budget (rules/stop-conditions.ts); absent = none. */
  stopConditions?: StopConditionsConfig;
  /** GEPA's merge proposer (`use_merge`, rules/merge.ts): at most `maxMerges` accepted merges
   * (GEPA's `max_merge_invocations`, default 5); absent = off. */
  merge?: { maxMerges: number };
  /** Proposals per iteration, P parents × N mutations (rules/proposals.ts); absent = 1 × 1. */
  proposals?: ProposalsConfig;
  /** Whether the reply contracts were enforced with grammars (`--provider local`'s
   * `--reply-grammar`); absent for providers that take no grammar (= off). */
  replyGrammar?: boolean;
  /** The provider's base URL and each role's temperature and completion limit the run uses (checked
   * on resume, cli/resume-check.ts); absent in runs made before it was recorded. */
  llm?: RecordedLlmSettings;
  /** Every resume that was allowed to change the models or settings, in order; absent when none. */
  settingsChanges?: SettingsChangeRecord[];
  /** Candidates a person added (human-candidate.ts), each evaluated at the iteration boundary it
   * names, in order; replayed on resume like the loop's own. Absent = none. */
  humanCandidates?: HumanCandidateSpec[];
  /** The run this one was branched from (branch.ts): its iterations up to `iteration` are the
   * source's, replayed from copied results with `config` (the source's own settings). */
  branchedFrom?: BranchOrigin;
}

/** A candidate written by a person (or proposed from a person's feedback), evaluated after
 * iteration `afterIteration` (0 = right after the seed's validation) like a proposal: parent and
 * child on `minibatch`, accepted by the run's acceptance rule, then validated. */
export interface HumanCandidateSpec {
  afterIteration: number;
  parentId: string;
  /** The strategy section to evaluate. */
  strategy: string;
  /** Training task ids of its minibatch (chosen when it was added, not with the run's RNG). */
  minibatch: string[];
  /** The person's feedback when the proposer wrote `strategy` from it (its reply in `proposerReply`). */
  feedback?: string;
  proposerReply?: string;
  /** The model the provider said wrote `proposerReply` (absent when it named none). */
  providerModel?: string;
}

/** Where a branched run forked: after iteration `iteration` of run `runId`, whose settings were `config`. */
export interface BranchOrigin {
  runId: string;
  iteration: number;
  config: EvolutionConfig;
}

export type CandidateStatus = 'seed' | 'accepted' | 'rejected' | 'failed';

export interface Candidate {
  id: string;
  parentId: string | null;
  iteration: number;
  strategy: string;
  status: CandidateStatus;
  /** Why it was accepted, rejected or failed (e.g. "minibatch sum 0.41 > 0.38"). */
  reason: string;
  /** The proposer's full reply (null for the seed and random mutations). */
  proposerReply: string | null;
  /** Mean W-AUC per validation task (accepted and seed candidates only). */
  valScores: Record<string, number>;
  /** The minibatch comparison of its iteration. */
  minibatch: { taskIds: string[]; parentSum: number; childSum: number | null } | null;
  /** The parent session whose worst run was shown to the proposer. */
  triggeredBy: { taskId: string; repeat: number; callKey: string } | null;
  /** A merge (rules/merge.ts): both parents (`parentId` is the first), their common
   * ancestor, the parent whose text it took, and the parents' summed scores on the validation
   * subsample (in `minibatch.taskIds`; `minibatch.parentSum` is the larger). Absent otherwise. */
  merge?: { parentIds: [string, string]; ancestorId: string; textFrom: string; parentSums: [number, number] };
  /** Who proposed it: absent = the loop's proposer (or the seed); 'human' = a person (edit or feedback). */
  origin?: 'human';
  /** The person's feedback it was proposed from (human candidates written by the proposer). */
  humanFeedback?: string;
  /** The proposer call's tokens and cost (LLM proposals; absent for random draws and for runs
   * recorded before it was kept). */
  proposerUsage?: { promptTokens: number; completionTokens: number; costUsd: number };
  /** The model the provider said the proposer call used, and its `system_fingerprint` (LLM
   * proposals whose reply named them; absent otherwise and in runs recorded before). */
  providerModel?: string;
  systemFingerprint?: string;
  /** Word edit distance from the parent's strategy (accounting.ts `wordEditDistance`), for
   * proposals that produced a text; absent otherwise and in older runs (then computed). */
  editSize?: number;
}

/** What a metric call was for ('merge-mb': a merged candidate on its validation subsample). */
export type CallPurpose = 'seed-val' | 'parent-mb' | 'child-mb' | 'child-val' | 'merge-mb' | HumanCallPurpose;
/** A human candidate's metric calls: its parent and itself on its minibatch, then its validation. */
export type HumanCallPurpose = 'human-parent-mb' | 'human-mb' | 'human-val';
/** Every metric call purpose (for schemas). */
export const CALL_PURPOSES = ['seed-val', 'parent-mb', 'child-mb', 'child-val', 'merge-mb', 'human-parent-mb', 'human-mb', 'human-val'] as const satisfies readonly CallPurpose[];
/** Whether a purpose runs on a training minibatch (train repeats) rather than on validation tasks
 * (a merge's subsample is of validation tasks: validation repeats). */
export const isMinibatchPurpose = (purpose: CallPurpose): boolean => purpose === 'parent-mb' || purpose === 'child-mb' || purpose === 'human-parent-mb' || purpose === 'human-mb';

/** One session of a metric call (a metric call = a candidate on a task, over its repeats). */
export interface MetricCall {
  /** Unique, deterministic key: `${iteration}:${purpose}:${candidateId}:${taskId}:${repeat}`. */
  key: string;
  candidateId: string;
  taskId: string;
  repeat: number;
  purpose: CallPurpose;
  iteration: number;
  sessionId: string;
  wAuc: number;
  scores: number[];
}

/** A run's extra stop conditions; absent fields are off. Recorded in the run's config. */
export interface StopConditionsConfig {
  /** Stop after this many iterations in a row without a higher best mean validation W-AUC (≥ 1). */
  noImprovementIterations?: number;
  /** Stop once the best mean validation W-AUC reaches this (0–1). */
  scoreThreshold?: number;
  /** Stop once this many minutes have passed since the invocation started (> 0). */
  timeLimitMinutes?: number;
  /** Stop once the proposer's own cost reaches this many USD (> 0; needs its price). */
  maxProposerUsd?: number;
}

/** Results kept across stops: metric calls with their sessions, and proposer replies. */
export interface EvolutionCache {
  getCall(key: string): Promise<{ call: MetricCall; session: SessionRecord } | undefined>;
  putCall(call: MetricCall, session: SessionRecord): Promise<void>;
  /** `index`: the proposal's index within its iteration (0 when an iteration makes one). */
  getProposal(iteration: number, index?: number): Promise<({ reply: string; finishReason: string | null; usage?: CallUsage | null } & ProposalProvenance) | undefined>;
  /** `usage`: the proposer call's tokens and cost (null when it failed), so resumed runs count it;
   * `provenance`: the model the provider said it used (kept with the reply, so a resume keeps it). */
  putProposal(iteration: number, reply: string, finishReason: string | null, usage: CallUsage | null, index?: number, provenance?: ProposalProvenance): Promise<void>;
}

/** What the provider said about a proposer call: the reply's `model` and `system_fingerprint`
 * (llm/interface.ts `Completion`); each absent when the reply did not send it. */
export interface ProposalProvenance {
  providerModel?: string;
  systemFingerprint?: string;
}

export type StopReason = 'budget' | 'failures' | 'usd_cap' | 'token_cap' | 'stopped' | 'provider_error'
  | 'no_improvement' | 'score_threshold' | 'time_limit' | 'proposer_usd_cap' | 'stop_file' | 'paused' | null;
/** Every non-null stop reason (for schemas). */
export const STOP_REASONS = ['budget', 'failures', 'usd_cap', 'token_cap', 'stopped', 'provider_error', 'no_improvement', 'score_threshold', 'time_limit', 'proposer_usd_cap', 'stop_file', 'paused'] as const;

/** Stop reasons that end a run as complete (the rest leave it stopped and resumable). */
export const COMPLETING_STOP_REASONS: readonly StopReason[] = ['budget', 'failures', 'no_improvement', 'score_threshold', 'time_limit', 'proposer_usd_cap'];

export interface EvolutionState {
  format: 'metattl-evolution-1';
  id: string;
  /** The code that started the run (src/common/code-version.ts); absent in runs stored before it was
   * recorded (no upgrade step can know it: readers say "unknown"). */
  codeVersion?: string;
  config: EvolutionConfig;
  /** 'paused': held at an iteration boundary on request (stopReason 'paused'); resumable as 'stopped' is. */
  status: 'running' | 'complete' | 'stopped' | 'paused';
  stopReason: StopReason;
  stopMessage: string | null;
  candidates: Candidate[];
  metricCalls: MetricCall[];
  metricCallsUsed: number;
  /** Sessions played (every repeat of every metric call); runs stored before it was counted get
   * one per metric call at load (evolution-payload.ts). */
  sessionsPlayed: number;
  /** Episodes cut short by a provider fault (not scored, replayed on resume), over the run (0 for
   * runs stored before they were counted). */
  faultedEpisodes: number;
  /** Charged failed proposals (each one metric call). */
  failedProposals: number;
  /** Validation task id → candidate ids tied best there. */
  fronts: Record<string, string[]>;
  iteration: number;
  /** Iterations finished (the last boundary reached): equal to `iteration` when the run stopped or
   * paused between iterations, one less when it stopped inside one. Absent before the first
   * boundary (boundary 0: the seed validated) and in runs stored before it was kept. */
  iterationsDone?: number;
  rngState: number;
  /** Best by mean validation W-AUC, and by mean per-task z-scored W-AUC. */
  best: { byMean: string | null; byZScore: string | null };
  /** Best-so-far mean validation W-AUC after each budget step, for the dashboard curve. */
  progress: { metricCallsUsed: number; bestMeanVal: number }[];
  startedAt: string;
  finishedAt: string | null;
}

/** A finished metric call's session, handed to the loop by the injected evaluator. */
export interface MetricResult {
  session: SessionRecord;
  wAuc: number;
  scores: number[];
  /** Episodes faulted in this attempt only (a continued session's record also counts earlier
   * attempts'); when absent, all of `session.faultedEpisodes`. */
  faultedNow?: number;
  /** Episodes finished in this attempt (progress for ttl/session-passes.ts); absent = 0. */
  finishedNow?: number;
}

/** Typed progress events (observed by the UI and the store; they cannot steer the loop). */
export type EvolutionEvent =
  /** One per proposal of the iteration (`proposalIndex` 0… when several), or one for a merge
   * (`mergeOf`, its minibatch the validation subsample). */
  | { type: 'iteration_started'; iteration: number; parentId: string; minibatch: string[]; proposalIndex?: number; mergeOf?: [string, string] }
  /** `fromCache`: the result was replayed from the run's cache (a resume catching up), not run now. */
  | { type: 'metric_call_done'; call: MetricCall; metricCallsUsed: number; fromCache: boolean }
  | { type: 'proposal_made'; iteration: number; candidate: Candidate }
  | { type: 'proposal_failed'; iteration: number; candidate: Candidate }
  | { type: 'accepted'; candidate: Candidate }
  | { type: 'rejected'; candidate: Candidate }
  | { type: 'validation_done'; candidate: Candidate; fronts: Record<string, string[]> }
  | { type: 'budget_spent'; metricCallsUsed: number; budget: number }
  | { type: 'finished'; state: EvolutionState };
