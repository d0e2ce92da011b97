/**
 * Versioned run payloads (store/payload.ts and each kind's payload module): a stored session,
 * evaluation or evolution run of every older shape the readers used to tolerate comes back from
 * every store backend — IndexedDB, the CLI's files, memory — in the current shape; what this code
 * writes carries the current version and reads back as it was written; a payload of a newer
 * version is refused with a `PayloadVersionError` and stays in the store as it was. The older
 * shapes are the recorded fixtures (test/fixtures/recordings) with the fields later versions added
 * taken out, as records made before those fields existed hold them.
 */
import 'fake-indexeddb/auto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MetattlError } from '../src/common/errors.ts';
import { EVALUATION_PAYLOAD, evaluationEventOf, upgradeEvaluationPayload } from '../src/eval/evaluation-payload.ts';
import { loadEvaluationSessions, loadEvaluationState, saveEvaluationState } from '../src/eval/evaluation-store.ts';
import type { EvaluationResult, EvaluationState } from '../src/eval/interface.ts';
import { EVOLUTION_EXPORT_FORMAT, exportEvolution, importEvolution, readEvolutionRun, recordedUsage, storeImportedEvolution } from '../src/evolve/evolution-io.ts';
import { EVOLUTION_PAYLOAD, evolutionEventOf, upgradeEvolutionPayload } from '../src/evolve/evolution-payload.ts';
import { loadEvolutionState, loadMetricSession, saveEvolutionState } from '../src/evolve/evolution-store.ts';
import type { EvolutionState } from '../src/evolve/interface.ts';
import { openIdbStore } from '../src/store/idb-store.ts';
import type { RunEvent, RunHeader, Store } from '../src/store/interface.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { currentPayloadVersion, PayloadVersionError, upgradePayload, type PayloadKind } from '../src/store/payload.ts';
import { exportSession, importSession } from '../src/ttl/session-io.ts';
import { SESSION_PAYLOAD, upgradeSessionPayload } from '../src/ttl/session-payload.ts';
import type { FaultedAttempt, SessionRecord } from '../src/ttl/session-record.ts';
import { loadSession, saveSession, SEQ_PER_EPISODE } from '../src/ttl/session-store.ts';
import { parseReplayFile } from '../src/ui/replay/replay-source.ts';
import { REPO_ROOT } from './support/shared.ts';

const recording = <T>(name: string): T => JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/recordings', name), 'utf8')) as T;

/** Drop `keys` from a record (a copy), as a record made before they existed lacks them. */
function without<T extends object>(record: T, ...keys: string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(record) as Record<string, unknown>;
  for (const key of keys) delete copy[key];
  return copy;
}

const SESSION = recording<SessionRecord>('lever-room-scripted.json');
/** A session recorded before provider faults were kept: no `faults`, no `faultedEpisodes`. */
const SESSION_V0 = without(SESSION, 'faults', 'faultedEpisodes');

const EVOLUTION = recording<EvolutionState>('evolution-scripted.json');
/** An evolution run's state from before sessions and faulted episodes were counted. */
const EVOLUTION_V0 = without(EVOLUTION, 'sessionsPlayed', 'faultedEpisodes');

const RESULTS = recording<{ id: string; status: EvaluationState['status']; config: EvaluationState['config']; plannedSessions: number; sessions: (EvaluationResult & { session: SessionRecord })[] }>('evaluation-scripted.json');
/** The recorded evaluation as its stored state: every result, policies without names (as older states hold them). */
const EVALUATION: EvaluationState = {
  format: 'metattl-evaluation-1', id: RESULTS.id, config: RESULTS.config, status: RESULTS.status, stopReason: null, stopMessage: null,
  results: RESULTS.sessions.map(({ session: _session, ...result }) => result), totalSessions: RESULTS.plannedSessions, faultedEpisodes: 0,
  startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:10:00.000Z',
};
/** An evaluation's state from before faulted episodes were counted. */
const EVALUATION_V0 = without(EVALUATION, 'faultedEpisodes');

