/**
 * The evaluation report: per policy and task set, mean W-AUC, mean average score and best score,
 * each with a 95% hierarchical-bootstrap CI (resample games, then seeds within a game, then
 * repeats within a seed; B = 2,000, seeded; method.md "Metrics"); paired W-AUC differences against the baseline on the same
 * (game, seed, repeat) units; per-game breakdowns; learning curves (mean final score per episode
 * with a CI band, raw and normalised per game by its max score); the number of sessions behind
 * every figure; selection-leak warnings; the comparisons (comparisons.ts: each policy against the
 * baseline and the config's contrasts, Holm-corrected, with per-game Δ and the game-level test;
 * every other pair exploratory) and the warnings `few_games` and `identical_repeats`.
 */
import { nestedBootstrapMean, nestedPairedDifference, type BootstrapOptions, type Interval } from '../ttl/metrics.ts';
import { buildComparisons, DEFAULT_POWER_DELTA, reportWarnings } from './comparisons.ts';
import type { EvaluationReport, EvaluationResult, EvaluationState, GameSummary, MetricSummary, PolicySetSummary } from './interface.ts';
import { describeModel, SIMULATION_NOTICE, usesSimulatedModel } from '../llm/model-label.ts';

const RESAMPLES = 2000;
const LEVEL = 0.95;

/** Group values by game, then by task (a seed of the game), in first-seen order. */
function byGame<T>(results: readonly EvaluationResult[], value: (r: EvaluationResult) => T): T[][][] {
  const groups = new Map<string, Map<string, T[]>>();
  for (const r of results) {
    const game = groups.get(r.storyId) ?? new Map<string, T[]>();
    game.set(r.taskId, [...(game.get(r.taskId) ?? []), value(r)]);
    groups.set(r.storyId, game);
  }
  return [...groups.values()].map((game) => [...game.values()]);
}

function summarise(results: readonly EvaluationResult[], boot: BootstrapOptions): MetricSummary {
  return {
    wAuc: nestedBootstrapMean(byGame(results, (r) => r.wAuc), boot),
    averageScore: nestedBootstrapMean(byGame(results, (r) => r.averageScore), boot),
    bestScore: nestedBootstrapMean(byGame(results, (r) => r.bestScore), boot),
  };
}

/** Mean final score per episode index, with a hierarchical CI per index. */
function curve(results: readonly EvaluationResult[], episodes: number, boot: BootstrapOptions): Interval[] {
  return Array.from({ length: episodes }, (_, t) => nestedBootstrapMean(byGame(results.filter((r) => r.scores.length > t), (r) => r.scores[t]!), boot));
}

/** Mean final score ÷ the game's max score per episode index, every game weighing the same
 * (results of tasks with no known positive max score are left out). */
function normalisedCurve(results: readonly EvaluationResult[], episodes: number, maxScoreOf: (taskId: string) => number | null, boot: BootstrapOptions): Interval[] {
  const scored = results.filter((r) => (maxScoreOf(r.taskId) ?? 0) > 0);
  if (scored.length === 0) return [];
  return Array.from({ length: episodes }, (_, t) => nestedBootstrapMean(byGame(scored.filter((r) => r.scores.length > t), (r) => r.scores[t]! / maxScoreOf(r.taskId)!), boot));
}

/** The leak warning for a policy on a task set, or null. */
export function leakWarning(selectedOn: readonly string[], results: readonly EvaluationResult[]): string | null {
  const games = [...new Set(results.map((r) => r.storyId))].filter((g) => selectedOn.includes(g));
  return games.length ? `The evaluated meta-prompt was selected on these games: ${games.join(', ')}. Its results on them are not a held-out test.` : null;
}

/** The results' total cost in USD, or null when one result's cost is unknown (null). */
export function totalCostUsd(results: readonly EvaluationResult[]): number | null {
  return results.some((r) => r.costUsd === null) ? null : results.reduce((n, r) => n + (r.costUsd ?? 0), 0);
}

/**
 * The report of an evaluation in any state.
 * @param options.powerDelta the Δ (W-AUC) the comparisons' repeats-needed estimate is for (default 0.05)
 */
export function buildReport(state: EvaluationState, options: { powerDelta?: number } = {}): EvaluationReport {
  const { config } = state;
  const boot: BootstrapOptions = { seed: config.bootstrapSeed, resamples: RESAMPLES, level: LEVEL };
  const maxScores = new Map(config.taskSets.flatMap((s) => s.tasks.map((t) => [t.id, t.maxScore] as const)));
  const maxScoreOf = (taskId: string) => maxScores.get(taskId) ?? null;
  const setNames = config.taskSets.map((s) => s.name);
  const { declared, exploratory } = buildComparisons(config.policies.map((p) => p.id), config.baselinePolicyId, config.contrasts ?? [], setNames, state.results, boot, options.powerDelta ?? DEFAULT_POWER_DELTA);
  const policies: PolicySetSummary[] = [];
  const games: GameSummary[] = [];
  for (const set of config.taskSets) {
    const baseline = state.results.filter((r) => r.policyId === config.baselinePolicyId && r.taskSet === set.name);
    for (const policy of config.policies) {
      const results = state.results.filter((r) => r.policyId === policy.id && r.taskSet === set.name);
      if (results.length === 0) continue;
      let diff: Interval | null = null;
      const flag = declared.find((c) => c.a === policy.id && c.b === config.baselinePolicyId && c.taskSet === set.name);
      if (policy.id !== config.baselinePolicyId) {
        const matched = results.filter((r) => baseline.some((x) => x.taskId === r.taskId && x.repeat === r.repeat));
        const pairs = byGame(matched, (r): [number, number] => [r.wAuc, baseline.find((x) => x.taskId === r.taskId && x.repeat === r.repeat)!.wAuc]);
        if (pairs.length > 0) diff = nestedPairedDifference(pairs, boot);
      }
      policies.push({
        policyId: policy.id, policyName: policy.name ?? policy.id, taskSet: set.name, sessions: results.length, games: new Set(results.map((r) => r.storyId)).size,
        ...summarise(results, boot), diffVsBaseline: diff, beatsBaseline: flag?.positive ?? false,
        leakWarning: leakWarning(policy.selectedOn, results), ...(policy.spec.kind === 'meta' && policy.spec.raw ? { rawMetaPrompt: true as const } : {}), curve: curve(results, config.episodes, boot),
        normalisedCurve: normalisedCurve(results, config.episodes, maxScoreOf, boot), costUsd: totalCostUsd(results),
      });
      for (const storyId of new Set(results.map((r) => r.storyId))) {
        const mine = results.filter((r) => r.storyId === storyId);
        games.push({ policyId: policy.id, policyName: policy.name ?? policy.id, taskSet: set.name, storyId, sessions: mine.length, ...summarise(mine, boot) });
      }
    }
  }
  return {
    id: state.id, status: state.status, stopReason: state.stopReason, stopMessage: state.stopMessage,
    plannedSessions: state.totalSessions, faultedEpisodes: state.faultedEpisodes, baselinePolicyId: config.baselinePolicyId, bootstrap: { resamples: RESAMPLES, seed: config.bootstrapSeed, level: LEVEL },
    policies, games, totalSessions: state.results.length,
    comparisons: declared, exploratoryComparisons: exploratory,
    ...(usesSimulatedModel([config.models.actor, config.models.metaAgent]) ? { simulated: SIMULATION_NOTICE } : { model: describeModel(config.models).line }),
    warnings: reportWarnings(state.results, setNames, new Map(config.policies.map((p) => [p.id, p.name ?? p.id]))),
  };
}
