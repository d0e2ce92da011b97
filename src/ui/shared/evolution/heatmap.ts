/**
 * The colour scale of the candidate heatmap: a value in [min, max] maps onto a sequential,
 * colour-blind-safe ramp (viridis stops, van der Walt & Smith 2015) from dark purple (low) to
 * yellow (high), with black or white text, whichever contrasts more (WCAG relative luminance).
 * Missing values get no colour. W-AUC tables use a scale from 0 (`wAucDomain`), so a 0 is always
 * the dark end — never painted as the best when nothing scored. Pure.
 */

/** Viridis at t = 0, 0.25, 0.5, 0.75, 1 (sRGB 0–255). */
const STOPS: readonly [number, number, number][] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

export interface HeatColour {
  /** CSS colour of the cell, e.g. "rgb(33 145 140)"; 'transparent' for a missing value. */
  background: string;
  /** '#000' or '#fff'. */
  color: string;
  /** Position on the scale in [0, 1]; null for a missing value. */
  t: number | null;
}

/** Where `value` sits in [min, max], clamped to [0, 1]; 1 when the domain is empty (min = max). */
export function scalePosition(value: number, min: number, max: number): number {
  if (!(max > min)) return 1;
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}

/** The ramp's colour at t in [0, 1], linearly interpolated between stops. */
export function rampAt(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, t)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [STOPS[i]!, STOPS[i + 1]!];
  return [0, 1, 2].map((k) => Math.round(a[k]! + (b[k]! - a[k]!) * f)) as [number, number, number];
}

/** WCAG relative luminance of an sRGB colour (0 = black, 1 = white). */
export function luminance([r, g, b]: readonly [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The cell colour of `value` on the scale [min, max]. */
export function heatColour(value: number | null | undefined, min: number, max: number): HeatColour {
  if (value === null || value === undefined || !Number.isFinite(value)) return { background: 'transparent', color: 'inherit', t: null };
  const t = scalePosition(value, min, max);
  const rgb = rampAt(t);
  const l = luminance(rgb);
  // Contrast with black (l + 0.05) / 0.05 vs with white 1.05 / (l + 0.05): pick the larger.
  const color = (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000' : '#fff';
  return { background: `rgb(${rgb[0]} ${rgb[1]} ${rgb[2]})`, color, t };
}

/** The domain of a table: the min and max of its finite values ([0, 1] when there are none). */
export function domainOf(values: Iterable<number | null | undefined>): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return Number.isFinite(min) ? { min, max } : { min: 0, max: 1 };
}

/** The scale of a W-AUC table: from 0 (no learning) to the table's best value, or [0, 1] when no
 * value is above 0 (then every 0 is the dark end, never the bright "best" end). */
export function wAucDomain(values: Iterable<number | null | undefined>): { min: number; max: number } {
  const { min, max } = domainOf(values);
  const low = Math.min(0, min);
  return { min: low, max: max > low ? max : low + 1 };
}

/** The legend's CSS gradient: the ramp's stops from left (low) to right (high). */
export const RAMP_GRADIENT = `linear-gradient(to right, ${STOPS.map((c, i) => `rgb(${c[0]} ${c[1]} ${c[2]}) ${(i / (STOPS.length - 1)) * 100}%`).join(', ')})`;
