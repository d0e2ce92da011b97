/**
 * `metattl evolve`: the Meta-TTL outer loop headless, persisted in a store directory; killing the
 * process and re-running with --resume completes the run with the same final state. Output
 * contract (--json): `{ bestCandidateId, metricCallsUsed, candidates: [{ id, parentId, status,
 * strategy, valScores: {taskId: wAuc} }], fronts: {taskId: [candidateId]} }` plus extra fields
 * (id, status, stopReason, bestByZScore, budget, sessionsPlayed, proposals, failedProposals,
 * faultedEpisodes, outerLoop, merges, `model: { name, simulated, kind, caveat }` of llm/model-label.ts). `--optimizer opro` writes proposals the OPRO way (rules/opro-proposer.ts). A metric call is one candidate evaluated on one task whatever its repeats
 * (--train-repeats for minibatches, --val-repeats for validation; --repeats sets both); a budget
 * that cannot pay for the seed's validation plus one full iteration is refused (exit 2).
 * --pause-after N pauses at the boundary after iteration N; --branch RUN_ID --from-iteration N
 * starts a new run from that run's state after iteration N (src/evolve/branch.ts) with the
 * settings given; `evolve add-candidate` is src/cli/evolve-add-candidate.ts. Extra JSON fields:
 * iteration, iterationsDone, branchedFrom, and each candidate's iteration and origin.
 */
import { EVOLVE } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { randomUUID } from 'node:crypto';
import { BranchError, createBranch, type BranchChanges } from '../evolve/branch.ts';
import { loadEvolutionState } from '../evolve/evolution-store.ts';
import { runSettingsNow } from './resume-check.ts';
import type { EvolutionConfig, EvolutionState } from '../evolve/interface.ts';
import { replyGrammarOf } from './models.ts';
import { runAndReportEvolution } from './evolve-run.ts';
import { budgetLine, newEvolutionConfig, refuseSmallBudget, resumedEvolution, type OuterLoopOptions, type ResumedEvolution } from './evolve-config.ts';
import { openNodeStore } from '../store/node-store.ts';
import { contextWindowFromFlags, llmSettingsFromFlags } from './llm-options.ts';
import { intOption, LIMITS, numberOption } from './numbers.ts';
import { ACCEPTANCES, type Acceptance } from '../evolve/rules/acceptance.ts';
import { CANDIDATE_SELECTIONS, type CandidateSelection } from '../evolve/rules/candidate-selection.ts';
import type { StopConditionsConfig } from '../evolve/rules/stop-conditions.ts';
import type { ProposerInstruction } from '../evolve/rules/llm-proposer.ts';
import { OPTIMIZERS, type Optimizer } from '../evolve/rules/opro-proposer.ts';
import { parseEditSizes } from '../evolve/rules/neutral-mutation.ts';
import { parseProposals, proposalsPerIteration, type ProposalsConfig } from '../evolve/rules/proposals.ts';
import { allWeb, parseTasks, type CliTask } from './tasks.ts';
import { EVOLUTION_DEFAULTS } from '../evolve/run-defaults.ts';
import { sessionDefaults } from '../ttl/run-defaults.ts';
import { UsageError } from './usage-error.ts';


