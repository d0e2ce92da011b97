/**
 * What the Evolve dashboard shows, derived from an evolution's state (src/evolve/interface.ts):
 * candidate rows (per-task validation W-AUC, mean, Pareto membership from `fronts`, status and
 * reason, best flags), the best-so-far curve (`progress`) as a chart spec, and the library entry
 * of an evolved candidate (provenance "evolved in run X from parent Y", selectedOn = the run's
 * train + validation games). Pure.
 */
import { describeModel, MODEL_CSV_COLUMNS, modelCsvCells } from '../../../llm/model-label.ts';
import type { Candidate, EvolutionState } from '../../../evolve/interface.ts';
import { proposalsText } from '../../../evolve/rules/proposals.ts';
import { EVOLUTION_DEFAULTS } from '../../../evolve/run-defaults.ts';
import type { LibraryMetaPrompt } from '../state/entry-io.ts';
import type { CsvTable } from '../../../eval/csv.ts';
import type { LineChartSpec } from '../charts/line-chart.ts';

export interface CandidateRow {
  id: string;
  parentId: string | null;
  /** Both parents of a merge (rules/merge.ts); null for other candidates. */
  mergeOf: [string, string] | null;
  iteration: number;
  status: Candidate['status'];
  reason: string;
  /** Mean validation W-AUC per validation task id (missing: not validated). */
  scores: Record<string, number>;
  /** Mean over the validation tasks; null when not validated. */
  mean: number | null;
  /** Validation tasks on whose Pareto front the candidate is. */
  frontTasks: string[];
  bestByMean: boolean;
  bestByZScore: boolean;
}

/** One row per candidate, in creation order. */
export function candidateRows(state: EvolutionState): CandidateRow[] {
  const valIds = state.config.val.map((t) => t.id);
  return state.candidates.map((c) => {
    const validated = valIds.every((t) => c.valScores[t] !== undefined) && valIds.length > 0;
    return {
      id: c.id, parentId: c.parentId, mergeOf: c.merge?.parentIds ?? null, iteration: c.iteration, status: c.status, reason: c.reason, scores: c.valScores,
      mean: validated ? valIds.reduce((s, t) => s + c.valScores[t]!, 0) / valIds.length : null,
      frontTasks: valIds.filter((t) => state.fronts[t]?.includes(c.id)),
      bestByMean: state.best.byMean === c.id, bestByZScore: state.best.byZScore === c.id,
    };
  });
}

/** Best-so-far mean validation W-AUC against metric calls spent, as a stepped line. */
export function progressSpec(state: EvolutionState, colour = '#0072B2'): LineChartSpec {
  const points = state.progress.map((p) => ({ x: p.metricCallsUsed, y: p.bestMeanVal }));
  const last = points.at(-1);
  if (last && state.metricCallsUsed > last.x) points.push({ x: state.metricCallsUsed, y: last.y });
  return {
    title: `Best-so-far validation W-AUC — evolution ${state.id}`, note: describeModel(state.config.models).sentence, model: describeModel(state.config.models),
    series: [{ label: 'best mean validation W-AUC', colour, points, stepped: true }],
    xLabel: 'budget spent (metric calls)', yLabel: 'W-AUC', xMin: 0, xMax: Math.max(state.config.budgetMetricCalls, state.metricCallsUsed), yMin: 0, integerX: true,
  };
}

/** The chart's summary in words. */
export function progressSummary(state: EvolutionState): string {
  const last = state.progress.at(-1);
  return last
    ? `Best mean validation W-AUC ${last.bestMeanVal.toFixed(3)} after ${last.metricCallsUsed} of ${state.config.budgetMetricCalls} metric calls.`
    : 'No validation result yet.';
}

/** The library id of an evolved candidate (saving it twice replaces the first copy). */
export const evolvedEntryId = (runId: string, candidateId: string): string => `evolved-${runId}-${candidateId}`;

/** The games (story ids) of a run's train and validation tasks, without duplicates. */
export const selectedOnOf = (state: EvolutionState): string[] => [...new Set([...state.config.train, ...state.config.val].map((t) => t.storyId))];

/** The library entry of candidate `c` of `state`. */
export function evolvedEntry(state: EvolutionState, c: Candidate): LibraryMetaPrompt {
  const row = candidateRows(state).find((r) => r.id === c.id);
  const score = row?.mean === null || row?.mean === undefined ? 'not validated' : `mean validation W-AUC ${row.mean.toFixed(3)}`;
  return {
    id: evolvedEntryId(state.id, c.id),
    name: `Evolved ${c.id} (run ${state.id})`,
    description: `Evolved in run ${state.id}${c.parentId ? ` from parent ${c.parentId}` : ''}, iteration ${c.iteration}; ${c.status}, ${score}. Selected on ${selectedOnOf(state).join(', ')}.`,
    strategy: c.strategy,
    provenance: { kind: 'evolved', runId: state.id, parentId: c.parentId, iteration: c.iteration },
    selectedOn: selectedOnOf(state),
    evaluations: [],
  };
}

/** "3 / 10 metric calls · 5 sessions" style budget text, with failed proposals and faulted
 * episodes noted. */
