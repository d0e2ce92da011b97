/**
 * The meta-agent policy (method.md, "Meta-agent"): one growing chat per session whose system
 * message is the meta-prompt; after each episode its log is sent as a user message and the
 * `<learn>` text of the reply overwrites the guiding prompt (empty or missing keeps it). The
 * naive meta-agent is this policy with an empty strategy section.
 */
import { formatEpisodeLog } from '../../agents/episode-log.ts';
import { metaPromptOf } from '../../agents/meta-prompt.ts';
import type { Trajectory } from '../../agents/trajectory.ts';
import type { ChatModel } from '../../llm/interface.ts';
import type { TokenCounter } from '../../llm/token-count.ts';
import { fitChat, type ChatTurn } from '../chat-budget.ts';
import type { AdaptationPolicy, PolicyExchange, PolicyUpdate } from '../policy.ts';
import { guardedCall } from './call.ts';

export interface MetaAgentOptions {
  strategy: string;
  /** The strategy is the whole system message, byte for byte (meta-prompt.ts `metaPromptOf`). */
  raw?: boolean;
  /** The meta-prompt's fixed header: what the logs describe (default: the Z-machine's). */
  logHeader?: string;
  countTokens: TokenCounter;
  /** The meta-agent model's context window, tokens. */
  contextWindow: number;
}

export class MetaAgentPolicy implements AdaptationPolicy {
  readonly kind = 'meta' as const;
  readonly metaPrompt: string;
  private turns: ChatTurn[] = [];

  constructor(
    private readonly model: ChatModel,
    private readonly options: MetaAgentOptions,
  ) {
    this.metaPrompt = metaPromptOf(options, options.logHeader);
  }

  async update(episodeIndex: number, trajectory: Trajectory, current: string, signal?: AbortSignal): Promise<PolicyUpdate> {
    const log = formatEpisodeLog(episodeIndex, trajectory);
    const fitted = fitChat(this.metaPrompt, this.turns, log, {
      count: this.options.countTokens, contextWindow: this.options.contextWindow, replyReserve: this.model.settings.maxTokens,
    });
    const { exchange } = await guardedCall(
      this.model, fitted.messages,
      { afterEpisode: episodeIndex, kind: 'meta_agent', userMessage: fitted.userMessage, droppedEpisodes: fitted.droppedEpisodes, notice: fitted.notice },
      current, signal,
    );
    if (!exchange.error) this.turns.push({ episode: episodeIndex, userMessage: fitted.userMessage, reply: exchange.reply });
    return { guidingPrompt: exchange.guidingPromptAfter, exchanges: [exchange] };
  }

  restore(exchanges: readonly PolicyExchange[]): void {
    this.turns = exchanges
      .filter((e) => e.kind === 'meta_agent' && !e.error)
      .map((e) => ({ episode: e.afterEpisode, userMessage: e.userMessage, reply: e.reply }));
  }
}
