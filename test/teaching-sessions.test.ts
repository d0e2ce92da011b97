/**
 * The teaching games teach: against the instruction-following mock (its meta-agent passes on the
 * command the game suggests after a failure), the meta-agent policy's W-AUC beats static's on each
 * game, and the secret the game revealed reaches the actor.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { syncEngine } from '../src/ttl/episode-runner.ts';
import type { PolicySpec } from '../src/ttl/policy.ts';
import { runSession } from '../src/ttl/session-runner.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const GAMES: Record<string, string[]> = {
  'lever-room': ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'],
  vault: ['take card', 'east', 'enter 123', 'take gem', 'look', 'west', 'east'],
};

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({});
});
afterAll(() => mock.close());

async function session(id: string, policy: PolicySpec) {
  const entry = catalog.stories.find((s) => s.id === id)!;
  const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', entry.file!)));
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'k' };
  s.roles.actor.model = 'mock-model';
  s.roles.metaAgent.model = 'mock-model';
  const parts = buildSession(
    { story: { id, title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed: entry.defaultSeed, policy, episodes: 5, maxSteps: 10, initialGuidingPrompt: 'Explore.', contextWindow: 8000 },
    s, createChatModels(s, new UsageMeter(s.caps, s.prices)), await loadTokenCounter(),
  );
  return runSession({ id: 's', config: parts.config, engine: syncEngine(loadStory(bytes, { seed: entry.defaultSeed, rules: rulesFor(entry) })), actor: parts.actor, policy: parts.policy });
}

describe('teaching games with the instruction-following mock', () => {
  for (const [id, explore] of Object.entries(GAMES)) {
    it(`${id}: the meta-agent learns from failures and beats static`, async () => {
      mock.setOptions({ exploreCommands: explore, metaAgentReply: 'build' });
      const flat = await session(id, { kind: 'static' });
      const learning = await session(id, { kind: 'meta', name: 'naive', strategy: '' });
      expect(new Set(flat.scores).size).toBe(1);
      expect(learning.wAuc!).toBeGreaterThan(flat.wAuc!);
      expect(learning.bestScore!).toBeGreaterThan(flat.bestScore!);
      // The secret reached the actor: a later episode typed the command the game suggested.
      const hinted = learning.episodes.slice(1).flatMap((e) => e.steps.map((x) => x.action ?? ''));
      expect(hinted.some((a) => /^(PULL \w+ LEVER|ENTER \d{3})$/.test(a))).toBe(true);
    });
  }
});
