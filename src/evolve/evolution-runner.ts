/**
 * The outer loop (method.md, "Outer loop"; GEPA semantics): evaluate the seed strategy on every
 * validation task; then, while the budget's worst case fits, pick a parent from the Pareto pool,
 * run it on a minibatch, show the proposer the worst run, run the child on the same minibatch,
 * accept it only on a strictly higher summed score, and validate accepted children fully. Options
 * (GEPA ≥ 0.1.4): P parents × N minibatches an iteration (strategies/proposals.ts), and a merge
 * tried first after an accepted proposal (merge-iteration.ts, strategies/merge.ts).
 *
 * Resume is replay: the loop is deterministic given its seed and the results of its metric calls
 * and proposals, which are cached as they complete; a resumed run re-executes the loop, takes
 * every cached result instead of calling again, and so reaches exactly the state an
 * uninterrupted run reaches. Sessions of one sweep run in parallel; results are collected in job
 * order, never completion order.
 *
 * A provider fault costs only its own metric call's episode: that session stops (its finished
 * episodes kept where `evaluate` keeps them, ttl/session-evaluator.ts) while the other sessions of
 * the sweep go on; further passes then continue the faulted sessions from their last finished
 * episode while passes progress (ttl/session-passes.ts), so a recovered call counts exactly as a
 * clean one. Only when they stop progressing does the run stop with `provider_error`; a resume
 * replays the loop to that sweep and continues each unfinished session the same way. A cap or
 * Stop still stops every session in flight.
 */
import { codeVersion } from '../common/code-version.ts';
import pLimit from 'p-limit';
import { BudgetReachedError, LlmError, SYSTEMIC_KINDS } from '../llm/errors.ts';
import type { ChatModel } from '../llm/interface.ts';
import { SeededRng } from '../ttl/rng.ts';
import { faultOutcome, MAX_EXTRA_PASSES, runInPasses } from '../ttl/session-passes.ts';
import type { SessionRecord } from '../ttl/session-record.ts';
import { COMPLETING_STOP_REASONS, isMinibatchPurpose, type CallPurpose, type Candidate, type EvolutionCache, type EvolutionConfig, type EvolutionEvent, type EvolutionState, type EvolutionTask, type MetricCall, type MetricResult, type StopReason } from './interface.ts';
import { wordEditDistance } from './accounting.ts';
import { configAt, forkIteration } from './branch.ts';
import { evaluateHumanCandidates } from './human-candidate.ts';
import { formatReflectiveRecord, worstRun, type RunForRecord } from './reflective-record.ts';
import { acceptanceRule } from './strategies/acceptance.ts';
import { selectCandidate } from './strategies/candidate-selection.ts';
import { StopConditions } from './strategies/stop-conditions.ts';
import { budgetRefusal, canStartIteration, effectiveMinibatch, iterationWorstCase, mergeWorstCase, planBudget, repeatsFor } from './strategies/budget.ts';
import { runMergeIteration, type LoopContext } from './merge-iteration.ts';
import { MergeSchedule } from './strategies/merge.ts';
import { drawProposalSlots, proposalsPerIteration } from './strategies/proposals.ts';
import { buildProposerMessages, parseProposal } from './strategies/llm-proposer.ts';
import { buildOproMessages, scoredHistory } from './strategies/opro-proposer.ts';
import { EpochMinibatchSampler } from './strategies/minibatch.ts';
import { paretoFronts, pruneDominated, type ScoreMatrix } from './strategies/pareto.ts';
import { mutateStrategy } from './strategies/random-mutation.ts';
import { DEFAULT_EDIT_SIZES, neutralEdit } from './strategies/neutral-mutation.ts';
import { meanScores, selectBest } from './strategies/selection.ts';

