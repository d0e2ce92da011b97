/**
 * Progress of a test-time-learning session for the progress bar: work done in step units (an
 * ended episode counts all S of its steps, even when the game ended early; the running episode
 * counts the steps it recorded) and the ETA, extrapolated from the rate of this run segment (so
 * the time before a resume does not skew it; policy calls between episodes are included in the
 * rate). Also a record's recorded tokens and cost. Pure.
 */
import { usageOf, type SessionRecord } from '../../ttl/session-record.ts';

export interface ProgressInput {
  /** K and S. */
  episodes: number;
  maxSteps: number;
  /** Episodes that ended. */
  episodesDone: number;
  /** Steps recorded in the running episode (0 between episodes). */
  currentSteps: number;
}

export interface SessionProgress {
  /** Step units done and in all (K·S). */
  unitsDone: number;
  unitsTotal: number;
  /** unitsDone / unitsTotal, in [0, 1]. */
  fraction: number;
}

/** Work done so far (see module doc). */
export function sessionProgress({ episodes, maxSteps, episodesDone, currentSteps }: ProgressInput): SessionProgress {
  const unitsTotal = Math.max(1, episodes * maxSteps);
  const done = episodesDone >= episodes ? unitsTotal : episodesDone * maxSteps + Math.min(currentSteps, maxSteps);
  const unitsDone = Math.max(0, Math.min(unitsTotal, done));
  return { unitsDone, unitsTotal, fraction: unitsDone / unitsTotal };
}

/**
 * Time left, ms: the units left at the rate of this segment (units done since it started / ms
 * elapsed since). Null when nothing was done in this segment yet (no rate to go by) or when the
 * session is done.
 * @param unitsAtStart units already done when this segment (start or resume) began
 * @param elapsedMs wall time since this segment began, ms
 */
export function etaMs(progress: SessionProgress, unitsAtStart: number, elapsedMs: number): number | null {
  const doneHere = progress.unitsDone - unitsAtStart;
  const left = progress.unitsTotal - progress.unitsDone;
  if (left <= 0 || doneHere <= 0 || !(elapsedMs > 0)) return null;
  return Math.round((left * elapsedMs) / doneHere);
}

/** A duration for people: "45 s", "3 min 5 s", "1 h 02 min". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The ETA of one run segment: it starts at the first progress reported after `restart`; time the
 * run spends held by the presenter's Pause (`hold`) does not count as time the run takes. */
export class EtaClock {
  private segment: { startedMs: number; unitsAtStart: number } | null = null;
  private heldMs = 0;
  private heldSince: number | null = null;

  /** @param clockMs a monotonic ms clock */
  constructor(private readonly clockMs: () => number) {}

  /** A new segment starts (start or resume). */
  restart(): void {
    this.segment = null;
    this.heldMs = 0;
    this.heldSince = null;
  }

  /** The run is held (true) or goes on (false); repeated calls with the same value change nothing. */
  hold(held: boolean): void {
    const now = this.clockMs();
    if (held && this.heldSince === null) this.heldSince = now;
    if (!held && this.heldSince !== null) {
      this.heldMs += now - this.heldSince;
      this.heldSince = null;
    }
  }

  /** Time left, ms, for the progress now (null = unknown; see `etaMs`). */
  eta(progress: SessionProgress): number | null {
    const now = this.clockMs();
    this.segment ??= { startedMs: now, unitsAtStart: progress.unitsDone };
    const held = this.heldMs + (this.heldSince === null ? 0 : now - this.heldSince);
    return etaMs(progress, this.segment.unitsAtStart, now - this.segment.startedMs - held);
  }
}

/** Tokens (prompt + completion) and USD recorded by a session, all roles together. */
export function usageTotalsOf(record: SessionRecord): { tokens: number; cachedTokens: number; costUsd: number } {
  const roles = Object.values(usageOf(record));
  return {
    tokens: roles.reduce((n, r) => n + r.promptTokens + r.completionTokens, 0), cachedTokens: roles.reduce((n, r) => n + (r.cachedPromptTokens ?? 0), 0),
    costUsd: roles.reduce((n, r) => n + r.costUsd, 0),
  };
}
