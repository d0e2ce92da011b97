/**
 * The persisted record of a session: its config (models, temperatures, K, S, seed, policy,
 * meta-prompt text and hash — never a key), every episode with its guiding prompt and full
 * trajectory, every policy exchange, per-episode final scores, W-AUC, average and best score,
 * and wall time; the attempts cut short by provider faults (never scored). Tokens and cost by role
 * are derived from the steps and exchanges, faulted attempts included (usageOf), so they stay
 * right across resumes.
 */
import type { GuideEdit, Trajectory, TrajectoryStep } from '../agents/trajectory.ts';
import type { ParameterAdaptation, Role, RoleSettings, SettingsChangeRecord } from '../llm/interface.ts';
import type { RoleTotals } from '../llm/usage-meter.ts';
import type { PaceSettings } from './pace.ts';
import type { PolicyExchange, PolicySpec } from './policy.ts';
import type { TaskDescriptor } from '../agents/kind-texts.ts';

export interface SessionConfig {
  story: { id: string | null; title: string; md5: string; maxScore: number | null };
  /** The task played (absent in records made before web tasks; then a Z-machine story). For a
   * web task `story` holds the task id as id and title, a hash of it as md5, and max score 1. */
  task?: TaskDescriptor;
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
  /** Whether the reply contracts were enforced with grammars (a local model's setting); absent for
   * providers that take no grammar and in records made before it was recorded (= off). */
  replyGrammar?: boolean;
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

/**
 * A call that failed after retries and was therefore not counted as play (method.md
 * "Termination and outcomes", as amended by the playground: a provider fault is not a result).
 * `episode`: an episode attempt cut short (its steps are kept here, not in the episode, and the
 * episode is played again from its start on resume). `policy`: the update after episode
 * `episodeIndex` failed (its exchanges are kept here and the update is made again on resume).
 */
export interface FaultedAttempt {
  phase: 'episode' | 'policy';
  episodeIndex: number;
  kind: string;
  message: string;
  steps: TrajectoryStep[];
  exchanges: PolicyExchange[];
  at: string;
}

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
  /** Episode attempts cut short by a provider fault (never scored); records stored before they
   * were counted get it at load (session-payload.ts). */
  faultedEpisodes: number;
  /** Every failed attempt, in order ([] for records stored before faults were kept). */
  faults: FaultedAttempt[];
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
  /** Every resume that was allowed to change the models or settings (`--allow-changed-settings`),
   * in order; absent when none. */
  settingsChanges?: SettingsChangeRecord[];
  /** The presenter pace the session last ran at (pace.ts): a setting kept with the run and shown
   * with it, never a result — exports leave it out, and a paced run's other fields equal an
   * unpaced one's. Absent: run without a pace (or before pace existed). */
  pace?: PaceSettings;
  /** The code that made the record (src/common/code-version.ts: "<version>+<commit>", or
   * "unknown"); absent in records made before it was recorded. */
  codeVersion?: string;
  /** A person's edits of the guiding prompt during episodes, in the order made (absent in
   * records made before they existed, and in sessions nobody edited). A session with one is not
   * the policy's own result. */
  interventions?: GuideIntervention[];
}

/**
 * A human intervention: during episode `episode` a person paused the run and edited the guiding
 * prompt (the page's Pause → "Edit the guide" → Resume). The actor plays step `step` (1-based)
 * and every later step of the episode with `newGuide` instead of `oldGuide`; the policy's next
 * update starts from it too. Recorded in the session, so a resume replays it.
 */
export interface GuideIntervention extends GuideEdit {
  episode: number;
}

/**
 * The guiding prompt the actor uses at step `step` of episode `episode`: the episode's own guide,
 * replaced by each recorded intervention of that episode at or before that step, in order.
 * `step` = Infinity gives the guide in force at the episode's end. Unknown episode: the session's
 * initial guide.
 */
export function guideInEffect(record: SessionRecord, episode: number, step: number): string {
  const start = record.episodes.find((e) => e.index === episode)?.guidingPrompt ?? record.config.initialGuidingPrompt;
  return (record.interventions ?? []).filter((i) => i.episode === episode && i.step <= step).reduce((_, i) => i.newGuide, start);
}

/** Whether a person edited the guide during the session (it is then not the policy's own result). */
export function hasIntervention(record: Pick<SessionRecord, 'interventions'>): boolean {
  return (record.interventions?.length ?? 0) > 0;
}

/** How comparisons label a session a person edited mid-episode. */
export const HUMAN_EDIT_LABEL = 'with a human edit';

/** Tokens, latency and cost by role, from the record's steps (actor) and exchanges (reflection
 * or meta-agent calls, counted as metaAgent). */
export function usageOf(record: SessionRecord): Record<Role, RoleTotals> {
  const zero = (): RoleTotals => ({ calls: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cachedPromptTokens: 0, latencyMs: 0, costUsd: 0 });
  const totals: Record<Role, RoleTotals> = { actor: zero(), metaAgent: zero(), proposer: zero() };
  const faulted = record.faults;
  for (const steps of [...record.episodes.map((e) => e.steps), ...faulted.map((f) => f.steps)]) {
    for (const s of steps) {
      if (s.parseStatus === 'llm_error') continue;
      const t = totals.actor;
      t.calls++;
      t.promptTokens += s.promptTokens;
      t.completionTokens += s.completionTokens;
      t.reasoningTokens += s.reasoningTokens;
      t.cachedPromptTokens = (t.cachedPromptTokens ?? 0) + (s.cachedPromptTokens ?? 0);
      t.latencyMs += s.latencyMs;
      t.costUsd += s.costUsd;
    }
  }
  for (const e of [...record.exchanges, ...faulted.flatMap((f) => f.exchanges)]) {
    if (!e.usage) continue;
    const t = totals.metaAgent;
    t.calls++;
    t.promptTokens += e.usage.promptTokens;
    t.completionTokens += e.usage.completionTokens;
    t.reasoningTokens += e.usage.reasoningTokens;
    t.cachedPromptTokens = (t.cachedPromptTokens ?? 0) + (e.usage.cachedPromptTokens ?? 0);
    t.latencyMs += e.usage.latencyMs;
    t.costUsd += e.usage.costUsd;
  }
  return totals;
}
