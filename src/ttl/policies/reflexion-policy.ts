/**
 * Reflexion baseline (Shinn et al. 2023, as used in method.md "Baselines"): after each episode the
 * reflection model reads the last trajectory only and its reflection becomes the guiding prompt
 * (the `<learn>` text, else the whole reply, as in the reference). The log is fitted to the
 * model's context window like the meta-agent's (its first steps cut when it is too long; the
 * user is told in the exchange's notice, the model is not).
 */
import { formatEpisodeLog } from '../../agents/episode-log.ts';
import type { Trajectory } from '../../agents/trajectory.ts';
import type { ChatModel } from '../../llm/interface.ts';
import type { AdaptationPolicy, PolicyUpdate } from '../policy.ts';
import type { TokenCounter } from '../../llm/token-count.ts';
import { fitChat } from '../chat-budget.ts';
import { guardedCall } from './call.ts';

export const REFLEXION_PROMPT = `You review one attempt at a text adventure game, played by a language model (the actor). The game restarts identically for the next attempt. Read the log (one line per step: [STEP i] [OBS] game text [ACTION] command [REWARD] points [CUM_REWARD] score) and reflect: what earned points, what wasted steps, what went wrong, and what the actor should do differently next time.
Answer as <think>your reflection</think><learn>concise advice for the next attempt, written to the actor</learn>. The text inside <learn> becomes the actor's guide for the next attempt.`;

/** The reflection prompt for a web task (same contract; the log describes a website). */
export const REFLEXION_WEB_PROMPT = `You review one attempt at a web task (a goal to reach on a website), made by a language model (the actor). The site restarts identically for the next attempt. Read the log (one line per step: [STEP i] [OBS] the goal, URL and the page's accessibility tree [ACTION] action [REWARD] reward [CUM_REWARD] reward so far; the episode's reward is 1 when the task was done, else 0) and reflect: what got closer to the goal, what wasted steps, what went wrong, and what the actor should do differently next time.
Answer as <think>your reflection</think><learn>concise advice for the next attempt, written to the actor</learn>. The text inside <learn> becomes the actor's guide for the next attempt.`;

export class ReflexionPolicy implements AdaptationPolicy {
  readonly kind = 'reflexion' as const;

  constructor(
    private readonly model: ChatModel,
    private readonly window: { countTokens: TokenCounter; contextWindow: number },
  ) {}

  async update(episodeIndex: number, trajectory: Trajectory, current: string, signal?: AbortSignal): Promise<PolicyUpdate> {
    const prompt = trajectory.task?.kind === 'web' ? REFLEXION_WEB_PROMPT : REFLEXION_PROMPT;
    const fitted = fitChat(prompt, [], formatEpisodeLog(episodeIndex, trajectory), {
      count: this.window.countTokens, contextWindow: this.window.contextWindow, replyReserve: this.model.settings.maxTokens, who: "reflection model's",
    });
    const { exchange } = await guardedCall(
      this.model, fitted.messages,
      { afterEpisode: episodeIndex, kind: 'reflection', userMessage: fitted.userMessage, droppedEpisodes: [], notice: fitted.notice },
      current, signal, true,
    );
    return { guidingPrompt: exchange.guidingPromptAfter, exchanges: [exchange] };
  }

  restore(): void {}
}
