/**
 * Learning-curve data from sessions (pure): one series per session — final score per ended
 * episode — and the distinct max scores to draw as lines. Used for the live curve and for the
 * runs list's overlay comparison.
 */
import type { SessionRecord } from '../../ttl/session-record.ts';
import type { CsvTable } from '../../eval/csv.ts';
import { SCORE_SERIES, type CurveCaption, type CurveData } from '../shared/charts/learning-chart.ts';
import { policyLabel } from '../shared/format/learn-form.ts';
import type { SessionListItem } from './session-runs.svelte.ts';
import { isSimulated, SIMULATION_NOTICE } from '../../llm/simulated-model.ts';

/** The curve of one session record (its ended episodes). */
export function curveOfRecord(record: SessionRecord, label = SCORE_SERIES): CurveData {
  const scores = record.episodes.filter((e) => e.trajectory !== null).sort((a, b) => a.index - b.index).map((e) => e.finalScore);
  const max = record.config.story.maxScore;
  return { episodes: record.config.episodes, series: [{ label, scores }], maxScores: max !== null ? [max] : [] };
}

/**
 * What an exported curve image says about its session (a slide needs no other caption): title
 * "Learning curve — <story>", then story, policy, seed (for a story), K and S, and W-AUC (3
 * decimals, "n/a" without a known max score; "so far" while episodes remain); a simulated model's
 * session is named so in the title and carries its notice (llm/simulated-model.ts).
 */
export function captionOfRecord(record: SessionRecord): CurveCaption {
  const c = record.config;
  const web = c.task?.kind === 'web';
  const ended = record.scores.length;
  const wAuc = record.wAuc == null ? 'n/a' : record.wAuc.toFixed(3);
  // A simulation's picture says so wherever it is shown or pasted.
  const simulated = isSimulated(c.provider, c.models.actor.model);
  return {
    title: `Learning curve — ${c.story.title}${simulated ? ' (simulated model)' : ''}`,
    subtitle: [
      `${web ? 'Web task' : 'Story'}: ${c.story.title}`,
      `policy: ${policyLabel(c.policy)}`,
      ...(web ? [] : [`seed ${c.seed}`]),
      `K = ${c.episodes}, S = ${c.maxSteps}`,
      `W-AUC ${wAuc}${ended < c.episodes ? ` (${ended} of ${c.episodes} episodes)` : ''}`,
      ...(simulated ? [SIMULATION_NOTICE] : []),
    ].join(' · '),
  };
}

/** Overlaid curves of listed sessions (labels: an imported session's file name and its policy;
 * a session run here: story, policy, short id). */
export function curveOfItems(items: readonly SessionListItem[]): CurveData {
  const maxScores = [...new Set(items.map((i) => i.maxScore).filter((m): m is number => m !== null))].sort((a, b) => a - b);
  return {
    episodes: Math.max(1, ...items.map((i) => i.episodes)),
    series: items.map((i) => ({ label: i.source !== undefined ? `${i.source} · ${i.policy}` : `${i.title} · ${i.policy} · ${i.id.slice(-6)}`, scores: i.scores })),
    maxScores,
  };
}

/** The sessions list as CSV: one row per session as listed; scores space-separated, W-AUC a number
 * (empty: n/a), status as the list words it (an unfinished running one is "interrupted"). */
export function sessionsTable(items: readonly SessionListItem[]): CsvTable {
  return {
    header: ['id', 'story', 'seed', 'policy', 'K', 'S', 'status', 'scores', 'W-AUC', 'faulted episodes', 'started'],
    rows: items.map((i) => [
      i.id, i.title, i.seed, i.policy, i.episodes, i.maxSteps, i.status === 'complete' ? 'complete' : i.status === 'running' ? 'interrupted' : 'stopped',
      i.scores.join(' '), i.wAuc, i.faultedEpisodes, i.startedAt,
    ]),
  };
}
