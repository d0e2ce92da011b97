/**
 * `metattl evolve`: the Meta-TTL outer loop headless, persisted in a store directory; killing the
 * process and re-running with --resume completes the run with the same final state. Output
 * contract (--json): `{ bestCandidateId, metricCallsUsed, candidates: [{ id, parentId, status,
 * strategy, valScores: {taskId: wAuc} }], fronts: {taskId: [candidateId]} }` plus extra fields
 * (id, status, stopReason, bestByZScore, budget, sessionsPlayed, proposals, failedProposals,
 * faultedEpisodes, outerLoop, merges). `--optimizer opro` writes proposals the OPRO way (strategies/opro-proposer.ts). A metric call is one candidate evaluated on one task whatever its repeats
 * (--train-repeats for minibatches, --val-repeats for validation; --repeats sets both); a budget
 * that cannot pay for the seed's validation plus one full iteration is refused (exit 2).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_GUIDING_PROMPT } from '../agents/actor-prompt.ts';
import { budgetPlanOf, runEvolution } from '../evolve/evolution-runner.ts';
import { budgetRefusal } from '../evolve/strategies/budget.ts';
import { cacheEventProblem } from '../evolve/evolution-io.ts';
import { loadEvolutionState, openEvolutionCache, saveEvolutionState } from '../evolve/evolution-store.ts';
import { resumeCheck } from './resume-check.ts';
import type { EvolutionConfig, EvolutionState } from '../evolve/interface.ts';
import { chatModelsFromFlags, replyGrammarOf } from './models.ts';
import { loadTokenCounter } from '../llm/token-count.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import { openNodeStore } from '../store/node-store.ts';
import { evaluateSession } from '../ttl/session-evaluator.ts';
import { contextWindowFromFlags, costText, knownCostUsd, LLM_OPTIONS, llmSettingsFromFlags, providerNotes, providerNotesText } from './llm-options.ts';
import { intOption, LIMITS, numberOption } from './numbers.ts';
import { ACCEPTANCES, type Acceptance } from '../evolve/strategies/acceptance.ts';
import { CANDIDATE_SELECTIONS, type CandidateSelection } from '../evolve/strategies/candidate-selection.ts';
import type { StopConditionsConfig } from '../evolve/strategies/stop-conditions.ts';
import { OPTIMIZERS, type Optimizer } from '../evolve/strategies/opro-proposer.ts';
import { DEFAULT_MAX_MERGES } from '../evolve/strategies/merge.ts';
import { parseProposals, proposalsPerIteration, type ProposalsConfig } from '../evolve/strategies/proposals.ts';
import { allWeb, parseTasks, workerPool, type CliTask } from './tasks.ts';
import { WEB_DEFAULT_EPISODES, WEB_DEFAULT_MAX_STEPS } from '../web/tasks/catalog.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../web/texts.ts';
import { exitCode, listenForInterrupt } from './interrupt.ts';
import { UsageError } from './usage-error.ts';
import { plural } from '../agents/plural.ts';

export async function evolveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...LLM_OPTIONS,
      train: { type: 'string' }, val: { type: 'string' }, repeats: { type: 'string' }, episodes: { type: 'string' }, steps: { type: 'string' },
      budget: { type: 'string' }, store: { type: 'string' }, proposer: { type: 'string', default: 'llm' }, resume: { type: 'boolean', default: false },
      'from-last-good': { type: 'boolean', default: false },
      id: { type: 'string' }, 'rng-seed': { type: 'string' }, minibatch: { type: 'string' }, 'max-failures': { type: 'string' },
      'train-repeats': { type: 'string' }, 'val-repeats': { type: 'string' }, 'proposer-instruction': { type: 'string', default: 'gepa' },
      'seed-strategy': { type: 'string' }, guide: { type: 'string' }, json: { type: 'boolean', default: false },
      optimizer: { type: 'string', default: 'gepa' }, selection: { type: 'string', default: 'pareto' }, epsilon: { type: 'string' }, 'top-k': { type: 'string' }, accept: { type: 'string', default: 'strict_improvement' },
      'stop-no-improvement': { type: 'string' }, 'stop-score': { type: 'string' }, 'stop-minutes': { type: 'string' }, 'max-proposer-usd': { type: 'string' },
      merge: { type: 'boolean', default: false }, 'max-merges': { type: 'string' }, proposals: { type: 'string' },
    },
  });
  if (!values.store) throw new UsageError('evolve needs --store DIR (runs are persisted so they can be resumed)');
  const settings = llmSettingsFromFlags(values);
  const store = await openNodeStore(values.store);
  let id = values.id;
  let previous: EvolutionState | undefined;
  if (values.resume) {
    if (!id) id = (await store.listRuns('evolution'))[0]?.id;
    if (!id) throw new UsageError(`--resume: no evolution run in ${values.store}`);
    previous = await loadEvolutionState(store, id);
    if (!previous) throw new UsageError(`--resume: no evolution run "${id}" in ${values.store}`);
    await resumeCheck(store, id, 'evolution', cacheEventProblem, values['from-last-good'], `metattl evolve --store ${values.store} --resume --id ${id} --from-last-good`);
  }
  if (!values.resume && id && (await store.getRun(id))) throw new UsageError(`--id ${id}: a run with this id is already in ${values.store}; use --resume to continue it, or another id`);
  id ??= randomUUID();
  const taskList = async (spec: string | undefined, flag: string, saved: { id: string }[] | undefined): Promise<CliTask[]> => {
    const text = spec ?? saved?.map((t) => t.id).join(',');
    if (!text) throw new UsageError(`evolve needs ${flag} story:seed,...`);
    return parseTasks(text, flag);
  };
  const train = await taskList(values.train, '--train', previous?.config.train);
  const val = await taskList(values.val, '--val', previous?.config.val);
  if (values.proposer !== 'llm' && values.proposer !== 'random') throw new UsageError('--proposer must be llm or random');
  const instruction = values['proposer-instruction'];
  if (instruction !== 'gepa' && instruction !== 'general-rules') throw new UsageError('--proposer-instruction must be gepa or general-rules');
  const optimizer = values.optimizer;
  if (!(OPTIMIZERS as readonly string[]).includes(optimizer)) throw new UsageError(`--optimizer must be one of ${OPTIMIZERS.join(', ')}, got "${optimizer}"`);
  if (optimizer === 'opro' && values.proposer !== 'llm') throw new UsageError('--optimizer opro needs the LLM proposer (--proposer llm)');
  const outerLoop = outerLoopOptions(values);
  if (outerLoop.stopConditions.maxProposerUsd !== undefined && !settings.prices[settings.roles.proposer.model]) {
    throw new UsageError(`--max-proposer-usd needs the proposer model's price (--price ${settings.roles.proposer.model}=IN/OUT)`);
  }
  const strip = ({ story: _s, ...t }: CliTask) => t;
  const web = allWeb([...train, ...val]);
  const repeats = intOption(values.repeats, 'repeats', 1, 1, LIMITS.repeats);
  const valRepeats = intOption(values['val-repeats'], 'val-repeats', repeats, 1, LIMITS.repeats);
  const config: EvolutionConfig = previous?.config ?? {
    train: train.map(strip), val: val.map(strip),
    repeats: valRepeats, trainRepeats: intOption(values['train-repeats'], 'train-repeats', repeats, 1, LIMITS.repeats), valRepeats, episodes: intOption(values.episodes, 'episodes', web ? WEB_DEFAULT_EPISODES : 6, 1, LIMITS.episodes), maxSteps: intOption(values.steps, 'steps', web ? WEB_DEFAULT_MAX_STEPS : 50, 1, LIMITS.steps),
    initialGuidingPrompt: values.guide ?? (web ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT), seedStrategy: values['seed-strategy'] ?? '',
    minibatchSize: intOption(values.minibatch, 'minibatch', 1, 1, 100), budgetMetricCalls: intOption(values.budget, 'budget', 50, 1, LIMITS.budget),
    maxConsecutiveFailures: intOption(values['max-failures'], 'max-failures', 5, 1, 1000), proposer: values.proposer, proposerInstruction: instruction, optimizer: optimizer as Optimizer,
    rngSeed: intOption(values['rng-seed'], 'rng-seed', 0, 0, 0xffffffff), concurrency: settings.maxConcurrent,
    models: { actor: settings.roles.actor.model, metaAgent: settings.roles.metaAgent.model, proposer: settings.roles.proposer.model },
    contextWindow: previous ? previous.config.contextWindow : await contextWindowFromFlags(values, settings),
    candidateSelection: outerLoop.selection, ...(outerLoop.epsilon !== undefined ? { epsilon: outerLoop.epsilon } : {}), ...(outerLoop.topK !== undefined ? { topK: outerLoop.topK } : {}),
    acceptance: outerLoop.acceptance, stopConditions: outerLoop.stopConditions,
    ...(outerLoop.merge ? { merge: outerLoop.merge } : {}), ...(outerLoop.proposals ? { proposals: outerLoop.proposals } : {}),
    ...replyGrammarOf(values),
  };
  // Refuse a budget that cannot pay for the seed's validation plus one full iteration, before any call.
  const plan = budgetPlanOf(config);
  const refusal = budgetRefusal(plan, config.budgetMetricCalls);
  if (refusal) throw new UsageError(refusal);
  const meter = new UsageMeter(settings.caps, settings.prices);
  const models = await chatModelsFromFlags(values, settings, meter);
  const pool = workerPool([...train, ...val]);
  const options = {
    settings, models, countTokens: await loadTokenCounter(), pool, episodes: config.episodes, maxSteps: config.maxSteps,
    initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow,
    // Unfinished sessions are kept in the store and continued from their last finished episode.
    store, fromLastGood: values['from-last-good'],
  };
  const fresh = (): EvolutionState => ({
    format: 'metattl-evolution-1', id: id!, config, status: 'running', stopReason: null, stopMessage: null, candidates: [], metricCalls: [],
    metricCallsUsed: 0, sessionsPlayed: 0, faultedEpisodes: 0, failedProposals: 0, fronts: {}, iteration: 0, rngState: config.rngSeed, best: { byMean: null, byZScore: null },
    progress: [], startedAt: new Date().toISOString(), finishedAt: null,
  });
  const cache = await openEvolutionCache(store, id, fresh);
  const interrupt = listenForInterrupt();
  let state: EvolutionState;
  try {
    if (!values.json && !previous) process.stderr.write(`budget ${config.budgetMetricCalls} metric calls: seed validation ${plan.seedCalls}, at most ${plan.iterationWorstCase} per iteration → ${countRange(plan.proposals, 'proposal')}, ${countRange(plan.sessions, 'session')}\n`);
    state = await runEvolution(id, config, {
      proposer: models.proposer, cache, signal: interrupt.signal, faultedEpisodesBefore: previous?.faultedEpisodes ?? 0,
      // GEPA's FileStopper: `<store>/STOP` stops the run before its next iteration, resumable.
      stopFile: () => existsSync(join(values.store!, 'STOP')),
      proposerCostUsd: () => (settings.prices[config.models.proposer] ? meter.byRole.proposer.costUsd : null),
      evaluate: (strategy, task, _repeat, sessionId, signal) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, task, sessionId, signal),
      onEvent: async (event, st) => {
        // While a resume replays cached results the stored state is already ahead: no need to rewrite it.
        if ((event.type === 'metric_call_done' && !event.fromCache) || event.type === 'proposal_failed' || event.type === 'finished') await saveEvolutionState(store, st);
        if (!values.json && event.type === 'metric_call_done') process.stderr.write(`[${event.metricCallsUsed}/${config.budgetMetricCalls}] ${event.call.purpose} ${event.call.candidateId} on ${event.call.taskId}: W-AUC ${event.call.wAuc.toFixed(3)}\n`);
        if (!values.json && (event.type === 'accepted' || event.type === 'rejected' || event.type === 'proposal_failed')) process.stderr.write(`candidate ${event.candidate.id}: ${event.candidate.status} (${event.candidate.reason})\n`);
      },
    });
  } finally {
    interrupt.release();
    pool.disposeAll();
    store.close();
  }
  const out = {
    id, status: state.status, stopReason: state.stopReason, stopMessage: state.stopMessage, bestCandidateId: state.best.byMean, bestByZScore: state.best.byZScore,
    metricCallsUsed: state.metricCallsUsed, budget: config.budgetMetricCalls, sessionsPlayed: state.sessionsPlayed ?? 0,
    faultedEpisodes: state.faultedEpisodes ?? 0, proposals: state.candidates.length - 1, failedProposals: state.failedProposals,
    candidates: state.candidates.map((c) => ({ id: c.id, parentId: c.parentId, status: c.status, reason: c.reason, strategy: c.strategy, valScores: c.valScores })),
    fronts: state.fronts,
    outerLoop: {
      optimizer: config.optimizer ?? 'gepa', candidateSelection: config.candidateSelection ?? 'pareto', epsilon: config.epsilon ?? null, topK: config.topK ?? null, acceptance: config.acceptance ?? 'strict_improvement', stopConditions: config.stopConditions ?? {},
      ...(config.merge ? { merge: config.merge } : {}), ...(config.proposals ? { proposals: config.proposals } : {}),
    },
    merges: state.candidates.filter((c) => c.merge).map((c) => ({ id: c.id, parentIds: c.merge!.parentIds, ancestorId: c.merge!.ancestorId, status: c.status })),
    // This invocation's spend; null when a model called has no known price at this provider.
    costUsd: knownCostUsd(settings, meter), ...providerNotes(settings, meter),
  };
  if (values.json) {
    process.stdout.write(JSON.stringify(out) + '\n');
    if (state.stopReason === 'provider_error') process.stderr.write(`metattl: evolution stopped: ${state.stopMessage ?? 'provider fault'}\n`);
  } else {
    process.stderr.write(providerNotesText(providerNotes(settings, meter)));
    const resume = state.status === 'stopped' ? `; continue with --store ${values.store} --resume --id ${id}` : '';
    process.stdout.write(`evolution ${id}: ${state.status} (${state.stopReason}${state.stopMessage ? `: ${state.stopMessage}` : ''})${resume}; ${state.metricCallsUsed}/${config.budgetMetricCalls} metric calls, ${plural(state.sessionsPlayed ?? 0, 'session')}, ${plural(state.candidates.length - 1, 'proposal')}, ${plural(state.faultedEpisodes ?? 0, 'faulted episode')}; ${costText(out.costUsd)}; best ${state.best.byMean} (z-score: ${state.best.byZScore})\n`);
  }
  return exitCode(interrupt.interrupted, state.stopReason === 'provider_error');
}

/** The outer loop's strategy flags (GEPA's names): --selection, --epsilon, --top-k, --accept, the
 * stop conditions, --merge [--max-merges N] and --proposals PxN. @throws UsageError for an unknown
 * name or a value out of range */
