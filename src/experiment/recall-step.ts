/**
 * The experiment's recall-probe step (spec `recallProbe`, plan.ts `recallProbeStepOf`): the games
 * with their walkthroughs and titles, the core probe run (src/eval/recall-probe.ts
 * `runRecallProbe`) and the step's outcome. Both executors go through these: the page's calls
 * `runRecallProbeStep`; the CLI's runs `metattl probe recall` (which calls `runRecallProbe`) and
 * turns its recall.json into the outcome with `recallOutcomeOf`. No UI, DOM or Node imports.
 */
import { runRecallProbe, type RecallGame, type RecallReport } from '../eval/recall-probe.ts';
import type { ChatModel } from '../llm/interface.ts';
import type { RecallOutcome, RecallProbeStep } from './interface.ts';

/**
 * The step's games as the probe takes them: each with its walkthrough (`walkthroughOf`, null when
 * none is known) and its title (`titleOf`, for the question).
 * @throws Error naming every game without a walkthrough (`where` says where one was looked for) or
 *   whose walkthrough has no command after the first k
 */
export function recallGamesOf(step: RecallProbeStep, walkthroughOf: (game: string) => readonly string[] | null, titleOf: (game: string) => string, where: string): RecallGame[] {
  const missing = step.games.filter((g) => !walkthroughOf(g)?.length);
  if (missing.length) throw new Error(`${step.id}: no walkthrough for ${missing.join(', ')} (${where})`);
  const short = step.games.filter((g) => walkthroughOf(g)!.length <= step.options.k);
  if (short.length) throw new Error(`${step.id}: the walkthrough of ${short.join(', ')} has no command after the first ${step.options.k} (lower recallProbe.k)`);
  return step.games.map((game) => ({ game, title: titleOf(game), walkthrough: [...walkthroughOf(game)!] }));
}

/** A probe's report as the step's outcome. */
export function recallOutcomeOf(report: Pick<RecallReport, 'options' | 'games' | 'pooled' | 'items'>, model: string, walkthroughSource: string): RecallOutcome {
  return { status: 'complete', model, walkthroughSource, options: report.options, games: report.games, pooled: report.pooled, items: report.items };
}

/**
 * Run the step: the core probe on `games` with `model` (the model set's actor, named `modelName`),
 * at most `run.concurrency` calls at once.
 * @throws what runRecallProbe throws (a systemic provider fault, a stop, a cap)
 */
export async function runRecallProbeStep(step: RecallProbeStep, games: readonly RecallGame[], model: ChatModel, modelName: string, walkthroughSource: string, run: { concurrency?: number; signal?: AbortSignal; onItem?: (done: number, total: number) => void } = {}): Promise<RecallOutcome> {
  return recallOutcomeOf(await runRecallProbe(games, model, step.options, run), modelName, walkthroughSource);
}