const fault = (phase: FaultedAttempt['phase'], episodeIndex: number): FaultedAttempt => ({ phase, episodeIndex, kind: 'server', message: 'HTTP 503', steps: [], exchanges: [], at: '2026-01-01T00:00:00.000Z' });

/** A header as an older version wrote it: the data as given, no `payloadVersion`. */
const oldHeader = (id: string, kind: RunHeader['kind'], data: unknown): RunHeader => ({ id, kind, updatedAt: 1, summary: null, data });

/** Events of a session record: its steps, as `saveSession` stores them. */
const stepEvents = (record: SessionRecord): RunEvent[] => record.episodes.flatMap((e) => e.steps.map((s) => ({ seq: e.index * SEQ_PER_EPISODE + s.index, data: s })));

/** The record without its steps (what a session's header holds). */
const headerOf = (record: object): Record<string, unknown> => ({
  ...record,
  episodes: (record as Pick<SessionRecord, 'episodes'>).episodes.map((e) => ({ ...e, steps: [], trajectory: e.trajectory ? { ...e.trajectory, steps: [] } : null })),
});

let counter = 0;
const BACKENDS: [string, () => Promise<Store>][] = [
  ['IndexedDB', () => openIdbStore({ dbName: `run-payloads-${++counter}` })],
  ['files', () => openNodeStore(mkdtempSync(join(tmpdir(), 'metattl-payloads-')))],
  ['memory', async () => new MemoryStore()],
];

describe('the upgrade step of each run kind', () => {
  it('gives a session recorded before faults were kept an empty fault list and count, the rest as it was', () => {
    const frozen = structuredClone(SESSION_V0);
    const upgraded = upgradeSessionPayload(SESSION_V0);
    expect(upgraded.faults).toEqual([]);
    expect(upgraded.faultedEpisodes).toBe(0);
    expect(upgraded).toEqual({ ...SESSION_V0, faults: [], faultedEpisodes: 0 });
    expect(SESSION_V0).toEqual(frozen);
  });

  it('counts the faulted episode attempts of a session that kept its faults but not their count', () => {
    const old = { ...SESSION_V0, faults: [fault('episode', 2), fault('policy', 2), fault('episode', 3)] };
    expect(upgradeSessionPayload(old).faultedEpisodes).toBe(2);
  });

  it('leaves a session already in the current shape as it is', () => {
    expect(upgradeSessionPayload(SESSION)).toEqual(SESSION);
    expect(upgradeSessionPayload(SESSION, 1)).toEqual(SESSION);
  });

  it('counts one session per stored metric call and no faulted episodes for an evolution run from before they were counted', () => {
    const upgraded = upgradeEvolutionPayload(EVOLUTION_V0);
    expect(upgraded.sessionsPlayed).toBe(12);
    expect(upgraded.sessionsPlayed).toBe(EVOLUTION.metricCalls.length);
    expect(upgraded.faultedEpisodes).toBe(0);
    expect(upgraded).toEqual(EVOLUTION);
  });

  it('gives an evaluation from before faulted episodes were counted a count of 0', () => {
    const upgraded = upgradeEvaluationPayload(EVALUATION_V0);
    expect(upgraded.faultedEpisodes).toBe(0);
    expect(upgraded).toEqual(EVALUATION);
  });

  it('reads the sessions inside evaluation and evolution events in the current shape', () => {
    const row = RESULTS.sessions[0]!;
    const { session: _s, ...result } = row;
    const event = evaluationEventOf({ result, session: without(row.session, 'faults', 'faultedEpisodes') });
    expect(event.result).toEqual(result);
    expect(event.session).toMatchObject({ id: row.session.id, faults: [], faultedEpisodes: 0 });
    const call = evolutionEventOf({ type: 'call', call: EVOLUTION.metricCalls[0], session: SESSION_V0 });
    expect(call.type === 'call' && call.session.faults).toEqual([]);
    // A proposer reply stored before its usage was kept reads with usage null; one with usage keeps it.
    const proposal = { type: 'proposal', iteration: 1, reply: 'text', finishReason: 'stop' };
    expect(evolutionEventOf(proposal)).toEqual({ ...proposal, usage: null });
    const usage = { promptTokens: 10, completionTokens: 5, reasoningTokens: 0, latencyMs: 20, costUsd: 0.001 };
    expect(evolutionEventOf({ ...proposal, usage })).toEqual({ ...proposal, usage });
  });

  it('runs every step from the stored version on, in order', () => {
    const kind: PayloadKind<{ trail: string }> = {
      label: 'test payload',
      steps: [(d) => ({ ...d, trail: `${String(d.trail ?? '')}a` }), (d) => ({ ...d, trail: `${String(d.trail)}b` }), (d) => ({ ...d, trail: `${String(d.trail)}c` })],
    };
    expect(currentPayloadVersion(kind)).toBe(3);
    expect(upgradePayload(kind, {}).trail).toBe('abc');
    expect(upgradePayload(kind, { trail: 'x' }, 1).trail).toBe('xbc');
    expect(upgradePayload(kind, { trail: 'y' }, 3).trail).toBe('y');
  });
});

