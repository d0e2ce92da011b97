/**
 * Reflexion baseline (Shinn et al. 2023, as used in method.md "Baselines"): after each episode the
 * reflection model reads the last trajectory only and its reflection becomes the guiding prompt.
 */
import { formatEpisodeLog } from '../../agents/episode-log.ts';
import type { Trajectory } from '../../agents/trajectory.ts';
import type { ChatModel } from '../../llm/interface.ts';
import type { AdaptationPolicy, PolicyUpdate } from '../policy.ts';
import { guardedCall } from './call.ts';

export const REFLEXION_PROMPT = `You review one attempt at a text adventure game, played by a language model (the actor). The game restarts identically for the next attempt. Read the log (one line per step: [STEP i] [OBS] game text [ACTION] command [REWARD] points [CUM_REWARD] score) and reflect: what earned points, what wasted steps, what went wrong, and what the actor should do differently next time.
Answer as <think>your reflection</think><learn>concise advice for the next attempt, written to the actor</learn>. The text inside <learn> becomes the actor's guide for the next attempt.`;

export class ReflexionPolicy implements AdaptationPolicy {
  readonly kind = 'reflexion' as const;

  constructor(private readonly model: ChatModel) {}

  async update(episodeIndex: number, trajectory: Trajectory, current: string, signal?: AbortSignal): Promise<PolicyUpdate> {
    const userMessage = formatEpisodeLog(episodeIndex, trajectory);
    const { exchange } = await guardedCall(
      this.model,
      [{ role: 'system', content: REFLEXION_PROMPT }, { role: 'user', content: userMessage }],
      { afterEpisode: episodeIndex, kind: 'reflection', userMessage, droppedEpisodes: [], notice: null },
      current, signal,
    );
    return { guidingPrompt: exchange.guidingPromptAfter, exchanges: [exchange] };
  }

  restore(): void {}
}
