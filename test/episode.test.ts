/**
 * The actor plays real episodes against the mock OpenAI-compatible server through the real SDK:
 * scripted play equals the engine's own replay; injected 429s are retried without duplicating
 * steps; Stop during a slow reply closes the connection and executes nothing; the USD cap stops
 * the run and keeps its steps; a provider failure ends the episode with "error"; a cut-off reply
 * is a truncated step that sends the fallback, never an empty command.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actor } from '../src/agents/actor.ts';
import { exportTrajectory, importTrajectory } from '../src/agents/trajectory-io.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import type { LlmSettings } from '../src/llm/interface.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { runEpisode, syncEngine } from '../src/ttl/episode-runner.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';

const require = createRequire(import.meta.url);
const advent = new Uint8Array(readFileSync(require.resolve('glkote-term/tests/advent.z5')));
const SCRIPT = ['east', 'get all', 'west', 'south', 'south', 'south', 'unlock grate with keys', 'open grate', 'down', 'west'];
const KEY = 'test-key-abcdef123456';
/** advent's player object (Jericho's, the catalog's `playerObject`). */
const ADVENT_PLAYER = 20;

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ script: SCRIPT });
});
afterAll(() => mock.close());

function settings(overrides: Partial<LlmSettings> = {}): LlmSettings {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: KEY };
  s.roles.actor.model = 'mock-model';
  return { ...s, maxRetryWaitMs: 50, ...overrides };
}

async function play(s: LlmSettings, options: { signal?: AbortSignal; onStep?: (n: number) => void } = {}) {
  const meter = new UsageMeter(s.caps, s.prices);
  const { actor } = createChatModels(s, meter);
  const engine = syncEngine(loadStory(advent, { seed: 0, rules: { playerObject: ADVENT_PLAYER } }));
  const trajectory = await runEpisode({
    engine, actor: new Actor(actor), story: { title: 'Adventure', maxScore: 350 }, guidingPrompt: 'Follow the script.',
    maxSteps: 10, signal: options.signal, onStep: (step) => options.onStep?.(step.index),
  });
  return { trajectory, meter };
}

const actorRequests = () => mock.requests.filter((r) => r.role === 'actor');

