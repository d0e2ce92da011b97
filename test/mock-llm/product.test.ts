/**
 * The product's own LLM layer and actor (src/llm/openai-chat-model.ts, src/agents/actor.ts)
 * against the mock: the scripted actor is understood, a rejected `temperature` is adapted to, and
 * a 429 is retried both with and without the SDK's x-stainless-* headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Actor } from '../../src/agents/actor.ts';
import { defaultLlmSettings } from '../../src/llm/defaults.ts';
import type { LlmSettings } from '../../src/llm/interface.ts';
import { createChatModels } from '../../src/llm/openai-chat-model.ts';
import { UsageMeter } from '../../src/llm/usage-meter.ts';
import { actorReplyText } from './actor-behaviour.ts';
import type { MockLlm } from './interface.ts';
import { startMockLlm } from './server.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ log: () => {}, script: ['open mailbox', 'take leaflet'] });
});
afterAll(() => mock.close());

function actorFor(overrides: Partial<LlmSettings> = {}): Actor {
  const settings: LlmSettings = { ...defaultLlmSettings(), provider: { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'test-key' }, ...overrides };
  const models = createChatModels(settings, new UsageMeter(settings.caps, settings.prices));
  return new Actor(models.actor);
}

/** Step `step`'s context: the mock's earlier replies (with its step mark) as the turns. */
const context = (step: number) => ({
  guidingPrompt: 'Explore.', observation: `Room ${step}.`,
  history: Array.from({ length: step - 1 }, (_, i) => ({ observation: `Room ${i + 1}.`, reply: actorReplyText('Following the script.', 'look', i + 1) })),
});

describe('the product against the mock', () => {
  it('plays the script through the product actor, adapting to a refused temperature', async () => {
    mock.setOptions({ faults: [{ kind: 'bad_param', param: 'temperature' }] });
    try {
      const before = mock.requests.length;
      const decision = await actorFor().act(context(2));
      expect(decision.parsed).toMatchObject({ action: 'take leaflet', status: 'ok' });
      expect(decision.completion.usage.promptTokens).toBeGreaterThan(0);
      expect(mock.requests.slice(before).map((r) => r.outcome.status)).toEqual([400, 200]);
      expect(mock.requests.every((r) => !r.unexpected)).toBe(true);
    } finally {
      mock.setOptions({ faults: [] });
    }
  });

  it.each([false, true])('retries a 429 (dropStainlessHeaders %s)', async (dropStainlessHeaders) => {
    mock.setOptions({ faults: [{ kind: 'rate_limit', rate: 1, attempts: 1 }] });
    try {
      const before = mock.requests.length;
      const decision = await actorFor({ dropStainlessHeaders }).act(context(1));
      expect(decision.parsed.action).toBe('open mailbox');
      const tries = mock.requests.slice(before);
      expect(tries.map((r) => r.outcome.status)).toEqual([429, 200]);
      expect(tries.map((r) => r.attempt)).toEqual([0, 1]);
      expect('x-stainless-retry-count' in tries[0]!.headers).toBe(!dropStainlessHeaders);
    } finally {
      mock.setOptions({ faults: [] });
    }
  });
});
