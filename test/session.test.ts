/**
 * Test-time-learning sessions against the mock provider on real stories: every policy completes;
 * the meta-agent's <learn> text reaches the actor verbatim; empty or missing <learn> keeps the
 * guide; static never calls a meta-agent; a guide-following actor improves under the meta-agent
 * (the feedback carries information and changes behaviour); a stopped session resumes to exactly
 * the uninterrupted result; an overfull chat drops old logs and says so.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_META_PROMPTS } from '../src/agents/meta-prompt-library.ts';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import type { AskHuman } from '../src/ttl/policies/human-policy.ts';
import type { PolicySpec } from '../src/ttl/policy.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { runSession } from '../src/ttl/session-runner.ts';
import { exportSession, importSession } from '../src/ttl/session-io.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { readShared, REPO_ROOT } from './support/shared.ts';

/** Exploration commands for Detective: some of them score (take paper, take gun). */
const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
const catalog = parseCatalog(JSON.parse(readFileSync(`${REPO_ROOT}/public/stories/catalog.json`, 'utf8')));
const detective = new Uint8Array(readShared('stories/detective.z5'));
const entry = findByMd5(catalog, md5Hex(detective))!;

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
});
afterAll(() => mock.close());

const POLICIES: Record<string, PolicySpec> = {
  static: { kind: 'static' },
  reflexion: { kind: 'reflexion' },
  memory: { kind: 'memory' },
  naive: { kind: 'meta', name: 'naive', strategy: '' },
  custom: { kind: 'meta', name: 'credit-assignment', strategy: BUILT_IN_META_PROMPTS.find((m) => m.id === 'credit-assignment')!.strategy },
};

interface RunOptions {
  policy: PolicySpec;
  askHuman?: AskHuman;
  episodes?: number;
  contextWindow?: number;
  signal?: AbortSignal;
  resume?: SessionRecord;
  onStep?: (episode: number, step: number) => void;
}

async function session(o: RunOptions): Promise<SessionRecord> {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'test-key' };
  s.roles.actor.model = 'mock-model';
  s.roles.metaAgent.model = 'mock-model';
  // A small reply reserve, so that the small context windows below leave room for logs.
  s.roles.metaAgent.maxTokens = 1024;
  const models = createChatModels(s, new UsageMeter(s.caps, s.prices));
  const parts = buildSession(
    {
      story: { id: entry.id, title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed: 0, policy: o.policy,
      episodes: o.episodes ?? 3, maxSteps: 10, initialGuidingPrompt: 'Explore systematically.', contextWindow: o.contextWindow ?? 8000,
    },
    s, models, await loadTokenCounter(), o.askHuman,
  );
  return runSession({
    id: 'session-1', config: parts.config, engine: syncEngine(loadStory(detective, { seed: 0, rules: rulesFor(entry) })),
    actor: parts.actor, policy: parts.policy, signal: o.signal, resume: o.resume,
    sink: { onStep: (episode, step) => o.onStep?.(episode, step.index) },
  });
}

const metaRequestsSince = (from: number) => mock.requests.slice(from).filter((r) => r.role === 'metaAgent');

