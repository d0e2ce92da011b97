/**
 * "You are the meta-agent": between episodes a person reads the episode log (the same text the
 * meta-agent would get, method.md "Episode log") and types the next guiding prompt. An empty
 * answer keeps the current guide, as an empty <learn> does. Teaches what the meta-prompt automates.
 */
import { formatEpisodeLog } from '../../agents/episode-log.ts';
import type { Trajectory } from '../../agents/trajectory.ts';
import { LlmError } from '../../llm/errors.ts';
import type { AdaptationPolicy, PolicyUpdate } from '../policy.ts';

/** Ask the person; resolves with their guiding prompt ('' = keep), rejects when stopped. */
export type AskHuman = (request: { episodeIndex: number; log: string; currentGuide: string }, signal?: AbortSignal) => Promise<string>;

export class HumanPolicy implements AdaptationPolicy {
  readonly kind = 'human' as const;

  constructor(private readonly ask: AskHuman) {}

  async update(episodeIndex: number, trajectory: Trajectory, current: string, signal?: AbortSignal): Promise<PolicyUpdate> {
    const log = formatEpisodeLog(episodeIndex, trajectory);
    let typed: string;
    try {
      typed = (await this.ask({ episodeIndex, log, currentGuide: current }, signal)).trim();
    } catch (error) {
      if (signal?.aborted) throw new LlmError('aborted', 'stopped');
      throw error;
    }
    return {
      guidingPrompt: typed || current,
      exchanges: [{
        afterEpisode: episodeIndex, kind: 'human', userMessage: log, reply: typed, finishReason: null,
        learnStatus: typed ? 'updated' : 'empty', guidingPromptAfter: typed || current, usage: null, droppedEpisodes: [], notice: null, error: null,
      }],
    };
  }

  restore(): void {}
}
