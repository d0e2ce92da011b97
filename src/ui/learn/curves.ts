/**
 * Learning-curve data from sessions (pure): one series per session — final score per ended
 * episode — and the distinct max scores to draw as lines. Used for the live curve and for the
 * runs list's overlay comparison.
 */
import type { SessionRecord } from '../../ttl/session-record.ts';
import type { CsvTable } from '../../eval/csv.ts';
import { SCORE_SERIES, type CurveData } from '../shared/charts/learning-chart.ts';
import { captionOfRecord } from '../shared/format/curve-caption.ts';
import { curveMarksOf, humanEditSuffix } from '../shared/format/human-edit.ts';

export { captionOfRecord };
import type { SessionListItem } from './session-runs.svelte.ts';
import { sessionModel } from '../../ttl/session-model.ts';

/** The curve of one session record (its ended episodes), with who played it as its note and the
 * episodes a person edited the guide in marked. */
export function curveOfRecord(record: SessionRecord, label = SCORE_SERIES): CurveData {
  const scores = record.episodes.filter((e) => e.trajectory !== null).sort((a, b) => a.index - b.index).map((e) => e.finalScore);
  const max = record.config.story.maxScore;
  const marks = curveMarksOf(record);
  const model = sessionModel(record.config);
  return { episodes: record.config.episodes, series: [{ label, scores, model }], maxScores: max !== null ? [max] : [], note: model.sentence, ...(marks.length ? { marks } : {}) };
}

/** Overlaid curves of listed sessions (labels: an imported session's file name and its policy;
 * a session run here: story, policy, model, short id; "with a human edit" where a person edited
 * the guide); the note gives the caveat of every model compared that needs one (simulated, scripted). */
export function curveOfItems(items: readonly SessionListItem[]): CurveData {
  const maxScores = [...new Set(items.map((i) => i.maxScore).filter((m): m is number => m !== null))].sort((a, b) => a - b);
  const caveats = [...new Set(items.map((i) => i.caveat).filter((c): c is string => c !== null))];
  return {
    episodes: Math.max(1, ...items.map((i) => i.episodes)),
    series: items.map((i) => ({ label: `${i.source !== undefined ? `${i.source} · ${i.policy}` : `${i.title} · ${i.policy} · ${i.model} · ${i.id.slice(-6)}`}${humanEditSuffix(i.interventions ?? 0)}`, scores: i.scores, model: { name: i.model, caveat: i.caveat } })),
    maxScores,
    ...(caveats.length ? { note: caveats.map((c) => `${c[0]!.toUpperCase()}${c.slice(1)}.`).join(' ') } : {}),
  };
}

/** The sessions list as CSV: one row per session as listed; scores space-separated, W-AUC a number
 * (empty: n/a), status as the list words it (an unfinished running one is "interrupted"), the
 * person's edits of the guide mid-episode (0: the policy's own result), and last the model's
 * caveat (simulated, scripted; empty for a language model). */
export function sessionsTable(items: readonly SessionListItem[]): CsvTable {
  return {
    header: ['id', 'story', 'seed', 'policy', 'model', 'simulated', 'K', 'S', 'status', 'scores', 'W-AUC', 'faulted episodes', 'started', 'human edits', 'model caveat'],
    rows: items.map((i) => [
      i.id, i.title, i.seed, i.policy, i.model, i.simulated, i.episodes, i.maxSteps, i.status === 'complete' ? 'complete' : i.status === 'running' ? 'interrupted' : 'stopped',
      i.scores.join(' '), i.wAuc, i.faultedEpisodes, i.startedAt, i.interventions ?? 0, i.caveat ?? '',
    ]),
  };
}
