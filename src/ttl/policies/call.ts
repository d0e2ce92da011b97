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

/** Call the model; @throws BudgetReachedError | LlmError('aborted'); other faults → `error` set. */
export async function guardedCall(
  model: ChatModel, messages: ChatMessage[], base: ExchangeBase, current: string, signal: AbortSignal | undefined,
): Promise<{ exchange: PolicyExchange; completion: Completion | null }> {
  try {
    const completion = await model.complete(messages, { signal });
    const learn = parseLearn(completion.content, completion.finishReason);
    return {
      completion,
      exchange: {
        ...base, reply: completion.content, finishReason: completion.finishReason, learnStatus: learn.status,
        guidingPromptAfter: learn.guidingPrompt ?? current, usage: completion.usage, error: null,
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
