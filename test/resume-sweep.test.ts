/**
 * Nothing lost after any stop: a small session, evaluation and evolution (The Lever Room, 2
 * episodes of at most 5 steps, the in-process mock, the file store the CLI uses) are stopped at
 * EVERY write to the store — a process killed before write N, and a disk that fills at write N
 * (the run stops with StorageFullError) — and each store is then resumed, as `--resume` does
 * (resume check without `--from-last-good`, recorded actions replayed): the result is the
 * uninterrupted run's, field for field but wall-clock times.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTokenCounter, type TokenCounter } from '../src/llm/token-count.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { comparable, EVAL_ID, resumeRuns, SESSION_ID, SWEEP_MOCK } from './support/resume-runs.ts';
import { armWriteFaults, writeFaults } from './support/write-faults.ts';

vi.mock('node:fs/promises', async (importOriginal) => (await import('./support/write-faults.ts')).writeFaultsMock(importOriginal as never));

let mock: MockLlm;
let countTokens: TokenCounter;
const dirs: string[] = [];
beforeAll(async () => {
  mock = await startMockLlm(SWEEP_MOCK);
  countTokens = await loadTokenCounter();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const newDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'metattl-sweep-'));
  dirs.push(dir);
  return dir;
};

// The three kinds of run, each started or resumed from what the directory holds (as the CLI does).
const { sessionRun, evaluationRun, evolutionRun } = resumeRuns({ baseUrl: () => mock.baseUrl, countTokens: () => countTokens, openStore: openNodeStore });

/**
 * The sweep: the uninterrupted run, with its W writes to the store, then for every N in 1…W the
 * store a stop at write N leaves, resumed with the disk healthy; each must give the uninterrupted
 * result. A kill leaves the store as it was before write N (copied there during the uninterrupted
 * run: the process does nothing more); a torn kill (at every append) leaves half of that append's
 * bytes too — whole lines are committed events, the torn last one is not and is dropped by the
 * store, so it too resumes without `--from-last-good`; a full disk
 * fails write N and every later one while the run goes on and stops with StorageFullError.
 * Returns W.
 */
async function sweep(run: (dir: string, fromLastGood?: boolean) => Promise<unknown>, kind: 'kill' | 'torn' | 'full'): Promise<number> {
  const cleanDir = newDir();
  armWriteFaults(cleanDir, Infinity, kind === 'full' ? 'full' : 'kill');
  const killed: (string | null)[] = [];
  if (kind === 'kill') writeFaults.beforeWrite = () => killed.push(copyStore(cleanDir));
  if (kind === 'torn') {
    writeFaults.beforeWrite = (_n, write) => {
      if (write.kind !== 'appendFile') return void killed.push(null);
      const copy = copyStore(cleanDir);
      const data = String(write.data);
      appendFileSync(join(copy, relative(cleanDir, write.path)), data.slice(0, Math.ceil(data.length / 2)));
      killed.push(copy);
    };
  }
  const clean = await run(cleanDir);
  const writes = writeFaults.count;
  armWriteFaults('', Infinity, 'kill');
  for (let n = 1; n <= writes; n++) {
    let dir = killed[n - 1] ?? null;
    if (kind === 'torn' && dir === null) continue;
    if (kind === 'full') {
      dir = newDir();
      armWriteFaults(dir, n, kind);
      const stopped = await run(dir).then(() => null, (error: unknown) => error as Error);
      expect(stopped, `write ${n} of ${writes} failed but the run did not stop`).not.toBeNull();
      expect(stopped!.name, `write ${n}: ${stopped!.message}`).toBe('StorageFullError');
      armWriteFaults('', Infinity, kind);
    }
    const resumed = await run(dir!).catch((error: unknown) => {
      throw new Error(`resume after ${kind} at write ${n} of ${writes}: ${(error as Error).name}: ${(error as Error).message}`);
    });
    expect(resumed, `resume after ${kind} at write ${n} of ${writes}`).toEqual(clean);
  }
  return writes;
}

/** A copy of the store directory `dir` (in a new directory). */
function copyStore(dir: string): string {
  const copy = newDir();
  cpSync(dir, copy, { recursive: true });
  return copy;
}