export type { EvolutionCache } from './interface.ts';

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
  /** Extra passes over a sweep's faulted sessions per invocation (default `MAX_EXTRA_PASSES`). */
  maxExtraPasses?: number;
  now?: () => Date;
  /** Whether a stop file is present (the CLI's `<store>/STOP`); checked before each iteration. */
  stopFile?: () => boolean;
  /** The proposer's cost so far, USD (null when unknown), for `stopConditions.maxProposerUsd`. */
  proposerCostUsd?: () => number | null;
  /** Whether to pause at the boundary after `iterationsDone` iterations (after the human candidates
   * recorded there): the run ends `paused`, resumable. Checked at every boundary, replayed ones too. */
  pauseRequested?: (iterationsDone: number) => boolean;
}

/** What one part of a sweep runs: a candidate on tasks, for a purpose. */
export interface SweepGroup {
  candidate: Candidate;
  tasks: EvolutionTask[];
  purpose: CallPurpose;
}

const zip = <A, B>(as: readonly A[], bs: readonly B[]): [A, B][] => as.map((a, i) => [a, bs[i]!]);

/** One finished job of a sweep. */
interface SweepRun {
  call: MetricCall;
  session: SessionRecord;
  task: EvolutionTask;
  repeat: number;
  key: string;
  fromCache: boolean;
}

class Stop extends Error {
  constructor(
    readonly reason: StopReason,
    message: string | null,
  ) {
    super(message ?? String(reason));
  }
}

/** A run whose budget cannot pay for the seed's validation plus one full iteration. */
export class BudgetTooSmallError extends RangeError {
  override readonly name = 'BudgetTooSmallError';
}

