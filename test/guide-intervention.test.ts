/**
 * A person's edit of the guide mid-episode (the session runner's intervention source), in real
 * sessions against the mock provider on detective.z5: the actor's requests carry the new guide
 * from the next step on and the old one before; the edit is recorded (episode, step, old and new
 * text); the static policy carries it into the next episode and the meta-agent starts from it; a
 * session stopped after an edit resumes — replaying the recorded edit, with no source — to exactly
 * the uninterrupted record; the edit survives persisting, export and import; a record without it
 * still loads; Replay's frames show it before its step.
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
import { MemoryStore } from '../src/store/memory-store.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import type { PolicySpec } from '../src/ttl/policy.ts';
import { replayFrames } from '../src/ttl/replay.ts';
import { exportSession, importSession } from '../src/ttl/session-io.ts';
import { guideInEffect, hasIntervention, type SessionRecord } from '../src/ttl/session-record.ts';
import { runSession, type InterventionSource, type SessionSink } from '../src/ttl/session-runner.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { loadSession, persistingSink } from '../src/ttl/session-store.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { readShared, REPO_ROOT } from './support/shared.ts';

const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
const catalog = parseCatalog(JSON.parse(readFileSync(`${REPO_ROOT}/public/stories/catalog.json`, 'utf8')));
const detective = new Uint8Array(readShared('stories/detective.z5'));
const entry = findByMd5(catalog, md5Hex(detective))!;
const FIRST = 'Explore systematically.';
const EDITED = 'Take everything you see, then go north.';
const FIXED = new Date('2026-01-01T00:00:00.000Z');

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
});
afterAll(() => mock.close());

interface Run {
  policy: PolicySpec;
  interventions?: InterventionSource;
  signal?: AbortSignal;
  resume?: SessionRecord;
  sink?: SessionSink;
  onStep?: (episode: number, step: number) => void;
}

async function session(o: Run): Promise<SessionRecord> {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'test-key' };
  s.roles.actor.model = 'mock-model';
  s.roles.metaAgent.model = 'mock-model';
  s.roles.metaAgent.maxTokens = 1024;
  const models = createChatModels(s, new UsageMeter(s.caps, s.prices));
  const parts = buildSession(
    {
      story: { id: entry.id, title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed: 0, policy: o.policy,
      episodes: 2, maxSteps: 8, initialGuidingPrompt: FIRST, contextWindow: 8000,
    },
    s, models, await loadTokenCounter(),
  );
  return runSession({
    id: 'session-1', config: parts.config, engine: syncEngine(loadStory(detective, { seed: 0, rules: rulesFor(entry) })),
    actor: parts.actor, policy: parts.policy, signal: o.signal, resume: o.resume, now: () => FIXED, clockMs: () => 0,
    ...(o.interventions ? { interventions: o.interventions } : {}),
    sink: { ...o.sink, onStep: async (episode, step, t) => {
      await o.sink?.onStep?.(episode, step, t);
      o.onStep?.(episode, step.index);
    } },
  });
}

/** A source that edits the guide once, before step `step` of episode `episode`, and records what it was asked. */
function editOnce(episode: number, step: number, text = EDITED, onTake?: () => void) {
  const asked: string[] = [];
  const source: InterventionSource = {
    take: (at) => {
      asked.push(`${at.episode}.${at.step}`);
      if (at.episode !== episode || at.step !== step) return null;
      onTake?.();
      return text;
    },
  };
  return { source, asked };
}

/** The guide in the system message of each actor request logged since `from`. */
function actorGuides(from: number): string[] {
  return mock.requests.slice(from).filter((r) => r.role === 'actor').map((r) => {
    const system = (r.body as { messages: { content: string }[] }).messages[0]!.content;
    return system.includes(`Follow this guide:\n${EDITED}`) ? 'edited' : system.includes(`Follow this guide:\n${FIRST}`) ? 'first' : 'other';
  });
}

/** The record without the measured latency of each call (the only field two runs differ in). */
const results = (record: SessionRecord): string => exportSession(record).replace(/"latencyMs":\s*\d+(\.\d+)?/g, '"latencyMs":0');

