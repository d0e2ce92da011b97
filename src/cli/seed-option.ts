/**
 * The --seed option: a non-negative integer (the frotz seed; 0 is a fixed state, not "random"),
 * or `random`, which draws one seed now — the drawn value is what gets recorded and printed.
 */
import { randomInt } from 'node:crypto';
import { UsageError } from './usage-error.ts';

/** Largest seed drawn for `random` (any integer in [0, 2^32) is valid). */
const RANDOM_SEED_LIMIT = 2 ** 31;

export function seedFromOption(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === 'random') return randomInt(RANDOM_SEED_LIMIT);
  if (!/^\d+$/.test(value) || Number(value) > 0xffffffff) throw new UsageError(`--seed must be a whole number from 0 to 4294967295 or "random", got "${value}"`);
  return Number(value);
}
