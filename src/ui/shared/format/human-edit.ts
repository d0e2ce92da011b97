/**
 * How the page names a person's edits of the guide mid-episode (`record.interventions`,
 * src/ttl/session-record.ts): the learning curve's flags (one per edited episode, with its steps),
 * the words every comparison adds to such a session ("with a human edit": it is not the policy's
 * own result), and an exported curve's caption. Pure.
 */
import { HUMAN_EDIT_LABEL, type GuideIntervention, type SessionRecord } from '../../../ttl/session-record.ts';
import type { CurveMark } from '../charts/learning-chart.ts';

export { HUMAN_EDIT_LABEL };

/** One flag per edited episode, episodes ascending, with the steps edited at (ascending, once each). */
export function curveMarksOf(record: Pick<SessionRecord, 'interventions'>): CurveMark[] {
  const byEpisode = new Map<number, Set<number>>();
  for (const edit of record.interventions ?? []) byEpisode.set(edit.episode, (byEpisode.get(edit.episode) ?? new Set()).add(edit.step));
  return [...byEpisode].sort(([a], [b]) => a - b).map(([episode, steps]) => ({ episode, steps: [...steps].sort((a, b) => a - b) }));
}

/** " · with a human edit" for a session with `count` > 0 edits (a legend's or a card's suffix), else "". */
export const humanEditSuffix = (count: number): string => (count > 0 ? ` · ${HUMAN_EDIT_LABEL}` : '');

/** The caption part of a session a person edited: ["with a human edit (episode 2, step 4)"], else []. */
export function humanEditCaption(record: Pick<SessionRecord, 'interventions'>): string[] {
  const marks = curveMarksOf(record);
  if (marks.length === 0) return [];
  return [`${HUMAN_EDIT_LABEL} (${marks.map((m) => `episode ${m.episode}, step${m.steps.length === 1 ? '' : 's'} ${m.steps.join(', ')}`).join('; ')})`];
}

/** The edits of episode `episode`, in the order made. */
export const editsOfEpisode = (record: Pick<SessionRecord, 'interventions'> | null, episode: number | null): GuideIntervention[] =>
  record && episode !== null ? (record.interventions ?? []).filter((e) => e.episode === episode) : [];
