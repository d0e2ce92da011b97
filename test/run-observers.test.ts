/**
 * Persistence is the core's (ttl/run-observers.ts, evolve/evolution-service.ts,
 * eval/evaluation-service.ts): one rule for every root — the state is saved after every event,
 * before any display sees it — and display observers get a copy of the event and state, are not
 * awaited and cannot stop the run. A stopped run resumed through the service ends as an
 * uninterrupted one.
 */
import { describe, expect, it } from 'vitest';
import { startOrResumeEvaluation } from '../src/eval/evaluation-service.ts';
import { loadEvaluationState } from '../src/eval/evaluation-store.ts';
import type { EvaluationConfig, EvaluationState } from '../src/eval/interface.ts';
import { startOrResumeEvolution } from '../src/evolve/evolution-service.ts';
import { loadEvolutionState } from '../src/evolve/evolution-store.ts';
import type { EvolutionEvent, EvolutionState, EvolutionTask } from '../src/evolve/interface.ts';
import { LlmError } from '../src/llm/errors.ts';
import type { RunHeader, Store } from '../src/store/interface.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { observedRun } from '../src/ttl/run-observers.ts';
import { fakeSession, scriptedConfig, scriptedTask } from './support/scripted-evolution.ts';

/** A memory store that records every header written to run `id`. */
function recordingStore(id: string): { store: Store; headers: unknown[] } {
  const store = new MemoryStore();
  const headers: unknown[] = [];
  const putRun = store.putRun.bind(store);
  store.putRun = async (header: RunHeader) => {
    if (header.id === id) headers.push(structuredClone(header.data));
    return putRun(header);
  };
  return { store, headers };
}

const SCORES: Record<string, number> = { a: 0.2, b: 0.4, c: 0.3 };
/** A session of `strategy` on `task`: W-AUC by task, a little more for a longer strategy. */
const evaluate = async (strategy: string, task: EvolutionTask, _repeat: number, sessionId: string, signal?: AbortSignal) => {
  if (signal?.aborted) throw new LlmError('aborted', 'stopped');
  const wAuc = Math.min(1, SCORES[task.id]! + strategy.length / 1000);
  return { session: fakeSession(sessionId, task, wAuc), wAuc, scores: [wAuc * 10] };
};
const timeless = <T extends { startedAt: string; finishedAt: string | null }>(s: T) => ({ ...s, startedAt: '', finishedAt: '' });

describe('observedRun', () => {
  it('saves before any observer, hands out a copy, awaits no observer and survives a throwing one', async () => {
    const order: string[] = [];
    const live = { n: 1, items: [1] };
    let seen: { n: number; items: number[] } | null = null;
    const onEvent = observedRun<{ type: string; state: typeof live }, typeof live>(
      async (state) => {
        order.push(`save ${state.n}`);
      },
      [
        () => {
          throw new Error('display broke');
        },
        () => new Promise<never>(() => undefined) as never,
        (event, snapshot) => {
          order.push(`show ${snapshot.n}`);
          seen = snapshot;
          expect(event.state).toBe(snapshot);
        },
      ],
    );
    await onEvent({ type: 'finished', state: live }, live);
    expect(order).toEqual(['save 1', 'show 1']);
    live.items.push(2);
    expect(seen).toEqual({ n: 1, items: [1] });
  });

  it('a failed save fails the event and no display sees it', async () => {
    const shown: number[] = [];
    const onEvent = observedRun<string, { n: number }>(async () => Promise.reject(new Error('disk full')), [(_e, s) => void shown.push(s.n)]);
    await expect(onEvent('x', { n: 1 })).rejects.toThrow('disk full');
    expect(shown).toEqual([]);
  });
});

