/**
 * Strict numeric options: decimal digits only (no "1e3", "0x10", " 7", ""), within stated bounds.
 * One place for every command's integer and number flags.
 */
import { UsageError } from './usage-error.ts';

/** An integer flag in [min, max]; `fallback` when absent. @throws UsageError */
export function intOption(value: string | undefined, name: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** A non-negative decimal flag (e.g. USD); `undefined` when absent. @throws UsageError */
export function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new UsageError(`--${name} must be a non-negative number, got "${value}"`);
  return Number(value);
}

/** Upper bounds that keep a typo from starting a run that never ends. */
export const LIMITS = { episodes: 100, steps: 1000, repeats: 100, budget: 100_000, concurrency: 64 } as const;
