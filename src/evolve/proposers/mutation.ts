/**
 * The flow the mutation proposers share (GEPA's ReflectiveMutationProposer.propose): draw P parents
 * from the Pareto pool and N minibatches each (rules/proposals.ts), play each parent once per
 * task of its minibatches in one sweep, show a writer (reflective.ts, opro.ts, random.ts) each
 * slot's worst run, and hand the loop the children that got a text. Core module: no UI or DOM imports.
 */
import type { Candidate, EvolutionConfig } from '../interface.ts';
import { wordEditDistance } from '../accounting.ts';
import { formatReflectiveDataset, worstRun } from '../reflective-dataset.ts';
import { acceptanceRule } from '../rules/acceptance.ts';
import { selectCandidate } from '../rules/candidate-selection.ts';
import { drawProposalSlots, proposalsPerIteration } from '../rules/proposals.ts';
import { LoopStop, type CandidateProposal, type LoopContext, type MutationInput, type Proposer, type ProposerKind, type StrategyProposal, type StrategyWriter, type SweepGroup } from './interface.ts';

const zip = <A, B>(as: readonly A[], bs: readonly B[]): [A, B][] => as.map((a, i) => [a, bs[i]!]);
const sum = (scores: Record<string, number>) => Object.values(scores).reduce((a, b) => a + b, 0);

/** A mutation proposer of kind `kind` whose children's texts come from `writer`. */
export function mutationProposer(kind: ProposerKind, writer: StrategyWriter): Proposer {
  return { kind, propose: (loop, config) => proposeMutations(loop, config, writer) };
}

async function proposeMutations(loop: LoopContext, next: EvolutionConfig, writer: StrategyWriter): Promise<CandidateProposal[]> {
  const { state, config, rng } = loop;
  const valIds = config.val.map((t) => t.id);
  const perIteration = proposalsPerIteration(next.proposals);
  const slots = drawProposalSlots(next.proposals, () => {
    const parentId = selectCandidate({ selection: next.candidateSelection ?? 'pareto', ...(next.epsilon !== undefined ? { epsilon: next.epsilon } : {}), ...(next.topK !== undefined ? { topK: next.topK } : {}) }, loop.scoreMatrix(), valIds, rng);
    const parent = state.candidates.find((c) => c.id === parentId);
    if (!parent) throw new Error(`parent selection returned ${parentId}, which is not in the pool`);
    return parent;
  }, () => loop.sampler.next(rng)).map((slot) => ({ ...slot, tasks: slot.minibatch.map((tid) => config.train.find((t) => t.id === tid)!) }));
  for (const [index, slot] of slots.entries()) {
    await loop.emit({ type: 'iteration_started', iteration: state.iteration, parentId: slot.parent.id, minibatch: slot.minibatch, ...(perIteration > 1 ? { proposalIndex: index } : {}) });
  }
  // Each parent plays each task of its minibatches once (in first-drawn order), in one sweep.
  const parentGroups = new Map<string, SweepGroup>();
  for (const { parent, tasks } of slots) {
    const group = parentGroups.get(parent.id) ?? { candidate: parent, tasks: [], purpose: 'parent-mb' };
    for (const t of tasks) if (!group.tasks.includes(t)) group.tasks.push(t);
    parentGroups.set(parent.id, group);
  }
  const parentRunsOf = new Map(zip([...parentGroups.keys()], await loop.sweepMany([...parentGroups.values()])));
  const drafts = slots.map((slot, index) => {
    const parentRuns = parentRunsOf.get(slot.parent.id)!.filter((r) => slot.minibatch.includes(r.taskId));
    const worst = worstRun(parentRuns);
    const child: Candidate = {
      id: `c${state.candidates.length + index}`, parentId: slot.parent.id, iteration: state.iteration, strategy: '', status: 'failed', reason: '',
      proposerReply: null, valScores: {}, minibatch: { taskIds: slot.minibatch, parentSum: sum(loop.meanByTask(parentRuns)), childSum: null },
      triggeredBy: { taskId: worst.taskId, repeat: worst.repeat, callKey: worst.callKey },
    };
    return { tasks: slot.tasks, child, input: { parentStrategy: slot.parent.strategy, dataset: formatReflectiveDataset(worst.session), index } };
  });
  const texts = await writeAll(writer, drafts.map((d) => d.input), loop, next);
  const made: CandidateProposal[] = [];
  for (const [index, { child, tasks, input }] of drafts.entries()) {
    const text = texts[index]!;
    child.proposerReply = text.reply;
    if (text.usage) child.proposerUsage = text.usage;
    if (text.providerModel) child.providerModel = text.providerModel;
    if (text.systemFingerprint) child.systemFingerprint = text.systemFingerprint;
    state.candidates.push(child);
    if (text.strategy === null) {
      await recordFailure(loop, next, child, text.status);
      continue;
    }
    loop.consecutiveFailures = 0;
    child.strategy = text.strategy;
    child.editSize = wordEditDistance(input.parentStrategy, text.strategy);
    await loop.emit({ type: 'proposal_made', iteration: state.iteration, candidate: child });
    made.push({ child, tasks, purpose: 'child-mb', childSum: (runs) => sum(loop.meanByTask(runs)), judge: judgeBy(next, child.minibatch!.parentSum), onAccepted: () => loop.merges?.reflectiveAccepted() });
  }
  return made;
}

/** A failed proposal costs one metric call; `maxConsecutiveFailures` in a row stop the run. */
async function recordFailure(loop: LoopContext, next: EvolutionConfig, child: Candidate, status: string): Promise<void> {
  const { state, rng } = loop;
  child.reason = `proposal ${status}`;
  state.metricCallsUsed += 1;
  state.failedProposals += 1;
  await loop.emit({ type: 'proposal_failed', iteration: state.iteration, candidate: child });
  state.rngState = rng.getState();
  if (++loop.consecutiveFailures >= next.maxConsecutiveFailures) throw new LoopStop('failures', `${loop.consecutiveFailures} proposals in a row failed (last: ${status}).`);
}

/** The run's acceptance rule (rules/acceptance.ts) on the minibatch sums, with its reason. */
function judgeBy(next: EvolutionConfig, parentSum: number): CandidateProposal['judge'] {
  const accept = acceptanceRule(next.acceptance);
  const orEqual = next.acceptance === 'improvement_or_equal';
  return (childSum) => accept(parentSum, childSum)
    ? { accepted: true, reason: `minibatch sum ${childSum.toFixed(4)} ${orEqual ? '≥' : '>'} parent's ${parentSum.toFixed(4)}` }
    : { accepted: false, reason: `minibatch sum ${childSum.toFixed(4)} ${orEqual ? '<' : '≤'} parent's ${parentSum.toFixed(4)}` };
}

/** The texts of one iteration, in input order whatever order they finish in: a sequential writer's
 * one after another, others at once. A failure that stops the run is thrown, the first in input order. */
async function writeAll(writer: StrategyWriter, inputs: readonly MutationInput[], loop: LoopContext, next: EvolutionConfig): Promise<StrategyProposal[]> {
  if (writer.sequential || inputs.length === 1) {
    const out: StrategyProposal[] = [];
    for (const input of inputs) out.push(await writer.write(input, loop, next));
    return out;
  }
  const settled = await Promise.allSettled(inputs.map((input) => writer.write(input, loop, next)));
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<StrategyProposal>).value);
}
