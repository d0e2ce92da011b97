/**
 * Running one stored evolution run headless (for `metattl evolve` and `metattl evolve
 * add-candidate`): the models from the provider flags, a worker pool for the run's tasks, sessions
 * through `evaluateSession`, the core's evolution service (the state saved after every event), the
 * stop file `<store>/STOP`, Ctrl-C as Stop. Progress lines on stderr unless `json`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startOrResumeEvolution } from '../evolve/evolution-service.ts';
import type { EvolutionConfig, EvolutionState } from '../evolve/interface.ts';
import type { ChatModel, LlmSettings, Role } from '../llm/interface.ts';
import { loadTokenCounter } from '../llm/token-count.ts';
import { UsageMeter } from '../llm/usage-meter.ts';
import type { Store } from '../store/interface.ts';
import { evaluateSession } from '../ttl/session-evaluator.ts';
import { exitCode, listenForInterrupt } from './interrupt.ts';
import { costText, knownCostUsd, providerNotes, providerNotesText } from './llm-options.ts';
import { plural } from '../agents/plural.ts';
import { exportedModel } from '../llm/model-label.ts';
import { chatModelsFromFlags } from './models.ts';
import { workerPool, type CliTask } from './tasks.ts';

export interface StoredEvolutionRun {
  /** The parsed flags (provider flags read by `chatModelsFromFlags`). */
  values: Record<string, unknown>;
  settings: LlmSettings;
  store: Store;
  storeDir: string;
  id: string;
  config: EvolutionConfig;
  /** The run's train and validation tasks with their story files. */
  tasks: CliTask[];
  /** The stored state when resuming (its faulted episodes carry on). */
  previous?: EvolutionState;
  json: boolean;
  fromLastGood: boolean;
  /** Pause at the boundary after this many iterations (`--pause-after`, add-candidate). */
  pauseRequested?: (iterationsDone: number) => boolean;
  /** The config to run once the models exist (add-candidate asks the proposer first); default `config`. */
  prepare?: (models: Record<Role, ChatModel>, signal: AbortSignal) => Promise<EvolutionConfig>;
}

/** Run (or resume) the stored run to its end, a stop or a pause; closes the store.
 * @returns the final state, the usage meter, whether Ctrl-C stopped it, and the config it ran */
export async function runStoredEvolution(r: StoredEvolutionRun): Promise<{ state: EvolutionState; meter: UsageMeter; interrupted: boolean; config: EvolutionConfig }> {
  const { settings, store, id } = r;
  const meter = new UsageMeter(settings.caps, settings.prices);
  const interrupt = listenForInterrupt();
  const pool = workerPool(r.tasks);
  try {
    const models = await chatModelsFromFlags(r.values, settings, meter);
    const config = r.prepare ? await r.prepare(models, interrupt.signal) : r.config;
    const options = {
      settings, models, countTokens: await loadTokenCounter(), pool, episodes: config.episodes, maxSteps: config.maxSteps,
      initialGuidingPrompt: config.initialGuidingPrompt, contextWindow: config.contextWindow,
      // Unfinished sessions are kept in the store and continued from their last finished episode.
      store, fromLastGood: r.fromLastGood,
    };
    // The core stores, saves after every event and replays (evolve/evolution-service.ts); this is wiring and display.
    const state = await startOrResumeEvolution(store, id, config, {
      proposer: models.proposer, signal: interrupt.signal, faultedEpisodesBefore: r.previous?.faultedEpisodes ?? 0,
      // GEPA's FileStopper: `<store>/STOP` stops the run before its next iteration, resumable.
      stopFile: () => existsSync(join(r.storeDir, 'STOP')),
      proposerCostUsd: () => (settings.prices[config.models.proposer] ? meter.byRole.proposer.costUsd : null),
      ...(r.pauseRequested ? { pauseRequested: r.pauseRequested } : {}),
      evaluate: (strategy, task, repeat, sessionId, signal) => evaluateSession(options, { kind: 'meta', name: 'candidate', strategy }, task, sessionId, signal, repeat),
      observers: r.json ? [] : [(event) => {
        if (event.type === 'metric_call_done') process.stderr.write(`[${event.metricCallsUsed}/${config.budgetMetricCalls}] ${event.call.purpose} ${event.call.candidateId} on ${event.call.taskId}: W-AUC ${event.call.wAuc.toFixed(3)}\n`);
        if (event.type === 'accepted' || event.type === 'rejected' || event.type === 'proposal_failed') process.stderr.write(`candidate ${event.candidate.id}${event.candidate.origin === 'human' ? ' (human)' : ''}: ${event.candidate.status} (${event.candidate.reason})\n`);
      }],
    });
    return { state, meter, interrupted: interrupt.interrupted, config };
  } finally {
    interrupt.release();
    pool.disposeAll();
    store.close();
  }
}

