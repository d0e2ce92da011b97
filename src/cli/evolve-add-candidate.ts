/**
 * `metattl evolve add-candidate --store DIR --run ID --parent CID (--strategy-file F |
 * --feedback-file F) [--json]` with the provider flags of `evolve`: a person's candidate for a
 * stored run between iterations (paused, complete, or stopped before an iteration began), evaluated
 * as the loop evaluates a proposal (src/evolve/human-candidate.ts) and charged to the run's
 * budget; the run is then paused at the same boundary, to be continued with `evolve --resume`.
 * With --feedback-file the proposer writes the strategy from the person's feedback first.
 * Output (--json): `{ id, status, stopReason, metricCallsUsed, budget, iterationsDone, candidate:
 * { id, parentId, origin: 'human', status, reason, strategy, valScores, minibatch, feedback }, costUsd }`.
 */
import { EVOLVE_ADD_CANDIDATE } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { readFileSync } from 'node:fs';
import { cacheEventProblem } from '../evolve/evolution-io.ts';
import { loadEvolutionState } from '../evolve/evolution-store.ts';
import { addHumanCandidate, HumanCandidateError, humanCandidateProblem, proposeFromFeedback } from '../evolve/human-candidate.ts';
import { openNodeStore } from '../store/node-store.ts';
import { runStoredEvolution } from './evolve-run.ts';
import { exitCode } from './interrupt.ts';
import { costText, knownCostUsd, llmSettingsFromFlags } from './llm-options.ts';
import { resumeCheck } from './resume-check.ts';
import { parseTasks } from './tasks.ts';
import { UsageError } from './usage-error.ts';

/** @returns the exit code (0 evaluated, 1 a provider fault stopped it, 130 interrupted)
 * @throws UsageError for missing flags, an unknown run or parent, or a run that cannot take one now */
export async function addCandidateCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(EVOLVE_ADD_CANDIDATE, argv);
  if (!values.store || !values.run || !values.parent) throw new UsageError('evolve add-candidate needs --store DIR --run ID --parent CID');
  if ((values['strategy-file'] === undefined) === (values['feedback-file'] === undefined)) throw new UsageError('evolve add-candidate needs one of --strategy-file F (the strategy) or --feedback-file F (feedback for the proposer)');
  const text = readText(values['strategy-file'] ?? values['feedback-file']!).trim();
  const feedback = values['feedback-file'] !== undefined ? text : undefined;
  const settings = llmSettingsFromFlags(values);
  const store = await openNodeStore(values.store);
  const state = await loadEvolutionState(store, values.run);
  if (!state) throw new UsageError(`--run: no evolution run "${values.run}" in ${values.store}`);
  const problem = humanCandidateProblem(state, values.parent);
  if (problem) throw new UsageError(problem);
  if (feedback !== undefined && state.config.proposer !== 'llm') throw new UsageError('--feedback-file needs a run with the LLM proposer');
  await resumeCheck(store, state.id, 'evolution', cacheEventProblem, false, `metattl evolve --store ${values.store} --resume --id ${state.id} --from-last-good`);
  const boundary = state.iteration;
  const parent = state.candidates.find((c) => c.id === values.parent)!;
  const ids = [...new Set([...state.config.train, ...state.config.val].map((t) => t.id))];
  const { state: done, meter, interrupted } = await runStoredEvolution({
    values, settings, store, storeDir: values.store, id: state.id, config: state.config, previous: state, tasks: await parseTasks(ids.join(','), '--run'),
    json: values.json, fromLastGood: false, pauseRequested: (iterationsDone) => iterationsDone >= boundary,
    prepare: async (models, signal) => {
      try {
        if (feedback === undefined) return addHumanCandidate(state, { parentId: parent.id, strategy: text });
        const proposed = await proposeFromFeedback(models.proposer, parent.strategy, feedback, state.config, signal);
        return addHumanCandidate(state, { parentId: parent.id, strategy: proposed.strategy, feedback, proposerReply: proposed.reply, ...(proposed.providerModel ? { providerModel: proposed.providerModel } : {}) });
      } catch (error) {
        throw error instanceof HumanCandidateError ? new UsageError(error.message) : error;
      }
    },
  });
  const candidate = [...done.candidates].reverse().find((c) => c.origin === 'human' && c.iteration === boundary) ?? null;
  const out = {
    id: done.id, status: done.status, stopReason: done.stopReason, stopMessage: done.stopMessage, metricCallsUsed: done.metricCallsUsed, budget: done.config.budgetMetricCalls,
    iterationsDone: done.iterationsDone ?? null,
    candidate: candidate && {
      id: candidate.id, parentId: candidate.parentId, origin: 'human', status: candidate.status, reason: candidate.reason, strategy: candidate.strategy,
      valScores: candidate.valScores, minibatch: candidate.minibatch, feedback: candidate.humanFeedback ?? null, ...(candidate.providerModel ? { providerModel: candidate.providerModel } : {}),
    },
    costUsd: knownCostUsd(settings, meter),
  };
  if (values.json) process.stdout.write(JSON.stringify(out) + '\n');
  else {
    const what = candidate ? `candidate ${candidate.id} (human, from ${candidate.parentId}): ${candidate.status} (${candidate.reason})` : 'the candidate was not evaluated';
    process.stdout.write(`${what}; run ${done.id} ${done.status} after iteration ${done.iterationsDone ?? boundary}, ${done.metricCallsUsed}/${done.config.budgetMetricCalls} metric calls; ${costText(out.costUsd)}; continue with --store ${values.store} --resume --id ${done.id}\n`);
  }
  return exitCode(interrupted, done.stopReason === 'provider_error');
}

/** A file's text. @throws UsageError when it cannot be read */
function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}
