/**
 * The page's LLM I/O, injected into the Settings and Agent state: chat models and model listing
 * and the context window a provider reports, over the provider of the settings (src/llm/openai-chat-model.ts, loaded on first use so the
 * player does not pay for the SDK), with the page's origin for CORS advice.
 */
import { sharedAdaptations, type AdaptationMemory } from '../../../llm/adaptations.ts';
import type { ChatModel, LlmSettings, Role } from '../../../llm/interface.ts';
import { SIMULATED_MODEL, SIMULATED_PROVIDER } from '../../../llm/model-label.ts';
import type { UsageMeter } from '../../../llm/usage-meter.ts';
import { BROWSER_LOCAL_PRESET, localModels } from './local-models.svelte.ts';

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

/**
 * The page's services. With the preset "Local model (in this browser)" the models run in wllama's
 * worker (src/llm/wllama-chat-model.ts, the actor's model name naming the stored file; grammars on),
 * "Test connection" lists the stored models and the context window is the one the model file gives.
 * With "Simulated model (no key)" the models are answered in the page by fixed rules
 * (src/llm/simulated-model.ts, loaded on first use), and "Test connection" lists `simulated`.
 */
export function createBrowserLlmServices(origin: string = location.origin): LlmServices {
  const sdk = () => import('../../../llm/openai-chat-model.ts');
  const inPage = (settings: LlmSettings): boolean => settings.provider.presetId === BROWSER_LOCAL_PRESET;
  const simulated = (settings: LlmSettings): boolean => settings.provider.presetId === SIMULATED_PROVIDER;
  const simulation = () => import('../../../llm/simulated-model.ts');
  return {
    createModels: async (settings, meter) => {
      if (simulated(settings)) return (await simulation()).createSimulatedChatModels(settings, meter);
      if (!inPage(settings)) return (await sdk()).createChatModels(settings, meter, { origin, adaptations: sharedAdaptations });
      const [{ createWllamaChatModels }, host] = await Promise.all([import('../../../llm/wllama-chat-model.ts'), localModels.hostFor(settings.roles.actor.model)]);
      // A CPU model in a tab is slow: as the CLI's local provider, a call may take up to 10 minutes.
      const local = { ...settings, requestTimeoutMs: Math.max(settings.requestTimeoutMs, LOCAL_TIMEOUT_MS) };
      return withSpeed(createWllamaChatModels(host, local, meter, { grammar: true }));
    },
    listModels: async (settings, signal) => {
      if (simulated(settings)) return [SIMULATED_MODEL];
      if (!inPage(settings)) return (await sdk()).listModels(settings, { origin }, signal);
      if (localModels.problem !== null) throw new Error(localModels.problem);
      await localModels.refresh();
      return localModels.stored.map((m) => m.name);
    },
    adaptations: sharedAdaptations,
    reportedContextWindow: async (settings, model, signal) => {
      if (simulated(settings)) return (await simulation()).SIMULATED_CONTEXT_WINDOW;
      if (!inPage(settings)) return (await sdk()).reportedContextWindow(settings, model, { origin }, signal);
      return (await localModels.hostFor(model).catch(() => null))?.contextSize ?? null;
    },
  };
}

/** The shortest request timeout of the in-page model, ms (the CLI's `--provider local` default). */
const LOCAL_TIMEOUT_MS = 600_000;

/** Each finished call updates the tokens per second Settings shows. */
function withSpeed(models: Record<Role, ChatModel>): Record<Role, ChatModel> {
  const wrap = (model: ChatModel): ChatModel => ({
    role: model.role,
    settings: model.settings,
    // Kept, so the run's config records that the replies were held by grammars (as the CLI's does).
    ...(model.replyGrammar === undefined ? {} : { replyGrammar: model.replyGrammar }),
    complete: async (messages, options) => {
      try {
        return await model.complete(messages, options);
      } finally {
        localModels.noteSpeed();
      }
    },
  });
  return { actor: wrap(models.actor), metaAgent: wrap(models.metaAgent), proposer: wrap(models.proposer) };
}
