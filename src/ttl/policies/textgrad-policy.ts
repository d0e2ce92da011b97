/**
 * TextGrad baseline (Yuksekgonul et al., "TextGrad: automatic differentiation via text", 2024;
 * Nature 2025): the guiding prompt is the optimised variable, the episode is the forward pass and
 * its log with the score is the loss. After each episode two calls to the reflection model (the
 * meta-agent's model): a backward call writes the "textual gradient" — a critique of the guiding
 * prompt given the trajectory (the paper's Sec. 2, "backpropagation" of natural-language feedback)
 * — then a Textual Gradient Descent step (the paper's TGD update, Sec. 2) applies the critique and
 * writes the next guiding prompt inside `<learn>` (missing or empty keeps the guide, as the naive
 * meta-agent's). No momentum: each step sees only the current guide, as TextGrad's default TGD.
 * Our own prompt texts. Imports no UI.
 */
import { formatEpisodeLog } from '../../agents/episode-log.ts';
import type { Trajectory } from '../../agents/trajectory.ts';
import type { ChatModel } from '../../llm/interface.ts';
import type { TokenCounter } from '../../llm/token-count.ts';
import { fitChat } from '../chat-budget.ts';
import type { AdaptationPolicy, PolicyExchange, PolicyUpdate } from '../policy.ts';
import { guardedCall } from './call.ts';

/** The backward call's system prompt: critique only, no rewrite (Z-machine tasks). */
export const GRADIENT_PROMPT = `You are a critic in an optimisation loop. A language model (the actor) plays a text adventure game several times from the same start; before each attempt it is given a GUIDING PROMPT, the variable being optimised. The objective is a higher final score in the next attempt. You receive the guiding prompt used in the last attempt and the log of that attempt (one line per step: [STEP i] [OBS] game text [ACTION] command [REWARD] points [CUM_REWARD] score).
Criticise the guiding prompt: say which of its instructions helped, which misled the actor or wasted steps, what it lacks that the log shows would have earned points, and how it should change. Give concrete, specific feedback. Do not write the new guiding prompt yourself.`;

/** The backward call's system prompt for a web task. */
export const GRADIENT_WEB_PROMPT = `You are a critic in an optimisation loop. A language model (the actor) does the same task on a website several times from the same start; before each attempt it is given a GUIDING PROMPT, the variable being optimised. The objective is to complete the task (reward 1) in the next attempt. You receive the guiding prompt used in the last attempt and the log of that attempt (one line per step: [STEP i] [OBS] the goal, URL and the page's accessibility tree [ACTION] action [REWARD] reward [CUM_REWARD] reward so far).
Criticise the guiding prompt: say which of its instructions helped, which misled the actor or wasted steps, what it lacks that the log shows would have reached the goal, and how it should change. Give concrete, specific feedback. Do not write the new guiding prompt yourself.`;

/** The update (TGD step) call's system prompt; the same for every task kind. */
export const UPDATE_PROMPT = `You improve a variable in an optimisation loop: the GUIDING PROMPT a language model (the actor) follows in its next attempt at a task it repeats from the same start. You receive the current guiding prompt, a critique of it (the feedback to apply), and the log of the attempt the critique is about. Apply the critique: change what it says to change and keep what it says worked.
Answer as <think>your reasoning</think><learn>the complete improved guiding prompt, written to the actor</learn>.`;

/** The backward call's user message: the variable and the trajectory it produced. */
export function gradientMessage(current: string, log: string): string {
  return `<guiding_prompt>\n${current}\n</guiding_prompt>\n\nThe attempt played with it:\n${log}`;
}

/** The update call's user message: the variable, its textual gradient, and the context. */
export function updateMessage(current: string, critique: string, log: string): string {
  return `<guiding_prompt>\n${current}\n</guiding_prompt>\n\n<critique>\n${critique}\n</critique>\n\nThe attempt the critique is about:\n${log}`;
}

/** A critique reply without its `<think>` text, trimmed ('' when nothing is left). */
export function critiqueText(reply: string): string {
  return reply.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
}

export class TextGradPolicy implements AdaptationPolicy {
  readonly kind = 'textgrad' as const;

  constructor(
    private readonly model: ChatModel,
    private readonly window: { countTokens: TokenCounter; contextWindow: number },
  ) {}

  /** Two calls: `textual_gradient` (learnStatus null; it never changes the guide) then
   * `textgrad_update`. A failed or empty critique skips the update and keeps the guide. */
  async update(episodeIndex: number, trajectory: Trajectory, current: string, signal?: AbortSignal): Promise<PolicyUpdate> {
    const web = trajectory.task?.kind === 'web';
    const log = formatEpisodeLog(episodeIndex, trajectory);
    const budget = { count: this.window.countTokens, contextWindow: this.window.contextWindow, replyReserve: this.model.settings.maxTokens, who: "reflection model's" };
    // The guide and the log go in one user message; fitChat cuts the log's first steps if it is too long.
    const backward = fitChat(web ? GRADIENT_WEB_PROMPT : GRADIENT_PROMPT, [], gradientMessage(current, log), budget);
    const gradient = await guardedCall(
      this.model, backward.messages,
      { afterEpisode: episodeIndex, kind: 'textual_gradient', userMessage: backward.userMessage, droppedEpisodes: [], notice: backward.notice },
      current, signal,
    );
    const critique = critiqueText(gradient.exchange.reply);
    const exchanges: PolicyExchange[] = [{
      ...gradient.exchange, learnStatus: null, guidingPromptAfter: current,
      notice: gradient.exchange.error || critique ? gradient.exchange.notice : 'The critique was empty: no update step; the guiding prompt is kept.',
    }];
    if (gradient.exchange.error || !critique) return { guidingPrompt: current, exchanges };
    const step = fitChat(UPDATE_PROMPT, [], updateMessage(current, critique, log), budget);
    const updated = await guardedCall(
      this.model, step.messages,
      { afterEpisode: episodeIndex, kind: 'textgrad_update', userMessage: step.userMessage, droppedEpisodes: [], notice: step.notice },
      current, signal,
    );
    exchanges.push(updated.exchange);
    return { guidingPrompt: updated.exchange.guidingPromptAfter, exchanges };
  }

  /** Stateless between episodes (no momentum), so nothing to rebuild. */
  restore(): void {}
}
