/**
 * Seed fields that accept a number or the word "random" (the Play view's and the Learn view's): a
 * random seed is drawn once when the game or session starts, with crypto.getRandomValues, and the
 * drawn seed is shown and recorded like a typed one. frotz seeds are whole numbers in [0, 2^32).
 * Pure apart from the default source of randomness, which is injectable.
 */
import { isSeed } from '../state/shelf.ts';

export const RANDOM_SEED = 'random';

export type SeedChoice = { kind: 'fixed'; seed: number } | { kind: 'random' };

export type ParsedSeed = { ok: true; choice: SeedChoice } | { ok: false; message: string };

export const SEED_HELP = 'a whole number from 0 to 4294967295, or “random”';

/** Parse what a person typed in a seed field ("42", " random ", "RANDOM"). */
export function parseSeedText(text: string): ParsedSeed {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === RANDOM_SEED) return { ok: true, choice: { kind: 'random' } };
  const seed = trimmed === '' ? Number.NaN : Number(trimmed);
  return isSeed(seed) ? { ok: true, choice: { kind: 'fixed', seed } } : { ok: false, message: `Enter ${SEED_HELP}.` };
}

/** The text a seed field shows. */
export const seedText = (seed: number, random: boolean): string => (random ? RANDOM_SEED : String(seed));

/** Fills a Uint32Array with random values (crypto.getRandomValues in the page). */
export type RandomFill = (buffer: Uint32Array) => Uint32Array;

const cryptoFill: RandomFill = (buffer) => globalThis.crypto.getRandomValues(buffer);

/** A seed drawn uniformly from [0, 2^32). */
export function drawSeed(fill: RandomFill = cryptoFill): number {
  return fill(new Uint32Array(1))[0]!;
}
