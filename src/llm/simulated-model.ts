/**
 * The simulated model (provider preset `simulated`, CLI `--provider simulated`): the three role
 * models answered in-process by simulated-rules.ts — no network, no key, no download, cost 0,
 * deterministic per seed. It is not a language model (SIMULATION_NOTICE): it shows how the loop
 * works, not how real models behave. Same ChatModel contract as the other providers: caps are
 * enforced before each call, usage is recorded (tokens approximated as characters / 4), a stopped
 * call rejects with LlmError('aborted'). DOM-free; runs in the page and in Node alike.
 */
import { LlmError } from './errors.ts';
import type { ChatMessage, ChatModel, CompleteOptions, Completion, LlmSettings, Role } from './interface.ts';
import { actorReply, actorView, currentStrategy, metaAgentReply, propose } from './simulated-rules.ts';
import { isSimulated, SIMULATED_MODEL, SIMULATED_PROVIDER, SIMULATION_NOTICE, usesSimulatedModel } from './model-label.ts';
import { approximateTokens } from './token-count.ts';
import type { UsageMeter } from './usage-meter.ts';

export { isSimulated, SIMULATED_MODEL, SIMULATED_PROVIDER, SIMULATION_NOTICE, usesSimulatedModel };

/** Its base URL: names it only (no server). */
export const SIMULATED_BASE_URL = 'in-page:simulated';

/** The context window it reports, tokens: large, so no episode log is ever dropped from its chat. */
export const SIMULATED_CONTEXT_WINDOW = 128_000;

/** The line reports and exports print at the top when the simulated model played. */
export const SIMULATION_HEADER = `Model: ${SIMULATED_MODEL} (${SIMULATION_NOTICE}).`;

/** Options of the simulated models. */
export interface SimulatedOptions {
  /** Mixed into every draw (default 0): another seed gives other slips, explorations and keypad codes. */
  seed?: number;
}

/**
 * The reply of `role` to `messages` (pure; see simulated-rules.ts for each role's behaviour).
 * @param salt the call's `sampleSalt` (an evaluation's repeat index), mixed into the draws
 */
export function simulatedReply(role: Role, messages: readonly ChatMessage[], seed = 0, salt = 0): string {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const users = messages.filter((m) => m.role === 'user').map((m) => m.content);
  const all = messages.map((m) => m.content).join('\n\n');
  if (role === 'actor') return actorReply(actorView(system, users.at(-1) ?? ''), `${seed}:${salt}`);
  if (role === 'metaAgent') return metaAgentReply(system, users, /<learn>/i.test(all));
  if (/<strategy>/i.test(system) || /<current_strategy>/i.test(all)) {
    const feedback = /<feedback>\n?([\s\S]*?)\n?<\/feedback>/i.exec(all)?.[1]?.trim();
    const parent = currentStrategy(all);
    if (feedback) return `The simulated proposer adds the person's feedback.\n<strategy>\n${[parent, feedback].filter(Boolean).join(' ')}\n</strategy>`;
    const { strategy, reason } = propose(parent, users.join('\n\n'));
    return `Simulated proposer: ${reason}\n<strategy>\n${strategy}\n</strategy>`;
  }
  return `(${SIMULATION_NOTICE}: no simulated answer for this prompt.)`;
}

/**
 * The three role models of the simulated provider, accounting to `meter` at cost 0.
 * @throws nothing; each `complete` throws LlmError('aborted') for a stopped call, or
 *   BudgetReachedError when the run's caps are reached.
 */
export function createSimulatedChatModels(settings: LlmSettings, meter: UsageMeter, options: SimulatedOptions = {}): Record<Role, ChatModel> {
  const make = (role: Role): ChatModel => ({
    role,
    settings: settings.roles[role],
    complete: async (messages: ChatMessage[], callOptions: CompleteOptions = {}): Promise<Completion> => {
      meter.assertWithinCaps();
      if (callOptions.signal?.aborted) throw new LlmError('aborted', 'The request was stopped before it was sent.');
      const content = simulatedReply(role, messages, options.seed ?? 0, callOptions.sampleSalt ?? 0);
      const usage = {
        promptTokens: messages.reduce((n, m) => n + approximateTokens(m.content), 0),
        completionTokens: approximateTokens(content),
        reasoningTokens: 0,
        latencyMs: 0,
        costUsd: 0,
      };
      meter.record(role, usage);
      return { content, finishReason: 'stop', model: settings.roles[role].model, usage };
    },
  });
  return { actor: make('actor'), metaAgent: make('metaAgent'), proposer: make('proposer') };
}
