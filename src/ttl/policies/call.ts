/**
 * One guarded policy call: run the model, parse `<learn>`, and turn a provider fault into a
 * recorded exchange that keeps the current guiding prompt — except Stop and the budget cap,
 * which end the session and are rethrown.
 */
import { parseLearn } from '../../agents/meta-prompt.ts';
import { BudgetReachedError, LlmError } from '../../llm/errors.ts';
import type { ChatMessage, ChatModel, Completion } from '../../llm/interface.ts';
import type { PolicyExchange } from '../policy.ts';

export type ExchangeBase = Pick<PolicyExchange, 'afterEpisode' | 'kind' | 'userMessage' | 'droppedEpisodes' | 'notice'>;

/** A reply with no `<learn>` tags, whole (its `<think>` text removed), or null when empty. */
function wholeReply(content: string): string | null {
  return content.replace(/<think>[\s\S]*?<\/think>/gi, '').trim() || null;
}

/**
 * Call the model; @throws BudgetReachedError | LlmError('aborted'); other faults → `error` set.
 * `wholeReplyFallback` (the reflection baselines): a complete reply without `<learn>` tags becomes
 * the guiding prompt whole (status `whole_reply`), as in the reference, instead of being ignored.
 */
export async function guardedCall(
  model: ChatModel, messages: ChatMessage[], base: ExchangeBase, current: string, signal: AbortSignal | undefined, wholeReplyFallback = false,
): Promise<{ exchange: PolicyExchange; completion: Completion | null }> {
  try {
    const completion = await model.complete(messages, { signal });
    let learn = parseLearn(completion.content, completion.finishReason);
    const whole = wholeReplyFallback && learn.status === 'missing' && completion.finishReason !== 'length' ? wholeReply(completion.content) : null;
    if (whole) learn = { guidingPrompt: whole, status: 'whole_reply' };
    return {
      completion,
      exchange: {
        ...base, reply: completion.content, finishReason: completion.finishReason, learnStatus: learn.status,
        guidingPromptAfter: learn.guidingPrompt ?? current, usage: completion.usage, error: null,
        ...(completion.providerModel ? { providerModel: completion.providerModel } : {}),
        ...(completion.systemFingerprint ? { systemFingerprint: completion.systemFingerprint } : {}),
      },
    };
  } catch (error) {
    if (error instanceof BudgetReachedError || (error instanceof LlmError && error.kind === 'aborted')) throw error;
    const kind = error instanceof LlmError ? error.kind : 'server';
    return {
      completion: null,
      exchange: {
        ...base, reply: '', finishReason: null, learnStatus: null, guidingPromptAfter: current, usage: null,
        error: { kind, message: (error as Error).message },
      },
    };
  }
}
