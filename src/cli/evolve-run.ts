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
import { listenForInterrupt } from './interrupt.ts';
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