describe('editing the guide mid-episode', () => {
  it('the actor plays with the edited guide from the next step on; the edit is recorded; static carries it on', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const from = mock.requests.length;
    const { source, asked } = editOnce(1, 4);
    const record = await session({ policy: { kind: 'static' }, interventions: source });
    expect(record.status).toBe('complete');
    expect(actorGuides(from)).toEqual([...Array(3).fill('first'), ...Array(5).fill('edited'), ...Array(8).fill('edited')]);
    expect(record.interventions).toEqual([{ episode: 1, step: 4, oldGuide: FIRST, newGuide: EDITED, at: FIXED.toISOString() }]);
    // The episode keeps the guide it started with; the guide in force changes at the edited step.
    expect(record.episodes[0]!.guidingPrompt).toBe(FIRST);
    expect([3, 4, Infinity].map((step) => guideInEffect(record, 1, step))).toEqual([FIRST, EDITED, EDITED]);
    expect(record.episodes[1]!.guidingPrompt).toBe(EDITED);
    expect(hasIntervention(record)).toBe(true);
    // Asked before every step played: 2 episodes × 8 steps.
    expect(asked).toHaveLength(16);
    expect(asked.slice(0, 3)).toEqual(['1.1', '1.2', '1.3']);
  });

  it('the same text as the guide in force is no edit', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const record = await session({ policy: { kind: 'static' }, interventions: editOnce(1, 2, FIRST).source });
    expect(record.interventions).toBeUndefined();
    expect(hasIntervention(record)).toBe(false);
  });

  it('the meta-agent updates from the edited guide (its fallback when it learns nothing)', async () => {
    mock.setOptions({ metaAgentReply: 'empty', exploreCommands: EXPLORE });
    const record = await session({ policy: { kind: 'meta', name: 'naive', strategy: '' }, interventions: editOnce(1, 6).source });
    expect(record.exchanges[0]!.guidingPromptAfter).toBe(EDITED);
    expect(record.episodes[1]!.guidingPrompt).toBe(EDITED);
  });

  it('a session stopped after an edit resumes, replaying the edit with no source, to exactly the uninterrupted record', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const policy: PolicySpec = { kind: 'meta', name: 'naive', strategy: '' };
    const full = await session({ policy, interventions: editOnce(2, 3).source });
    expect(full.interventions).toHaveLength(1);
    // Stopped later in the same episode: the resume replays steps 1–5 and plays 6–8 with the edited guide.
    const late = new AbortController();
    const stoppedLate = await session({ policy, interventions: editOnce(2, 3).source, signal: late.signal, onStep: (e, s) => e === 2 && s === 5 && late.abort() });
    expect(stoppedLate.status).toBe('stopped');
    const from = mock.requests.length;
    const resumedLate = await session({ policy, resume: JSON.parse(JSON.stringify(stoppedLate)) });
    expect(actorGuides(from)).toEqual(['edited', 'edited', 'edited']);
    expect(results(resumedLate)).toBe(results(full));
    // Stopped right after the edit was made, before its step was played: the resume plays that step with it.
    const early = new AbortController();
    const stoppedEarly = await session({ policy, interventions: editOnce(2, 3, EDITED, () => early.abort()).source, signal: early.signal });
    expect(stoppedEarly.status).toBe('stopped');
    expect(stoppedEarly.episodes[1]!.steps).toHaveLength(2);
    expect(stoppedEarly.interventions).toEqual(full.interventions);
    const resumedEarly = await session({ policy, resume: JSON.parse(JSON.stringify(stoppedEarly)) });
    expect(results(resumedEarly)).toBe(results(full));
  });

  it('is persisted with the session, exported and imported; a record without it still loads; a bad one is refused', async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const store = new MemoryStore();
    const record = await session({ policy: { kind: 'static' }, interventions: editOnce(2, 5).source, sink: persistingSink(store, 'session-1', {}, () => 0) });
    const stored = await loadSession(store, 'session-1');
    expect(stored?.interventions).toEqual(record.interventions);
    expect((await store.listRuns('session'))[0]!.summary).toMatchObject({ interventions: 1 });
    const back = importSession(exportSession(record));
    expect(back.interventions).toEqual([{ episode: 2, step: 5, oldGuide: FIRST, newGuide: EDITED, at: FIXED.toISOString() }]);
    const { interventions: _dropped, ...old } = record;
    const oldBack = importSession(JSON.stringify(old));
    expect(oldBack.interventions).toBeUndefined();
    expect(guideInEffect(oldBack, 2, Infinity)).toBe(FIRST);
    expect(hasIntervention(oldBack)).toBe(false);
    const bad = { ...record, interventions: [{ ...record.interventions![0]!, episode: 9 }] };
    expect(() => importSession(JSON.stringify(bad))).toThrow(/interventions\.0\.episode.*episode 9/s);
  });

  it("Replay's frames show the edit just before the first step played with it", async () => {
    mock.setOptions({ metaAgentReply: 'build', exploreCommands: EXPLORE });
    const record = await session({ policy: { kind: 'static' }, interventions: editOnce(1, 4).source });
    const frames = replayFrames(record);
    const at = frames.findIndex((f) => f.kind === 'intervention');
    expect(frames[at]).toMatchObject({ kind: 'intervention', episode: 1, intervention: { step: 4, oldGuide: FIRST, newGuide: EDITED } });
    expect(frames[at - 1]).toMatchObject({ kind: 'step', episode: 1, step: { index: 3 } });
    expect(frames[at + 1]).toMatchObject({ kind: 'step', episode: 1, step: { index: 4 } });
    expect(frames.filter((f) => f.kind === 'intervention')).toHaveLength(1);
  });
});