describe('the evolution service', () => {
  const config = scriptedConfig(['a'], ['b', 'c'], { proposer: 'random', budgetMetricCalls: 9, rngSeed: 3 });

  it('stores the fresh state first, then the state after every event, and shows each event a copy after its save', async () => {
    const { store, headers } = recordingStore('evo');
    const events: EvolutionEvent[] = [];
    const shown: EvolutionState[] = [];
    const state = await startOrResumeEvolution(store, 'evo', config, {
      proposer: null, evaluate, now: () => new Date(Date.UTC(2026, 0, 1)),
      observers: [(event, snapshot) => {
        events.push(event);
        shown.push(snapshot as EvolutionState);
      }],
    });
    expect(state.status).toBe('complete');
    expect(events.length).toBeGreaterThan(5);
    // The fresh header, then one save per event, each the state that event's display saw.
    expect(headers).toHaveLength(events.length + 1);
    expect(headers[0]).toMatchObject({ status: 'running', candidates: [], metricCallsUsed: 0, sessionsPlayed: 0, faultedEpisodes: 0, rngState: 3 });
    expect(headers.slice(1)).toEqual(shown);
    expect(shown.at(-1)).toEqual(state);
    expect(shown.at(-1)).not.toBe(state);
    expect(await loadEvolutionState(store, 'evo')).toEqual(state);
  });

  it('stopped after its first metric calls and resumed, it ends as the uninterrupted run', async () => {
    const once = await startOrResumeEvolution(new MemoryStore(), 'evo', config, { proposer: null, evaluate });
    const store = new MemoryStore();
    const stop = new AbortController();
    let calls = 0;
    const stopped = await startOrResumeEvolution(store, 'evo', config, {
      proposer: null, signal: stop.signal,
      evaluate: async (...args) => {
        if (++calls === 3) stop.abort();
        return evaluate(...args);
      },
    });
    expect(stopped.status).toBe('stopped');
    const resumed = await startOrResumeEvolution(store, 'evo', config, { proposer: null, evaluate, faultedEpisodesBefore: stopped.faultedEpisodes ?? 0 });
    expect(timeless(resumed)).toEqual(timeless(once));
    expect(timeless((await loadEvolutionState(store, 'evo'))!)).toEqual(timeless(once));
  });
});

describe('the evaluation service', () => {
  const tasks = [scriptedTask('a'), scriptedTask('b')];
  const config: EvaluationConfig = {
    policies: [{ id: 'static', spec: { kind: 'static' }, selectedOn: [] }, { id: 'naive', spec: { kind: 'meta', name: 'naive', strategy: '' }, selectedOn: [] }],
    taskSets: [{ name: 'S', tasks }], repeats: 2, episodes: 1, maxSteps: 1, initialGuidingPrompt: 'Explore.', baselinePolicyId: 'naive', bootstrapSeed: 0,
    concurrency: 1, models: { actor: 'a', metaAgent: 'm' }, contextWindow: 8000,
  };
  const session = async (policy: { kind: string }, task: EvolutionTask, repeat: number, sessionId: string) => {
    const wAuc = SCORES[task.id]! + (policy.kind === 'static' ? 0 : 0.1) + repeat / 100;
    return { session: fakeSession(sessionId, task, wAuc), wAuc, scores: [wAuc * 10] };
  };

  it('stores the fresh state with every planned session, then the state after every event', async () => {
    const { store, headers } = recordingStore('ev');
    const shown: EvaluationState[] = [];
    const state = await startOrResumeEvaluation(store, 'ev', config, { evaluate: session, observers: [(_e, s) => void shown.push(s as EvaluationState)] });
    expect(state.status).toBe('complete');
    expect(state.results).toHaveLength(8);
    // Fresh header, 8 sessions, finished.
    expect(headers).toHaveLength(1 + 8 + 1);
    expect(headers[0]).toMatchObject({ status: 'running', results: [], totalSessions: 8, faultedEpisodes: 0 });
    expect(headers.slice(1)).toEqual(shown);
    expect(await loadEvaluationState(store, 'ev')).toEqual(state);
  });
});
