/**
 * Persisting sessions through the store's run API: the session record without its steps is the
 * run header (rewritten at session start, after each episode and policy exchange, and at the
 * end); every step is one appended event (seq = episode·100,000 + attempt·1,000 + step, where
 * `attempt` counts the earlier attempts of that episode cut short by provider faults — 0 for
 * records made before attempts existed), written as soon as it is recorded, so a reload or crash
 * loses at most the step in flight. `loadSession` reassembles the current attempt of each episode
 * (the faulted attempts' steps live in the header's `faults`).
 */
import type { TrajectoryStep } from '../agents/trajectory.ts';
import type { RunHeader, SettingValue, Store } from '../store/interface.ts';
import type { SessionSink } from './session-runner.ts';
import type { SessionRecord } from './session-record.ts';

const SEQ_PER_EPISODE = 100_000;
const SEQ_PER_ATTEMPT = 1_000;

/** Earlier attempts of episode `index` cut short by faults. */
function attemptOf(record: SessionRecord, index: number): number {
  return (record.faults ?? []).filter((f) => f.phase === 'episode' && f.episodeIndex === index).length;
}

/** The event seq of step `step` (1 … 1,000) of attempt `attempt` of episode `episode`. */
function seqOf(episode: number, attempt: number, step: number): number {
  return episode * SEQ_PER_EPISODE + attempt * SEQ_PER_ATTEMPT + step;
}

/** The record with every step removed (steps live in the run's events). */
function withoutSteps(record: SessionRecord): SessionRecord {
  return {
    ...record,
    episodes: record.episodes.map((e) => ({ ...e, steps: [], trajectory: e.trajectory ? { ...e.trajectory, steps: [] } : null })),
  };
}

/** What session lists show. */
export function sessionSummary(record: SessionRecord): SettingValue {
  const c = record.config;
  return {
    title: c.story.title, storyMd5: c.story.md5, seed: c.seed, policy: c.policy.kind === 'meta' ? c.policy.name : c.policy.kind,
    episodes: c.episodes, maxSteps: c.maxSteps, status: record.status, scores: record.scores, wAuc: record.wAuc,
    maxScore: c.story.maxScore, startedAt: record.startedAt, episodesDone: record.scores.length,
    faultedEpisodes: record.faultedEpisodes ?? 0,
  };
}

function header(record: SessionRecord, now: () => number): RunHeader {
  return { id: record.id, kind: 'session', updatedAt: now(), summary: sessionSummary(record), data: withoutSteps(record) };
}

/** Write the whole record (header + all steps) in one write: at start, and for imports. */
export async function saveSession(store: Store, record: SessionRecord, now: () => number = Date.now): Promise<void> {
  const events = record.episodes.flatMap((e) => e.steps.map((s) => ({ seq: seqOf(e.index, attemptOf(record, e.index), s.index), data: s })));
  await store.appendRunEvents(record.id, events, header(record, now));
}

/**
 * A sink that persists the running session `sessionId` as it goes, then calls `inner` (e.g. the
 * UI's). The runner reports the record at start and when each episode begins, so the header
 * always exists before its steps are appended.
 */
export function persistingSink(store: Store, sessionId: string, inner: SessionSink = {}, now: () => number = Date.now): SessionSink {
  /** The last record reported: its `faults` give the attempt of the episode being played. */
  let latest: SessionRecord | null = null;
  return {
    async onStep(episodeIndex, step, trajectory) {
      const attempt = latest ? attemptOf(latest, episodeIndex) : 0;
      await store.appendRunEvents(sessionId, [{ seq: seqOf(episodeIndex, attempt, step.index), data: step }]);
      await inner.onStep?.(episodeIndex, step, trajectory);
    },
    async onEpisode(episode, record) {
      latest = record;
      await store.putRun(header(record, now));
      await inner.onEpisode?.(episode, record);
    },
    async onExchange(exchange, record) {
      latest = record;
      await store.putRun(header(record, now));
      await inner.onExchange?.(exchange, record);
    },
    async onRecord(record) {
      latest = record;
      await store.putRun(header(record, now));
      await inner.onRecord?.(record);
    },
  };
}

/** Reassemble a stored session; undefined when absent. */
export async function loadSession(store: Store, id: string): Promise<SessionRecord | undefined> {
  const run = await store.getRun(id);
  if (!run || run.header.kind !== 'session') return undefined;
  const record = structuredClone(run.header.data) as SessionRecord;
  const byEpisode = new Map<number, TrajectoryStep[]>();
  for (const event of run.events) {
    const episode = Math.floor(event.seq / SEQ_PER_EPISODE);
    const attempt = Math.floor(((event.seq % SEQ_PER_EPISODE) - 1) / SEQ_PER_ATTEMPT);
    // Steps of an attempt cut short by a fault are kept in the header's `faults`, not replayed.
    if (attempt !== attemptOf(record, episode)) continue;
    const list = byEpisode.get(episode) ?? [];
    list.push(event.data as TrajectoryStep);
    byEpisode.set(episode, list);
  }
  for (const episode of record.episodes) {
    const steps = (byEpisode.get(episode.index) ?? []).sort((a, b) => a.index - b.index);
    episode.steps = steps;
    if (episode.trajectory) episode.trajectory.steps = steps;
  }
  // A step persisted for an episode the header had not reached yet (crash between the two).
  for (const [index, steps] of byEpisode) {
    if (!record.episodes.some((e) => e.index === index)) {
      record.episodes.push({ index, guidingPrompt: record.exchanges.at(-1)?.guidingPromptAfter ?? record.config.initialGuidingPrompt, trajectory: null, steps, finalScore: null, termination: null });
    }
  }
  record.episodes.sort((a, b) => a.index - b.index);
  return record;
}
