/**
 * The outer loop (method.md, "Outer loop"; GEPA semantics): evaluate the seed strategy on every
 * validation task; then, while the budget's worst case fits, pick a parent from the Pareto pool,
 * run it on a minibatch, show the proposer the worst run, run the child on the same minibatch,
 * accept it only on a strictly higher summed score, and validate accepted children fully. Options
 * (GEPA ≥ 0.1.4): P parents × N minibatches an iteration (rules/proposals.ts), and a merge
 * tried first after an accepted proposal (merge-iteration.ts, rules/merge.ts).
 *
 * Resume is replay: the loop is deterministic given its seed and the results of its metric calls
 * and proposals, which are cached as they complete; a resumed run re-executes the loop, takes
 * every cached result instead of calling again, and so reaches exactly the state an
 * uninterrupted run reaches. Sessions of one sweep run in parallel; results are collected in job
 * order, never completion order.
 *
 * A provider fault costs only its own metric call's episode: that session stops (its finished
 * episodes kept where `evaluate` keeps them, ttl/session-evaluator.ts) while the other sessions of
 * the sweep go on, and the faulted session is continued from its last finished episode as soon as
 * its attempt ends, while the sweep progresses (ttl/session-passes.ts), so a recovered call counts exactly as a
 * clean one. Only when they stop progressing does the run stop with `provider_error`; a resume
 * replays the loop to that sweep and continues each unfinished session the same way. A cap or
 * Stop still stops every session in flight.
 */
import pLimit from 'p-limit';
import { BudgetReachedError, LlmError } from '../llm/errors.ts';
import type { ChatModel } from '../llm/interface.ts';
import { SeededRng } from '../ttl/rng.ts';
import { faultOutcome, MAX_EXTRA_ATTEMPTS, runRetryingFaults } from '../ttl/session-passes.ts';
import type { SessionRecord } from '../ttl/session-record.ts';
import { COMPLETING_STOP_REASONS, isMinibatchPurpose, type CallPurpose, type Candidate, type EvolutionCache, type EvolutionConfig, type EvolutionEvent, type EvolutionState, type EvolutionTask, type MetricCall, type MetricResult, type StopReason } from './interface.ts';
import { configAt, forkIteration } from './branch.ts';
import { freshEvolutionState } from './fresh-state.ts';
import { evaluateHumanCandidates } from './human-candidate.ts';
import type { RunForReflection } from './reflective-dataset.ts';
import { proposersFor } from './proposers/index.ts';
import { LoopStop, type CandidateProposal, type LoopContext, type SweepGroup } from './proposers/interface.ts';
import { StopConditions } from './rules/stop-conditions.ts';
import { budgetRefusal, canStartIteration, effectiveMinibatch, iterationWorstCase, mergeWorstCase, planBudget, repeatsFor } from './rules/budget.ts';
import { MergeSchedule } from './rules/merge.ts';
import { proposalsPerIteration } from './rules/proposals.ts';
import { EpochMinibatchSampler } from './rules/minibatch.ts';
import { paretoFronts, pruneDominated, type ScoreMatrix } from './rules/pareto.ts';
import { meanScores, selectBest } from './rules/selection.ts';
import { MetattlError } from '../common/errors.ts';

export type { EvolutionCache } from './interface.ts';
export type { SweepGroup } from './proposers/interface.ts';

export interface EvolutionDeps {
  /** Run one session (a metric call) of `strategy` on `task`. Throws BudgetReachedError at a cap,
   * LlmError('aborted') on Stop. */
  evaluate(strategy: string, task: EvolutionTask, repeat: number, sessionId: string, signal?: AbortSignal): Promise<MetricResult>;
  /** The proposer model (needed when config.proposer is 'llm'). */
  proposer: ChatModel | null;
  cache: EvolutionCache;
  onEvent?(event: EvolutionEvent, state: EvolutionState): void | Promise<void>;
  signal?: AbortSignal;
  /** The generator to draw parents and minibatches from, instead of one seeded with
   * `config.rngSeed` (tests that script the draws). */
  rng?: SeededRng;
  /** Faulted episodes counted by earlier attempts of this run (a resume carries them on). */
  faultedEpisodesBefore?: number;
  /** Extra attempts per faulted session of a sweep per invocation (default `MAX_EXTRA_ATTEMPTS`). */
  maxExtraAttempts?: number;
  now?: () => Date;
  /** Whether a stop file is present (the CLI's `<store>/STOP`); checked before each iteration. */
  stopFile?: () => boolean;
  /** The proposer's cost so far, USD (null when unknown), for `stopConditions.maxProposerUsd`. */
  proposerCostUsd?: () => number | null;
  /** Whether to pause at the boundary after `iterationsDone` iterations (after the human candidates
   * recorded there): the run ends `paused`, resumable. Checked at every boundary, replayed ones too. */
  pauseRequested?: (iterationsDone: number) => boolean;
}

