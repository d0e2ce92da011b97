/**
 * Ranges of the numbers our export files carry, for the import schemas (zod): a file cannot bring
 * in a score, W-AUC, token count or cost that no run could have produced (1e308, −1e9, …).
 * - Scores and moves: the Z-machine keeps them in signed 16-bit words, [−32768, 32767] points.
 * - Max scores: whole points in [1, 32767].
 * - W-AUC: Σ t·s_t / (M·Σ t) with |s_t| ≤ 32768 and M ≥ 1, so |W-AUC| ≤ 32768 (in [0, 1] for
 *   scores in [0, M]); the same bound holds for means of W-AUCs and their intervals.
 * - Tokens: whole numbers in [0, 10^12]; latency and wall time in [0, 10^12] ms; cost in
 *   [0, 10^9] USD.
 */
import { z } from 'zod';

export const SCORE_MIN = -32768;
export const SCORE_MAX = 32767;
export const WAUC_BOUND = 32768;

/** A game score or move count, score points (signed 16-bit). */
export const scoreNumber = (): z.ZodNumber => z.number().int().min(SCORE_MIN).max(SCORE_MAX);
/** A change of score between two steps (difference of two scores). */
export const rewardNumber = (): z.ZodNumber => z.number().int().min(SCORE_MIN - SCORE_MAX).max(SCORE_MAX - SCORE_MIN);
/** A mean of scores (not necessarily whole). */
export const meanScoreNumber = (): z.ZodNumber => z.number().min(SCORE_MIN).max(SCORE_MAX);
/** A game's maximum score M. */
export const maxScoreNumber = (): z.ZodNumber => z.number().int().min(1).max(SCORE_MAX);
/** A W-AUC, a mean of W-AUCs, or an interval bound of one. */
export const wAucNumber = (): z.ZodNumber => z.number().min(-WAUC_BOUND).max(WAUC_BOUND);
/** A token count. */
export const tokenNumber = (): z.ZodNumber => z.number().int().min(0).max(1e12);
/** A duration, ms. */
export const msNumber = (): z.ZodNumber => z.number().min(0).max(1e12);
/** A cost, USD. */
export const usdNumber = (): z.ZodNumber => z.number().min(0).max(1e9);