export async function evolveCommand(argv: string[]): Promise<number> {
  if (argv[0] === 'add-candidate') return (await import('./evolve-add-candidate.ts')).addCandidateCommand(argv.slice(1));
  const { values } = parseCommand(EVOLVE, argv);
  if (!values.store) throw new UsageError('evolve needs --store DIR (runs are persisted so they can be resumed)');
  const settings = llmSettingsFromFlags(values);
  const store = await openNodeStore(values.store);
  let id = values.id;
  // A resume runs with the flags' models and settings: refused when they differ from the run's, unless allowed (then recorded).
  const now = runSettingsNow(settings, replyGrammarOf(values).replyGrammar);
  let resumed: ResumedEvolution | undefined;
  if (values.resume) {
    if (!id) id = (await store.listRuns('evolution'))[0]?.id;
    if (!id) throw new UsageError(`--resume: no evolution run in ${values.store}`);
    resumed = await resumedEvolution(store, values.store, id, now, { fromLastGood: values['from-last-good'], allowChanged: values['allow-changed-settings'] });
  }
  const previous = resumed?.previous;
  let source: EvolutionState | undefined;
  let fromIteration: number | undefined;
  if (values.branch !== undefined) {
    if (values.resume) throw new UsageError('--branch starts a new run: it does not go with --resume');
    if (values['from-iteration'] === undefined) throw new UsageError('--branch RUN_ID needs --from-iteration N');
    fromIteration = intOption(values['from-iteration'], 'from-iteration', 0, 0, 1_000_000);
    const fixed = BRANCH_FIXED_FLAGS.filter((flag) => given(argv, flag));
    if (fixed.length > 0) throw new UsageError(`--branch keeps the source run's ${fixed.map((f) => `--${f}`).join(', ')}: they define the state it forks from`);
    source = await loadEvolutionState(store, values.branch);
    if (!source) throw new UsageError(`--branch: no evolution run "${values.branch}" in ${values.store}`);
  } else if (values['from-iteration'] !== undefined) throw new UsageError('--from-iteration goes with --branch RUN_ID');
  if (!values.resume && id && (await store.getRun(id))) throw new UsageError(`--id ${id}: a run with this id is already in ${values.store}; use --resume to continue it, or another id`);
  id ??= randomUUID();
  const taskList = async (spec: string | undefined, flag: string, saved: { id: string }[] | undefined): Promise<CliTask[]> => {
    const text = spec ?? saved?.map((t) => t.id).join(',');
    if (!text) throw new UsageError(`evolve needs ${flag} story:seed,...`);
    return parseTasks(text, flag);
  };
  const saved = previous?.config ?? source?.config;
  const train = await taskList(values.train, '--train', saved?.train);
  const val = await taskList(values.val, '--val', saved?.val);
  const { editSizes, instruction, optimizer, proposerInput } = proposerFlags(values);
  const outerLoop = outerLoopOptions(values);
  if (outerLoop.stopConditions.maxProposerUsd !== undefined && !settings.prices[settings.roles.proposer.model]) {
    throw new UsageError(`--max-proposer-usd needs the proposer model's price (--price ${settings.roles.proposer.model}=IN/OUT)`);
  }
  const repeats = intOption(values.repeats, 'repeats', EVOLUTION_DEFAULTS.repeats, 1, LIMITS.repeats);
  const web = allWeb([...train, ...val]);
  let config: EvolutionConfig = resumed ? resumed.config : newEvolutionConfig({
    train, val, trainRepeats: intOption(values['train-repeats'], 'train-repeats', repeats, 1, LIMITS.repeats), valRepeats: intOption(values['val-repeats'], 'val-repeats', repeats, 1, LIMITS.repeats),
    episodes: intOption(values.episodes, 'episodes', sessionDefaults(web).episodes, 1, LIMITS.episodes), maxSteps: intOption(values.steps, 'steps', sessionDefaults(web).maxSteps, 1, LIMITS.steps),
    ...(values.guide !== undefined ? { initialGuidingPrompt: values.guide } : {}), ...(values['seed-strategy'] !== undefined ? { seedStrategy: values['seed-strategy'] } : {}),
    minibatchSize: intOption(values.minibatch, 'minibatch', EVOLUTION_DEFAULTS.minibatchSize, 1, 100), budgetMetricCalls: intOption(values.budget, 'budget', EVOLUTION_DEFAULTS.budgetMetricCalls, 1, LIMITS.budget),
    maxConsecutiveFailures: intOption(values['max-failures'], 'max-failures', EVOLUTION_DEFAULTS.maxConsecutiveFailures, 1, 1000), proposer: values.proposer as EvolutionConfig['proposer'],
    ...(editSizes ? { editSizes } : {}), proposerInput, proposerInstruction: instruction, optimizer,
    rngSeed: intOption(values['rng-seed'], 'rng-seed', EVOLUTION_DEFAULTS.rngSeed, 0, 0xffffffff), outerLoop,
  }, settings, now, saved ? saved.contextWindow : await contextWindowFromFlags(values, settings), replyGrammarOf(values));
  // A branch's budget is checked against what its source had spent (branch.ts).
  if (values.branch === undefined) refuseSmallBudget(config);
  const tasks = [...train, ...val];
  if (values.branch !== undefined) {
    config = await createBranch(store, values.branch, id, fromIteration!, branchChanges(argv, config), new Date()).catch((error: unknown) => {
      if (error instanceof BranchError) throw new UsageError(error.message);
      throw error;
    });
  }
  const pauseAfter = values['pause-after'] === undefined ? undefined : intOption(values['pause-after'], 'pause-after', 0, 0, 1_000_000);
  if (!values.json && !previous && values.branch === undefined) process.stderr.write(budgetLine(config));
  return runAndReportEvolution({
    values, settings, store, storeDir: values.store, id, config, tasks, ...(previous ? { previous } : {}), json: values.json, fromLastGood: values['from-last-good'],
    ...(pauseAfter !== undefined ? { pauseRequested: (done: number) => done >= pauseAfter } : {}),
  });
}