export function budgetText(state: EvolutionState): string {
  const failed = state.failedProposals ? ` (${state.failedProposals} charged for failed proposals)` : '';
  const sessions = ` · ${state.sessionsPlayed} session${state.sessionsPlayed === 1 ? '' : 's'}`;
  const faulted = state.faultedEpisodes ? ` · ${state.faultedEpisodes} faulted episode${state.faultedEpisodes === 1 ? '' : 's'} (not scored)` : '';
  return `${state.metricCallsUsed} / ${state.config.budgetMetricCalls} metric calls${failed}${sessions}${faulted}`;
}

const STOP_TEXT: Record<NonNullable<EvolutionState['stopReason']>, string> = {
  budget: 'the budget cannot fit another iteration',
  failures: 'too many proposals in a row failed',
  usd_cap: 'the USD cap was reached',
  token_cap: 'the token cap was reached',
  stopped: 'stopped by you',
  provider_error: 'the provider refused or could not be reached',
  no_improvement: 'no better candidate for the set number of iterations',
  score_threshold: 'the score threshold was reached',
  time_limit: 'the time limit was reached',
  proposer_usd_cap: 'the proposer’s USD cap was reached',
  stop_file: 'a stop file was found',
  paused: 'by you, between iterations',
};

/** The run's outer-loop options in words (optimizer when not GEPA's, candidate selection,
 * acceptance, stop conditions), e.g. "parent: pareto · accept: strict improvement", or
 * "optimizer: OPRO (scored history) · parent: pareto · …". GEPA's names; absent = its defaults
 * (evolve/run-defaults.ts). */
export function strategyText(config: EvolutionState['config']): string {
  const selection = config.candidateSelection ?? EVOLUTION_DEFAULTS.candidateSelection;
  const parts = config.optimizer === 'opro' ? ['optimizer: OPRO (scored history)'] : [];
  parts.push(`parent: ${selection}${selection === 'epsilon_greedy' ? ` (ε = ${config.epsilon ?? EVOLUTION_DEFAULTS.epsilon})` : selection === 'top_k_pareto' ? ` (k = ${config.topK ?? EVOLUTION_DEFAULTS.topK})` : ''}`);
  parts.push(`accept: ${(config.acceptance ?? EVOLUTION_DEFAULTS.acceptance).replace(/_/g, ' ')}`);
  const stop = config.stopConditions ?? {};
  if (stop.noImprovementIterations !== undefined) parts.push(`stop after ${stop.noImprovementIterations} iteration${stop.noImprovementIterations === 1 ? '' : 's'} without improvement`);
  if (stop.scoreThreshold !== undefined) parts.push(`stop at W-AUC ≥ ${stop.scoreThreshold}`);
  if (stop.timeLimitMinutes !== undefined) parts.push(`stop after ${stop.timeLimitMinutes} min`);
  if (stop.maxProposerUsd !== undefined) parts.push(`proposer cap $${stop.maxProposerUsd}`);
  if (config.proposals) parts.push(`proposals: ${proposalsText(config.proposals)} (parents × mutations)`);
  if (config.merge) parts.push(`merge: up to ${config.merge.maxMerges}`);
  return parts.join(' · ');
}

/** The run's status for people; `interrupted` when it was running and nothing drives it now. */
export function statusText(state: EvolutionState, driven: boolean): string {
  if (state.status === 'running') return driven ? 'running' : 'interrupted (the page closed or reloaded mid-run): resume to continue';
  const why = state.stopReason ? STOP_TEXT[state.stopReason] : '';
  return `${state.status}${why ? ` — ${why}` : ''}${state.stopMessage && state.stopReason !== 'budget' ? ` (${state.stopMessage})` : ''}`;
}

/**
 * The candidate table (heatmap) as CSV: the table's columns, validation W-AUC per task (`tasks`,
 * in the table's order) and the mean as numbers (empty: not validated), `best` = mean and/or
 * z-score, the Pareto fronts as a count and the tasks' labels; last, who played the run (`model`:
 * model and model_caveat, llm/model-label.ts; "unknown model" without it).
 */
export function candidateTable(rows: readonly CandidateRow[], tasks: readonly { id: string; label: string }[], model: { name: string; caveat: string | null } = describeModel({})): CsvTable {
  const labelOf = new Map(tasks.map((t) => [t.id, t.label]));
  const who = modelCsvCells(model);
  return {
    header: ['id', 'best', 'parent', 'status', ...tasks.map((t) => t.label), 'mean', 'Pareto fronts', 'Pareto tasks', 'reason', ...MODEL_CSV_COLUMNS],
    rows: rows.map((r) => [
      r.id, [r.bestByMean ? 'mean' : '', r.bestByZScore ? 'z-score' : ''].filter(Boolean).join(', '), r.mergeOf ? r.mergeOf.join(' + ') : r.parentId, r.status,
      ...tasks.map((t) => r.scores[t.id] ?? null), r.mean, r.frontTasks.length, r.frontTasks.map((t) => labelOf.get(t) ?? t).join(' '), r.reason, ...who,
    ]),
  };
}

/** The proposer's reply without its `<strategy>…</strategy>` block (the new strategy is shown as a
 * diff above it): the reasoning only, or a note when the reply was nothing but the block. */
export function reasoningOf(reply: string | null): string {
  const text = (reply ?? '').replace(/<strategy>[\s\S]*?(<\/strategy>|$)/gi, '').trim();
  return text === '' ? '_(The reply was only the new strategy, shown above.)_' : text;
}
