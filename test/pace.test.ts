/**
 * Presenter pace (src/ttl/pace.ts) in a real session against the mock provider on detective.z5:
 * a paced session records exactly what an unpaced one does (trajectory, scores, W-AUC, export);
 * the delay is asked of the injected sleep before every step but an episode's first; Pause holds
 * between steps without cutting the step in flight; Step lets exactly one step run; Resume
 * completes; Stop ends a paused session at once and keeps its steps.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { syncEngine, type EpisodeEngine } from '../src/ttl/episode-runner.ts';
import { Pacer, type PaceState, type Sleep } from '../src/ttl/pace.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { runSession } from '../src/ttl/session-runner.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { exportSession } from '../src/ttl/session-io.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { readShared, REPO_ROOT } from './support/shared.ts';

const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
const catalog = parseCatalog(JSON.parse(readFileSync(`${REPO_ROOT}/public/stories/catalog.json`, 'utf8')));
const detective = new Uint8Array(readShared('stories/detective.z5'));
const entry = findByMd5(catalog, md5Hex(detective))!;

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
});
afterAll(() => mock.close());

interface Run {
  pacer?: Pacer;
  signal?: AbortSignal;
  engine?: (inner: EpisodeEngine) => EpisodeEngine;
  onStep?: (episode: number, step: number) => void;
}

/** A fixed clock, so that two runs' timestamps and wall times are equal too. */
const FIXED = new Date('2026-01-01T00:00:00.000Z');

async function session(o: Run = {}): Promise<SessionRecord> {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'test-key' };
  s.roles.actor.model = 'mock-model';
  s.roles.metaAgent.model = 'mock-model';
  s.roles.metaAgent.maxTokens = 1024;
  const models = createChatModels(s, new UsageMeter(s.caps, s.prices));
  const parts = buildSession(
    {
      story: { id: entry.id, title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed: 0, policy: { kind: 'meta', name: 'naive', strategy: '' },
      episodes: 2, maxSteps: 8, initialGuidingPrompt: 'Explore systematically.', contextWindow: 8000,
    },
    s, models, await loadTokenCounter(),
  );
  const engine = syncEngine(loadStory(detective, { seed: 0, rules: rulesFor(entry) }));
  return runSession({
    id: 'session-1', config: parts.config, engine: o.engine ? o.engine(engine) : engine,
    actor: parts.actor, policy: parts.policy, signal: o.signal, now: () => FIXED, clockMs: () => 0,
    ...(o.pacer ? { gate: o.pacer, pace: { stepDelayMs: o.pacer.stepDelayMs } } : {}),
    sink: { onStep: (episode, step) => o.onStep?.(episode, step.index) },
  });
}

/** The record without what differs between any two runs (the measured latency of each call). */
function results(record: SessionRecord): string {
  return exportSession(record).replace(/"latencyMs":\s*\d+(\.\d+)?/g, '"latencyMs":0');
}

/** Resolves the next time the pacer reaches `state`. */
function next(pacer: Pacer, state: PaceState): Promise<void> {
  return new Promise((resolve) => {
    const previous = pacer.onChange;
    pacer.onChange = (p) => {
      previous?.(p);
      if (p.state === state) {
        pacer.onChange = previous;
        resolve();
      }
    };
  });
}