/** One finished job of a sweep. */
interface SweepRun {
  call: MetricCall;
  session: SessionRecord;
  task: EvolutionTask;
  repeat: number;
  key: string;
  fromCache: boolean;
}

/** A run whose budget cannot pay for the seed's validation plus one full iteration. */
export class BudgetTooSmallError extends MetattlError {
  override readonly name = 'BudgetTooSmallError';
  constructor(message: string) {
    super('budget_too_small', message);
  }
}

/** The budget arithmetic of a run's config (rules/budget.ts). */
export function budgetPlanOf(config: EvolutionConfig) {
  return planBudget({
    budgetMetricCalls: config.budgetMetricCalls, minibatchSize: config.minibatchSize, trainTasks: config.train.length, valTasks: config.val.length,
    trainRepeats: repeatsFor(config, 'train'), valRepeats: repeatsFor(config, 'val'), proposalsPerIteration: proposalsPerIteration(config.proposals),
  });
}

/**
 * Run (or resume, with a filled cache) an evolution to its end or a stop.
 * @throws BudgetTooSmallError before any call when the budget cannot pay for the seed's
 *   validation plus one full iteration (the message has the numbers)
 */
export async function runEvolution(id: string, config: EvolutionConfig, deps: EvolutionDeps): Promise<EvolutionState> {
  const refusal = budgetRefusal(budgetPlanOf(config), config.budgetMetricCalls);
  if (refusal) throw new BudgetTooSmallError(refusal);
  const now = deps.now ?? (() => new Date());
  const state = freshEvolutionState(id, config, now(), deps.faultedEpisodesBefore ?? 0);
  const loop = createLoop(id, state, deps);
  try {
    await runLoop(loop, deps, now);
  } catch (error) {
    recordStop(state, error);
  }
  state.status = COMPLETING_STOP_REASONS.includes(state.stopReason) ? 'complete' : state.stopReason === 'paused' ? 'paused' : 'stopped';
  state.rngState = loop.rng.getState();
  state.finishedAt = now().toISOString();
  await loop.emit({ type: 'finished', state });
  return state;
}

/** The seed's validation, then iterations until a stop is thrown. */
async function runLoop(loop: LoopContext, deps: EvolutionDeps, now: () => Date): Promise<void> {
  const { state, config } = loop;
  const seed: Candidate = {
    id: 'c0', parentId: null, iteration: 0, strategy: config.seedStrategy, status: 'seed', reason: 'the seed strategy',
    proposerReply: null, valScores: {}, minibatch: null, triggeredBy: null,
  };
  state.candidates.push(seed);
  seed.valScores = loop.meanByTask(await loop.sweep(seed, config.val, 'seed-val'));
  loop.refresh();
  const stops = new StopConditions(config.stopConditions ?? {}, now().getTime());
  for (;;) {
    const { next, mergeDue } = await atBoundary(loop, deps, stops, now);
    state.iteration += 1;
    let proposals: CandidateProposal[] | null = null;
    for (const proposer of proposersFor(next, mergeDue)) {
      proposals = await proposer.propose(loop, next);
      if (proposals !== null) break;
    }
    await judgeAndValidate(loop, proposals ?? []);
  }
}

/**
 * The boundary after `state.iteration` iterations: human candidates recorded there, a pause, the
 * stop conditions, and the budget check for the next iteration.
 * @returns the settings of the next iteration and whether it tries a merge first
 * @throws LoopStop (stopped, paused, a stop condition, budget)
 */
async function atBoundary(loop: LoopContext, deps: EvolutionDeps, stops: StopConditions, now: () => Date): Promise<{ next: EvolutionConfig; mergeDue: boolean }> {
  const { state, config } = loop;
  if (deps.signal?.aborted) throw new LoopStop('stopped', null);
  state.iterationsDone = state.iteration;
  await evaluateHumanCandidates(loop, state.iteration);
  if (deps.pauseRequested?.(state.iteration)) throw new LoopStop('paused', null);
  // A branch replays the source's iterations with the source's settings (branch.ts).
  const next = configAt(config, state.iteration + 1);
  const bestMeanVal = Math.max(0, ...meanScores(loop.scoreMatrix(), config.val.map((t) => t.id)).values());
  const stop = state.iteration < forkIteration(config) ? null : stops.check({ bestMeanVal, nowMs: now().getTime(), proposerUsd: deps.proposerCostUsd?.() ?? null, stopFile: deps.stopFile?.() ?? false });
  if (stop) throw new LoopStop(stop.reason, stop.message);
  // GEPA's engine: a merge is tried first when one is due and the last iteration found a new program.
  const mergeDue = loop.merges?.takeTurn() ?? false;
  const b = effectiveMinibatch(config.minibatchSize, config.train.length);
  const worstCase = Math.max(iterationWorstCase(b, config.val.length, proposalsPerIteration(next.proposals)), mergeDue ? mergeWorstCase(config.val.length) : 0);
  if (!canStartIteration(state.metricCallsUsed, next.budgetMetricCalls, b, config.val.length, worstCase)) {
    throw new LoopStop('budget', `The budget of ${next.budgetMetricCalls} metric calls cannot fit another iteration (${state.metricCallsUsed} used).`);
  }
  return { next, mergeDue };
}

