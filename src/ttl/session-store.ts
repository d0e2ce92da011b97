/**
 * Persisting sessions through the store's run API: the session record without its steps is the
 * run header (rewritten at session start, after each episode and policy exchange, and at the
 * end); every step is one appended event (seq = episode·100,000 + step). Writes are queued in
 * order behind the session, which goes on at once and waits for them only at its end,
 * so a reload or crash loses at most the steps of the writes still queued (usually none: the next
 * actor call takes longer than a write). When an episode attempt is cut
 * short by a provider fault, the run is rewritten without that attempt's steps (they live on in
 * the header's `faults`), so the stored steps are always those of the current attempt.
 * `loadSession` reassembles, upgrading a header of any older shape (session-payload.ts).
 */
import type { TrajectoryStep } from '../agents/trajectory.ts';
import type { RunEvent, RunHeader, SettingValue, Store } from '../store/interface.ts';
import type { SessionSink } from './session-runner.ts';
import type { SessionRecord } from './session-record.ts';
import { sessionModel } from './session-model.ts';
import { SESSION_PAYLOAD, sessionStepOf, upgradeSessionPayload, type SessionPayload } from './session-payload.ts';
import { versionedData } from '../store/payload.ts';

/** seq of a step event = episode index × SEQ_PER_EPISODE + step index. */
export const SEQ_PER_EPISODE = 100_000;

/** The record with every step removed (steps live in the run's events). */
function withoutSteps(record: SessionRecord): SessionRecord {
  return {
    ...record,
    episodes: record.episodes.map((e) => ({ ...e, steps: [], trajectory: e.trajectory ? { ...e.trajectory, steps: [] } : null })),
  };
}

/** What session lists show (of a record in the current payload shape). */
export function sessionSummary(record: SessionPayload): SettingValue {
  const c = record.config;
  const model = sessionModel(c);
  return {
    title: c.story.title, storyMd5: c.story.md5, seed: c.seed, policy: c.policy.kind === 'meta' ? `${c.policy.name}${c.policy.raw ? ' (raw)' : ''}` : c.policy.kind,
    episodes: c.episodes, maxSteps: c.maxSteps, status: record.status, scores: record.scores, wAuc: record.wAuc,
    maxScore: c.story.maxScore, startedAt: record.startedAt, episodesDone: record.scores.length,
    faultedEpisodes: record.faultedEpisodes, interventions: record.interventions?.length ?? 0,
    // Who played (llm/model-label.ts), so lists and compared curves name the model.
    model: model.name, simulated: model.simulated, ...(model.caveat ? { modelCaveat: model.caveat } : {}),
  };
}

function header(record: SessionRecord, now: () => number): RunHeader {
  const versioned = versionedData(SESSION_PAYLOAD, withoutSteps(record));
  return { id: record.id, kind: 'session', updatedAt: now(), summary: sessionSummary(versioned.data), ...versioned };
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
 *
 * Writes are behind the session (the store's time stays out of the chain of calls):
 * each is queued in order — a header from a snapshot of the record taken when it is reported —
 * and the session goes on at once; the session's end (a record no longer `running`) waits for the
 * queue. A failed write stops the queue; its error is thrown at the next report (or the end).
 */
export function persistingSink(store: Store, sessionId: string, inner: SessionSink = {}, now: () => number = Date.now): SessionSink {
  /** Faulted attempts already written: a new one makes the run be rewritten without its steps. */
  let faultsWritten: number | null = null;
  let queue: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  /** Throw the failure of a write behind, once. */
  const check = (): void => {
    if (!failure) return;
    const { error } = failure;
    failure = null;
    throw error;
  };
  const behind = (write: () => Promise<void>): void => {
    queue = queue.then(() => (failure ? undefined : write())).catch((error: unknown) => {
      failure = { error };
    });
  };
  const writeRecord = async (record: SessionRecord) => {
    check();
    const faults = record.faults.length;
    if (faultsWritten !== null && faults > faultsWritten) {
      const whole = structuredClone(record);
      behind(() => replaceSession(store, whole, now));
    } else {
      const head = structuredClone(header(record, now));
      behind(() => store.putRun(head));
    }
    faultsWritten = faults;
    if (record.status !== 'running') {
      await queue;
      check();
    }
  };
  return {
    async onStep(episodeIndex, step, trajectory) {
      check();
      // A call that played nothing (refused by a cap, failed) is not a step of the session: the
      // runner sets it aside and a resume makes the call again. Storing it would make the resume
      // replay it.
      if (step.action === null && step.parseStatus === 'llm_error') return inner.onStep?.(episodeIndex, step, trajectory);
      const event = { seq: episodeIndex * SEQ_PER_EPISODE + step.index, data: step };
      behind(() => store.appendRunEvents(sessionId, [event]));
      await inner.onStep?.(episodeIndex, step, trajectory);
    },
    async onEpisode(episode, record) {
      await writeRecord(record);
      await inner.onEpisode?.(episode, record);
    },
    async onExchange(exchange, record) {
      await writeRecord(record);
      await inner.onExchange?.(exchange, record);
    },
    async onRecord(record) {
      await writeRecord(record);
      await inner.onRecord?.(record);
    },
  };
}

/** Reassemble a stored session in the current payload shape; undefined when absent.
 * @throws PayloadVersionError when it was written by a newer version (nothing is changed) */
export async function loadSession(store: Store, id: string): Promise<SessionPayload | undefined> {
  const run = await store.getRun(id);
  if (!run || run.header.kind !== 'session') return undefined;
  return assembleSession(run.header, run.events);
}

/** A session record from its run header and step events (steps grouped by episode, by index),
 * its header upgraded to the current payload shape (a copy).
 * @throws PayloadVersionError when the header was written by a newer version */
export function assembleSession(runHeader: RunHeader, events: readonly RunEvent[]): SessionPayload {
  const run = { header: runHeader, events };
  const record = upgradeSessionPayload(structuredClone(run.header.data), run.header.payloadVersion);
  const byEpisode = new Map<number, TrajectoryStep[]>();
  for (const event of run.events) {
    const episode = Math.floor(event.seq / SEQ_PER_EPISODE);
    const list = byEpisode.get(episode) ?? [];
    list.push(sessionStepOf(event.data));
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
