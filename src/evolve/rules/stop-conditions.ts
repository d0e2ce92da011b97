/**
 * Stop conditions besides the budget (GEPA ≥ 0.1.4, src/gepa/utils/stop_condition.py), checked
 * before each iteration as GEPA's `_should_stop` is:
 * - no improvement for N iterations (NoImprovementStopper: every check compares the best mean
 *   validation W-AUC with the best seen; N checks in a row without a higher one stop the run);
 * - a score threshold (ScoreThresholdStopper: best mean validation W-AUC ≥ X);
 * - a time limit (TimeoutStopCondition: minutes since this invocation started; a resume starts
 *   the clock again, as a new GEPA process does);
 * - a USD cap on the proposer alone (MaxReflectionCostStopper: its cost so far ≥ X);
 * - a stop file (FileStopper; the CLI's `<store>/STOP`): the run stops resumable, as Ctrl-C does.
 * The first three end the run `complete`; the checks replay identically on resume because the
 * loop replays its cached iterations through them.
 */
import type { StopConditionsConfig, StopReason } from '../interface.ts';

export type { StopConditionsConfig } from '../interface.ts';

/** What a check reads of the run and the outside world. */
export interface StopCheckInput {
  /** Best mean validation W-AUC in the pool so far (0 when none). */
  bestMeanVal: number;
  /** The clock, ms. */
  nowMs: number;
  /** The proposer's cost so far, USD (null when its price is unknown). */
  proposerUsd: number | null;
  /** Whether a stop file is present. */
  stopFile: boolean;
}

export interface StopDecision {
  reason: Exclude<StopReason, null>;
  message: string;
}

/** Checks the conditions of one invocation; call `check` once before each iteration. */
export class StopConditions {
  private best = -Infinity;
  private withoutImprovement = 0;

  /** @param startedAtMs when this invocation started (the time limit's origin), ms */
  constructor(private readonly config: StopConditionsConfig, private readonly startedAtMs: number) {}

  /** The first condition met, or null to go on. */
  check(input: StopCheckInput): StopDecision | null {
    const c = this.config;
    if (input.stopFile) return { reason: 'stop_file', message: 'A stop file was found; remove it and resume to continue.' };
    if (c.noImprovementIterations !== undefined) {
      if (input.bestMeanVal > this.best) {
        this.best = input.bestMeanVal;
        this.withoutImprovement = 0;
      } else {
        this.withoutImprovement += 1;
      }
      if (this.withoutImprovement >= c.noImprovementIterations) {
        return { reason: 'no_improvement', message: `No higher best validation W-AUC for ${this.withoutImprovement} iterations (best ${this.best.toFixed(4)}).` };
      }
    }
    if (c.scoreThreshold !== undefined && input.bestMeanVal >= c.scoreThreshold) {
      return { reason: 'score_threshold', message: `The best validation W-AUC ${input.bestMeanVal.toFixed(4)} reached the threshold ${c.scoreThreshold}.` };
    }
    if (c.timeLimitMinutes !== undefined && input.nowMs - this.startedAtMs > c.timeLimitMinutes * 60_000) {
      return { reason: 'time_limit', message: `The time limit of ${c.timeLimitMinutes} minutes was reached.` };
    }
    if (c.maxProposerUsd !== undefined && input.proposerUsd !== null && input.proposerUsd >= c.maxProposerUsd) {
      return { reason: 'proposer_usd_cap', message: `The proposer has cost $${input.proposerUsd.toFixed(4)}, at its cap of $${c.maxProposerUsd}.` };
    }
    return null;
  }
}
