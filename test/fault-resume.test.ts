/**
 * A failed call never becomes a played episode: on The
 * Lever Room (seed 1, naive meta-agent, K = 3, S = 15) against the mock, a session whose calls
 * fail — an unreachable server from the first call, a server error in episode 2, a failed
 * meta-agent call — stops with reason `provider`, scores nothing for the cut episode, never shows
 * it to the meta-agent, and Resume (with the provider fixed) plays it again from its start and
 * ends exactly like the clean run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import type { LlmSettings } from '../src/llm/interface.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import { usageOf, type SessionRecord } from '../src/ttl/session-record.ts';
import { runSession } from '../src/ttl/session-runner.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const entry = catalog.stories.find((s) => s.id === 'lever-room')!;
const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', entry.file!)));
const EXPLORE = ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'];
/** Nothing listens on port 9 of the loopback: every call fails to connect. */
const UNREACHABLE = 'http://127.0.0.1:9/v1';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE, metaAgentReply: 'build' });
});
afterAll(() => mock.close());

function settings(baseUrl: string, maxTokens: number | null = null): LlmSettings {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl, apiKey: 'k' };
  s.roles.actor.model = 'mock-model';
  s.roles.metaAgent.model = 'mock-model';
  s.maxRetries = 0;
  s.caps = { maxUsd: null, maxTokens };
  return s;
}

async function session(o: { baseUrl?: string; maxTokens?: number; resume?: SessionRecord; onStep?: (episode: number, step: number) => void } = {}): Promise<SessionRecord> {
  const s = settings(o.baseUrl ?? mock.baseUrl, o.maxTokens ?? null);
  const parts = buildSession(
    { story: { id: entry.id, title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed: 1, policy: { kind: 'meta', name: 'naive', strategy: '' }, episodes: 3, maxSteps: 15, initialGuidingPrompt: 'Explore.', contextWindow: 8000 },
    s, createChatModels(s, new UsageMeter(s.caps, s.prices)), await loadTokenCounter(),
  );
  return runSession({
    id: 'lever', config: parts.config, engine: syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) })), actor: parts.actor, policy: parts.policy,
    resume: o.resume && structuredClone(o.resume), sink: { onStep: (episode, step) => o.onStep?.(episode, step.index) },
  });
}

/** The logs the meta-agent was sent since request `from` (the last user message of each call). */
const metaLogs = (from: number) => mock.requests.slice(from).filter((r) => r.role === 'metaAgent').map((r) => {
  const messages = (r.body as { messages: { content: string }[] }).messages;
  return messages.at(-1)!.content;
});

