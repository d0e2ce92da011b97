/**
 * The caption of a session's exported learning curve (Learn and Replay draw it on the PNG), with
 * who played it from llm/model-label.ts. Pure.
 */
import type { SessionRecord } from '../../../ttl/session-record.ts';
import { sessionModel } from '../../../ttl/session-model.ts';
import type { CurveCaption } from '../charts/learning-chart.ts';
import { humanEditCaption } from './human-edit.ts';
import { policyLabel } from './learn-form.ts';

/**
 * What an exported curve image says about its session (a slide needs no other caption): title
 * "Learning curve — <story> (<model>)", then story, policy, seed (for a story), K and S, and W-AUC (3
 * decimals, "n/a" without a known max score; "so far" while episodes remain); a model that is not a
 * language model (simulated, scripted) adds its caveat as a third line (llm/model-label.ts); a
 * session a person edited says so ("with a human edit …").
 */
export function captionOfRecord(record: SessionRecord): CurveCaption {
  const c = record.config;
  const web = c.task?.kind === 'web';
  const ended = record.scores.length;
  const wAuc = record.wAuc == null ? 'n/a' : record.wAuc.toFixed(3);
  // Every picture names who played, and a simulation's says so wherever it is shown or pasted.
  const model = sessionModel(c);
  return {
    title: `Learning curve — ${c.story.title} (${model.name})`,
    ...(model.caveat ? { note: model.caveat } : {}),
    subtitle: [
      `${web ? 'Web task' : 'Story'}: ${c.story.title}`,
      `policy: ${policyLabel(c.policy)}`,
      ...(web ? [] : [`seed ${c.seed}`]),
      `K = ${c.episodes}, S = ${c.maxSteps}`,
      `W-AUC ${wAuc}${ended < c.episodes ? ` (${ended} of ${c.episodes} episodes)` : ''}`,
      ...humanEditCaption(record),
    ].join(' · '),
  };
}

