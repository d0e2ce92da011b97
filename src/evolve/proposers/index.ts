/**
 * Which proposers an iteration asks, chosen from its config in one place: GEPA's merge first when
 * one is due (rules/merge.ts `MergeSchedule.takeTurn`), then the mutation proposer the config
 * names — `proposer: 'random'` the random-mutation control, `'random-neutral'` the matched
 * control, else the LLM proposer with
 * `optimizer` 'opro' (OPRO) or 'gepa' (reflective, the default). Core module: no UI or DOM imports.
 */
import type { EvolutionConfig } from '../interface.ts';
import type { Proposer } from './interface.ts';
import { mergeProposer } from './merge.ts';
import { oproProposer } from './opro.ts';
import { randomNeutralProposer } from './random-neutral.ts';
import { randomProposer } from './random.ts';
import { reflectiveProposer } from './reflective.ts';

/** The mutation proposer `config` names. */
export function mutationProposerFor(config: EvolutionConfig): Proposer {
  if (config.proposer === 'random') return randomProposer;
  if (config.proposer === 'random-neutral') return randomNeutralProposer;
  return config.optimizer === 'opro' ? oproProposer : reflectiveProposer;
}

/** The proposers to ask in order, the first that proposes anything (non-null) winning. */
export function proposersFor(config: EvolutionConfig, mergeDue: boolean): Proposer[] {
  const mutation = mutationProposerFor(config);
  return mergeDue ? [mergeProposer, mutation] : [mutation];
}