/** The outer loop's strategy flags (GEPA's names): --selection, --epsilon, --top-k, --accept, the
 * stop conditions, --merge [--max-merges N] and --proposals PxN. @throws UsageError for an unknown
 * name or a value out of range */
function outerLoopOptions(values: Record<string, string | boolean | string[] | undefined>): OuterLoopOptions {
  const selection = values.selection as string;
  if (!(CANDIDATE_SELECTIONS as readonly string[]).includes(selection)) throw new UsageError(`--selection must be one of ${CANDIDATE_SELECTIONS.join(', ')}, got "${selection}"`);
  const acceptance = values.accept as string;
  if (!(ACCEPTANCES as readonly string[]).includes(acceptance)) throw new UsageError(`--accept must be one of ${ACCEPTANCES.join(', ')}, got "${acceptance}"`);
  const epsilon = numberOption(values.epsilon as string | undefined, 'epsilon');
  if (epsilon !== undefined && epsilon > 1) throw new UsageError(`--epsilon must be from 0 to 1, got "${values.epsilon as string}"`);
  if (epsilon !== undefined && selection !== 'epsilon_greedy') throw new UsageError('--epsilon goes with --selection epsilon_greedy');
  const topK = values['top-k'] === undefined ? undefined : intOption(values['top-k'] as string, 'top-k', EVOLUTION_DEFAULTS.topK, 1, 10_000);
  if (topK !== undefined && selection !== 'top_k_pareto') throw new UsageError('--top-k goes with --selection top_k_pareto');
  const score = numberOption(values['stop-score'] as string | undefined, 'stop-score');
  if (score !== undefined && score > 1) throw new UsageError(`--stop-score is a W-AUC from 0 to 1, got "${values['stop-score'] as string}"`);
  const minutes = numberOption(values['stop-minutes'] as string | undefined, 'stop-minutes');
  const usd = numberOption(values['max-proposer-usd'] as string | undefined, 'max-proposer-usd');
  if (minutes === 0 || usd === 0) throw new UsageError(`--${minutes === 0 ? 'stop-minutes' : 'max-proposer-usd'} must be more than 0`);
  const stopConditions: StopConditionsConfig = {
    ...(values['stop-no-improvement'] !== undefined ? { noImprovementIterations: intOption(values['stop-no-improvement'] as string, 'stop-no-improvement', 1, 1, 100_000) } : {}),
    ...(score !== undefined ? { scoreThreshold: score } : {}),
    ...(minutes !== undefined ? { timeLimitMinutes: minutes } : {}),
    ...(usd !== undefined ? { maxProposerUsd: usd } : {}),
  };
  if (values['max-merges'] !== undefined && !values.merge) throw new UsageError('--max-merges goes with --merge');
  const merge = values.merge ? { maxMerges: intOption(values['max-merges'] as string | undefined, 'max-merges', EVOLUTION_DEFAULTS.maxMerges, 1, 10_000) } : undefined;
  let proposals: ProposalsConfig | undefined;
  try {
    proposals = values.proposals === undefined ? undefined : parseProposals(values.proposals as string);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return {
    selection: selection as CandidateSelection, ...(epsilon !== undefined ? { epsilon } : {}), ...(topK !== undefined ? { topK } : {}), acceptance: acceptance as Acceptance, stopConditions,
    ...(merge ? { merge } : {}), ...(proposals && proposalsPerIteration(proposals) > 1 ? { proposals } : {}),
  };
}

/** Flags whose values define the state a branch forks from (a branch keeps the source's). */
const BRANCH_FIXED_FLAGS = ['train', 'val', 'repeats', 'train-repeats', 'val-repeats', 'episodes', 'steps', 'minibatch', 'rng-seed', 'seed-strategy', 'guide', 'context-window'] as const;

/** Whether `--flag` (or `--flag=…`) is on the command line (parseArgs fills defaults in). */
function given(argv: readonly string[], flag: string): boolean {
  return argv.some((a) => a === `--${flag}` || a.startsWith(`--${flag}=`));
}

/** The settings a branch changes: those of the flags given (values as parsed into `parsed`, a
 * config built from the flags), budget, outer-loop rules, proposer, failures, concurrency. */
function branchChanges(argv: readonly string[], parsed: EvolutionConfig): BranchChanges {
  const changes: BranchChanges = {};
  if (given(argv, 'budget')) changes.budgetMetricCalls = parsed.budgetMetricCalls;
  if (given(argv, 'selection')) changes.candidateSelection = parsed.candidateSelection!;
  if (given(argv, 'epsilon')) changes.epsilon = parsed.epsilon!;
  if (given(argv, 'top-k')) changes.topK = parsed.topK!;
  if (given(argv, 'accept')) changes.acceptance = parsed.acceptance!;
  if (given(argv, 'proposer')) changes.proposer = parsed.proposer;
  if (given(argv, 'proposer-instruction')) changes.proposerInstruction = parsed.proposerInstruction!;
  if (given(argv, 'max-failures')) changes.maxConsecutiveFailures = parsed.maxConsecutiveFailures;
  if (given(argv, 'concurrency')) changes.concurrency = parsed.concurrency;
  if (['stop-no-improvement', 'stop-score', 'stop-minutes', 'max-proposer-usd'].some((f) => given(argv, f))) changes.stopConditions = parsed.stopConditions ?? {};
  return changes;
}

/** The proposer's flags checked together (--proposer, --edit-sizes[-source], --proposer-instruction,
 * --optimizer, --proposer-input). @throws UsageError naming the flag */
function proposerFlags(values: { proposer: string; 'edit-sizes'?: string; 'edit-sizes-source'?: string; 'proposer-instruction': string; optimizer: string; 'proposer-input': string }) {
  if (values.proposer !== 'llm' && values.proposer !== 'random' && values.proposer !== 'random-neutral') throw new UsageError('--proposer must be llm, random or random-neutral');
  if (values['edit-sizes'] !== undefined && values.proposer !== 'random-neutral') throw new UsageError('--edit-sizes goes with --proposer random-neutral');
  let editSizes: EvolutionConfig['editSizes'];
  try {
    editSizes = values['edit-sizes'] !== undefined ? { sizes: parseEditSizes(values['edit-sizes']), source: values['edit-sizes-source'] ?? 'given' } : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const instruction = values['proposer-instruction'];
  if (instruction !== 'gepa' && instruction !== 'general-rules') throw new UsageError('--proposer-instruction must be gepa or general-rules');
  const optimizer = values.optimizer;
  if (!(OPTIMIZERS as readonly string[]).includes(optimizer)) throw new UsageError(`--optimizer must be one of ${OPTIMIZERS.join(', ')}, got "${optimizer}"`);
  if (optimizer === 'opro' && values.proposer !== 'llm') throw new UsageError('--optimizer opro needs the LLM proposer (--proposer llm)');
  const proposerInput = values['proposer-input'];
  if (proposerInput !== 'full' && proposerInput !== 'no-trace') throw new UsageError(`--proposer-input must be full or no-trace, got "${proposerInput}"`);
  if (proposerInput === 'no-trace' && (values.proposer !== 'llm' || optimizer !== 'gepa')) throw new UsageError('--proposer-input no-trace needs the LLM proposer with the GEPA optimizer (--proposer llm --optimizer gepa)');
  return { editSizes, instruction: instruction as ProposerInstruction, optimizer: optimizer as Optimizer, proposerInput: proposerInput as 'full' | 'no-trace' };
}