describe('a failed call never becomes a played episode', () => {
  let clean: SessionRecord;

  it('the clean run scores 0, 1, 3 (W-AUC 11/30 with max score 5)', async () => {
    mock.setOptions({ faults: [] });
    clean = await session();
    expect(clean.status).toBe('complete');
    expect(clean.scores).toEqual([0, 1, 3]);
    expect(clean.wAuc).toBeCloseTo((0 + 2 * 1 + 3 * 3) / (5 * 6), 12);
    expect(clean.faultedEpisodes).toBe(0);
    expect(clean.episodes.map((e) => [e.steps.length, e.termination])).toEqual([[1, 'game_over'], [2, 'game_over'], [15, 'step_limit']]);
  });

  it('an unreachable server stops the session with nothing scored; Resume with the right URL ends like the clean run', async () => {
    const failed = await session({ baseUrl: UNREACHABLE });
    expect(failed.status).toBe('stopped');
    expect(failed.stopReason).toBe('provider');
    expect(failed.stopMessage).toMatch(/reach/i);
    expect(failed.scores).toEqual([]);
    expect(failed.wAuc).toBeNull();
    expect(failed.episodes.map((e) => [e.index, e.trajectory, e.steps.length])).toEqual([[1, null, 0]]);
    expect(failed.faultedEpisodes).toBe(1);
    const from = mock.requests.length;
    const resumed = await session({ resume: failed });
    expect(resumed.status).toBe('complete');
    expect(resumed.stopMessage).toBeNull();
    expect(resumed.scores).toEqual(clean.scores);
    expect(resumed.wAuc).toBe(clean.wAuc);
    expect(resumed.episodes.map((e) => e.steps.map((s) => s.action))).toEqual(clean.episodes.map((e) => e.steps.map((s) => s.action)));
    // The meta-agent saw episodes 1 and 2 as played in full, never an empty or cut one.
    expect(metaLogs(from)).toHaveLength(2);
    expect(resumed.exchanges.map((e) => e.reply)).toEqual(clean.exchanges.map((e) => e.reply));
    expect(resumed.faultedEpisodes).toBe(1);
  });

  it('a server error in episode 2 sets the attempt aside; Resume plays episode 2 from its start', async () => {
    mock.setOptions({ faults: [] });
    const failed = await session({ onStep: (episode, step) => episode === 2 && step === 1 && mock.setOptions({ faults: [{ kind: 'server_error', rate: 1 }] }) });
    mock.setOptions({ faults: [] });
    expect(failed.status).toBe('stopped');
    expect(failed.stopReason).toBe('provider');
    expect(failed.scores).toEqual([0]);
    expect(failed.episodes.map((e) => [e.index, e.steps.length, e.trajectory === null])).toEqual([[1, 1, false], [2, 0, true]]);
    // Step 1 was played, step 2's call failed.
    expect(failed.faults!.map((f) => [f.phase, f.episodeIndex, f.steps.map((x) => x.parseStatus)])).toEqual([['episode', 2, ['ok', 'llm_error']]]);
    // The cut attempt's calls still count in the usage (they were made and may be billed).
    expect(usageOf(failed).actor.calls).toBe(1 + 1);
    const from = mock.requests.length;
    const resumed = await session({ resume: failed });
    expect(resumed.scores).toEqual(clean.scores);
    expect(resumed.episodes[1]!.steps.map((s) => s.action)).toEqual(clean.episodes[1]!.steps.map((s) => s.action));
    expect(metaLogs(from)).toEqual([expect.stringContaining('EPISODE 2')]);
    expect(resumed.faultedEpisodes).toBe(1);
  });

  it('a failed meta-agent call stops the session and the update is made again on resume', async () => {
    mock.setOptions({ faults: [{ kind: 'server_error', rate: 1, role: 'metaAgent' }] });
    const failed = await session();
    mock.setOptions({ faults: [] });
    expect(failed.status).toBe('stopped');
    expect(failed.stopReason).toBe('provider');
    expect(failed.scores).toEqual([0]);
    expect(failed.exchanges).toEqual([]);
    expect(failed.faults!.map((f) => [f.phase, f.episodeIndex])).toEqual([['policy', 1]]);
    const resumed = await session({ resume: failed });
    expect(resumed.scores).toEqual(clean.scores);
    expect(resumed.episodes.map((e) => e.guidingPrompt)).toEqual(clean.episodes.map((e) => e.guidingPrompt));
  });

  it('a token cap stops mid-episode without recording the refused call as a step; Resume continues that episode', async () => {
    mock.setOptions({ faults: [] });
    const capped = await session({ maxTokens: 2500 });
    expect(capped.status).toBe('stopped');
    expect(capped.stopReason).toBe('budget');
    const open = capped.episodes.find((e) => e.trajectory === null)!;
    expect(open.steps.every((s) => s.parseStatus !== 'llm_error')).toBe(true);
    expect(capped.faultedEpisodes).toBe(0);
    const resumed = await session({ resume: capped });
    expect(resumed.status).toBe('complete');
    expect(resumed.scores).toEqual(clean.scores);
    expect(resumed.episodes.map((e) => e.steps.map((s) => s.action))).toEqual(clean.episodes.map((e) => e.steps.map((s) => s.action)));
  });
});