describe('a run stopped at any write resumes to the uninterrupted result', () => {
  for (const kind of ['kill', 'full'] as const) {
    it(`session (naive, K = 2, S = 3): ${kind === 'kill' ? 'killed before' : 'disk full at'} every write`, async () => {
      expect(await sweep(sessionRun, kind)).toBeGreaterThanOrEqual(8);
    });
    it(`evaluation (static and naive, 1 repeat): ${kind === 'kill' ? 'killed before' : 'disk full at'} every write`, async () => {
      expect(await sweep(evaluationRun, kind)).toBeGreaterThanOrEqual(20);
    });
    it(`evolution (budget 4 metric calls): ${kind === 'kill' ? 'killed before' : 'disk full at'} every write`, async () => {
      expect(await sweep(evolutionRun, kind)).toBeGreaterThanOrEqual(30);
    }, 60_000); // W + 1 to 2W + 1 small runs: a minute allowed on a loaded machine
  }

  for (const [name, run] of [['session', sessionRun], ['evaluation', evaluationRun], ['evolution', evolutionRun]] as const) {
    it(`${name}: killed in the middle of every append (a torn last line), resumed without --from-last-good`, async () => {
      expect(await sweep(run, 'torn')).toBeGreaterThanOrEqual(8);
    });
  }

  it('evaluation with two sessions at a time (static and naive side by side): killed before every write', async () => {
    expect(await sweep((dir, fromLastGood) => evaluationRun(dir, fromLastGood, 2), 'kill')).toBeGreaterThanOrEqual(20);
  });

  it('a full disk at the write of a finished session\'s result loses nothing: the resume makes no call for that session', async () => {
    const cleanDir = newDir();
    armWriteFaults(cleanDir, Infinity, 'full');
    const from = mock.requests.length;
    const clean = (await evaluationRun(cleanDir)) as { sessions: Record<string, SessionRecord> };
    const cleanCalls = mock.requests.length - from;
    const resultWrite = writeFaults.paths.findIndex((path) => path.endsWith(`${createHash('sha1').update(EVAL_ID).digest('hex')}.events.jsonl`)) + 1;
    expect(resultWrite).toBeGreaterThan(0);
    const dir = newDir();
    armWriteFaults(dir, resultWrite, 'full');
    await expect(evaluationRun(dir)).rejects.toThrow(/space|full/i);
    armWriteFaults('', Infinity, 'full');
    const resumedFrom = mock.requests.length;
    expect(await evaluationRun(dir)).toEqual(comparable(clean));
    // The static session (one actor call per step, no meta-agent) finished before the disk filled.
    const staticCalls = clean.sessions['static|custom|lever-room:1|0']!.episodes.reduce((n, e) => n + e.steps.length, 0);
    expect(staticCalls).toBeGreaterThan(0);
    expect(mock.requests.length - resumedFrom).toBe(cleanCalls - staticCalls);
  });
});

describe('a session stopped by a token cap resumes (no cap) to the uncapped result', () => {
  it('at every cap that stops it mid-episode; also from a store holding the refused call as a step with no action (older versions)', async () => {
    const clean = await sessionRun(newDir());
    const stops = new Set<string>();
    for (let cap = 200; cap <= 4000; cap += 200) {
      for (const legacy of [false, true]) {
        const dir = newDir();
        const capped = (await sessionRun(dir, false, cap)) as { record: SessionRecord; stored: SessionRecord };
        if (capped.record.stopReason !== 'budget') continue;
        const episode = capped.stored.episodes.at(-1)!;
        if (episode.trajectory !== null) continue; // stopped between episodes (the meta-agent's call)
        stops.add(`${episode.index}:${episode.steps.length}`);
        expect(episode.steps.every((step) => step.action !== null)).toBe(true);
        if (legacy) {
          const store = await openNodeStore(dir);
          const last = episode.steps.at(-1);
          const index = episode.steps.length + 1;
          const refused = {
            index, observation: '', reply: '', finishReason: null, action: null, extraActions: [], reward: 0, score: last?.score ?? 0, moves: last?.moves ?? 0,
            promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0, parseStatus: 'llm_error', error: { kind: 'budget', message: capped.record.stopMessage },
          };
          await store.appendRunEvents(SESSION_ID, [{ seq: episode.index * 100_000 + index, data: refused }]);
          store.close();
        }
        expect(await sessionRun(dir), `cap ${cap}${legacy ? ', refused call stored' : ''}`).toEqual(clean);
      }
    }
    // The caps stopped it at several places inside episodes.
    expect(stops.size).toBeGreaterThanOrEqual(2);
  });
});
