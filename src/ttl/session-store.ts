/**
 * Persisting sessions through the store's run API: the session record without its steps is the
 * run header (rewritten at session start, after each episode and policy exchange, and at the
 * end); every step is one appended event (seq = episode·100,000 + step), started as soon as it is
 * recorded and finished while the next step's actor call is out (write-behind: the store's time
 * stays out of the chain of calls, issue 23) — every other write, and the session's end, waits
 * for it first, and its failure is thrown there — so a reload or crash loses at most the last
 * step recorded and the one in flight. When an episode attempt is cut
 * short by a provider fault, the run is rewritten without that attempt's steps (they live on in
 * the header's `faults`), so the stored steps are always those of the current attempt.
 * `loadSession` reassembles.
 */
import type { TrajectoryStep } from '../agents/trajectory.ts';
import type { RunEvent, RunHeader, SettingValue, Store } from '../store/interface.ts';
import type { SessionSink } from './session-runner.ts';
import type { SessionRecord } from './session-record.ts';

/** seq of a step event = episode index × SEQ_PER_EPISODE + step index. */
export const SEQ_PER_EPISODE = 100_000;

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

const stepEvents = (record: SessionRecord): RunEvent[] =>
  record.episodes.flatMap((e) => e.steps.map((s) => ({ seq: e.index * SEQ_PER_EPISODE + s.index, data: s })));

/** Write the whole record (header + all steps) in one write: at start, and for imports. */
export async function saveSession(store: Store, record: SessionRecord, now: () => number = Date.now): Promise<void> {
  await store.appendRunEvents(record.id, stepEvents(record), header(record, now));
}

/** Replace the stored session by `record` (header and exactly its steps) in one write. */
export async function replaceSession(store: Store, record: SessionRecord, now: () => number = Date.now): Promise<void> {
  await store.rewriteRun(header(record, now), stepEvents(record));
}

/**
 * A sink that persists the running session `sessionId` as it goes, then calls `inner` (e.g. the
 * UI's). The runner reports the record at start and when each episode begins, so the header
 * always exists before its steps are appended.
 */
export function persistingSink(store: Store, sessionId: string, inner: SessionSink = {}, now: () => number = Date.now): SessionSink {
  /** Faulted attempts already written: a new one makes the run be rewritten without its steps. */
  let faultsWritten: number | null = null;
  /** The step write still under way (write-behind), and its failure once it failed. */
  let pending: Promise<void> | null = null;
  let failure: { error: unknown } | null = null;
  /** Wait for the step write under way; throws its failure (once). */
  const settled = async (): Promise<void> => {
    if (pending) await pending;
    pending = null;
    if (failure) {
      const { error } = failure;
      failure = null;
      throw error;
    }
  };
  const writeHeader = async (record: SessionRecord) => {
    await settled();
    const faults = record.faults?.length ?? 0;
    if (faultsWritten !== null && faults > faultsWritten) await replaceSession(store, record, now);
    else await store.putRun(header(record, now));
    faultsWritten = faults;
  };
  return {
    async onStep(episodeIndex, step, trajectory) {
      await settled();
      pending = store.appendRunEvents(sessionId, [{ seq: episodeIndex * SEQ_PER_EPISODE + step.index, data: step }]).catch((error: unknown) => {
        failure = { error };
      });
      await inner.onStep?.(episodeIndex, step, trajectory);
    },
    async onEpisode(episode, record) {
      await writeHeader(record);
      await inner.onEpisode?.(episode, record);
    },
    async onExchange(exchange, record) {
      await writeHeader(record);
      await inner.onExchange?.(exchange, record);
    },
    async onRecord(record) {
      await writeHeader(record);
      await inner.onRecord?.(record);
    },
  };
}

/** Reassemble a stored session; undefined when absent. */
export async function loadSession(store: Store, id: string): Promise<SessionRecord | undefined> {
  const run = await store.getRun(id);
  if (!run || run.header.kind !== 'session') return undefined;
  return assembleSession(run.header, run.events);
}

/** A session record from its run header and step events (steps grouped by episode, by index). */
export function assembleSession(runHeader: RunHeader, events: readonly RunEvent[]): SessionRecord {
  const run = { header: runHeader, events };
  const record = structuredClone(run.header.data) as SessionRecord;
  const byEpisode = new Map<number, TrajectoryStep[]>();
  for (const event of run.events) {
    const episode = Math.floor(event.seq / SEQ_PER_EPISODE);
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
