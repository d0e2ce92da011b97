/**
 * An evolution's config on the command line, built in one place for `metattl evolve` and the CLI's
 * experiment executor (experiment-steps.ts): a new run's config from its parsed settings (what is
 * not given takes `EVOLUTION_DEFAULTS`, the session's K and S, `ttl/run-defaults.ts`), a
 * resumed run's (its stored config after the resume check and the changed-settings check), and
 * the budget line printed before a new run.
 */
import { DEFAULT_GUIDING_PROMPT } from '../agents/actor-prompt.ts';
import { plural } from '../agents/plural.ts';
import { budgetPlanOf } from '../evolve/evolution-runner.ts';
import { budgetRefusal } from '../evolve/rules/budget.ts';
import { cacheEventProblem } from '../evolve/evolution-io.ts';
import { loadEvolutionState } from '../evolve/evolution-store.ts';
import type { EvolutionConfig, EvolutionState } from '../evolve/interface.ts';
import { EVOLUTION_DEFAULTS } from '../evolve/run-defaults.ts';
import type { Acceptance } from '../evolve/rules/acceptance.ts';
import type { CandidateSelection } from '../evolve/rules/candidate-selection.ts';
import type { ProposerInstruction } from '../evolve/rules/llm-proposer.ts';
import type { Optimizer } from '../evolve/rules/opro-proposer.ts';
import { DEFAULT_EDIT_SIZES } from '../evolve/rules/neutral-mutation.ts';
import type { ProposalsConfig } from '../evolve/rules/proposals.ts';
import type { StopConditionsConfig } from '../evolve/rules/stop-conditions.ts';
import { ROLES, type LlmSettings } from '../llm/interface.ts';
import type { Store } from '../store/interface.ts';
import { sessionDefaults } from '../ttl/run-defaults.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../web/texts.ts';
import { changedSettingsCheck, resumeCheck, settingsChanges, withChangedSettings, type runSettingsNow } from './resume-check.ts';
import { allWeb, type CliTask } from './tasks.ts';
import { UsageError } from './usage-error.ts';

/** The outer-loop rules (GEPA calls them strategies; glossary), as `--selection`, `--accept`, the stop conditions,
 * `--merge` and `--proposals` give them. */
export interface OuterLoopOptions {
  selection: CandidateSelection;
  epsilon?: number;
  topK?: number;
  acceptance: Acceptance;
  stopConditions: StopConditionsConfig;
  merge?: { maxMerges: number };
  proposals?: ProposalsConfig;
}

/** A new evolution's settings; every one left out takes its default (`EVOLUTION_DEFAULTS`, K and S
 * of the tasks' kind, the story or web guide). */
export interface NewEvolution {
  train: readonly CliTask[];
  val: readonly CliTask[];
  trainRepeats?: number;
  valRepeats?: number;
  episodes?: number;
  maxSteps?: number;
  initialGuidingPrompt?: string;
  seedStrategy?: string;
  minibatchSize?: number;
  budgetMetricCalls?: number;
  maxConsecutiveFailures?: number;
  proposer?: EvolutionConfig['proposer'];
  editSizes?: EvolutionConfig['editSizes'];
  proposerInput?: 'full' | 'no-trace';
  proposerInstruction?: ProposerInstruction;
  optimizer?: Optimizer;
  rngSeed?: number;
  outerLoop?: OuterLoopOptions;
}

/**
 * A new run's config: `n` over the defaults, with the models, concurrency and recorded LLM
 * settings of `settings` / `now`, the meta-agent's `contextWindow` (tokens) and `replyGrammar`
 * (`--provider local`'s grammars).
 */
