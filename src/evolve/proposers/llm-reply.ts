/**
 * The LLM proposers' call (reflective.ts, opro.ts): the proposer model's reply to a prompt, cached
 * per iteration and proposal index so a resumed run replays it, then parsed into a strategy.
 * Core module: no UI or DOM imports.
 */
import { LlmError, SYSTEMIC_KINDS } from '../../llm/errors.ts';
import type { ChatMessage, ChatModel } from '../../llm/interface.ts';
import type { EvolutionConfig } from '../interface.ts';
import { parseProposal } from '../rules/llm-proposer.ts';
import { LoopStop, type LoopContext, type StrategyProposal } from './interface.ts';

/** 'web' when every task of the run is a web task (the proposer then sees the web log header). */
export function tasksKind(config: EvolutionConfig): 'web' | 'zmachine' {
  const tasks = [...config.train, ...config.val];
  return tasks.length > 0 && tasks.every((t) => t.task?.kind === 'web') ? 'web' : 'zmachine';
}

/**
 * Proposal `index` of the current iteration from the proposer model: the cached reply when there
 * is one (a resume), else a call with `messages()` whose reply is cached, then parsed against
 * `parentStrategy` (rules/llm-proposer.ts `parseProposal`).
 * @throws Error without a proposer model; LoopStop('stopped') on Stop before the call;
 *   LoopStop('provider_error') when a systemic fault, or a transient one that persists past
 *   `loop.maxExtraAttempts` retries, stops the run resumable (nothing cached for the call);
 *   LlmError('aborted') from the call
 */
export async function llmProposal(loop: LoopContext, index: number, parentStrategy: string, messages: () => ChatMessage[]): Promise<StrategyProposal> {
  const model = loop.model;
  if (!model) throw new Error('the LLM proposer mode needs a proposer model');
  const iteration = loop.state.iteration;
  let cached = await loop.cache.getProposal(iteration, index);
  if (!cached) {
    if (loop.signal?.aborted) throw new LoopStop('stopped', null);
    const completion = await completeWithRetries(model, messages(), loop);
    const provenance = { ...(completion.providerModel ? { providerModel: completion.providerModel } : {}), ...(completion.systemFingerprint ? { systemFingerprint: completion.systemFingerprint } : {}) };
    cached = { reply: completion.content, finishReason: completion.finishReason, usage: completion.usage, ...provenance };
    await loop.cache.putProposal(iteration, cached.reply, cached.finishReason, completion.usage, index, provenance);
  }
  const usage = {
    ...(cached.usage ? { usage: { promptTokens: cached.usage.promptTokens, completionTokens: cached.usage.completionTokens, costUsd: cached.usage.costUsd } } : {}),
    ...(cached.providerModel ? { providerModel: cached.providerModel } : {}), ...(cached.systemFingerprint ? { systemFingerprint: cached.systemFingerprint } : {}),
  };
  if (cached.finishReason?.startsWith('error: ')) return { strategy: null, status: cached.finishReason, reply: null, ...usage };
  const parsed = parseProposal(cached.reply, cached.finishReason, parentStrategy);
  return parsed.strategy === null ? { strategy: null, status: parsed.status, reply: cached.reply, ...usage } : { strategy: parsed.strategy, status: parsed.status, reply: cached.reply, ...usage };
}

/** A provider fault is not a proposal (as a meta-agent fault is not a decision): a transient one
 * is asked again, as faulted sessions get further attempts (ttl/session-passes.ts); one that
 * persists, or a systemic one, stops the run resumable with nothing cached for this iteration. */
async function completeWithRetries(model: ChatModel, messages: ChatMessage[], loop: LoopContext): ReturnType<ChatModel['complete']> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await model.complete(messages, { signal: loop.signal });
    } catch (error) {
      if (!(error instanceof LlmError) || error.kind === 'aborted') throw error;
      if (SYSTEMIC_KINDS.has(error.kind) || attempt >= loop.maxExtraAttempts) throw new LoopStop('provider_error', `The proposer failed: ${error.message}`);
      if (loop.signal?.aborted) throw new LoopStop('stopped', null);
    }
  }
}