describe('presenter pace', () => {
  it('a paced session records exactly what an unpaced one does; the delay is asked before every step but the first', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const plain = await session();
    const sleeps: number[] = [];
    const sleep: Sleep = async (ms) => {
      sleeps.push(ms);
    };
    const paced = await session({ pacer: new Pacer({ stepDelayMs: 1000, sleep }) });
    expect(paced.status).toBe('complete');
    expect(paced.pace).toEqual({ stepDelayMs: 1000 });
    expect(plain.pace).toBeUndefined();
    expect(paced.scores).toEqual(plain.scores);
    expect(paced.wAuc).toBe(plain.wAuc);
    expect(paced.episodes.map((e) => e.steps.map((s) => s.action))).toEqual(plain.episodes.map((e) => e.steps.map((s) => s.action)));
    expect(results(paced)).toBe(results(plain));
    // 2 episodes × (8 − 1) steps after each episode's first.
    expect(sleeps).toEqual(Array(14).fill(1000));
  });

  it('Pause holds between steps, Step runs exactly one, Resume completes', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const pacer = new Pacer({ paused: true });
    let steps = 0;
    const held = next(pacer, 'held');
    const done = session({ pacer, onStep: () => void steps++ });
    await held;
    expect(steps).toBe(0);
    for (const expected of [1, 2]) {
      const again = next(pacer, 'held');
      pacer.step();
      await again;
      expect(steps).toBe(expected);
    }
    pacer.resume();
    const record = await done;
    expect(record.status).toBe('complete');
    expect(steps).toBe(16);
  });

  it('Step at an episode’s last step runs only that step; the next Step runs the meta-agent update, then holds before the next episode', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const pacer = new Pacer({ paused: true });
    let steps = 0;
    const metaCalls = (): number => mock.requests.filter((r) => r.role === 'metaAgent').length;
    const before = metaCalls();
    const firstHold = next(pacer, 'held');
    const done = session({ pacer, onStep: () => void steps++ });
    await firstHold;
    for (let i = 1; i <= 8; i++) {
      const again = next(pacer, 'held');
      pacer.step();
      await again;
      expect(steps).toBe(i);
    }
    // Episode 1's eighth (last) step ran; the loop holds before the update: no meta-agent call yet.
    expect(pacer.nextIsUpdate).toBe(true);
    expect(metaCalls()).toBe(before);
    const again = next(pacer, 'held');
    pacer.step();
    await again;
    expect(pacer.nextIsUpdate).toBe(false);
    expect(steps).toBe(8);
    expect(metaCalls()).toBe(before + 1);
    pacer.resume();
    const record = await done;
    expect(record.status).toBe('complete');
    expect(steps).toBe(16);
  });

  it('Stop while held before the update stops the session; a resume makes the update first', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const pacer = new Pacer();
    const controller = new AbortController();
    let steps = 0;
    const done = session({ pacer, signal: controller.signal, onStep: () => {
      steps++;
      if (steps === 8) pacer.pause();
    } });
    await next(pacer, 'held');
    expect(pacer.nextIsUpdate).toBe(true);
    controller.abort();
    const record = await done;
    expect(record.status).toBe('stopped');
    expect(record.stopReason).toBe('user');
    expect(record.scores).toHaveLength(1);
    expect(record.exchanges).toHaveLength(0);
  });

  it('Pause pressed while a step is in flight lets that step finish and be recorded, then holds', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const pacer = new Pacer();
    let steps = 0;
    let commands = 0;
    const held = next(pacer, 'held');
    const controller = new AbortController();
    const done = session({
      pacer, signal: controller.signal, onStep: () => void steps++,
      engine: (inner) => ({
        ...inner,
        step: (command) => {
          // The actor answered step 3; the game has not run it yet when Pause is pressed.
          if (++commands === 3) pacer.pause();
          return inner.step(command);
        },
      }),
    });
    await held;
    expect(steps).toBe(3);
    expect(pacer.state).toBe('held');
    controller.abort();
    const record = await done;
    expect(record.status).toBe('stopped');
    expect(record.stopReason).toBe('user');
    expect(record.episodes[0]!.steps.map((s) => s.index)).toEqual([1, 2, 3]);
  });

  it('Stop while paused ends the session at once, keeping its steps (resumable)', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const pacer = new Pacer({ paused: true });
    const controller = new AbortController();
    const held = next(pacer, 'held');
    const done = session({ pacer, signal: controller.signal });
    await held;
    const again = next(pacer, 'held');
    pacer.step();
    await again;
    controller.abort();
    const record = await done;
    expect(record.status).toBe('stopped');
    expect(record.episodes[0]!.steps).toHaveLength(1);
    // Resume, unpaced, completes to the same result as a session never paused.
    const resumed = await runResume(record);
    const plain = await session();
    expect(resumed.scores).toEqual(plain.scores);
  });

  it('a delay in progress ends at once on Pause and on Stop', async () => {
    const controller = new AbortController();
    let sleeping: ((value: void) => void) | null = null;
    const pacer = new Pacer({ stepDelayMs: 60_000, sleep: () => new Promise((resolve) => { sleeping = resolve; }) });
    const wait = pacer.beforeStep(2, controller.signal);
    expect(pacer.state).toBe('delaying');
    pacer.pause();
    expect(pacer.state).toBe('held');
    controller.abort();
    await wait;
    expect(sleeping).not.toBeNull();
    expect(pacer.paused).toBe(true);
  });
});

async function runResume(stopped: SessionRecord): Promise<SessionRecord> {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'test-key' };
  s.roles.actor.model = 'mock-model';
  s.roles.metaAgent.model = 'mock-model';
  s.roles.metaAgent.maxTokens = 1024;
  const models = createChatModels(s, new UsageMeter(s.caps, s.prices));
  const c = stopped.config;
  const parts = buildSession(
    { story: c.story, seed: c.seed, policy: c.policy, episodes: c.episodes, maxSteps: c.maxSteps, initialGuidingPrompt: c.initialGuidingPrompt, contextWindow: c.contextWindow ?? 8000 },
    s, models, await loadTokenCounter(),
  );
  return runSession({
    id: stopped.id, config: c, engine: syncEngine(loadStory(detective, { seed: 0, rules: rulesFor(entry) })),
    actor: parts.actor, policy: parts.policy, resume: stopped,
  });
}
