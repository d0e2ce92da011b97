/**
 * The OPRO proposer (Yang et al., "Large Language Models as Optimizers"): the same loop as GEPA's
 * reflective mutation, but the proposer model reads the scored history of the pool, best last,
 * with the worst run's reflective dataset (prompt: rules/opro-proposer.ts). Core module: no UI or DOM imports.
 */
import { buildOproMessages, scoredHistory } from '../rules/opro-proposer.ts';
import type { Proposer, StrategyWriter } from './interface.ts';
import { llmProposal, tasksKind } from './llm-reply.ts';
import { mutationProposer } from './mutation.ts';

/** OPRO's meta-prompt over the pool as it stands when the iteration's proposals are written. */
export const oproWriter: StrategyWriter = {
  sequential: false,
  write: (input, loop, config) => llmProposal(loop, input.index, input.parentStrategy, () => buildOproMessages(scoredHistory(loop.state.candidates, config.val.map((t) => t.id)), input.dataset, tasksKind(config))),
};

export const oproProposer: Proposer = mutationProposer('opro', oproWriter);
