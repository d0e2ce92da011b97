/**
 * The persisting sink's write-behind: a step's write is started at once but not waited
 * for, so the store's time stays out of the chain of calls; the next write waits for it (order
 * kept), a failed write is thrown at the next write, and the session's end leaves nothing in flight.
 */
import { describe, expect, it } from 'vitest';
import type { TrajectoryStep } from '../agents/trajectory.ts';
import { MemoryStore } from '../store/memory-store.ts';
import type { RunEvent, RunHeader } from '../store/interface.ts';
import type { SessionRecord } from './session-record.ts';
import { loadSession, persistingSink } from './session-store.ts';

const step = (index: number): TrajectoryStep => ({
  index, observation: `obs ${index}`, reply: 'ACTION: look', finishReason: 'stop', action: 'look', parseStatus: 'ok', extraActions: [], reward: 0,
  score: 0, moves: index, promptTokens: 1, completionTokens: 1, reasoningTokens: 0, latencyMs: 1, costUsd: 0, error: null,
});

const record = (): SessionRecord => ({
  format: 'metattl-session-1', id: 'run-1', status: 'running', stopReason: null, stopMessage: null,
  config: {
    story: { id: 'lever-room', title: 'The Lever Room', md5: '0'.repeat(32), maxScore: 4 }, seed: 1, policy: { kind: 'static' },
    episodes: 1, maxSteps: 3, initialGuidingPrompt: 'Explore.', contextWindow: 8000,
    provider: { presetId: 'openai' }, models: { actor: { model: 'gpt-4o-mini' } },
  } as unknown as SessionRecord['config'],
  episodes: [{ index: 1, guidingPrompt: 'Explore.', trajectory: null, finalScore: null, termination: null, steps: [] }],
  exchanges: [], faultedEpisodes: 0, faults: [], scores: [], wAuc: null, averageScore: null, bestScore: null,
  startedAt: '2026-12-02T05:00:00.000Z', finishedAt: null, wallTimeMs: 0,
});

/** A memory store whose event appends wait until released, logging the order of writes. */
class SlowStore extends MemoryStore {
  readonly log: string[] = [];
  private releases: Array<() => void> = [];
  failNext = false;
  override async appendRunEvents(runId: string, events: RunEvent[], header?: RunHeader): Promise<void> {
    this.log.push(`append ${events.map((e) => e.seq).join(',')} started`);
    await new Promise<void>((resolve) => this.releases.push(resolve));
    if (this.failNext) throw new Error('disk full');
    await super.appendRunEvents(runId, events, header);
    this.log.push(`append ${events.map((e) => e.seq).join(',')} done`);
  }
  override async putRun(header: RunHeader): Promise<void> {
    this.log.push('header');
    await super.putRun(header);
  }
  release(): void {
    for (const r of this.releases.splice(0)) r();
  }
}

describe('persistingSink', () => {
  it('queues writes in order behind the session; only its end waits for them', async () => {
    const store = new SlowStore();
    const sink = persistingSink(store, 'run-1', {}, () => 7);
    const r = record();
    await sink.onRecord!(r);
    await sink.onStep!(1, step(1), {} as never);
    await sink.onStep!(1, step(2), {} as never);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The header went first; the first append waits in the store; the second waits behind it.
    expect(store.log).toEqual(['header', 'append 100001 started']);
    r.episodes[0]!.steps = [step(1), step(2)];
    r.status = 'complete';
    let ended = false;
    const end = Promise.resolve(sink.onRecord!(r)).then(() => (ended = true));
    store.release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect([ended, store.log.slice(1)]).toEqual([false, ['append 100001 started', 'append 100001 done', 'append 100002 started']]);
    store.release();
    await end;
    expect(store.log.slice(-2)).toEqual(['append 100002 done', 'header']);
    const stored = (await loadSession(store, 'run-1'))!;
    expect([stored.status, stored.episodes[0]!.steps.map((s) => s.observation)]).toEqual(['complete', ['obs 1', 'obs 2']]);
  });

  it('writes the record as it was when reported, not as it is later', async () => {
    const store = new SlowStore();
    const sink = persistingSink(store, 'run-1');
    const r = record();
    await sink.onRecord!(r);
    await sink.onStep!(1, step(1), {} as never);
    r.stopMessage = 'changed after it was reported';
    await sink.onRecord!(r);
    r.stopMessage = 'later still';
    store.release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await store.getRun('run-1'))!.header.data).toMatchObject({ stopMessage: 'changed after it was reported' });
  });

  it('throws a failed write at the next report, once, and writes nothing after it meanwhile', async () => {
    const store = new SlowStore();
    const sink = persistingSink(store, 'run-1');
    await sink.onRecord!(record());
    store.failNext = true;
    await sink.onStep!(1, step(1), {} as never);
    store.release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(sink.onStep!(1, step(2), {} as never)).rejects.toThrow('disk full');
    store.failNext = false;
    const end = { ...record(), status: 'stopped' as const };
    await expect(sink.onRecord!(end)).resolves.toBeUndefined();
    expect(store.log).toEqual(['header', 'append 100001 started', 'header']);
  });
});
