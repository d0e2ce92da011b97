/**
 * The three role models of a run on one loaded local model (the CLI's node-llama-cpp model and the
 * page's wllama model alike): calls run one at a time, since one model context serves them all,
 * and each role's model says whether its replies are held to their contracts by a grammar.
 */
import pLimit from 'p-limit';
import type { ChatMessage, ChatModel, CompleteOptions, Completion, LlmSettings, Role } from './interface.ts';

/** One call of `role` on the loaded model (`grammar`: enforce the reply contracts). */
export type SerialCall = (role: Role, messages: ChatMessage[], options: CompleteOptions, grammar: boolean) => Promise<Completion>;

/** The actor, meta-agent and proposer models over `call`, one call at a time; `grammar` defaults to true. */
export function serialRoleModels(settings: LlmSettings, call: SerialCall, grammar = true): Record<Role, ChatModel> {
  const limit = pLimit(1);
  const make = (role: Role): ChatModel => ({
    role,
    settings: settings.roles[role],
    replyGrammar: grammar,
    complete: (messages, options = {}) => limit(() => call(role, messages, options, grammar)),
  });
  return { actor: make('actor'), metaAgent: make('metaAgent'), proposer: make('proposer') };
}