/** The budget arithmetic of a run's config (strategies/budget.ts). */
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
  const state: EvolutionState = {
    format: 'metattl-evolution-1', id, config, status: 'running', stopReason: null, stopMessage: null,
    candidates: [], metricCalls: [], metricCallsUsed: 0, sessionsPlayed: 0, faultedEpisodes: deps.faultedEpisodesBefore ?? 0, failedProposals: 0, fronts: {}, iteration: 0,
    rngState: config.rngSeed >>> 0, best: { byMean: null, byZScore: null }, progress: [], startedAt: now().toISOString(), finishedAt: null, codeVersion: codeVersion(),
  };
  const rng = deps.rng ?? new SeededRng(config.rngSeed);
  const sampler = new EpochMinibatchSampler(config.train.map((t) => t.id), config.minibatchSize);
  const valIds = config.val.map((t) => t.id);
  const emit = async (event: EvolutionEvent) => deps.onEvent?.(event, state);
  const limit = pLimit(Math.max(1, config.concurrency));

  /** Run each group's candidate × tasks × repeats as one sweep; results per group, in job order
   * (never completion order). Each (candidate, task) is one metric call. */
  const sweepMany = async (groups: readonly SweepGroup[]): Promise<RunForRecord[][]> => {
    const repeatsOf = (purpose: CallPurpose) => repeatsFor(config, isMinibatchPurpose(purpose) ? 'train' : 'val');
    const jobs = groups.flatMap(({ candidate, tasks, purpose }, group) => tasks.flatMap((task) => Array.from({ length: repeatsOf(purpose) }, (_, repeat) => ({ group, candidate, purpose, task, repeat }))));
    // Sessions left faulted by a pass get further passes while passes progress (ttl/session-passes.ts):
    // a call that recovers within the invocation is recorded exactly as a clean one.
    const { values, fault } = await runInPasses<SweepRun>(jobs.length, async (index, signal) => {
      const { candidate, purpose, task, repeat } = jobs[index]!;
      const key = `${state.iteration}:${purpose}:${candidate.id}:${task.id}:${repeat}`;
      const cached = await deps.cache.getCall(key);
      if (cached) return { kind: 'done', value: { ...cached, task, repeat, key, fromCache: true } };
      if (signal.aborted) throw new Stop('stopped', null);
      const sessionId = `${id}:${key}`;
      const result = await deps.evaluate(candidate.strategy, task, repeat, sessionId, signal);
      state.faultedEpisodes = (state.faultedEpisodes ?? 0) + (result.faultedNow ?? result.session.faultedEpisodes ?? 0);
      if (result.session.status !== 'complete') {
        if (result.session.stopReason === 'provider') return faultOutcome(result.session, result.finishedNow ?? 0);
        throw new Stop(sessionStopReason(result.session), result.session.stopMessage);
      }
      const call: MetricCall = { key, candidateId: candidate.id, taskId: task.id, repeat, purpose, iteration: state.iteration, sessionId, wAuc: result.wAuc, scores: result.scores };
      await deps.cache.putCall(call, result.session);
      return { kind: 'done', value: { call, session: result.session, task, repeat, key, fromCache: false } };
    }, { limit, signal: deps.signal, stopped: () => new Stop('stopped', null), maxExtraPasses: deps.maxExtraPasses ?? MAX_EXTRA_PASSES });
    if (fault !== null) throw new Stop('provider_error', fault);
    const out: RunForRecord[][] = groups.map(() => []);
    for (const [index, r] of values.entries()) {
      if (r === undefined) continue;
      const job = jobs[index]!;
      state.metricCalls.push(r.call);
      state.sessionsPlayed = (state.sessionsPlayed ?? 0) + 1;
      // The (candidate, task) metric call is charged once, with its last repeat.
      if (r.repeat === repeatsOf(job.purpose) - 1) state.metricCallsUsed += 1;
      await emit({ type: 'metric_call_done', call: r.call, metricCallsUsed: state.metricCallsUsed, fromCache: r.fromCache });
      out[job.group]!.push({ taskId: r.task.id, repeat: r.repeat, callKey: r.key, wAuc: r.call.wAuc, session: r.session });
    }
    await emit({ type: 'budget_spent', metricCallsUsed: state.metricCallsUsed, budget: config.budgetMetricCalls });
    return out;
  };
  const sweep = async (candidate: Candidate, tasks: EvolutionTask[], purpose: CallPurpose) => (await sweepMany([{ candidate, tasks, purpose }]))[0]!;

  const meanByTask = (runs: RunForRecord[]): Record<string, number> => {
    const sums = new Map<string, number[]>();
    for (const r of runs) sums.set(r.taskId, [...(sums.get(r.taskId) ?? []), r.wAuc]);
    return Object.fromEntries([...sums].map(([t, xs]) => [t, xs.reduce((a, b) => a + b, 0) / xs.length]));
  };
  const sum = (scores: Record<string, number>) => Object.values(scores).reduce((a, b) => a + b, 0);
  const scoreMatrix = (): ScoreMatrix => Object.fromEntries(state.candidates.filter((c) => c.status === 'seed' || c.status === 'accepted').map((c) => [c.id, c.valScores]));
  const refresh = () => {
    const scores = scoreMatrix();
    state.fronts = pruneDominated(paretoFronts(scores, valIds), scores, valIds);
    state.best = selectBest(scores, valIds);
    const best = Math.max(...meanScores(scores, valIds).values());
    state.progress.push({ metricCallsUsed: state.metricCallsUsed, bestMeanVal: best });
    state.rngState = rng.getState();
  };

  try {
    const seed: Candidate = {
      id: 'c0', parentId: null, iteration: 0, strategy: config.seedStrategy, status: 'seed', reason: 'the seed strategy',
      proposerReply: null, valScores: {}, minibatch: null, triggeredBy: null,
    };
    state.candidates.push(seed);
    seed.valScores = meanByTask(await sweep(seed, config.val, 'seed-val'));
    refresh();
    let failures = 0;
    const stops = new StopConditions(config.stopConditions ?? {}, now().getTime());
    const b = effectiveMinibatch(config.minibatchSize, config.train.length);
    const merges = config.merge ? new MergeSchedule(config.merge.maxMerges) : null;
    const loop: LoopContext = { state, config, rng, sweep, meanByTask, refresh, emit };
    for (;;) {
      if (deps.signal?.aborted) throw new Stop('stopped', null);
      // The boundary after `iteration` iterations: human candidates recorded here, then a pause.
      state.iterationsDone = state.iteration;
      await evaluateHumanCandidates({ config, state, sweep, meanByTask, refresh, emit }, state.iteration);
      if (deps.pauseRequested?.(state.iteration)) throw new Stop('paused', null);
      // A branch replays the source's iterations with the source's settings (branch.ts).
      const next = configAt(config, state.iteration + 1);
      const bestMeanVal = Math.max(0, ...meanScores(scoreMatrix(), valIds).values());
      const stop = state.iteration < forkIteration(config) ? null : stops.check({ bestMeanVal, nowMs: now().getTime(), proposerUsd: deps.proposerCostUsd?.() ?? null, stopFile: deps.stopFile?.() ?? false });
      if (stop) throw new Stop(stop.reason, stop.message);
      // GEPA's engine: a merge is tried first when one is due and the last iteration found a new program.
      const merging = merges?.takeTurn() ?? false;
      const accept = acceptanceRule(next.acceptance);
      const orEqual = next.acceptance === 'improvement_or_equal';
      const perIteration = proposalsPerIteration(next.proposals);
      const worstCase = Math.max(iterationWorstCase(b, config.val.length, perIteration), merging ? mergeWorstCase(config.val.length) : 0);
      if (!canStartIteration(state.metricCallsUsed, next.budgetMetricCalls, b, config.val.length, worstCase)) {
        throw new Stop('budget', `The budget of ${next.budgetMetricCalls} metric calls cannot fit another iteration (${state.metricCallsUsed} used).`);
      }
      state.iteration += 1;
      if (merging && (await runMergeIteration(loop, merges!))) continue;
      const slots = drawProposalSlots(next.proposals, () => {
        const parentId = selectCandidate({ selection: next.candidateSelection ?? 'pareto', ...(next.epsilon !== undefined ? { epsilon: next.epsilon } : {}), ...(next.topK !== undefined ? { topK: next.topK } : {}) }, scoreMatrix(), valIds, rng);
        const parent = state.candidates.find((c) => c.id === parentId);
        if (!parent) throw new Error(`parent selection returned ${parentId}, which is not in the pool`);
        return parent;
      }, () => sampler.next(rng)).map((slot) => ({ ...slot, tasks: slot.minibatch.map((tid) => config.train.find((t) => t.id === tid)!) }));
      for (const [index, slot] of slots.entries()) {
        await emit({ type: 'iteration_started', iteration: state.iteration, parentId: slot.parent.id, minibatch: slot.minibatch, ...(perIteration > 1 ? { proposalIndex: index } : {}) });
      }
      // Each parent plays each task of its minibatches once (in first-drawn order), in one sweep.
      const parentGroups = new Map<string, SweepGroup>();
      for (const { parent, tasks } of slots) {
        const group = parentGroups.get(parent.id) ?? { candidate: parent, tasks: [], purpose: 'parent-mb' };
        for (const t of tasks) if (!group.tasks.includes(t)) group.tasks.push(t);
        parentGroups.set(parent.id, group);
      }
      const parentRunsOf = new Map(zip([...parentGroups.keys()], await sweepMany([...parentGroups.values()])));
      const drafts = slots.map((slot, index) => {
        const parentRuns = parentRunsOf.get(slot.parent.id)!.filter((r) => slot.minibatch.includes(r.taskId));
        const worst = worstRun(parentRuns);
        const child: Candidate = {
          id: `c${state.candidates.length + index}`, parentId: slot.parent.id, iteration: state.iteration, strategy: '', status: 'failed', reason: '',
          proposerReply: null, valScores: {}, minibatch: { taskIds: slot.minibatch, parentSum: sum(meanByTask(parentRuns)), childSum: null },
          triggeredBy: { taskId: worst.taskId, repeat: worst.repeat, callKey: worst.callKey },
        };
        return { slot, child, record: formatReflectiveRecord(worst.session) };
      });
      const proposals = await proposeAll(drafts.map((d) => ({ parentStrategy: d.slot.parent.strategy, record: d.record })), state.iteration, next, deps, rng, state.candidates);
      const made: typeof drafts = [];
      for (const [index, draft] of drafts.entries()) {
        const { child } = draft;
        const proposal = proposals[index]!;
        child.proposerReply = proposal.reply;
        if (proposal.usage) child.proposerUsage = proposal.usage;
        state.candidates.push(child);
        if (proposal.strategy === null) {
          child.reason = `proposal ${proposal.status}`;
          state.metricCallsUsed += 1;
          state.failedProposals += 1;
          await emit({ type: 'proposal_failed', iteration: state.iteration, candidate: child });
          state.rngState = rng.getState();
          if (++failures >= next.maxConsecutiveFailures) throw new Stop('failures', `${failures} proposals in a row failed (last: ${proposal.status}).`);
          continue;
        }
        failures = 0;
        child.strategy = proposal.strategy;
        child.editSize = wordEditDistance(draft.slot.parent.strategy, proposal.strategy);
        await emit({ type: 'proposal_made', iteration: state.iteration, candidate: child });
        made.push(draft);
      }
      if (made.length === 0) continue;
      const childRuns = await sweepMany(made.map(({ child, slot }) => ({ candidate: child, tasks: slot.tasks, purpose: 'child-mb' })));
      // GEPA's AllImprovements: every child passing the acceptance rule joins, except a repeat of an
      // earlier accepted child's text.
      const accepted: Candidate[] = [];
      for (const [index, { child }] of made.entries()) {
        const { parentSum } = child.minibatch!;
        const childSum = sum(meanByTask(childRuns[index]!));
        child.minibatch!.childSum = childSum;
        const duplicate = accepted.find((a) => a.strategy.trim() === child.strategy.trim());
        if (accept(parentSum, childSum) && !duplicate) {
          child.status = 'accepted';
          child.reason = `minibatch sum ${childSum.toFixed(4)} ${orEqual ? '≥' : '>'} parent's ${parentSum.toFixed(4)}`;
          accepted.push(child);
          continue;
        }
        child.status = 'rejected';
        child.reason = duplicate ? `the same text as ${duplicate.id}, accepted this iteration` : `minibatch sum ${childSum.toFixed(4)} ${orEqual ? '<' : '≤'} parent's ${parentSum.toFixed(4)}`;
        state.rngState = rng.getState();
        await emit({ type: 'rejected', candidate: child });
      }
      if (accepted.length === 0) continue;
      for (const child of accepted) await emit({ type: 'accepted', candidate: child });
      const valRuns = await sweepMany(accepted.map((child) => ({ candidate: child, tasks: config.val, purpose: 'child-val' })));
      for (const [index, child] of accepted.entries()) {
        child.valScores = meanByTask(valRuns[index]!);
        refresh();
        merges?.reflectiveAccepted();
        await emit({ type: 'validation_done', candidate: child, fronts: state.fronts });
      }
    }
  } catch (error) {
    if (error instanceof Stop) {
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
  state.status = COMPLETING_STOP_REASONS.includes(state.stopReason) ? 'complete' : state.stopReason === 'paused' ? 'paused' : 'stopped';
  state.rngState = rng.getState();
  state.finishedAt = now().toISOString();
  await emit({ type: 'finished', state });
  return state;
}

/** Why the run stops when one of its sessions stopped. */
function sessionStopReason(session: SessionRecord): StopReason {
  if (session.stopReason === 'provider') return 'provider_error';
  if (session.stopReason === 'budget') return /token/.test(session.stopMessage ?? '') ? 'token_cap' : 'usd_cap';
  return 'stopped';
}

/** 'web' when every task of the run is a web task (the proposer then sees the web log header). */
function tasksKind(config: EvolutionConfig): 'web' | 'zmachine' {
  const tasks = [...config.train, ...config.val];
  return tasks.length > 0 && tasks.every((t) => t.task?.kind === 'web') ? 'web' : 'zmachine';
}

type Proposal = { strategy: string | null; status: string; reply: string | null; usage?: { promptTokens: number; completionTokens: number; costUsd: number } };

/** The proposals of one iteration, in input order whatever order they finish in: random mutations
 * one after another (they draw from the run's RNG), LLM calls at once. A failure that stops the run
 * is thrown, the first in input order. */
async function proposeAll(inputs: readonly { parentStrategy: string; record: string }[], iteration: number, config: EvolutionConfig, deps: EvolutionDeps, rng: SeededRng, pool: readonly Candidate[]): Promise<Proposal[]> {
  if (config.proposer !== 'llm' || inputs.length === 1) {
    const out: Proposal[] = [];
    for (const [index, input] of inputs.entries()) out.push(await propose(input.parentStrategy, input.record, iteration, config, deps, rng, pool, index));
    return out;
  }
  const settled = await Promise.allSettled(inputs.map((input, index) => propose(input.parentStrategy, input.record, iteration, config, deps, rng, pool, index)));
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<Proposal>).value);
}

