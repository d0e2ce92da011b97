/**
 * A ChatModel wrapper that reports provider-requested waits (429/503 Retry-After, capped to the
 * settings' longest wait) to the page, so it can show "waiting N s" with a way to stop. The
 * caller's own `onRetryWait` still runs; everything else passes through unchanged.
 */
import type { ChatModel } from '../../../llm/interface.ts';

export function withRetryWait(model: ChatModel, onRetryWait: (waitMs: number) => void): ChatModel {
  return {
    role: model.role,
    settings: model.settings,
    // Kept, so the run's config records that the replies were held by grammars.
    ...(model.replyGrammar === undefined ? {} : { replyGrammar: model.replyGrammar }),
    complete: (messages, options = {}) =>
      model.complete(messages, {
        ...options,
        onRetryWait: (waitMs) => {
          options.onRetryWait?.(waitMs);
          onRetryWait(waitMs);
        },
      }),
  };
}
