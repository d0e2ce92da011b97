/**
 * The matched random control (method.md, "Controls"): the same loop as GEPA's reflective mutation,
 * but the child's text is the parent's with a run of words replaced by consecutive words of a
 * neutral corpus, the edit's size drawn from the LLM arm's recorded edit sizes
 * (rules/neutral-mutation.ts), from the run's RNG. Core module: no UI or DOM imports.
 */
import { DEFAULT_EDIT_SIZES, neutralEdit } from '../rules/neutral-mutation.ts';
import type { Proposer, StrategyWriter } from './interface.ts';
import { mutationProposer } from './mutation.ts';

/** One neutral edit of the parent; an edit that leaves the text unchanged is a failed proposal. */
export const randomNeutralWriter: StrategyWriter = {
  sequential: true,
  write: async (input, loop, config) => {
    const edit = neutralEdit(input.parentStrategy, loop.rng, config.editSizes?.sizes ?? DEFAULT_EDIT_SIZES);
    const same = edit.strategy.trim() === input.parentStrategy.trim();
    return same ? { strategy: null, status: 'unchanged', reply: null } : { strategy: edit.strategy, status: `random neutral ${edit.kind} (${edit.target} words)`, reply: null };
  },
};

export const randomNeutralProposer: Proposer = mutationProposer('random-neutral', randomNeutralWriter);
