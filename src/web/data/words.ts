/**
 * Word pools for the synthetic data of the five sites (all invented here; names are combinations,
 * so any resemblance to real products, people or places is chance). Generators draw from these
 * with the injected seeded random source, so a seed always gives the same site.
 */
import type { RandomSource } from '../interface.ts';

export const BRANDS = [
  'Aurora', 'Nimbus', 'Cedar', 'Polar', 'Summit', 'Harbor', 'Ember', 'Willow', 'Orbit', 'Maple', 'Cobalt', 'Juniper',
  'Atlas', 'Breeze', 'Crest', 'Delta', 'Falcon', 'Granite', 'Horizon', 'Ivory', 'Lumen', 'Meadow', 'Nova', 'Onyx',
];

export const FIRST_NAMES = [
  'Alice', 'Bruno', 'Chen', 'Dana', 'Emeka', 'Farah', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kira', 'Luis', 'Maya', 'Nils',
  'Olga', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tariq', 'Uma', 'Viktor', 'Wren', 'Yara',
];

export const LAST_NAMES = [
  'Abbott', 'Berg', 'Castro', 'Diallo', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski', 'Larsen',
  'Moreau', 'Novak', 'Okafor', 'Petrov', 'Quist', 'Rossi', 'Silva', 'Tanaka', 'Ulrich', 'Varga', 'Weber', 'Young',
];

export const ANIMALS = ['otter', 'heron', 'badger', 'lynx', 'falcon', 'marten', 'puffin', 'gecko', 'bison', 'koala', 'raven', 'yak'];
export const MOODS = ['quiet', 'brave', 'sunny', 'rusty', 'lucky', 'misty', 'clever', 'gentle', 'swift', 'cosy', 'wild', 'calm'];

export const STREETS = ['Oak', 'Mill', 'River', 'Station', 'Church', 'Market', 'Hill', 'Bridge', 'Park', 'Garden', 'Castle', 'Harbour'];

/** Draw `count` distinct values from `make` (retrying duplicates). @throws Error when the pool is too small */
export function distinct<T>(count: number, make: () => T, key: (value: T) => string = String): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (let tries = 0; out.length < count; tries++) {
    if (tries > count * 50) throw new Error(`cannot draw ${count} distinct values`);
    const value = make();
    if (seen.has(key(value))) continue;
    seen.add(key(value));
    out.push(value);
  }
  return out;
}

/** A person's full name. */
export function personName(rng: RandomSource): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

/** A forum / forge user name such as "quiet_otter42". */
export function userName(rng: RandomSource): string {
  return `${rng.pick(MOODS)}_${rng.pick(ANIMALS)}${rng.int(90) + 10}`;
}

/** An ISO date (YYYY-MM-DD) in `year`, month in [1, 12]. */
export function isoDate(rng: RandomSource, year: number): string {
  const month = rng.int(12) + 1;
  const day = rng.int(28) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** An integer in [lo, hi]. */
export function between(rng: RandomSource, lo: number, hi: number): number {
  return lo + rng.int(hi - lo + 1);
}
