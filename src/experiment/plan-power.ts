/**
 * The repeats an experiment needs: per evaluation step, the repeats per task at which the
 * game-level t-test (G − 1 df over the step's G games; src/eval/game-level.ts) has 80 % power for
 * a named Δ, from σ (within-game SD of one session's paired difference) and τ (SD of the games'
 * true Δ) — taken from a pilot's comparisons, or stated assumptions. Also the flag's reach: with
 * G games the sign-flip p cannot go below 2 / 2^G, so below 6 games no "Δ > 0 (Holm)" flag is
 * possible at any number of repeats. Pure; no UI, DOM or Node imports.
 */
import { repeatsNeeded } from '../eval/game-level.ts';
import { FLAG_ALPHA } from '../eval/comparisons.ts';
import type { Comparison } from '../eval/interface.ts';
import type { ExperimentPlan } from './interface.ts';
import { gamesOf } from './plan.ts';

export interface VarianceSource {
  sessionSd: number;
  tau: number;
  /** "pilot FILE" or "assumed". */
  from: string;
}

export interface StepPower {
  step: string;
  taskSet: string;
  games: number;
  seedsPerGame: number;
  repeatsPlanned: number;
  repeatsNeeded: number | null;
  reason: string | null;
  /** Whether the sign-flip flag can fire at all with these games (2 / 2^G ≤ α). */
  flagReachable: boolean;
}

/** σ and τ of a pilot: the largest over its declared comparisons (cautious). Null when it has none. */
export function pilotVariance(comparisons: readonly Comparison[], from: string): VarianceSource | null {
  const declared = comparisons.filter((c) => c.declared !== false && c.power);
  if (declared.length === 0) return null;
  return { sessionSd: Math.max(...declared.map((c) => c.power.sessionSd)), tau: Math.max(...declared.map((c) => c.power.tau)), from };
}

/** Per evaluation step, the repeats needed for Δ = `delta` at 80 % power. */
export function planPower(plan: ExperimentPlan, delta: number, variance: VarianceSource): StepPower[] {
  return plan.steps.flatMap((step) => {
    if (step.kind !== 'evaluation') return [];
    const games = gamesOf(step.tasks);
    const seedsPerGame = games.length ? step.tasks.length / games.length : 1;
    const need = repeatsNeeded({ delta, sessionSd: variance.sessionSd, tau: variance.tau, games: games.length, seedsPerGame });
    return [{ step: step.id, taskSet: step.taskSet, games: games.length, seedsPerGame, repeatsPlanned: step.repeats, repeatsNeeded: need.repeats, reason: need.reason, flagReachable: 2 / 2 ** games.length <= FLAG_ALPHA }];
  });
}

/** One line per step for `experiment plan`. */
export function planPowerLines(rows: readonly StepPower[], delta: number, variance: VarianceSource): string[] {
  return [
    `power: repeats per task for 80 % power of the game-level t-test at Δ = ${delta} (σ ${variance.sessionSd.toFixed(3)}, τ ${variance.tau.toFixed(3)}, ${variance.from}):`,
    ...rows.map((r) => `  ${r.step} (${r.games} game${r.games === 1 ? '' : 's'}): ${r.repeatsNeeded ?? '—'}${r.repeatsNeeded === null ? ` (${r.reason})` : ''}; planned ${r.repeatsPlanned}${r.flagReachable ? '' : `; with ${r.games} games the sign-flip p cannot go below ${(2 / 2 ** r.games).toFixed(3)}, so no "Δ > 0 (Holm)" flag is possible at any number of repeats`}`),
  ];
}
