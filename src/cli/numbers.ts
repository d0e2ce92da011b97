/**
 * Strict numeric options: decimal digits only (no "1e3", "0x10", " 7", ""), within stated bounds.
 * One place for every command's integer and number flags.
 */
import { UsageError } from './usage-error.ts';
import { EVALUATION_DEFAULTS } from '../eval/run-defaults.ts';

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

/** `--power-delta X`: the Δ (W-AUC units, 0 < X ≤ 1) a repeats-needed estimate is for; 0.05 when absent. @throws UsageError */
export function powerDeltaOption(value: string | undefined): number {
  const x = numberOption(value, 'power-delta');
  if (x === undefined) return EVALUATION_DEFAULTS.powerDelta;
  if (!(x > 0 && x <= 1)) throw new UsageError(`--power-delta must be a W-AUC difference above 0 and at most 1, got "${value}"`);
  return x;
}

/** `--contrast A:B` (policy or arm ids, a − b). @throws UsageError */
export function contrastOption(value: string): { a: string; b: string } {
  const at = value.indexOf(':');
  const a = value.slice(0, at).trim();
  const b = value.slice(at + 1).trim();
  if (at < 0 || !a || !b || a === b) throw new UsageError(`--contrast must be two different ids as A:B (the difference A − B), got "${value}"`);
  return { a, b };
}
