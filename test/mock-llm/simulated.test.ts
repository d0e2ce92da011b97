/**
 * The mock server wraps the simulated model: a request for the model `simulated` is answered by
 * src/llm/simulated-model.ts, so a Lever Room session played against the mock over HTTP (the
 * OpenAI client, as a page or CLI with a base URL would) gives the very replies, actions, guides
 * and scores of the same session run in-process (`--provider simulated`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GUIDING_PROMPT } from '../../src/agents/actor-prompt.ts';
import { BUILT_IN_META_PROMPTS } from '../../src/agents/meta-prompt-library.ts';
import { parseCatalog, rulesFor } from '../../src/engine/catalog.ts';
import { loadStory } from '../../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../../src/llm/defaults.ts';
import type { ChatModel, LlmSettings, Role } from '../../src/llm/interface.ts';
import { createChatModels } from '../../src/llm/openai-chat-model.ts';
import { createSimulatedChatModels, simulatedReply, SIMULATED_MODEL } from '../../src/llm/simulated-model.ts';
import { approximateTokens } from '../../src/llm/token-count.ts';
import { UsageMeter } from '../../src/llm/usage-meter.ts';
import { syncEngine } from '../../src/ttl/episode-runner.ts';
import { runSession } from '../../src/ttl/session-runner.ts';
import { buildSession } from '../../src/ttl/session-setup.ts';
import { REPO_ROOT } from '../support/shared.ts';
import type { MockLlm } from './interface.ts';
import { startMockLlm } from './server.ts';
import { contentOf, postChat } from './test-helpers.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ models: [SIMULATED_MODEL] });
});
afterAll(async () => mock.close());

const catalog = parseCatalog(JSON.parse(readFileSync(join(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const entry = catalog.stories.find((s) => s.id === 'lever-room')!;
const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'public/stories', entry.file!)));

function settings(presetId: string, baseUrl: string): LlmSettings {
  const s = defaultLlmSettings();
  s.provider = { presetId, baseUrl, apiKey: presetId === 'simulated' ? '' : 'k' };
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role].model = SIMULATED_MODEL;
  return s;
}

/** Every call of `models` as [role, messages, reply] (the session's whole conversation). */
function recording(models: Record<Role, ChatModel>, calls: [Role, string, string][]): Record<Role, ChatModel> {
  const wrap = (m: ChatModel): ChatModel => ({
    ...m,
    complete: async (messages, options) => {
      const done = await m.complete(messages, options);
      calls.push([m.role, JSON.stringify(messages), done.content]);
      return done;
    },
  });
  return { actor: wrap(models.actor), metaAgent: wrap(models.metaAgent), proposer: wrap(models.proposer) };
}

async function leverRoom(s: LlmSettings, models: Record<Role, ChatModel>) {
  const strategy = BUILT_IN_META_PROMPTS.find((p) => p.id === 'fact-bank')!.strategy;
  const parts = buildSession(
    { story: { id: 'lever-room', title: entry.title, md5: entry.md5, maxScore: entry.maxScore }, seed: 1, policy: { kind: 'meta', name: 'Fact bank', strategy }, episodes: 4, maxSteps: 15, initialGuidingPrompt: DEFAULT_GUIDING_PROMPT, contextWindow: 32_000 },
    s, models, approximateTokens,
  );
  return runSession({ id: 's', config: parts.config, engine: syncEngine(loadStory(bytes, { seed: 1, rules: rulesFor(entry) })), actor: parts.actor, policy: parts.policy });
}

describe('the mock server and the in-process simulated model', () => {
  it('answer one request alike, role by role', async () => {
    const requests: [Role, { role: 'system' | 'user'; content: string }[]][] = [
      ['metaAgent', [{ role: 'system', content: 'Rewrite the guide. Reply with <learn>…</learn>.' }, { role: 'user', content: '=== EPISODE 1 ===\n[EPISODE END] Final score: 0 out of 5.' }]],
      ['proposer', [{ role: 'system', content: 'Improve the strategy. Reply with <strategy>…</strategy>.' }, { role: 'user', content: '<current_strategy>\nKeep the last hint.\n</current_strategy>' }]],
    ];
    for (const [role, messages] of requests) {
      const reply = await postChat(mock, { model: SIMULATED_MODEL, messages });
      expect(reply.status).toBe(200);
      expect(contentOf(reply)).toBe(simulatedReply(role, messages));
      expect(mock.requests.at(-1)!.behaviour).toBe(`${role}:simulated`);
    }
  });

  it('a Lever Room session over HTTP is the in-process session: every call, reply, guide and score', async () => {
    const local: [Role, string, string][] = [];
    const served: [Role, string, string][] = [];
    const inProcess = settings('simulated', 'in-page:simulated');
    const overHttp = settings('custom', mock.baseUrl);
    const a = await leverRoom(inProcess, recording(createSimulatedChatModels(inProcess, new UsageMeter(inProcess.caps, inProcess.prices)), local));
    const b = await leverRoom(overHttp, recording(createChatModels(overHttp, new UsageMeter(overHttp.caps, overHttp.prices)), served));
    expect(a.scores).toEqual([0, 3, 3, 4]);
    expect(b.scores).toEqual(a.scores);
    expect(served.length).toBe(local.length);
    expect(served).toEqual(local);
    expect(b.episodes.map((e) => e.guidingPrompt)).toEqual(a.episodes.map((e) => e.guidingPrompt));
  });
});
