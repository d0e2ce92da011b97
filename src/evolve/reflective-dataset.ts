/**
 * The reflective dataset the proposer reads (method.md, "Outer loop" 2d): the worst run of the
 * worst minibatch task — all its episode logs, the meta-agent's feedback after each, the score
 * trend and the game's max score.
 */
import { formatEpisodeLog } from '../agents/episode-log.ts';
import type { SessionRecord } from '../ttl/session-record.ts';

export interface RunForReflection {
  taskId: string;
  repeat: number;
  callKey: string;
  wAuc: number;
  session: SessionRecord;
}

/** The worst task (lowest mean W-AUC over its repeats), then its worst repeat; ties → first. */
export function worstRun(runs: readonly RunForReflection[]): RunForReflection {
  if (runs.length === 0) throw new Error('no parent runs to reflect on');
  const byTask = new Map<string, RunForReflection[]>();
  for (const r of runs) byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r]);
  let worstTask: RunForReflection[] | null = null;
  let worstMean = Infinity;
  for (const list of byTask.values()) {
    const m = list.reduce((s, r) => s + r.wAuc, 0) / list.length;
    if (m < worstMean) [worstTask, worstMean] = [list, m];
  }
  return worstTask!.reduce((a, b) => (b.wAuc < a.wAuc ? b : a));
}

/** Format a session as the proposer's reflective dataset. */
export function formatReflectiveDataset(session: SessionRecord): string {
  const c = session.config;
  const parts: string[] = [
    `Game: ${c.story.title} (seed ${c.seed}); max score ${c.story.maxScore ?? 'unknown'}.`,
    `Score trend over ${session.scores.length} episodes: ${session.scores.join(' → ')} (W-AUC ${session.wAuc === null ? 'n/a' : session.wAuc.toFixed(3)}).`,
    '',
  ];
  for (const episode of session.episodes) {
    if (!episode.trajectory) continue;
    parts.push(formatEpisodeLog(episode.index, episode.trajectory), '');
    const feedback = session.exchanges.filter((e) => e.afterEpisode === episode.index && (e.kind === 'meta_agent' || e.kind === 'memory_rewrite' || e.kind === 'textgrad_update' || e.kind === 'reflection'));
    for (const f of feedback) {
      parts.push(`[META-AGENT FEEDBACK AFTER EPISODE ${episode.index}]`, f.error ? `(the call failed: ${f.error.message})` : f.reply.trim(), '');
    }
  }
  return parts.join('\n').trim();
}