/** GEPA's engine after a proposal: play the children on their subsamples in one sweep, judge each
 * (AllImprovements: every child passing its rule joins, except a repeat of an earlier accepted
 * child's text), and validate the accepted ones fully. */
async function judgeAndValidate(loop: LoopContext, proposals: readonly CandidateProposal[]): Promise<void> {
  if (proposals.length === 0) return;
  const childRuns = await loop.sweepMany(proposals.map(({ child, tasks, purpose }) => ({ candidate: child, tasks, purpose })));
  const accepted: Candidate[] = [];
  for (const [index, proposal] of proposals.entries()) {
    const { child } = proposal;
    const childSum = proposal.childSum(childRuns[index]!);
    child.minibatch!.childSum = childSum;
    const verdict = proposal.judge(childSum);
    const duplicate = accepted.find((a) => a.strategy.trim() === child.strategy.trim());
    if (verdict.accepted && !duplicate) {
      child.status = 'accepted';
      child.reason = verdict.reason;
      accepted.push(child);
      proposal.onAccepted();
      continue;
    }
    child.status = 'rejected';
    child.reason = duplicate ? `the same text as ${duplicate.id}, accepted this iteration` : verdict.reason;
    loop.state.rngState = loop.rng.getState();
    await loop.emit({ type: 'rejected', candidate: child });
  }
  if (accepted.length === 0) return;
  for (const child of accepted) await loop.emit({ type: 'accepted', candidate: child });
  const valRuns = await loop.sweepMany(accepted.map((child) => ({ candidate: child, tasks: loop.config.val, purpose: 'child-val' })));
  for (const [index, child] of accepted.entries()) {
    child.valScores = loop.meanByTask(valRuns[index]!);
    loop.refresh();
    await loop.emit({ type: 'validation_done', candidate: child, fronts: loop.state.fronts });
  }
}

/** The loop's context over `state`: its RNG, sampler, merge schedule, sweeps and pool views. */
function createLoop(id: string, state: EvolutionState, deps: EvolutionDeps): LoopContext {
  const { config } = state;
  const rng = deps.rng ?? new SeededRng(config.rngSeed);
  const valIds = config.val.map((t) => t.id);
  const emit = async (event: EvolutionEvent) => deps.onEvent?.(event, state);
  const sweepMany = sweeper(id, state, deps, emit);
  const scoreMatrix = (): ScoreMatrix => Object.fromEntries(state.candidates.filter((c) => c.status === 'seed' || c.status === 'accepted').map((c) => [c.id, c.valScores]));
  return {
    state, config, rng, emit, sweepMany, scoreMatrix,
    sampler: new EpochMinibatchSampler(config.train.map((t) => t.id), config.minibatchSize),
    merges: config.merge ? new MergeSchedule(config.merge.maxMerges) : null,
    sweep: async (candidate, tasks, purpose) => (await sweepMany([{ candidate, tasks, purpose }]))[0]!,
    meanByTask: (runs) => {
      const sums = new Map<string, number[]>();
      for (const r of runs) sums.set(r.taskId, [...(sums.get(r.taskId) ?? []), r.wAuc]);
      return Object.fromEntries([...sums].map(([t, xs]) => [t, xs.reduce((a, b) => a + b, 0) / xs.length]));
    },
    refresh: () => {
      const scores = scoreMatrix();
      state.fronts = pruneDominated(paretoFronts(scores, valIds), scores, valIds);
      state.best = selectBest(scores, valIds);
      const best = Math.max(...meanScores(scores, valIds).values());
      state.progress.push({ metricCallsUsed: state.metricCallsUsed, bestMeanVal: best });
      state.rngState = rng.getState();
    },
    model: deps.proposer, cache: deps.cache, signal: deps.signal, maxExtraAttempts: deps.maxExtraAttempts ?? MAX_EXTRA_ATTEMPTS, consecutiveFailures: 0,
  };
}