function outerLoopOptions(values: Record<string, string | boolean | string[] | undefined>): {
  selection: CandidateSelection; epsilon?: number; topK?: number; acceptance: Acceptance; stopConditions: StopConditionsConfig; merge?: { maxMerges: number }; proposals?: ProposalsConfig;
} {
  const selection = values.selection as string;
  if (!(CANDIDATE_SELECTIONS as readonly string[]).includes(selection)) throw new UsageError(`--selection must be one of ${CANDIDATE_SELECTIONS.join(', ')}, got "${selection}"`);
  const acceptance = values.accept as string;
  if (!(ACCEPTANCES as readonly string[]).includes(acceptance)) throw new UsageError(`--accept must be one of ${ACCEPTANCES.join(', ')}, got "${acceptance}"`);
  const epsilon = numberOption(values.epsilon as string | undefined, 'epsilon');
  if (epsilon !== undefined && epsilon > 1) throw new UsageError(`--epsilon must be from 0 to 1, got "${values.epsilon as string}"`);
  if (epsilon !== undefined && selection !== 'epsilon_greedy') throw new UsageError('--epsilon goes with --selection epsilon_greedy');
  const topK = values['top-k'] === undefined ? undefined : intOption(values['top-k'] as string, 'top-k', 5, 1, 10_000);
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
  const merge = values.merge ? { maxMerges: intOption(values['max-merges'] as string | undefined, 'max-merges', DEFAULT_MAX_MERGES, 1, 10_000) } : undefined;
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

/** "2–4 sessions", or "1 session" when the range is one number. */
function countRange(range: { low: number; high: number }, noun: string): string {
  return range.low === range.high ? plural(range.low, noun) : `${range.low}–${range.high} ${noun}s`;
}
