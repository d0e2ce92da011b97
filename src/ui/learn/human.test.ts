/**
 * "You are the meta-agent" in the Learn view (Node: the real engine, the mock LLM, a memory store,
 * fake Web Locks): the session asks between episodes with the episode log and the current guide;
 * the typed guide reaches the actor's system message; an empty answer keeps the guide; Stop ends
 * the wait; after a reload while waiting, resume asks again. Also the catch-up rule, the random
 * seed and the cost estimate of the setup form.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockLlm, type LoggedRequest, type MockLlm } from '../../../test/mock-llm/server.ts';
import type { Store } from '../../store/interface.ts';
import { MemoryStore } from '../../store/memory-store.ts';
import type { SessionRecord } from '../../ttl/session-record.ts';
import { loadSession } from '../../ttl/session-store.ts';
import { fakeLocks } from '../../../test/support/ui/fake-locks.ts';
import { testTab } from '../../../test/support/ui/run-test-support.ts';
import { MetaPromptCatalog } from '../shared/state/meta-prompt-catalog.svelte.ts';
import { pendingUpdateOf } from '../../ttl/session-runner.ts';
import { HumanTurn } from './human-turn.svelte.ts';
import { LearnSetup } from './learn-setup.svelte.ts';
import { LearnState } from './learn.svelte.ts';
import { SessionRuns } from './session-runs.svelte.ts';

let mock: MockLlm;

async function makeLearn(store: Store): Promise<LearnState> {
  const { services, settings, runs, shelf } = await testTab(mock.baseUrl, store, fakeLocks());
  const catalog = new MetaPromptCatalog({ store: async () => shelf.store, now: () => 1, newId: () => 'user-1' });
  const learn = new LearnState(runs, new LearnSetup(runs, catalog, settings, services, async () => undefined), new SessionRuns(() => shelf.store, services), services);
  await learn.enter();
  learn.setup.selectStory('advent');
  learn.setup.change({ seed: 0, episodes: 2, maxSteps: 3, policyId: 'human' });
  return learn;
}

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const systemOf = (r: LoggedRequest): string => ((r.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'system')?.content ?? '');
const actorRequests = (): LoggedRequest[] => mock.requests.filter((r) => r.role === 'actor');

beforeEach(async () => {
  mock = await startMockLlm({ script: ['east', 'get all', 'west'] });
});

afterEach(async () => {
  await mock.close();
});

describe('HumanTurn', () => {
  it('asks, answers with the draft, and rejects when stopped', async () => {
    const turn = new HumanTurn();
    const answer = turn.ask({ episodeIndex: 1, log: 'LOG', currentGuide: 'old' });
    expect(turn.request?.log).toBe('LOG');
    expect(turn.draft).toBe('old');
    turn.setDraft('new guide');
    turn.submit();
    await expect(answer).resolves.toBe('new guide');
    expect(turn.request).toBeNull();
    const controller = new AbortController();
    const waiting = turn.ask({ episodeIndex: 2, log: 'L2', currentGuide: 'g' }, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow('stopped');
    expect(turn.request).toBeNull();
    await expect(turn.ask({ episodeIndex: 3, log: '', currentGuide: '' }, controller.signal)).rejects.toThrow('stopped');
    turn.submit();
  });
});

describe('You are the meta-agent (Learn view)', () => {
  it('offers the policy, runs only the actor, and sends the typed guide to the actor in episode 2', async () => {
    const learn = await makeLearn(new MemoryStore());
    expect(learn.setup.options.at(-1)).toMatchObject({ id: 'human', label: 'You (human meta-agent)', spec: { kind: 'human' } });
    const running = learn.start();
    await until(() => learn.human.request !== null);
    expect(learn.human.request!.episodeIndex).toBe(1);
    expect(learn.human.request!.log).toContain('[STEP 1]');
    expect(learn.human.draft).toBe(learn.setup.form.guidingPrompt);
    const asked = actorRequests().length;
    learn.human.setDraft('Go west first, then take everything.');
    learn.human.submit();
    await running;
    const record = learn.record!;
    expect(learn.error).toBeNull();
    expect(record.status).toBe('complete');
    expect(record.config.policy).toEqual({ kind: 'human' });
    expect(record.exchanges).toMatchObject([{ afterEpisode: 1, kind: 'human', learnStatus: 'updated', guidingPromptAfter: 'Go west first, then take everything.' }]);
    expect(record.episodes[1]!.guidingPrompt).toBe('Go west first, then take everything.');
    const later = actorRequests().slice(asked);
    expect(later.length).toBe(3);
    for (const r of later) expect(systemOf(r)).toContain('Follow this guide:\nGo west first, then take everything.');
    for (const r of actorRequests().slice(0, asked)) expect(systemOf(r)).not.toContain('Go west first');
    expect(mock.requests.filter((r) => r.role === 'metaAgent')).toHaveLength(0);
  });

  it('keeps the guide on an empty answer, and Stop ends the wait', async () => {
    const learn = await makeLearn(new MemoryStore());
    learn.setup.change({ episodes: 3 });
    const running = learn.start();
    await until(() => learn.human.request !== null);
    learn.human.setDraft('   ');
    learn.human.submit();
    await until(() => learn.human.request?.episodeIndex === 2);
    learn.stop();
    await running;
    const record = learn.record!;
    expect(record.status).toBe('stopped');
    expect(record.exchanges).toMatchObject([{ afterEpisode: 1, learnStatus: 'empty', guidingPromptAfter: learn.setup.form.guidingPrompt }]);
    expect(learn.human.request).toBeNull();
    expect(pendingUpdateOf(record)).toBe(2);
  });

  it('after a reload while waiting, resume asks again and goes on with the new guide', async () => {
    const store = new MemoryStore();
    const before = await makeLearn(store);
    void before.start();
    await until(() => before.human.request !== null);
    // The page is reloaded: the first page's session stays waiting for ever; a new page resumes it.
    const id = before.record!.id;
    const stored = (await loadSession(store, id))!;
    expect(stored.status).toBe('running');
    expect(pendingUpdateOf(stored)).toBe(1);
    const after = await makeLearn(store);
    await after.sessions.refresh();
    expect(after.sessions.unfinished.map((s) => s.id)).toEqual([id]);
    const resuming = after.resume(id);
    await until(() => after.human.request !== null);
    expect(after.human.request!.episodeIndex).toBe(1);
    after.human.setDraft('Second try: go east.');
    after.human.submit();
    await resuming;
    expect(after.record!.status).toBe('complete');
    expect(after.record!.exchanges.map((e) => e.guidingPromptAfter)).toEqual(['Second try: go east.']);
    expect(after.record!.episodes.map((e) => e.guidingPrompt)).toEqual([after.setup.form.guidingPrompt, 'Second try: go east.']);
    expect((await loadSession(store, id))!.exchanges).toHaveLength(1);
  });

  it('draws a random seed at start, records it and shows it', async () => {
    const learn = await makeLearn(new MemoryStore());
    learn.setup.change({ policyId: 'static', episodes: 1, maxSteps: 1 });
    learn.setup.setSeed({ kind: 'random' });
    expect(learn.setup.validate().problem).toBeNull();
    await learn.start();
    const seed = learn.record!.config.seed;
    expect(learn.setup.drawnSeed).toBe(seed);
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
    expect(learn.setup.seedForRun(() => 77)).toBe(77);
    learn.setup.setSeed({ kind: 'fixed', seed: 9 });
    expect(learn.setup.seedForRun(() => 77)).toBe(9);
    expect(learn.setup.form.seedRandom).toBe(false);
  });

  it('estimates the session’s cost before it starts', async () => {
    const learn = await makeLearn(new MemoryStore());
    await until(() => learn.setup.estimate !== null);
    const human = learn.setup.estimate!;
    expect(human.actorCalls).toBe(6);
    expect(human.policyCalls).toBe(0);
    expect(human.low.totalTokens).toBeGreaterThan(0);
    expect(human.high.totalTokens).toBeGreaterThan(human.low.totalTokens);
    expect(human.unpricedModels).toEqual(['mock-model']);
    learn.setup.change({ policyId: 'meta:naive' });
    expect(learn.setup.estimate!.policyCalls).toBe(1);
  });
});

describe('a missing policy update (resume between episodes)', () => {
  const base = (over: Partial<SessionRecord> = {}): SessionRecord => {
    const trajectory: NonNullable<SessionRecord['episodes'][number]['trajectory']> = {
      format: 'metattl-trajectory-1', story: { title: 'A', md5: 'a'.repeat(32), maxScore: 350 }, seed: 0, maxSteps: 3, guidingPrompt: 'g1', actorModel: 'm',
      startObservation: 'Start.', startScore: 0, steps: [], finalObservation: 'Start.', termination: 'step_limit', stopReason: null, finalScore: 0, endReason: null, startedAt: '', finishedAt: '',
    };
    return {
      format: 'metattl-session-1', id: 's', status: 'running', stopReason: null, stopMessage: null,
      episodes: [{ index: 1, guidingPrompt: 'g1', trajectory, steps: [], finalScore: 0, termination: 'step_limit' }],
      exchanges: [], faultedEpisodes: 0, faults: [], scores: [0], wAuc: 0, averageScore: 0, bestScore: 0, startedAt: '', finishedAt: null, wallTimeMs: 0,
      config: {
        story: { id: 'advent', title: 'A', md5: 'a'.repeat(32), maxScore: 350 }, seed: 0, policy: { kind: 'human' }, metaPrompt: null, episodes: 2, maxSteps: 3,
        initialGuidingPrompt: 'g1', models: { actor: { model: 'm', temperature: null, maxTokens: 1 }, reflection: null }, provider: { presetId: 'custom', baseUrl: '' }, contextWindow: null,
      },
      ...over,
    };
  };

  it('finds the update a reload interrupted, and only that', () => {
    expect(pendingUpdateOf(base())).toBe(1);
    expect(pendingUpdateOf(base({ config: { ...base().config, episodes: 1 } }))).toBeNull();
    expect(pendingUpdateOf(base({ config: { ...base().config, policy: { kind: 'static' } } }))).toBeNull();
    const withExchange = base();
    withExchange.exchanges = [{ afterEpisode: 1, kind: 'human', userMessage: '', reply: 'x', finishReason: null, learnStatus: 'updated', guidingPromptAfter: 'x', usage: null, droppedEpisodes: [], notice: null, error: null }];
    expect(pendingUpdateOf(withExchange)).toBeNull();
    const started = base();
    started.episodes.push({ index: 2, guidingPrompt: 'g1', trajectory: null, steps: [], finalScore: null, termination: null });
    expect(pendingUpdateOf(started)).toBeNull();
  });
});
