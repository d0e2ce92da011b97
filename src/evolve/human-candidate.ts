/**
 * A human in the loop (GEPA's Workbench idea): a person writes a candidate strategy by
 * hand, or writes feedback from which the proposer writes one, and the loop evaluates it at an
 * iteration boundary exactly as it evaluates a proposal (method.md, "Outer loop" 2c, f, g): the
 * parent and the child on one minibatch, the run's acceptance rule, then full validation. Every
 * (candidate, task) evaluation is one metric call of the run's budget, as GEPA counts them.
 * The candidate is recorded in the run's config, so a resume replays it at the same boundary.
 * Core module: no UI or DOM imports.
 */
import type { ChatMessage, ChatModel } from '../llm/interface.ts';
import { SeededRng } from '../ttl/rng.ts';
import type { Candidate, EvolutionConfig, EvolutionEvent, EvolutionState, EvolutionTask, HumanCallPurpose, HumanCandidateSpec } from './interface.ts';
import type { RunForReflection } from './reflective-dataset.ts';
import { acceptanceRule } from './rules/acceptance.ts';
import { effectiveMinibatch } from './rules/budget.ts';
import { buildProposerMessages, parseProposal } from './rules/llm-proposer.ts';
import { MetattlError } from '../common/errors.ts';

/** What the loop lends the boundary step: its sweep (one metric call per task), the per-task
 * mean W-AUC, the pool refresh (fronts, best, progress) and its event emitter. */
export interface BoundaryContext {
  config: EvolutionConfig;
  state: EvolutionState;
  sweep(candidate: Candidate, tasks: EvolutionTask[], purpose: HumanCallPurpose): Promise<RunForReflection[]>;
  meanByTask(runs: RunForReflection[]): Record<string, number>;
  refresh(): void;
  emit(event: EvolutionEvent): Promise<void>;
}

/** A human candidate's request, before it is placed at a boundary. */
export interface HumanCandidateInput {
  parentId: string;
  strategy: string;
  feedback?: string;
  proposerReply?: string;
  /** The model the provider said wrote `proposerReply` (absent when the reply named none). */
  providerModel?: string;
}

/** Thrown when a human candidate cannot be added (the message says why, for people). */
export class HumanCandidateError extends MetattlError {
  override readonly name = 'HumanCandidateError';
  constructor(message: string) {
    super('human_candidate', message);
  }
}

const sumOf = (scores: Record<string, number>) => Object.values(scores).reduce((a, b) => a + b, 0);

/**
 * Evaluate the human candidates recorded for boundary `boundary` (after that many iterations), in
 * their order. Each adds one candidate with `origin: 'human'` (accepted and validated, or
 * rejected) and charges its metric calls like a proposal: 2b, plus V when accepted.
 * @throws Error when a candidate names a parent not in the pool (a damaged config)
 */
export async function evaluateHumanCandidates(ctx: BoundaryContext, boundary: number): Promise<void> {
  const { config, state } = ctx;
  const accept = acceptanceRule(config.acceptance);
  const orEqual = config.acceptance === 'improvement_or_equal';
  for (const spec of config.humanCandidates ?? []) {
    if (spec.afterIteration !== boundary) continue;
    const parent = state.candidates.find((c) => c.id === spec.parentId && (c.status === 'seed' || c.status === 'accepted'));
    if (!parent) throw new Error(`human candidate after iteration ${boundary} names parent ${spec.parentId}, which is not in the pool`);
    const tasks = spec.minibatch.map((id) => {
      const task = config.train.find((t) => t.id === id);
      if (!task) throw new Error(`human candidate after iteration ${boundary} names training task ${id}, which is not in the run`);
      return task;
    });
    const parentSum = sumOf(ctx.meanByTask(await ctx.sweep(parent, tasks, 'human-parent-mb')));
    const child: Candidate = {
      id: `c${state.candidates.length}`, parentId: parent.id, iteration: boundary, strategy: spec.strategy, status: 'failed', reason: '',
      proposerReply: spec.proposerReply ?? null, valScores: {}, minibatch: { taskIds: [...spec.minibatch], parentSum, childSum: null }, triggeredBy: null,
      origin: 'human', ...(spec.feedback !== undefined ? { humanFeedback: spec.feedback } : {}), ...(spec.providerModel ? { providerModel: spec.providerModel } : {}),
    };
    state.candidates.push(child);
    await ctx.emit({ type: 'proposal_made', iteration: boundary, candidate: child });
    const childSum = sumOf(ctx.meanByTask(await ctx.sweep(child, tasks, 'human-mb')));
    child.minibatch!.childSum = childSum;
    if (accept(parentSum, childSum)) {
      child.status = 'accepted';
      child.reason = `human candidate: minibatch sum ${childSum.toFixed(4)} ${orEqual ? '≥' : '>'} parent's ${parentSum.toFixed(4)}`;
      await ctx.emit({ type: 'accepted', candidate: child });
      child.valScores = ctx.meanByTask(await ctx.sweep(child, config.val, 'human-val'));
      ctx.refresh();
      await ctx.emit({ type: 'validation_done', candidate: child, fronts: state.fronts });
    } else {
      child.status = 'rejected';
      child.reason = `human candidate: minibatch sum ${childSum.toFixed(4)} ${orEqual ? '<' : '≤'} parent's ${parentSum.toFixed(4)}`;
      await ctx.emit({ type: 'rejected', candidate: child });
    }
  }
}

/** Metric calls the human candidates recorded for the run's current boundary still need at most
 * (2b + V each) — those not yet in its pool. */