/** One proposal: the LLM proposer (reply cached per iteration and proposal index; GEPA's or OPRO's
 * prompt, the latter reading the scored `pool`) or a random mutation. */
async function propose(
  parentStrategy: string, record: string, iteration: number, config: EvolutionConfig, deps: EvolutionDeps, rng: SeededRng, pool: readonly Candidate[], index = 0,
): Promise<Proposal> {
  if (config.proposer === 'random-neutral') {
    const edit = neutralEdit(parentStrategy, rng, config.editSizes?.sizes ?? DEFAULT_EDIT_SIZES);
    const same = edit.strategy.trim() === parentStrategy.trim();
    return { strategy: same ? null : edit.strategy, status: same ? 'unchanged' : `random neutral ${edit.kind} (${edit.target} words)`, reply: null };
  }
  if (config.proposer === 'random') {
    const mutated = mutateStrategy(parentStrategy, rng);
    const same = mutated.strategy.trim() === parentStrategy.trim();
    return { strategy: same ? null : mutated.strategy, status: same ? 'unchanged' : `random ${mutated.kind}`, reply: null };
  }
  if (!deps.proposer) throw new Error('the LLM proposer mode needs a proposer model');
  let cached = await deps.cache.getProposal(iteration, index);
  if (!cached) {
    if (deps.signal?.aborted) throw new Stop('stopped', null);
    const messages = config.optimizer === 'opro'
      ? buildOproMessages(scoredHistory(pool, config.val.map((t) => t.id)), record, tasksKind(config))
      : buildProposerMessages(parentStrategy, record, config.proposerInstruction ?? 'general-rules', tasksKind(config), config.proposerInput ?? 'full');
    // A provider fault is not a proposal (as a meta-agent fault is not a decision): a transient one
    // is asked again, as faulted sessions get further passes (ttl/session-passes.ts); one that
    // persists, or a systemic one, stops the run resumable with nothing cached for this iteration.
    let completion: Awaited<ReturnType<ChatModel['complete']>> | null = null;
    for (let attempt = 0; completion === null; attempt++) {
      try {
        completion = await deps.proposer.complete(messages, { signal: deps.signal });
      } catch (error) {
        if (!(error instanceof LlmError) || error.kind === 'aborted') throw error;
        if (SYSTEMIC_KINDS.has(error.kind) || attempt >= (deps.maxExtraPasses ?? MAX_EXTRA_PASSES)) throw new Stop('provider_error', `The proposer failed: ${error.message}`);
        if (deps.signal?.aborted) throw new Stop('stopped', null);
      }
    }
    cached = { reply: completion.content, finishReason: completion.finishReason, usage: completion.usage };
    await deps.cache.putProposal(iteration, cached.reply, cached.finishReason, completion.usage, index);
  }
  const usage = cached.usage ? { promptTokens: cached.usage.promptTokens, completionTokens: cached.usage.completionTokens, costUsd: cached.usage.costUsd } : undefined;
  if (cached.finishReason?.startsWith('error: ')) return { strategy: null, status: cached.finishReason, reply: null, ...(usage ? { usage } : {}) };
  const parsed = parseProposal(cached.reply, cached.finishReason, parentStrategy);
  return { strategy: parsed.strategy, status: parsed.status, reply: cached.reply, ...(usage ? { usage } : {}) };
}
