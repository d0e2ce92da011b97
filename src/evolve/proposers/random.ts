/**
 * The random-mutation proposer, a control (method.md, "Controls"): the same loop as GEPA's
 * reflective mutation, but the child's text is the parent's with a sentence inserted, dropped or
 * swapped (rules/random-mutation.ts), drawn from the run's RNG. Core module: no UI or DOM imports.
 */
import { mutateStrategy } from '../rules/random-mutation.ts';
import type { Proposer, StrategyWriter } from './interface.ts';
import { mutationProposer } from './mutation.ts';

/** One mutation of the parent; a mutation that leaves the text unchanged is a failed proposal. */
export const randomWriter: StrategyWriter = {
  sequential: true,
  write: async (input, loop) => {
    const mutated = mutateStrategy(input.parentStrategy, loop.rng);
    const same = mutated.strategy.trim() === input.parentStrategy.trim();
    return same ? { strategy: null, status: 'unchanged', reply: null } : { strategy: mutated.strategy, status: `random ${mutated.kind}`, reply: null };
  },
};

export const randomProposer: Proposer = mutationProposer('random', randomWriter);
