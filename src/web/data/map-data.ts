/**
 * The map's data (WebArena's OpenStreetMap in miniature): places with a category, an address and
 * coordinates in km on a 12 × 12 km town grid. Road distance is the grid (Manhattan) distance;
 * travel time uses fixed speeds per mode. Generated from the seed.
 */
import type { RandomSource } from '../interface.ts';
import { BRANDS, between, distinct, STREETS } from './words.ts';

export const PLACE_CATEGORIES = ['Café', 'Museum', 'Hospital', 'Library', 'Park', 'Restaurant', 'Pharmacy', 'Bakery'];

/** Travel modes: query value, label, speed in km/h. */
export const TRAVEL_MODES: { id: string; label: string; speedKmh: number }[] = [
  { id: 'car', label: 'Car', speedKmh: 30 },
  { id: 'bike', label: 'Bicycle', speedKmh: 15 },
  { id: 'foot', label: 'Foot', speedKmh: 5 },
];

export interface Place {
  /** e.g. "p7". */
  id: string;
  name: string;
  category: string;
  address: string;
  /** km east / north of the town's south-west corner, one decimal. */
  x: number;
  y: number;
}

export interface MapData {
  places: Place[];
  /** A place name that is on no map (for unachievable tasks). */
  absentPlace: string;
}

/** Generate the town for a seed: 30 places. */
export function generateMap(rng: RandomSource): MapData {
  const names = distinct(31, () => ({ brand: rng.pick(BRANDS), category: rng.pick(PLACE_CATEGORIES) }), (p) => `${p.brand} ${p.category}`);
  const places = names.slice(0, 30).map((p, i) => ({
    id: `p${i + 1}`, name: `${p.brand} ${p.category}`, category: p.category, address: `${between(rng, 1, 120)} ${rng.pick(STREETS)} Street`,
    x: between(rng, 0, 120) / 10, y: between(rng, 0, 120) / 10,
  }));
  return { places, absentPlace: `${names[30]!.brand} ${names[30]!.category}` };
}

/** Road distance in km (grid), one decimal. */
export function roadKm(a: Place, b: Place): number {
  return Math.round((Math.abs(a.x - b.x) + Math.abs(a.y - b.y)) * 10) / 10;
}

/** Straight-line distance in km, one decimal. */
export function straightKm(a: Place, b: Place): number {
  return Math.round(Math.hypot(a.x - b.x, a.y - b.y) * 10) / 10;
}

/** Travel time in whole minutes (rounded up) by road for a mode id. @throws Error for an unknown mode */
export function travelMinutes(a: Place, b: Place, mode: string): number {
  const m = TRAVEL_MODES.find((t) => t.id === mode);
  if (!m) throw new Error(`unknown travel mode ${mode}`);
  return Math.ceil((roadKm(a, b) / m.speedKmh) * 60);
}
