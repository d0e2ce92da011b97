/**
 * Adaptation policies: what happens between episodes (method.md, "Baselines" and "Meta-agent").
 * One interface; one small module per policy in ./policies. A policy turns an episode's
 * trajectory into the next guiding prompt and records every LLM exchange it made.
 */
import type { LearnStatus } from '../agents/meta-prompt.ts';
import type { Trajectory } from '../agents/trajectory.ts';
import type { CallUsage, ChatMessage } from '../llm/interface.ts';

export type PolicyKind = 'static' | 'reflexion' | 'memory' | 'textgrad' | 'meta' | 'human';

/** Which policy a session uses; `meta` with an empty strategy is the naive meta-agent. */
export type PolicySpec =
  | { kind: 'static' }
  | { kind: 'reflexion' }
  | { kind: 'memory' }
  /** TextGrad (Yuksekgonul et al.): a textual-gradient critique, then an update step, per episode. */
  | { kind: 'textgrad' }
  /** `raw: true`: `strategy` is the meta-agent's whole system message, byte for byte — no header,
   * no footer, not trimmed (a published prompt run verbatim; meta-prompt.ts `metaPromptOf`). */
  | { kind: 'meta'; name: string; strategy: string; raw?: true }
  /** "You are the meta-agent": a person reads each episode log and writes the next guiding prompt. */
  | { kind: 'human' };

/** One LLM call made by a policy between episodes. */
export interface PolicyExchange {
  /** The episode (1-based) whose end triggered the call. */
  afterEpisode: number;
  kind: 'meta_agent' | 'reflection' | 'summary' | 'memory_rewrite' | 'textual_gradient' | 'textgrad_update' | 'human';
  /** The new user message sent (the growing chat is rebuilt from earlier exchanges). */
  userMessage: string;
  reply: string;
  finishReason: string | null;
  learnStatus: LearnStatus | null;
  /** The guiding prompt in force after this exchange. */
  guidingPromptAfter: string;
  usage: CallUsage | null;
  /** Episodes whose logs were left out of this call to fit the context window. */
  droppedEpisodes: number[];
  /** Shown to the user (e.g. "logs of episodes 1–2 dropped to fit the 8,000-token window"). */
  notice: string | null;
  /** The call failed after retries: the previous guiding prompt is kept. */
  error: { kind: string; message: string } | null;
  /** The model the provider says answered (the reply's `model`); absent when it named none. */
  providerModel?: string;
  /** The reply's `system_fingerprint`, where the provider sent one. */
  systemFingerprint?: string;
}

export interface PolicyUpdate {
  guidingPrompt: string;
  exchanges: PolicyExchange[];
}

export interface AdaptationPolicy {
  readonly kind: PolicyKind;
  /**
   * The guiding prompt for episode `episodeIndex + 1`.
   * @throws BudgetReachedError, or LlmError('aborted') on Stop; other LLM faults are recorded in
   *   the exchange and the current guiding prompt is kept.
   */
  update(episodeIndex: number, trajectory: Trajectory, current: string, signal?: AbortSignal): Promise<PolicyUpdate>;
  /** Rebuild internal state (chat history, memories) from recorded exchanges, for resume. */
  restore(exchanges: readonly PolicyExchange[]): void;
}

/** The system message a policy's chat starts with (for display and hashing). */
export type SystemPrompt = ChatMessage & { role: 'system' };