function pendingWorstCase(state: EvolutionState): number {
  const boundary = state.iteration;
  const specs = (state.config.humanCandidates ?? []).filter((s) => s.afterIteration === boundary).length;
  const done = state.candidates.filter((c) => c.origin === 'human' && c.iteration === boundary).length;
  return Math.max(0, specs - done) * (2 * effectiveMinibatch(state.config.minibatchSize, state.config.train.length) + state.config.val.length);
}

/**
 * The minibatch of the `index`-th human candidate of a run: b training tasks drawn without
 * replacement by a generator of its own (seeded from the run's seed and `index`), so the run's
 * RNG — and every draw of the loop after it — is untouched by the choice.
 */
export function humanMinibatch(config: EvolutionConfig, index: number): string[] {
  const rng = new SeededRng((config.rngSeed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const ids = config.train.map((t) => t.id);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.slice(0, effectiveMinibatch(config.minibatchSize, ids.length));
}

/**
 * Why a human candidate with parent `parentId` cannot be added to `state` now, or null: the run
 * must be between iterations (not running, not stopped inside one), the parent in the pool, and
 * the worst case (2b + V, plus candidates still pending at this boundary) within the budget left.
 */
export function humanCandidateProblem(state: EvolutionState, parentId: string): string | null {
  const config = state.config;
  if (state.status === 'running') return 'The run is running: pause it first.';
  if (state.iterationsDone !== state.iteration) return `The run stopped inside iteration ${state.iteration}: resume it and pause it between iterations first.`;
  const parent = state.candidates.find((c) => c.id === parentId);
  if (!parent) return `There is no candidate ${parentId} in run ${state.id}.`;
  if (parent.status !== 'seed' && parent.status !== 'accepted') return `Candidate ${parent.id} is ${parent.status}: only the seed and accepted candidates are in the pool.`;
  const worst = 2 * effectiveMinibatch(config.minibatchSize, config.train.length) + config.val.length + pendingWorstCase(state);
  if (state.metricCallsUsed + worst > config.budgetMetricCalls) {
    return `The budget has ${config.budgetMetricCalls - state.metricCallsUsed} metric calls left; evaluating a candidate may need ${worst}.`;
  }
  return null;
}

/**
 * The run's config with a human candidate added at its current boundary (after
 * `state.iteration` iterations). The state must be between iterations (paused, complete, or
 * stopped before an iteration began), the parent in the pool, the strategy new, and the worst
 * case (2b + V, plus any candidates still pending there) within the budget left.
 * @throws HumanCandidateError naming the problem
 */
export function addHumanCandidate(state: EvolutionState, input: HumanCandidateInput): EvolutionConfig {
  const config = state.config;
  const problem = humanCandidateProblem(state, input.parentId);
  if (problem) throw new HumanCandidateError(problem);
  const parent = state.candidates.find((c) => c.id === input.parentId)!;
  if (input.strategy.trim() === '') throw new HumanCandidateError('The strategy is empty.');
  if (input.strategy.trim() === parent.strategy.trim()) throw new HumanCandidateError(`The strategy is the same as ${parent.id}'s.`);
  const existing = config.humanCandidates ?? [];
  const spec: HumanCandidateSpec = {
    afterIteration: state.iteration, parentId: parent.id, strategy: input.strategy, minibatch: humanMinibatch(config, existing.length),
    ...(input.feedback !== undefined ? { feedback: input.feedback } : {}), ...(input.proposerReply !== undefined ? { proposerReply: input.proposerReply } : {}),
    ...(input.providerModel ? { providerModel: input.providerModel } : {}),
  };
  return { ...config, humanCandidates: [...existing, spec] };
}

/** The proposer's messages for a person's feedback on `parentStrategy` (its system prompt is the
 * run's proposer instruction; the feedback takes the place of the reflective dataset). */
export function feedbackMessages(parentStrategy: string, feedback: string, config: EvolutionConfig): ChatMessage[] {
  const tasks = [...config.train, ...config.val];
  const kind = tasks.length > 0 && tasks.every((t) => t.task?.kind === 'web') ? 'web' : 'zmachine';
  const [system] = buildProposerMessages(parentStrategy, '', config.proposerInstruction ?? 'general-rules', kind);
  return [
    system!,
    {
      role: 'user',
      content: `The current strategy section (empty means none):\n<current_strategy>\n${parentStrategy}\n</current_strategy>\n\nA person who watched it at work wrote this feedback:\n<feedback>\n${feedback}\n</feedback>\n\nWrite an improved strategy section that acts on the feedback.`,
    },
  ];
}

/**
 * Ask the proposer for a strategy from a person's feedback on candidate `parentStrategy`.
 * @returns the parsed strategy, the proposer's full reply and the model the provider said it used
 * @throws HumanCandidateError when the reply is empty, truncated or unchanged; LlmError from the model
 */
export async function proposeFromFeedback(proposer: ChatModel, parentStrategy: string, feedback: string, config: EvolutionConfig, signal?: AbortSignal): Promise<{ strategy: string; reply: string; providerModel?: string }> {
  const completion = await proposer.complete(feedbackMessages(parentStrategy, feedback, config), { signal });
  const parsed = parseProposal(completion.content, completion.finishReason, parentStrategy);
  if (parsed.strategy === null) throw new HumanCandidateError(`The proposer's reply to the feedback was ${parsed.status}; nothing to evaluate.`);
  return { strategy: parsed.strategy, reply: completion.content, ...(completion.providerModel ? { providerModel: completion.providerModel } : {}) };
}
