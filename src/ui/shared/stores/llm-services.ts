/**
 * The page's LLM I/O, injected into the Settings and Agent state: chat models and model listing
 * and the context window a provider reports, over the provider of the settings (src/llm/openai-chat-model.ts, loaded on first use so the
 * player does not pay for the SDK), with the page's origin for CORS advice.
 */
import { sharedAdaptations, type AdaptationMemory } from '../../../llm/adaptations.ts';
import type { ChatModel, LlmSettings, Role } from '../../../llm/interface.ts';
import type { UsageMeter } from '../../../llm/usage-meter.ts';

export interface LlmServices {
  /** The three role models of a run, accounting to `meter`. */
  createModels(settings: LlmSettings, meter: UsageMeter): Promise<Record<Role, ChatModel>>;
  /** The provider's model ids, sorted. @throws LlmError (e.g. `network_or_cors` with advice) */
  listModels(settings: LlmSettings, signal?: AbortSignal): Promise<string[]>;
  /** Where rejected request parameters are remembered per (base URL, model); shown in Settings. */
  adaptations?: AdaptationMemory;
  /** The context window the provider reports for `model` (tokens), null when none; never throws. */
  reportedContextWindow?(settings: LlmSettings, model: string, signal?: AbortSignal): Promise<number | null>;
}

export function createBrowserLlmServices(origin: string = location.origin): LlmServices {
  const sdk = () => import('../../../llm/openai-chat-model.ts');
  return {
    createModels: async (settings, meter) => (await sdk()).createChatModels(settings, meter, { origin, adaptations: sharedAdaptations }),
    listModels: async (settings, signal) => (await sdk()).listModels(settings, { origin }, signal),
    adaptations: sharedAdaptations,
    reportedContextWindow: async (settings, model, signal) => (await sdk()).reportedContextWindow(settings, model, { origin }, signal),
  };
}
