/**
 * The frotz random-number generator, so that a Jericho seed reproduces the Jericho episode.
 * Follows ../shared/jericho/ground-truth.md, "The frotz random-number generator" (frotz 2.54
 * `random.c` behaviour as Jericho drives it). Pure and DOM-free.
 */
import type { RngState } from './interface.ts';

/** Multiplier of frotz's linear congruential generator (A ← A·0x015A4E35 + 1 mod 2^32). */
const LCG_MULTIPLIER = 0x015a4e35;

/** Largest frotz seed (2^32 − 1): seeds are whole numbers in [0, MAX_SEED]. */
export const MAX_SEED = 0xffffffff;

/** True for a valid frotz seed (an integer in [0, 2^32)). Every place that accepts a seed checks
 * with this: the Play and Learn forms, share links, the CLI. */
export const isSeed = (seed: number): boolean => Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED;

/** A generator seeded with `seed` (an integer in [0, 2^32); 0 is a fixed state, not "random"). */
export function createRngState(seed: number): RngState {
  if (!isSeed(seed)) {
    throw new RangeError(`seed must be an integer in [0, 4294967295], got ${seed}`);
  }
  return { seed, a: seed >>> 0, interval: 0, counter: 0 };
}

/**
 * The Z-machine `@random range` opcode with frotz semantics. Mutates `state`.
 * - range > 0: returns a value in 1..range. Normal mode: A ← A·0x015A4E35 + 1 (low 32 bits),
 *   value = (A >> 16) & 0x7FFF, result = value mod range + 1. Counting mode: counter cycles
 *   0..interval−1 and the result is counter mod range + 1.
 * - range ≤ 0 (reseed, returns 0): −range = 0 → back to the user seed (A = seed, normal mode);
 *   1 ≤ −range < 1000 → counting mode with interval −range; otherwise A = −range, normal mode.
 */
export function zRandom(state: RngState, range: number): number {
  if (range <= 0) {
    const r = -range;
    if (r === 0) {
      state.a = state.seed >>> 0;
      state.interval = 0;
    } else if (r < 1000) {
      state.interval = r;
      state.counter = 0;
    } else {
      state.a = r >>> 0;
      state.interval = 0;
    }
    return 0;
  }
  let value: number;
  if (state.interval > 0) {
    value = state.counter;
    state.counter = (state.counter + 1) % state.interval;
  } else {
    state.a = (Math.imul(state.a, LCG_MULTIPLIER) + 1) >>> 0;
    value = (state.a >>> 16) & 0x7fff;
  }
  return (value % range) + 1;
}

/** Restart semantics: frotz sets A back to the seed at every (re)start of the story. */
export function restartRng(state: RngState): void {
  state.a = state.seed >>> 0;
  state.interval = 0;
  state.counter = 0;
}