export function newEvolutionConfig(n: NewEvolution, settings: LlmSettings, now: ReturnType<typeof runSettingsNow>, contextWindow: number, replyGrammar: { replyGrammar?: boolean }): EvolutionConfig {
  const strip = ({ story: _s, ...t }: CliTask) => t;
  const web = allWeb([...n.train, ...n.val]);
  const shape = sessionDefaults(web);
  const valRepeats = n.valRepeats ?? EVOLUTION_DEFAULTS.valRepeats;
  const proposer = n.proposer ?? EVOLUTION_DEFAULTS.proposer;
  // The matched control without sizes of its own draws from the documented default spread.
  const editSizes = n.editSizes ?? (proposer === 'random-neutral' ? { sizes: [...DEFAULT_EDIT_SIZES], source: 'default' } : undefined);
  const loop = n.outerLoop ?? { selection: EVOLUTION_DEFAULTS.candidateSelection, acceptance: EVOLUTION_DEFAULTS.acceptance, stopConditions: {} };
  return {
    train: n.train.map(strip), val: n.val.map(strip),
    repeats: valRepeats, trainRepeats: n.trainRepeats ?? EVOLUTION_DEFAULTS.trainRepeats, valRepeats, episodes: n.episodes ?? shape.episodes, maxSteps: n.maxSteps ?? shape.maxSteps,
    initialGuidingPrompt: n.initialGuidingPrompt ?? (web ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT), seedStrategy: n.seedStrategy ?? EVOLUTION_DEFAULTS.seedStrategy,
    minibatchSize: n.minibatchSize ?? EVOLUTION_DEFAULTS.minibatchSize, budgetMetricCalls: n.budgetMetricCalls ?? EVOLUTION_DEFAULTS.budgetMetricCalls,
    maxConsecutiveFailures: n.maxConsecutiveFailures ?? EVOLUTION_DEFAULTS.maxConsecutiveFailures, proposer,
    ...(editSizes ? { editSizes } : {}), ...(n.proposerInput === 'no-trace' ? { proposerInput: n.proposerInput } : {}),
    proposerInstruction: n.proposerInstruction ?? EVOLUTION_DEFAULTS.proposerInstruction, optimizer: n.optimizer ?? EVOLUTION_DEFAULTS.optimizer,
    rngSeed: n.rngSeed ?? EVOLUTION_DEFAULTS.rngSeed, concurrency: settings.maxConcurrent,
    models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model, proposer: settings.roles.proposer.model },
    contextWindow,
    candidateSelection: loop.selection, ...(loop.epsilon !== undefined ? { epsilon: loop.epsilon } : {}), ...(loop.topK !== undefined ? { topK: loop.topK } : {}),
    acceptance: loop.acceptance, stopConditions: loop.stopConditions,
    ...(loop.merge ? { merge: loop.merge } : {}), ...(loop.proposals ? { proposals: loop.proposals } : {}),
    ...replyGrammar, llm: now.llm,
  };
}

/** A stored run about to be resumed: its state as stored and the config it goes on with. */
export interface ResumedEvolution {
  previous: EvolutionState;
  config: EvolutionConfig;
}

/**
 * Stored run `id` of `store` (at `storeDir`), checked for a resume: its records intact (else
 * `DamagedRunError`, unless `fromLastGood`) and its models and settings those of `now` (else
 * refused, unless `allowChanged`: then the change is recorded in the config returned).
 * @throws UsageError when there is no such run or its settings would change unallowed;
 *   DamagedRunError (its message ending with the command that continues from the last good record)
 */
export async function resumedEvolution(store: Store, storeDir: string, id: string, now: ReturnType<typeof runSettingsNow>, opts: { fromLastGood: boolean; allowChanged: boolean }): Promise<ResumedEvolution> {
  const previous = await loadEvolutionState(store, id);
  if (!previous) throw new UsageError(`--resume: no evolution run "${id}" in ${storeDir}`);
  await resumeCheck(store, id, 'evolution', cacheEventProblem, opts.fromLastGood, `metattl evolve --store ${storeDir} --resume --id ${id} --from-last-good`);
  // The proposer's temperature and limit count only where it calls a model (its model, as recorded, always).
  const settingRoles = previous.config.proposer === 'llm' ? ROLES : (['actor', 'metaAgent'] as const);
  const change = changedSettingsCheck('evolve', settingsChanges(previous.config, now, ROLES, settingRoles), opts.allowChanged);
  return { previous, config: withChangedSettings(previous.config, change, now) };
}

/** Refuse a budget that cannot pay for the seed's validation plus one full iteration, before any call.
 * @throws UsageError saying what the budget pays for */
export function refuseSmallBudget(config: EvolutionConfig): void {
  const refusal = budgetRefusal(budgetPlanOf(config), config.budgetMetricCalls);
  if (refusal) throw new UsageError(refusal);
}

/** The line a new run prints on stderr before its first call: the budget and what it pays for. */
export function budgetLine(config: EvolutionConfig): string {
  const plan = budgetPlanOf(config);
  return `budget ${config.budgetMetricCalls} metric calls: seed validation ${plan.seedCalls}, at most ${plan.iterationWorstCase} per iteration → ${countRange(plan.proposals, 'proposal')}, ${countRange(plan.sessions, 'session')}\n`;
}

/** "2–4 sessions", or "1 session" when the range is one number. */
function countRange(range: { low: number; high: number }, noun: string): string {
  return range.low === range.high ? plural(range.low, noun) : `${range.low}–${range.high} ${noun}s`;
}
