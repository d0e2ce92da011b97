/**
 * Memory-agent baseline (method.md "Baselines"): after each episode the reflection model first
 * summarises the episode; all summaries are kept; then it rewrites the guiding prompt from the
 * whole history of summaries (the `<learn>` text, else the whole reply, as in the reference). Two
 * calls per episode. The log is fitted to the model's context window like the meta-agent's.
 */
import { formatEpisodeLog } from '../../agents/episode-log.ts';
import type { Trajectory } from '../../agents/trajectory.ts';
import type { ChatModel } from '../../llm/interface.ts';
import type { AdaptationPolicy, PolicyExchange, PolicyUpdate } from '../policy.ts';
import type { TokenCounter } from '../../llm/token-count.ts';
import { fitChat } from '../chat-budget.ts';
import { guardedCall } from './call.ts';

export const SUMMARY_PROMPT = `You keep the memory of a language model (the actor) that plays a text adventure game several times from the same start. Summarise the attempt in the log you receive (one line per step: [STEP i] [OBS] game text [ACTION] command [REWARD] points [CUM_REWARD] score): the route taken, what earned points, obstacles met, dead ends and facts learned. At most 150 words, plain text.`;

export const REWRITE_PROMPT = `You write the guide a language model (the actor) follows when it plays a text adventure game again from the same start. You receive the summaries of all its attempts so far, oldest first. Combine what they teach into one guide for the next attempt.
Answer as <think>your reasoning</think><learn>the complete guide for the next attempt, written to the actor</learn>.`;

/** The summary and rewrite prompts for a web task (same contracts; the log describes a website). */
export const SUMMARY_WEB_PROMPT = `You keep the memory of a language model (the actor) that does the same task on a website several times from the same start. Summarise the attempt in the log you receive (one line per step: [STEP i] [OBS] the goal, URL and the page's accessibility tree [ACTION] action [REWARD] reward [CUM_REWARD] reward so far; the reward is 1 when the task was done, else 0): the pages visited, what the site said, obstacles met, dead ends and facts learned. At most 150 words, plain text.`;

export const REWRITE_WEB_PROMPT = `You write the guide a language model (the actor) follows when it does a task on a website again from the same start. You receive the summaries of all its attempts so far, oldest first. Combine what they teach into one guide for the next attempt.
Answer as <think>your reasoning</think><learn>the complete guide for the next attempt, written to the actor</learn>.`;

export class MemoryPolicy implements AdaptationPolicy {
  readonly kind = 'memory' as const;
  private summaries: { episode: number; text: string }[] = [];

  constructor(
    private readonly model: ChatModel,
    private readonly window: { countTokens: TokenCounter; contextWindow: number },
  ) {}

  async update(episodeIndex: number, trajectory: Trajectory, current: string, signal?: AbortSignal): Promise<PolicyUpdate> {
    const web = trajectory.task?.kind === 'web';
    const fitted = fitChat(web ? SUMMARY_WEB_PROMPT : SUMMARY_PROMPT, [], formatEpisodeLog(episodeIndex, trajectory), {
      count: this.window.countTokens, contextWindow: this.window.contextWindow, replyReserve: this.model.settings.maxTokens, who: "reflection model's",
    });
    const summary = await guardedCall(
      this.model, fitted.messages,
      { afterEpisode: episodeIndex, kind: 'summary', userMessage: fitted.userMessage, droppedEpisodes: [], notice: fitted.notice },
      current, signal,
    );
    const exchanges: PolicyExchange[] = [{ ...summary.exchange, learnStatus: null, guidingPromptAfter: current }];
    if (summary.exchange.error) return { guidingPrompt: current, exchanges };
    this.summaries.push({ episode: episodeIndex, text: summary.exchange.reply.trim() });
    const history = this.summaries.map((s) => `Attempt ${s.episode}: ${s.text}`).join('\n\n');
    const rewrite = await guardedCall(
      this.model,
      [{ role: 'system', content: web ? REWRITE_WEB_PROMPT : REWRITE_PROMPT }, { role: 'user', content: `${history}\n\nThe guide used in attempt ${episodeIndex}:\n${current}` }],
      { afterEpisode: episodeIndex, kind: 'memory_rewrite', userMessage: history, droppedEpisodes: [], notice: null },
      current, signal, true,
    );
    exchanges.push(rewrite.exchange);
    return { guidingPrompt: rewrite.exchange.guidingPromptAfter, exchanges };
  }

  restore(exchanges: readonly PolicyExchange[]): void {
    this.summaries = exchanges.filter((e) => e.kind === 'summary' && !e.error).map((e) => ({ episode: e.afterEpisode, text: e.reply.trim() }));
  }
}