/** The loop's sweep: each group's candidate × tasks × repeats as one sweep; results per group, in
 * job order (never completion order). Each (candidate, task) is one metric call. */
function sweeper(id: string, state: EvolutionState, deps: EvolutionDeps, emit: (event: EvolutionEvent) => Promise<void>) {
  const { config } = state;
  const limit = pLimit(Math.max(1, config.concurrency));
  const repeatsOf = (purpose: CallPurpose) => repeatsFor(config, isMinibatchPurpose(purpose) ? 'train' : 'val');
  return async (groups: readonly SweepGroup[]): Promise<RunForReflection[][]> => {
    const jobs = groups.flatMap(({ candidate, tasks, purpose }, group) => tasks.flatMap((task) => Array.from({ length: repeatsOf(purpose) }, (_, repeat) => ({ group, candidate, purpose, task, repeat }))));
    // A faulted session is continued as soon as its attempt ends, while the sweep progresses (ttl/session-passes.ts):
    // a call that recovers within the invocation is recorded exactly as a clean one.
    const { values, fault } = await runRetryingFaults<SweepRun>(jobs.length, async (index, signal) => {
      const { candidate, purpose, task, repeat } = jobs[index]!;
      const key = `${state.iteration}:${purpose}:${candidate.id}:${task.id}:${repeat}`;
      const cached = await deps.cache.getCall(key);
      if (cached) return { kind: 'done', value: { ...cached, task, repeat, key, fromCache: true } };
      if (signal.aborted) throw new LoopStop('stopped', null);
      const sessionId = `${id}:${key}`;
      const result = await deps.evaluate(candidate.strategy, task, repeat, sessionId, signal);
      state.faultedEpisodes = state.faultedEpisodes + (result.faultedNow ?? result.session.faultedEpisodes);
      if (result.session.status !== 'complete') {
        if (result.session.stopReason === 'provider') return faultOutcome(result.session, result.finishedNow ?? 0);
        throw new LoopStop(sessionStopReason(result.session), result.session.stopMessage);
      }
      const call: MetricCall = { key, candidateId: candidate.id, taskId: task.id, repeat, purpose, iteration: state.iteration, sessionId, wAuc: result.wAuc, scores: result.scores };
      await deps.cache.putCall(call, result.session);
      return { kind: 'done', value: { call, session: result.session, task, repeat, key, fromCache: false } };
    }, { limit, signal: deps.signal, stopped: () => new LoopStop('stopped', null), maxExtraAttempts: deps.maxExtraAttempts ?? MAX_EXTRA_ATTEMPTS });
    if (fault !== null) throw new LoopStop('provider_error', fault);
    const out: RunForReflection[][] = groups.map(() => []);
    for (const [index, r] of values.entries()) {
      if (r === undefined) continue;
      const job = jobs[index]!;
      state.metricCalls.push(r.call);
      state.sessionsPlayed = state.sessionsPlayed + 1;
      // The (candidate, task) metric call is charged once, with its last repeat.
      if (r.repeat === repeatsOf(job.purpose) - 1) state.metricCallsUsed += 1;
      await emit({ type: 'metric_call_done', call: r.call, metricCallsUsed: state.metricCallsUsed, fromCache: r.fromCache });
      out[job.group]!.push({ taskId: r.task.id, repeat: r.repeat, callKey: r.key, wAuc: r.call.wAuc, session: r.session });
    }
    await emit({ type: 'budget_spent', metricCallsUsed: state.metricCallsUsed, budget: config.budgetMetricCalls });
    return out;
  };
}

/** Record why the run stopped from what the loop threw; anything else is rethrown. */
function recordStop(state: EvolutionState, error: unknown): void {
  if (error instanceof LoopStop) {
    state.stopReason = error.reason;
    state.stopMessage = error.reason === 'stopped' || error.reason === 'paused' ? null : error.message;
  } else if (error instanceof BudgetReachedError) {
    state.stopReason = error.cap === 'tokens' ? 'token_cap' : 'usd_cap';
    state.stopMessage = error.message;
  } else if (error instanceof LlmError && error.kind === 'aborted') {
    state.stopReason = 'stopped';
  } else {
    throw error;
  }
}

/** Why the run stops when one of its sessions stopped. */
function sessionStopReason(session: SessionRecord): StopReason {
  if (session.stopReason === 'provider') return 'provider_error';
  if (session.stopReason === 'budget') return /token/.test(session.stopMessage ?? '') ? 'token_cap' : 'usd_cap';
  return 'stopped';
}