describe.each(BACKENDS)('runs stored by an older version, read from the %s store', (_name, open) => {
  it('loads a session, an evaluation and an evolution run of the older shapes in the current shape', async () => {
    const store = await open();
    await store.appendRunEvents(SESSION.id, stepEvents(SESSION), oldHeader(SESSION.id, 'session', headerOf(SESSION_V0)));
    await store.putRun(oldHeader(EVALUATION.id, 'evaluation', EVALUATION_V0));
    await store.appendRunEvents(EVALUATION.id, RESULTS.sessions.map(({ session, ...result }, i) => ({ seq: i + 1, data: { result, session: without(session, 'faults', 'faultedEpisodes') } })));
    await store.putRun(oldHeader(EVOLUTION.id, 'evolution', EVOLUTION_V0));
    await store.appendRunEvents(EVOLUTION.id, [{ seq: 1, data: { type: 'call', call: EVOLUTION.metricCalls[0], session: SESSION_V0 } }]);

    expect(await loadSession(store, SESSION.id)).toEqual(SESSION);
    expect(await loadEvaluationState(store, EVALUATION.id)).toEqual(EVALUATION);
    const sessions = await loadEvaluationSessions(store, EVALUATION.id);
    expect([...sessions.values()].map((s) => s.faultedEpisodes)).toEqual(RESULTS.sessions.map(() => 0));
    expect(await loadEvolutionState(store, EVOLUTION.id)).toEqual(EVOLUTION);
    expect((await readEvolutionRun(store, EVOLUTION.id))!.state).toEqual(EVOLUTION);
    expect((await loadMetricSession(store, EVOLUTION.id, EVOLUTION.metricCalls[0]!.key))!.faults).toEqual([]);
    expect(recordedUsage((await store.getRun(EVOLUTION.id))!.events).actor.calls).toBeGreaterThan(0);
    // The load changed nothing stored: the headers still hold the older shape.
    expect((await store.getRun(EVOLUTION.id))!.header).toMatchObject({ data: EVOLUTION_V0 });
    expect((await store.getRun(EVOLUTION.id))!.header.payloadVersion).toBeUndefined();
    store.close();
  });

  it('writes the current version with each run and reads it back as written', async () => {
    const store = await open();
    await saveSession(store, SESSION);
    await saveEvaluationState(store, EVALUATION);
    await saveEvolutionState(store, EVOLUTION);
    for (const [id, kind] of [[SESSION.id, SESSION_PAYLOAD], [EVALUATION.id, EVALUATION_PAYLOAD], [EVOLUTION.id, EVOLUTION_PAYLOAD]] as const) {
      expect((await store.getRun(id))!.header.payloadVersion).toBe(currentPayloadVersion(kind));
    }
    expect(await loadSession(store, SESSION.id)).toEqual(SESSION);
    expect(await loadEvaluationState(store, EVALUATION.id)).toEqual(EVALUATION);
    expect(await loadEvolutionState(store, EVOLUTION.id)).toEqual(EVOLUTION);
    store.close();
  });

  it('refuses a run of a newer payload version with a PayloadVersionError and keeps it as stored', async () => {
    const store = await open();
    const future = (id: string, kind: RunHeader['kind'], data: unknown): RunHeader => ({ ...oldHeader(id, kind, { ...(data as object), addedLater: { kept: true } }), payloadVersion: 99 });
    const headers = [future(SESSION.id, 'session', headerOf(SESSION)), future(EVALUATION.id, 'evaluation', EVALUATION), future(EVOLUTION.id, 'evolution', EVOLUTION)];
    for (const header of headers) await store.putRun(header);
    const loads = [() => loadSession(store, SESSION.id), () => loadEvaluationState(store, EVALUATION.id), () => loadEvolutionState(store, EVOLUTION.id), () => readEvolutionRun(store, EVOLUTION.id)];
    for (const load of loads) {
      const error = await load().then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(PayloadVersionError);
      expect(error).toBeInstanceOf(MetattlError);
      expect((error as PayloadVersionError).code).toBe('payload_version');
      expect((error as PayloadVersionError).version).toBe(99);
      expect((error as Error).message).toMatch(/newer version of the Playground \(payload version 99; this one reads versions up to 1\)/);
    }
    // Nothing was lost: each header is still there as it was written, the field this code does not know included.
    for (const header of headers) {
      const stored = (await store.getRun(header.id))!.header;
      expect(stored).toEqual(header);
    }
    store.close();
  });
});