/**
 * `metattl evolve`'s run and report, shared with the experiment executor's evolution steps: run
 * (or resume) `r` (runStoredEvolution), then print the --json contract (`evolutionJson`) or the
 * one-line summary on stdout (provider notes on stderr).
 * @returns the exit code: 0, 130 after Ctrl-C, 1 when a provider fault stopped the run
 */
export async function runAndReportEvolution(r: StoredEvolutionRun): Promise<number> {
  const { settings, id, config } = r;
  const { state, meter, interrupted } = await runStoredEvolution(r);
  const out = evolutionJson(id, state, config, settings, meter);
  if (r.json) {
    process.stdout.write(JSON.stringify(out) + '\n');
    if (state.stopReason === 'provider_error') process.stderr.write(`metattl: evolution stopped: ${state.stopMessage ?? 'provider fault'}\n`);
  } else {
    process.stderr.write(providerNotesText(providerNotes(settings, meter)));
    const resume = state.status === 'stopped' || state.status === 'paused' ? `; continue with --store ${r.storeDir} --resume --id ${id}` : '';
    process.stdout.write(`evolution ${id}: ${state.status} (${state.stopReason}${state.stopMessage ? `: ${state.stopMessage}` : ''})${resume}; ${state.metricCallsUsed}/${config.budgetMetricCalls} metric calls, ${plural(state.sessionsPlayed, 'session')}, ${plural(state.candidates.length - 1, 'proposal')}, ${plural(state.faultedEpisodes, 'faulted episode')}; ${costText(out.costUsd)}; best ${state.best.byMean} (z-score: ${state.best.byZScore})\n`);
  }
  return exitCode(interrupted, state.stopReason === 'provider_error');
}

/** The --json output contract of an evolution after this invocation (see the module's docstring). */
export function evolutionJson(id: string, state: EvolutionState, config: EvolutionConfig, settings: LlmSettings, meter: UsageMeter) {
  return {
    id, status: state.status, stopReason: state.stopReason, stopMessage: state.stopMessage, bestCandidateId: state.best.byMean, bestByZScore: state.best.byZScore,
    model: exportedModel({ presetId: settings.provider.presetId, ...config.models }),
    metricCallsUsed: state.metricCallsUsed, budget: config.budgetMetricCalls, sessionsPlayed: state.sessionsPlayed,
    faultedEpisodes: state.faultedEpisodes, proposals: state.candidates.length - 1, failedProposals: state.failedProposals,
    candidates: state.candidates.map((c) => ({ id: c.id, parentId: c.parentId, status: c.status, reason: c.reason, strategy: c.strategy, valScores: c.valScores, iteration: c.iteration, origin: c.origin ?? 'proposer', ...(c.providerModel ? { providerModel: c.providerModel } : {}), ...(c.systemFingerprint ? { systemFingerprint: c.systemFingerprint } : {}) })),
    iteration: state.iteration, iterationsDone: state.iterationsDone ?? null, branchedFrom: config.branchedFrom ? { runId: config.branchedFrom.runId, iteration: config.branchedFrom.iteration } : null,
    fronts: state.fronts,
    outerLoop: {
      optimizer: config.optimizer ?? 'gepa', candidateSelection: config.candidateSelection ?? 'pareto', epsilon: config.epsilon ?? null, topK: config.topK ?? null, acceptance: config.acceptance ?? 'strict_improvement', stopConditions: config.stopConditions ?? {},
      ...(config.merge ? { merge: config.merge } : {}), ...(config.proposals ? { proposals: config.proposals } : {}),
    },
    merges: state.candidates.filter((c) => c.merge).map((c) => ({ id: c.id, parentIds: c.merge!.parentIds, ancestorId: c.merge!.ancestorId, status: c.status })),
    // This invocation's spend; null when a model called has no known price at this provider.
    costUsd: knownCostUsd(settings, meter), ...providerNotes(settings, meter),
  };
}
