/**
 * The persisted record of a session: its config (models, temperatures, K, S, seed, policy,
 * meta-prompt text and hash — never a key), every episode with its guiding prompt and full
 * trajectory, every policy exchange, per-episode final scores, W-AUC, average and best score,
 * and wall time. Tokens and cost by role are derived from the steps and exchanges (usageOf), so
 * they stay right across resumes.
 */
import type { Trajectory, TrajectoryStep } from '../agents/trajectory.ts';
import type { ParameterAdaptation, Role, RoleSettings } from '../llm/interface.ts';
import type { RoleTotals } from '../llm/usage-meter.ts';
import type { PolicyExchange, PolicySpec } from './policy.ts';

export interface SessionConfig {
  story: { id: string | null; title: string; md5: string; maxScore: number | null };
  seed: number;
  policy: PolicySpec;
  /** The meta-agent's full system prompt and its sha256 (null for static/reflexion/memory). */
  metaPrompt: { text: string; hash: string } | null;
  /** K and S. */
  episodes: number;
  maxSteps: number;
  initialGuidingPrompt: string;
  models: { actor: RoleSettings; reflection: RoleSettings | null };
  provider: { presetId: string; baseUrl: string };
  /** Context window assumed for the meta-agent / reflection model, tokens. */
  contextWindow: number | null;
}

export interface EpisodeRecord {
  index: number;
  guidingPrompt: string;
  /** Set when the episode ended; null while it runs (then `steps` holds what is done). */
  trajectory: Trajectory | null;
  steps: TrajectoryStep[];
  finalScore: number | null;
  termination: Trajectory['termination'] | null;
}

export type SessionStatus = 'running' | 'complete' | 'stopped';

export interface SessionRecord {
  format: 'metattl-session-1';
  id: string;
  config: SessionConfig;
  status: SessionStatus;
  /** Why a stopped session stopped: Stop, a USD/token cap, or a provider fault that no retry can
   * fix (bad key, unreachable server, rejected request). */
  stopReason: 'user' | 'budget' | 'provider' | null;
  stopMessage: string | null;
  episodes: EpisodeRecord[];
  exchanges: PolicyExchange[];
  /** Final score per completed episode (score points). */
  scores: number[];
  wAuc: number | null;
  averageScore: number | null;
  bestScore: number | null;
  startedAt: string;
  finishedAt: string | null;
  /** Wall time spent running, ms, summed over resumes. */
  wallTimeMs: number;
  /** Request parameters the provider rejected for this run's models and that were adapted
   * (src/llm/adaptations.ts); absent in records made before it existed. */
  adaptations?: ParameterAdaptation[];
}

/** Tokens, latency and cost by role, from the record's steps (actor) and exchanges (reflection
 * or meta-agent calls, counted as metaAgent). */
export function usageOf(record: SessionRecord): Record<Role, RoleTotals> {
  const zero = (): RoleTotals => ({ calls: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, latencyMs: 0, costUsd: 0 });
  const totals: Record<Role, RoleTotals> = { actor: zero(), metaAgent: zero(), proposer: zero() };
  for (const episode of record.episodes) {
    for (const s of episode.steps) {
      if (s.parseStatus === 'llm_error') continue;
      const t = totals.actor;
      t.calls++;
      t.promptTokens += s.promptTokens;
      t.completionTokens += s.completionTokens;
      t.reasoningTokens += s.reasoningTokens;
      t.latencyMs += s.latencyMs;
      t.costUsd += s.costUsd;
    }
  }
  for (const e of record.exchanges) {
    if (!e.usage) continue;
    const t = totals.metaAgent;
    t.calls++;
    t.promptTokens += e.usage.promptTokens;
    t.completionTokens += e.usage.completionTokens;
    t.reasoningTokens += e.usage.reasoningTokens;
    t.latencyMs += e.usage.latencyMs;
    t.costUsd += e.usage.costUsd;
  }
  return totals;
}