describe('files of a newer payload version', () => {
  it('an imported session or evolution run says it needs a newer version', () => {
    const sessionFile = JSON.stringify({ ...JSON.parse(exportSession(SESSION)), payloadVersion: 2 });
    expect(() => importSession(sessionFile)).toThrow(PayloadVersionError);
    expect(() => importSession(sessionFile)).toThrow(/session was written by a newer version/);
    const evolutionFile = JSON.stringify({ ...JSON.parse(exportEvolution({ state: EVOLUTION, events: [] })), payloadVersion: 2 });
    expect(JSON.parse(evolutionFile).format).toBe(EVOLUTION_EXPORT_FORMAT);
    expect(() => importEvolution(evolutionFile)).toThrow(/evolution run was written by a newer version/);
    expect(() => parseReplayFile(JSON.stringify({ ...oldHeader('r', 'evolution', EVOLUTION), payloadVersion: 5 }))).toThrow(PayloadVersionError);
  });

  it('a payload version that is not a whole number is refused too', () => {
    expect(() => upgradeSessionPayload(SESSION, 'one')).toThrow(/no readable payload version \("one"; this one reads versions 0–1\)/);
    expect(() => upgradeSessionPayload(SESSION, -1)).toThrow(PayloadVersionError);
    expect(() => upgradeSessionPayload(null)).toThrow(/holds no record \(null\)/);
  });
});

describe('imports and shipped recordings', () => {
  it('an exported session and evolution run come back through import and the store as they were', async () => {
    const store = new MemoryStore();
    await saveSession(store, importSession(exportSession(SESSION)));
    expect(await loadSession(store, SESSION.id)).toEqual(SESSION);
    const run = importEvolution(exportEvolution({ state: EVOLUTION, events: [] }));
    await storeImportedEvolution(store, run, 5);
    expect((await store.getRun(EVOLUTION.id))!.header.payloadVersion).toBe(currentPayloadVersion(EVOLUTION_PAYLOAD));
    expect(await readEvolutionRun(store, EVOLUTION.id)).toEqual({ state: EVOLUTION, events: [] });
  });

  it('an imported evolution run of an older shape comes in the current shape', () => {
    const file = JSON.stringify({ ...JSON.parse(exportEvolution({ state: EVOLUTION, events: [] })), state: EVOLUTION_V0 });
    expect(importEvolution(file).state).toEqual(EVOLUTION);
  });

  it('every recording shipped in public/replays opens, its sessions in the current shape', () => {
    const dir = join(REPO_ROOT, 'public/replays');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const source = parseReplayFile(readFileSync(join(dir, file), 'utf8'));
      for (const item of source.items) {
        expect(Array.isArray(item.record.faults)).toBe(true);
        expect(typeof item.record.faultedEpisodes).toBe('number');
      }
      if (source.kind === 'evolution') expect(typeof source.state.sessionsPlayed).toBe('number');
    }
  });
});
