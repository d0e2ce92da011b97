/**
 * GEPA's reflective mutation proposer (ReflectiveMutationProposer): the proposer model reads the
 * parent's strategy and the reflective dataset of its worst minibatch run and writes the child's
 * strategy (prompt: rules/llm-proposer.ts). Core module: no UI or DOM imports.
 */
import { buildProposerMessages } from '../rules/llm-proposer.ts';
import type { Proposer, StrategyWriter } from './interface.ts';
import { llmProposal, tasksKind } from './llm-reply.ts';
import { mutationProposer } from './mutation.ts';

/** GEPA's reflection prompt with the run's `proposerInstruction` (default 'general-rules'). */
export const reflectiveWriter: StrategyWriter = {
  sequential: false,
  write: (input, loop, config) => llmProposal(loop, input.index, input.parentStrategy, () => buildProposerMessages(input.parentStrategy, input.dataset, config.proposerInstruction ?? 'general-rules', tasksKind(config), config.proposerInput ?? 'full')),
};

export const reflectiveProposer: Proposer = mutationProposer('reflective', reflectiveWriter);
