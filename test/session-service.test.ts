/**
 * The session service (src/ttl/session-service.ts), on the Lever Room with the simulated model: a
 * new session is persisted as it runs (the stored record equals the one returned); a session
 * stopped in episode 2 and resumed through the service ends exactly like the uninterrupted one; a
 * required resume of a session the store does not hold is a MissingSessionError (code
 * `missing_session`); `if-stored` returns a complete stored session without playing a step.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GUIDING_PROMPT } from '../src/agents/actor-prompt.ts';
import { MetattlError } from '../src/common/errors.ts';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createSimulatedChatModels, SIMULATED_MODEL } from '../src/llm/simulated-model.ts';
import { approximateTokens } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { MissingSessionError, startOrResumeSession, storedSession, type StoredSessionOptions } from '../src/ttl/session-service.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { loadSession } from '../src/ttl/session-store.ts';
import { REPO_ROOT } from './support/shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const entry = catalog.stories.find((s) => s.id === 'lever-room')!;
const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', entry.file!)));

/** A fresh engine, actor and policy for the same session (fact bank, 4 × 15), and its config. */
function parts() {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'simulated', baseUrl: 'in-page:simulated', apiKey: '' };
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role].model = SIMULATED_MODEL;
  const built = buildSession(
    { story: { id: entry.id, title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed: 1, policy: { kind: 'meta', name: 'fact-bank', strategy: 'Keep every hint the game gave.' }, episodes: 4, maxSteps: 15, initialGuidingPrompt: DEFAULT_GUIDING_PROMPT, contextWindow: 32_000 },
    s, createSimulatedChatModels(s, new UsageMeter(s.caps, s.prices)), approximateTokens,
  );
  const run = (extra: Partial<StoredSessionOptions> = {}): StoredSessionOptions => ({ engine: syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) })), actor: built.actor, policy: built.policy, clockMs: () => 0, ...extra });
  return { config: built.config, run };
}

/** What a record means, without its clocks. */
const meaning = (r: SessionRecord) => ({ status: r.status, scores: r.scores, wAuc: r.wAuc, guides: r.episodes.map((e) => e.guidingPrompt), actions: r.episodes.map((e) => e.steps.map((s) => s.action)) });

describe('the session service', () => {
  it('persists a new session as it runs: the stored record is the one returned', async () => {
    const store = new MemoryStore();
    const { config, run } = parts();
    const record = await startOrResumeSession(store, 's1', config, run());
    expect(record.status).toBe('complete');
    expect(record.scores).toHaveLength(4);
    expect(meaning((await loadSession(store, 's1'))!)).toEqual(meaning(record));
  });

  it('resumes a session stopped in episode 2 to exactly the uninterrupted record', async () => {
    const whole = await startOrResumeSession(new MemoryStore(), 's1', parts().config, parts().run());
    const store = new MemoryStore();
    const first = parts();
    const controller = new AbortController();
    const stopped = await startOrResumeSession(store, 's1', first.config, first.run({
      signal: controller.signal,
      display: { onStep: (episode, step) => { if (episode === 2 && step.index === 3) controller.abort(); } },
    }));
    expect(stopped.status).toBe('stopped');
    expect(stopped.scores).toHaveLength(1);
    const second = parts();
    let shown: SessionRecord | null = null;
    const resumed = await startOrResumeSession(store, 's1', second.config, second.run({ resume: 'required', onResumed: (r) => { shown = r; } }));
    expect(shown!.scores).toEqual(stopped.scores);
    expect(meaning(resumed)).toEqual(meaning(whole));
  });

  it('a required resume of a session the store does not hold is a MissingSessionError', async () => {
    const { config, run } = parts();
    const error = await startOrResumeSession(new MemoryStore(), 'gone', config, run({ resume: 'required', storeName: 'this browser' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingSessionError);
    expect(error).toBeInstanceOf(MetattlError);
    expect((error as MissingSessionError).code).toBe('missing_session');
    expect((error as Error).message).toBe('no session "gone" in this browser');
    await expect(storedSession(new MemoryStore(), 'gone', '/tmp/x')).rejects.toThrow('no session "gone" in /tmp/x');
  });

  it('if-stored returns a complete stored session as it is, and starts one that is not stored', async () => {
    const store = new MemoryStore();
    const done = await startOrResumeSession(store, 's1', parts().config, parts().run({ resume: 'if-stored' }));
    expect(done.status).toBe('complete');
    let steps = 0;
    const again = await startOrResumeSession(store, 's1', parts().config, parts().run({ resume: 'if-stored', display: { onStep: () => { steps++; } } }));
    expect(steps).toBe(0);
    expect(meaning(again)).toEqual(meaning(done));
  });
});
