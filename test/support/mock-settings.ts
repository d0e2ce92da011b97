/** LLM settings for tests against the mock server: the custom preset at `baseUrl`, a made-up key,
 * the actor set to `mock-model`, one quick retry (20 ms), a 2 s timeout; `overrides` win. */
import { defaultLlmSettings } from '../../src/llm/defaults.ts';
import type { LlmSettings, RoleSettings } from '../../src/llm/interface.ts';

export function mockLlmSettings(baseUrl: string, apiKey: string, actor: Partial<RoleSettings> = {}, overrides: Partial<LlmSettings> = {}): LlmSettings {
  const s = defaultLlmSettings();
  s.provider = { presetId: 'custom', baseUrl, apiKey };
  s.roles.actor = { ...s.roles.actor, model: 'mock-model', ...actor };
  return { ...s, maxRetries: 1, maxRetryWaitMs: 20, requestTimeoutMs: 2000, ...overrides };
}
