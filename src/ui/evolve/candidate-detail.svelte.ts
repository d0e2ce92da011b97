/**
 * The candidate inspector of the Evolve dashboard: the selected candidate, its strategy diffed
 * against its parent's (jsdiff, through learn/feedback.ts), the proposer's reply (rendered as
 * sanitised markdown by the component), and the worst trajectory that triggered it — the parent
 * session the proposer read, loaded from the run's stored metric calls and shown as the episode
 * logs the meta-agent saw. Loads are keyed by (run, candidate) so a late answer never shows
 * under another candidate.
 */
import { formatEpisodeLog } from '../../agents/episode-log.ts';
import { loadMetricSession, loadProposalUsage } from '../../evolve/evolution-store.ts';
import { formatReflectiveDataset } from '../../evolve/reflective-dataset.ts';
import type { CallUsage } from '../../llm/interface.ts';
import type { Candidate, EvolutionState } from '../../evolve/interface.ts';
import type { Store } from '../../store/interface.ts';
import type { SessionRecord } from '../../ttl/session-record.ts';
import { diffPrompts, type DiffLine } from '../shared/format/feedback.ts';
import { errorText } from '../shared/state/error-text.ts';

/** The worst trajectory as shown: the session's scores and one log per episode. */
export interface TriggerView {
  taskId: string;
  repeat: number;
  scores: number[];
  wAuc: number | null;
  /** The reflective dataset exactly as the proposer read it (method.md, Outer loop 2d). */
  record: string;
  logs: { episode: number; text: string; feedback: string | null }[];
}

/** The trajectory view of a stored parent session. */
export function triggerViewOf(session: SessionRecord, taskId: string, repeat: number): TriggerView {
  return {
    taskId, repeat, scores: session.scores, wAuc: session.wAuc, record: formatReflectiveDataset(session),
    logs: session.episodes.filter((e) => e.trajectory).map((e) => ({
      episode: e.index, text: formatEpisodeLog(e.index, e.trajectory!),
      feedback: session.exchanges.find((x) => x.afterEpisode === e.index && (x.kind === 'meta_agent' || x.kind === 'reflection' || x.kind === 'memory_rewrite' || x.kind === 'textgrad_update'))?.reply ?? null,
    })),
  };
}

export class CandidateDetail {
  selectedId = $state<string | null>(null);
  trigger = $state.raw<TriggerView | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  /** The proposer call's tokens and cost for the selected candidate (null: none stored). */
  usage = $state.raw<CallUsage | null>(null);
  private loadKey = '';

  constructor(private readonly store: () => Store) {}

  /** The selected candidate of `state`, or null. */
  candidate(state: EvolutionState | null): Candidate | null {
    return state?.candidates.find((c) => c.id === this.selectedId) ?? null;
  }

  /** The strategy diff of `c` against its parent (all "added" for the seed). */
  diff(state: EvolutionState, c: Candidate): DiffLine[] {
    const parent = state.candidates.find((p) => p.id === c.parentId);
    return diffPrompts(parent?.strategy ?? '', c.strategy);
  }

  /** Select candidate `id` of `state` and load the trajectory that triggered it. */
  async select(state: EvolutionState, id: string | null): Promise<void> {
    this.selectedId = id;
    this.trigger = null;
    this.error = null;
    const c = id === null ? undefined : state.candidates.find((x) => x.id === id);
    const key = `${state.id}/${id}`;
    this.loadKey = key;
    this.usage = null;
    if (c && c.proposerReply !== null && c.origin !== 'human') {
      void loadProposalUsage(this.store(), state.id, c.iteration).then((u) => {
        if (this.loadKey === key) this.usage = u;
      }, () => undefined);
    }
    if (!c?.triggeredBy) return;
    const { callKey, taskId, repeat } = c.triggeredBy;
    this.loading = true;
    try {
      const session = await loadMetricSession(this.store(), state.id, callKey);
      if (this.loadKey !== key) return;
      if (session) this.trigger = triggerViewOf(session, taskId, repeat);
      else this.error = 'The session that triggered this candidate is not stored (an interrupted run, or an imported state without events).';
    } catch (error) {
      if (this.loadKey === key) this.error = errorText(error);
    } finally {
      if (this.loadKey === key) this.loading = false;
    }
  }

  clear(): void {
    this.selectedId = null;
    this.trigger = null;
    this.error = null;
    this.usage = null;
    this.loadKey = '';
  }
}
