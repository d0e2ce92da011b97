/**
 * A run's settings record whether its reply contracts were enforced with grammars: the
 * session config takes it from the models (local models say; OpenAI-compatible ones take no
 * grammar and leave it out), the CLI's evaluation and evolution configs from `--reply-grammar`,
 * and exports keep it; the default budgets hold the reply grammars at full size (src/llm/reply-grammars.ts).
 */
import { describe, expect, it } from 'vitest';
import { replyGrammarOf } from '../src/cli/models.ts';
import { evolutionStateSchema } from '../src/evolve/evolution-io.ts';
import type { ChatModel, Role } from '../src/llm/interface.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { exportSession, importSession } from '../src/ttl/session-io.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { buildSession } from '../src/ttl/session-setup.ts';
import { llmSettingsFromFlags } from '../src/cli/llm-options.ts';
import { FULL_REPLY_BOUNDS, FULL_REPLY_TOKENS, replyBounds } from '../src/llm/reply-grammars.ts';

function models(replyGrammar?: boolean): Record<Role, ChatModel> {
  const settings = defaultLlmSettings();
  const make = (role: Role): ChatModel => ({
    role, settings: settings.roles[role], ...(replyGrammar === undefined ? {} : { replyGrammar }),
    complete: () => Promise.reject(new Error('not called')),
  });
  return { actor: make('actor'), metaAgent: make('metaAgent'), proposer: make('proposer') };
}

const plan = {
  story: { id: 'lever-room', title: 'The Lever Room', md5: 'ee2242e155fd8910921b0f8e04019a3a', maxScore: 4 }, seed: 1,
  policy: { kind: 'meta' as const, name: 'naive', strategy: '' }, episodes: 2, maxSteps: 3, initialGuidingPrompt: 'Explore.', contextWindow: 8000,
};

describe('replyGrammar in the run settings', () => {
  it("a session's config records the models' grammar setting, and leaves it out for providers that take none", () => {
    const config = (g?: boolean) => buildSession(plan, defaultLlmSettings(), models(g), (t) => t.length).config;
    expect(config(true).replyGrammar).toBe(true);
    expect(config(false).replyGrammar).toBe(false);
    expect('replyGrammar' in config(undefined)).toBe(false);
  });

  it('a session export keeps it', () => {
    const record: SessionRecord = {
      format: 'metattl-session-1', id: 's1', faultedEpisodes: 0, faults: [], config: buildSession(plan, defaultLlmSettings(), models(false), (t) => t.length).config,
      status: 'stopped', stopReason: 'user', stopMessage: null,
      episodes: [{ index: 1, guidingPrompt: 'Explore.', trajectory: null, steps: [], finalScore: null, termination: null }],
      exchanges: [], scores: [], wAuc: null, averageScore: null, bestScore: null, startedAt: '2026-01-01T00:00:00Z', finishedAt: null, wallTimeMs: 5,
    };
    expect(importSession(exportSession(record)).config.replyGrammar).toBe(false);
  });

  it("the CLI's eval and evolve configs take it from --reply-grammar (on by default) for --provider local only", () => {
    expect(replyGrammarOf({ provider: 'local', 'model-file': 'x.gguf' } as never)).toEqual({ replyGrammar: true });
    expect(replyGrammarOf({ provider: 'local', 'model-file': 'x.gguf', 'reply-grammar': 'off' } as never)).toEqual({ replyGrammar: false });
    expect(replyGrammarOf({ 'base-url': 'http://127.0.0.1:9/v1' } as never)).toEqual({});
    const config = evolutionStateSchema.shape.config;
    const base = {
      train: [], val: [], repeats: 1, episodes: 1, maxSteps: 1, initialGuidingPrompt: '', seedStrategy: '', minibatchSize: 1, budgetMetricCalls: 4,
      maxConsecutiveFailures: 5, proposer: 'random', rngSeed: 0, concurrency: 1, models: { actor: 'a', metaAgent: 'b', proposer: 'c' }, contextWindow: 8000,
    };
    const task = { id: 't', storyId: 's', title: 'T', md5: 'ee2242e155fd8910921b0f8e04019a3a', seed: 1, maxScore: 4 };
    const parsed = config.safeParse({ ...base, train: [task], val: [task], replyGrammar: true });
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data?.replyGrammar).toBe(true);
  });

  it("the default budgets hold full-size replies: the page's defaults (actor 400, meta-agent 4,096) and the CLI's local ones (400, 3,072)", () => {
    const page = defaultLlmSettings().roles;
    const local = llmSettingsFromFlags({ provider: 'local', 'model-file': 'x.gguf' } as never, {}).roles;
    for (const roles of [page, local]) {
      expect(roles.actor.maxTokens).toBeGreaterThanOrEqual(FULL_REPLY_TOKENS.actor);
      expect(roles.metaAgent.maxTokens).toBeGreaterThanOrEqual(FULL_REPLY_TOKENS.learn);
      expect([replyBounds('actor', roles.actor.maxTokens), replyBounds('learn', roles.metaAgent.maxTokens)]).toEqual([FULL_REPLY_BOUNDS.actor, FULL_REPLY_BOUNDS.learn]);
    }
    expect(local.metaAgent.maxTokens).toBe(3072);
  });
});