describe('sessions', () => {
  for (const [name, policy] of Object.entries(POLICIES)) {
    it(`${name} completes K=3, S=10 on detective.z5`, async () => {
      mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
      const from = mock.requests.length;
      const record = await session({ policy });
      expect(record.status).toBe('complete');
      expect(record.episodes.map((e) => e.index)).toEqual([1, 2, 3]);
      expect(record.episodes.every((e) => e.steps.length === 10 && e.termination === 'step_limit')).toBe(true);
      expect(record.scores).toHaveLength(3);
      expect(record.wAuc).toBeCloseTo((record.scores[0]! + 2 * record.scores[1]! + 3 * record.scores[2]!) / (360 * 6), 12);
      const calls = { static: 0, reflexion: 2, memory: 4, naive: 2, custom: 2 }[name]!;
      expect(record.exchanges).toHaveLength(calls);
      expect(mock.requests.slice(from).filter((r) => r.role !== 'actor')).toHaveLength(calls);
      expect(record.config.metaPrompt === null).toBe(policy.kind !== 'meta');
    });
  }

  it('every episode\'s steps and trajectory carry the player\'s location, kept by the session export', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const record = await session({ policy: POLICIES.naive! });
    const replay = loadStory(detective, { seed: 0, rules: rulesFor(entry) });
    for (const e of record.episodes) {
      expect(e.trajectory?.startLocation).toEqual({ id: 34, name: "Chief's office" });
      replay.reset();
      expect(e.steps.map((s) => s.location)).toEqual(e.steps.map((s) => replay.step(s.action!).location));
    }
    const back = importSession(exportSession(record));
    expect(back.episodes.map((e) => e.steps.map((s) => s.location))).toEqual(record.episodes.map((e) => e.steps.map((s) => s.location)));
    expect(back.episodes.map((e) => e.trajectory?.startLocation)).toEqual(record.episodes.map((e) => e.trajectory?.startLocation));
  });

  it("the meta-agent's <learn> text is in the actor's system prompt of the next episode, verbatim", async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const from = mock.requests.length;
    const record = await session({ policy: POLICIES.naive! });
    const learned = record.exchanges[0]!.guidingPromptAfter;
    expect(learned).toContain('PLAN:');
    expect(record.episodes[1]!.guidingPrompt).toBe(learned);
    const log = mock.requests.slice(from);
    const firstMeta = log.findIndex((r) => r.role === 'metaAgent');
    const secondMeta = log.findIndex((r, i) => i > firstMeta && r.role === 'metaAgent');
    const episode2 = log.slice(firstMeta + 1, secondMeta).filter((r) => r.role === 'actor');
    expect(episode2).toHaveLength(10);
    for (const r of episode2) expect(((r.body as { messages: { content: string }[] }).messages)[0]!.content).toContain(`Follow this guide:\n${learned}`);
    // The meta-agent read the episode log it was sent: its plan starts with episode 1's actions.
    const ep1Actions = record.episodes[0]!.steps.map((s) => s.action);
    expect(learned).toContain(`1. ${ep1Actions[0]}`);
  });

  it('an empty or missing <learn> keeps the previous guiding prompt', async () => {
    for (const reply of ['empty', 'missing'] as const) {
      mock.setOptions({ metaAgentReply: reply, exploreCommands: EXPLORE });
      const record = await session({ policy: POLICIES.naive! });
      expect(record.exchanges.map((e) => e.learnStatus)).toEqual([reply, reply]);
      expect(record.episodes.map((e) => e.guidingPrompt)).toEqual(['Explore systematically.', 'Explore systematically.', 'Explore systematically.']);
    }
  });

  it('static never calls a meta-agent; the meta-agent makes later episodes score higher than episode 1', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const from = mock.requests.length;
    const flat = await session({ policy: POLICIES.static! });
    expect(metaRequestsSince(from)).toHaveLength(0);
    expect(new Set(flat.scores).size).toBe(1);
    const learning = await session({ policy: POLICIES.naive!, episodes: 4 });
    expect(learning.scores[0]).toBe(flat.scores[0]);
    expect(Math.max(...learning.scores.slice(1))).toBeGreaterThan(learning.scores[0]!);
    expect(learning.wAuc!).toBeGreaterThan(flat.wAuc!);
  });

  it('"you are the meta-agent": the typed guide reaches the actor of the next episode; empty keeps it', async () => {
    mock.setOptions({ exploreCommands: EXPLORE });
    const asked: { episodeIndex: number; log: string }[] = [];
    const answers = ['PLAN:\n1. take paper\n2. west\n3. take gun', ''];
    const from = mock.requests.length;
    const record = await session({
      policy: { kind: 'human' },
      askHuman: async (request) => {
        asked.push(request);
        return answers[request.episodeIndex - 1]!;
      },
    });
    expect(asked.map((a) => a.episodeIndex)).toEqual([1, 2]);
    expect(asked[0]!.log.startsWith('=== EPISODE 1 ===')).toBe(true);
    expect(record.episodes.map((e) => e.guidingPrompt)).toEqual(['Explore systematically.', answers[0], answers[0]]);
    expect(record.exchanges.map((e) => [e.kind, e.learnStatus])).toEqual([['human', 'updated'], ['human', 'empty']]);
    const actor = mock.requests.slice(from).filter((r) => r.role === 'actor');
    expect(actor).toHaveLength(30);
    expect(((actor[10]!.body as { messages: { content: string }[] }).messages)[0]!.content).toContain(`Follow this guide:\n${answers[0]}`);
    expect(record.episodes[1]!.steps.slice(0, 3).map((s) => s.action)).toEqual(['take paper', 'west', 'take gun']);
    expect(mock.requests.slice(from).filter((r) => r.role === 'metaAgent')).toHaveLength(0);
  });

  it('a provider fault no retry can fix (a refused key) stops the session instead of playing on', async () => {
    mock.setOptions({ exploreCommands: EXPLORE, faults: [{ kind: 'auth' }] });
    const record = await session({ policy: POLICIES.naive! });
    mock.setOptions({ faults: [] });
    expect(record.status).toBe('stopped');
    expect(record.stopReason).toBe('provider');
    expect(record.stopMessage).toMatch(/refused the key/);
    // The cut attempt is set aside, not scored: episode 1 is still to play.
    expect(record.episodes).toHaveLength(1);
    expect(record.episodes[0]!.trajectory).toBeNull();
    expect(record.episodes[0]!.steps).toEqual([]);
    expect(record.scores).toEqual([]);
    expect(record.faultedEpisodes).toBe(1);
    expect(record.faults!.map((f) => [f.phase, f.episodeIndex, f.kind])).toEqual([['episode', 1, 'auth']]);
  });

  it('a session stopped in episode 2 resumes to exactly the uninterrupted record', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const full = await session({ policy: POLICIES.naive! });
    const controller = new AbortController();
    const stopped = await session({ policy: POLICIES.naive!, signal: controller.signal, onStep: (e, s) => e === 2 && s === 5 && controller.abort() });
    expect(stopped.status).toBe('stopped');
    expect(stopped.episodes[1]!.steps).toHaveLength(5);
    const resumed = await session({ policy: POLICIES.naive!, resume: JSON.parse(JSON.stringify(stopped)) });
    expect(resumed.status).toBe('complete');
    expect(resumed.episodes.map((e) => e.steps.map((s) => s.index))).toEqual([1, 2, 3].map(() => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    expect(resumed.scores).toEqual(full.scores);
    expect(resumed.episodes.map((e) => e.steps.map((s) => s.action))).toEqual(full.episodes.map((e) => e.steps.map((s) => s.action)));
    expect(resumed.exchanges.map((e) => e.reply)).toEqual(full.exchanges.map((e) => e.reply));
  });

  it('a session stopped between episodes resumes by making the missing meta-agent update first', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE, faults: [] });
    const full = await session({ policy: POLICIES.naive! });
    const controller = new AbortController();
    const stopped = await session({ policy: POLICIES.naive!, signal: controller.signal, onStep: (e, s) => e === 1 && s === 10 && controller.abort() });
    expect(stopped.status).toBe('stopped');
    expect(stopped.episodes.map((e) => e.trajectory !== null)).toEqual([true]);
    expect(stopped.exchanges).toHaveLength(0);
    const resumed = await session({ policy: POLICIES.naive!, resume: JSON.parse(JSON.stringify(stopped)) });
    expect(resumed.exchanges.map((e) => e.afterEpisode)).toEqual([1, 2]);
    expect(resumed.episodes.map((e) => e.guidingPrompt)).toEqual(full.episodes.map((e) => e.guidingPrompt));
    expect(resumed.scores).toEqual(full.scores);
  });

  it('reflexion and memory use the whole reflection reply when it has no <learn> tags, and record it', async () => {
    mock.setOptions({ metaAgentReply: 'missing', exploreCommands: EXPLORE });
    for (const policy of [POLICIES.reflexion!, POLICIES.memory!]) {
      const record = await session({ policy });
      const guiding = record.exchanges.filter((e) => e.kind !== 'summary');
      expect(guiding.map((e) => e.learnStatus)).toEqual(['whole_reply', 'whole_reply']);
      for (const e of guiding) expect(e.guidingPromptAfter).toBe(e.reply.replace(/<think>[\s\S]*?<\/think>/gi, '').trim());
      expect(record.episodes[1]!.guidingPrompt).toBe(guiding[0]!.guidingPromptAfter);
      expect(record.episodes[1]!.guidingPrompt).not.toBe('Explore systematically.');
    }
    // The meta-agent keeps the method's rule: no <learn>, no change.
    const naive = await session({ policy: POLICIES.naive! });
    expect(naive.exchanges.map((e) => e.learnStatus)).toEqual(['missing', 'missing']);
  });

  it("the baselines' logs are fitted to the context window like the meta-agent's; the user is told, the model is not", async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const count = await loadTokenCounter();
    for (const policy of [POLICIES.reflexion!, POLICIES.memory!]) {
      const from = mock.requests.length;
      const record = await session({ policy, contextWindow: 1500 });
      const cut = record.exchanges.filter((e) => e.kind === 'reflection' || e.kind === 'summary');
      expect(cut.every((e) => /steps of the newest log were cut to fit the 1500-token context window/.test(e.notice ?? ''))).toBe(true);
      const sent = mock.requests.slice(from).filter((r) => r.role !== 'actor').map((r) => (r.body as { messages: { content: string }[] }).messages);
      for (const messages of sent) {
        expect(messages.reduce((n, m) => n + count(m.content) + 4, 0)).toBeLessThanOrEqual(1500 - 1024);
        expect(messages.map((m) => m.content).join('\n')).not.toMatch(/\(Note:/);
      }
    }
  });

  it('when the chat outgrows the context window, old logs are dropped and the user is told, the model is not', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const from = mock.requests.length;
    const record = await session({ policy: POLICIES.naive!, episodes: 4, contextWindow: 3500 });
    const noticed = record.exchanges.filter((e) => e.notice !== null);
    expect(noticed.length).toBeGreaterThan(0);
    expect(noticed[0]!.droppedEpisodes[0]).toBe(1);
    expect(noticed[0]!.notice).toMatch(/dropped from the meta-agent's chat to fit its 3500-token context window/);
    const sent = metaRequestsSince(from).map((r) => ((r.body as { messages: { content: string }[] }).messages).at(-1)!.content);
    expect(sent).toHaveLength(3);
    for (const m of sent) {
      expect(m.startsWith('=== EPISODE')).toBe(true);
      expect(m).not.toMatch(/\(Note:|removed from this conversation/);
    }
  });
});
