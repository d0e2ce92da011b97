/**
 * The three role models of a run on one loaded local model (the CLI's node-llama-cpp model and the
 * page's wllama model alike): calls run one at a time, since one model context serves them all,
 * and each role's model says whether its replies are held to their contracts by a grammar.
 *
 * A reply that spent the whole budget before any answer (a reasoning model thinking until the
 * token limit: reasoning-budget.ts) is never played, as with hosted models: the first raises the
 * role's budget for this call and every later one (min(max(4 × budget, 4096), 32 768, what the
 * run's token cap leaves), told through `onAdaptation`) and the call is made again at once; when
 * the raised budget is spent too (or cannot be raised) the call fails as a refused request
 * (`bad_request`, systemic: the run stops resumably) whose message names the setting that fixes
 * it. A local model takes no reasoning effort, so there is no second adaptation.
 */
import pLimit from 'p-limit';
import { LlmError } from './errors.ts';
import type { ChatMessage, ChatModel, CompleteOptions, Completion, LlmSettings, Role } from './interface.ts';
import { BUDGET_SETTING, raisedBudget, spentOnReasoning } from './reasoning-budget.ts';

/** One call of `role` on the loaded model (`grammar`: enforce the reply contracts; `maxTokens`: its completion budget). */
export type SerialCall = (role: Role, messages: ChatMessage[], options: CompleteOptions, grammar: boolean, maxTokens: number) => Promise<Completion>;

/** What the run's token cap leaves for one reply, tokens (null: no cap). */
export type TokenRoom = () => number | null;

/**
 * The actor, meta-agent and proposer models over `call`, one call at a time; `grammar` defaults
 * to true; `room` bounds a raised budget (default: no bound).
 * @throws from `complete`: what `call` throws, or LlmError('bad_request') when a role's raised
 *   budget too went on reasoning
 */
export function serialRoleModels(settings: LlmSettings, call: SerialCall, grammar = true, room: TokenRoom = () => null): Record<Role, ChatModel> {
  const limit = pLimit(1);
  const raised: Partial<Record<Role, number>> = {};
  const complete = async (role: Role, messages: ChatMessage[], options: CompleteOptions): Promise<Completion> => {
    const model = settings.roles[role].model;
    for (;;) {
      const budget = raised[role] ?? settings.roles[role].maxTokens;
      const completion = await call(role, messages, options, grammar, budget);
      if (!spentOnReasoning(completion)) return completion;
      const left = room();
      const next = raised[role] === undefined ? raisedBudget(budget, left) : budget;
      if (next <= budget) {
        const why = raised[role] !== undefined ? `even after its budget was raised from ${settings.roles[role].maxTokens}` : left !== null && left <= budget ? "the run's token cap leaves no room to raise its budget" : `${budget} tokens is already the most raised automatically`;
        throw new LlmError(
          'bad_request',
          `The local model ${model} spent its whole completion budget (${budget} tokens) on reasoning and wrote no answer (${why}). ` +
            `Give it a larger budget with ${BUDGET_SETTING[role]}, or pick a model file that does not reason; then resume.`,
        );
      }
      raised[role] = next;
      options.onAdaptation?.({
        baseUrl: settings.provider.baseUrl, model, parameter: 'max_tokens', change: 'raised', to: String(next),
        reason: `finish_reason "${completion.finishReason}" with no answer after the whole budget of ${budget} tokens`,
      });
    }
  };
  const make = (role: Role): ChatModel => ({
    role,
    settings: settings.roles[role],
    replyGrammar: grammar,
    complete: (messages, options = {}) => limit(() => complete(role, messages, options)),
  });
  return { actor: make('actor'), metaAgent: make('metaAgent'), proposer: make('proposer') };
}
