/**
 * Learning-curve data from sessions (pure): one series per session — final score per ended
 * episode — and the distinct max scores to draw as lines. Used for the live curve and for the
 * runs list's overlay comparison.
 */
import type { SessionRecord } from '../../ttl/session-record.ts';
import type { CsvTable } from '../../eval/csv.ts';
import { SCORE_SERIES, type CurveData } from '../shared/charts/learning-chart.ts';
import { captionOfRecord } from '../shared/format/curve-caption.ts';

export { captionOfRecord };
import type { SessionListItem } from './session-runs.svelte.ts';
import { sessionModel } from '../../ttl/session-model.ts';

/** The curve of one session record (its ended episodes), with who played it as its note. */
export function curveOfRecord(record: SessionRecord, label = SCORE_SERIES): CurveData {
  const scores = record.episodes.filter((e) => e.trajectory !== null).sort((a, b) => a.index - b.index).map((e) => e.finalScore);
  const max = record.config.story.maxScore;
  return { episodes: record.config.episodes, series: [{ label, scores }], maxScores: max !== null ? [max] : [], note: sessionModel(record.config).sentence };
}

/** Overlaid curves of listed sessions (labels: story, policy, model, short id); the note gives
 * the caveat of every model compared that needs one (simulated, scripted). */
export function curveOfItems(items: readonly SessionListItem[]): CurveData {
  const maxScores = [...new Set(items.map((i) => i.maxScore).filter((m): m is number => m !== null))].sort((a, b) => a - b);
  const caveats = [...new Set(items.map((i) => i.caveat).filter((c): c is string => c !== null))];
  return {
    episodes: Math.max(1, ...items.map((i) => i.episodes)),
    series: items.map((i) => ({ label: `${i.title} · ${i.policy} · ${i.model} · ${i.id.slice(-6)}`, scores: i.scores })),
    maxScores,
    ...(caveats.length ? { note: caveats.map((c) => `${c[0]!.toUpperCase()}${c.slice(1)}.`).join(' ') } : {}),
  };
}

/** The sessions list as CSV: one row per session as listed; scores space-separated, W-AUC a number
 * (empty: n/a), status as the list words it (an unfinished running one is "interrupted"). */
export function sessionsTable(items: readonly SessionListItem[]): CsvTable {
  return {
    header: ['id', 'story', 'seed', 'policy', 'model', 'simulated', 'K', 'S', 'status', 'scores', 'W-AUC', 'faulted episodes', 'started'],
    rows: items.map((i) => [
      i.id, i.title, i.seed, i.policy, i.model, i.simulated, i.episodes, i.maxSteps, i.status === 'complete' ? 'complete' : i.status === 'running' ? 'interrupted' : 'stopped',
      i.scores.join(' '), i.wAuc, i.faultedEpisodes, i.startedAt,
    ]),
  };
}
