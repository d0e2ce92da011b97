/**
 * The actor: one LLM call per step, its reply parsed into a game command (reply-parser.ts).
 * LLM faults are thrown (typed, from src/llm) for the episode runner to record.
 */
import type { ChatModel, Completion } from '../llm/interface.ts';
import { buildActorMessages, DEFAULT_HISTORY_LENGTH, type ActorContext } from './actor-prompt.ts';
import { parseActorReply, type ParsedReply } from './reply-parser.ts';

export interface ActorDecision {
  completion: Completion;
  parsed: ParsedReply;
}

export class Actor {
  constructor(
    readonly model: ChatModel,
    readonly historyLength = DEFAULT_HISTORY_LENGTH,
  ) {}

  /** @throws LlmError | BudgetReachedError from the model */
  async act(ctx: ActorContext, signal?: AbortSignal): Promise<ActorDecision> {
    const completion = await this.model.complete(buildActorMessages(ctx, this.historyLength), { signal });
    return { completion, parsed: parseActorReply(completion.content, completion.finishReason) };
  }
}