describe('episodes against the mock provider', () => {
  it("a scripted 10-step episode equals the engine's replay of the same commands", async () => {
    mock.setOptions({ script: SCRIPT, faults: [] });
    const before = actorRequests().length;
    const { trajectory, meter } = await play(settings());
    const replay = loadStory(advent, { seed: 0, rules: { playerObject: ADVENT_PLAYER } });
    const results = SCRIPT.map((c) => replay.step(c));
    const scores = results.map((r) => r.score);
    expect(trajectory.steps.map((s) => s.action)).toEqual(SCRIPT);
    expect(trajectory.steps.map((s) => s.score)).toEqual(scores);
    // Every step records where the player is after it; the start too.
    expect(trajectory.startLocation).toEqual({ id: 29, name: 'At End Of Road' });
    expect(trajectory.steps.map((s) => s.location)).toEqual(results.map((r) => r.location));
    expect(trajectory.steps.at(-1)!.location).toMatchObject({ name: expect.any(String) });
    expect(trajectory.steps.map((s) => s.location?.name)).toContain('Below the Grate');
    expect(trajectory.finalScore).toBe(scores.at(-1));
    expect(trajectory.termination).toBe('step_limit');
    expect(trajectory.steps.every((s) => s.parseStatus === 'ok' && s.promptTokens > 0 && s.completionTokens > 0)).toBe(true);
    const sent = actorRequests().slice(before);
    expect(sent).toHaveLength(10);
    expect(sent.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(meter.byRole.actor.calls).toBe(10);
    const text = exportTrajectory(trajectory);
    expect(text).not.toContain(KEY);
    expect(importTrajectory(text)).toEqual(trajectory);
    // A damaged location is refused with the field named; nothing is half-imported.
    const bad = JSON.parse(text) as { steps: { location: unknown }[] };
    bad.steps[2]!.location = { id: 0, name: 'Nowhere' };
    expect(() => importTrajectory(JSON.stringify(bad))).toThrow(/steps\.2\.location\.id|steps\[2\]\.location\.id/);
  });

  it('with 20% injected 429s all 10 steps complete once each', async () => {
    mock.setOptions({ script: SCRIPT, faults: [{ kind: 'rate_limit', rate: 0.2, retryAfterSeconds: 0, role: 'actor' }] });
    const before = mock.requests.length;
    const { trajectory } = await play(settings({ maxRetries: 5 }));
    const log = mock.requests.slice(before).filter((r) => r.role === 'actor');
    const limited = log.filter((r) => r.outcome.status === 429);
    const answered = log.filter((r) => r.outcome.status === 200);
    expect(limited.length).toBeGreaterThan(0);
    expect(answered).toHaveLength(10);
    expect(trajectory.steps.map((s) => s.action)).toEqual(SCRIPT);
    expect(new Set(trajectory.steps.map((s) => s.index)).size).toBe(10);
  });

  it('Stop during a slow reply closes the connection before it answers and executes nothing', async () => {
    mock.setOptions({ script: SCRIPT, faults: [{ kind: 'slow', delayMs: 60_000, role: 'actor' }] });
    const before = mock.requests.length;
    const controller = new AbortController();
    const running = play(settings(), { signal: controller.signal });
    const request = await mock.waitForRequest((r) => r.index >= before && r.role === 'actor', 10_000);
    controller.abort();
    const { trajectory } = await running;
    expect(trajectory.termination).toBe('aborted');
    expect(trajectory.stopReason).toBe('user');
    expect(trajectory.steps).toHaveLength(0);
    await expect.poll(() => request.closedBeforeAnswer).toBe(true);
  });

  it('a USD cap below the need stops with "budget reached" and keeps the steps', async () => {
    mock.setOptions({ script: SCRIPT, faults: [] });
    const s = settings({ caps: { maxUsd: 0.0005, maxTokens: null }, prices: { 'mock-model': { inputPerMTokUsd: 1000, outputPerMTokUsd: 1000 } } });
    const { trajectory, meter } = await play(s);
    expect(trajectory.termination).toBe('aborted');
    expect(trajectory.stopReason).toBe('budget');
    const done = trajectory.steps.filter((x) => x.parseStatus === 'ok');
    expect(done.length).toBeGreaterThan(0);
    expect(done.length).toBeLessThan(10);
    expect(done.map((x) => x.action)).toEqual(SCRIPT.slice(0, done.length));
    expect(trajectory.steps.at(-1)!.error).toMatchObject({ kind: 'budget' });
    expect(trajectory.steps.at(-1)!.error!.message).toMatch(/^Budget reached/);
    expect(meter.totalUsd).toBeGreaterThanOrEqual(0.0005);
  });

  it('a provider that keeps failing ends the episode with "error" and keeps what was recorded', async () => {
    mock.setOptions({ script: SCRIPT, faults: [] });
    const { trajectory } = await play(settings({ maxRetries: 1 }), {
      onStep: (n) => {
        if (n === 3) mock.setOptions({ faults: [{ kind: 'server_error', rate: 1, role: 'actor' }] });
      },
    });
    expect(trajectory.termination).toBe('error');
    expect(trajectory.steps.slice(0, 3).map((s) => s.action)).toEqual(SCRIPT.slice(0, 3));
    expect(trajectory.steps[3]).toMatchObject({ index: 4, action: null, parseStatus: 'llm_error', error: { kind: 'server' } });
    expect(trajectory.finalScore).toBe(36);
  });

  it('a model that spends every budget on reasoning plays nothing: the budget is raised once, the effort lowered, then the episode ends as an error naming the fix', async () => {
    mock.setOptions({ script: SCRIPT, faults: [{ kind: 'length_empty', role: 'actor' }] });
    const before = actorRequests().length;
    const { trajectory } = await play(settings());
    expect(trajectory.termination).toBe('error');
    expect(trajectory.steps).toEqual([expect.objectContaining({ action: null, parseStatus: 'llm_error', error: expect.objectContaining({ kind: 'bad_request' }) })]);
    expect(trajectory.steps[0]!.error!.message).toMatch(/spent its whole completion budget .* --actor-max-tokens/);
    expect(actorRequests().slice(before).map((r) => (r.body as { max_tokens: number }).max_tokens)).toEqual([400, 4096, 4096]);
  });
});
