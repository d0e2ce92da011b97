/**
 * What the comparisons panel shows (Evaluate and Experiments views), derived purely: the arms and
 * task sets (or experiment steps) a user can pick from, and the comparison a − b of any picked pair
 * — a declared one as reported (Holm-corrected), any other pair exploratory, mirrored when stored
 * the other way round (src/eval/comparisons.ts reverseComparison). No DOM.
 */
import { reverseComparison } from '../../../eval/comparisons.ts';
import type { Comparison, EvaluationReport } from '../../../eval/interface.ts';
import { policyNamesOf } from '../../../eval/report-formats.ts';

export type ShownComparison = Comparison & { step?: string };

/** The scope of a comparison: its experiment step when it has one, else its task set. */
export const scopeOf = (c: ShownComparison): string => c.step ?? c.taskSet;

/** Arms and scopes present in the comparisons, in first-seen order. */
export function pairChoices(all: readonly ShownComparison[]): { arms: string[]; scopes: string[] } {
  return { arms: [...new Set(all.flatMap((c) => [c.a, c.b]))], scopes: [...new Set(all.map(scopeOf))] };
}

/** The comparison a − b in `scope`, from either orientation; null when the pair was not compared there. */
export function findPair(all: readonly ShownComparison[], a: string, b: string, scope: string): ShownComparison | null {
  if (a === b) return null;
  const same = all.find((c) => scopeOf(c) === scope && c.a === a && c.b === b);
  if (same) return same;
  const other = all.find((c) => scopeOf(c) === scope && c.a === b && c.b === a);
  return other ? { ...reverseComparison(other), declared: false, ...(other.step !== undefined ? { step: other.step } : {}) } : null;
}

/** Policy id → name for people, from a report's policies (`policyName`; a library meta-prompt's
 * name, where its id is `user-<uuid>`): the core's (eval/report-formats.ts), which the exported
 * reports use too. Ids with no name are left out. */
export const policyNamesOfReport = (report: Pick<EvaluationReport, 'policies'>): Map<string, string> => policyNamesOf(report);

/** An arm's name for people: its entry in `names`, else its id. */
export const armName = (id: string, names: ReadonlyMap<string, string> = new Map()): string => names.get(id) ?? id;

/** A comparison's "a − b" by name (`label`, what the table shows) and by id (`ids`, the cell's title). */
export function pairLabel(c: Pick<Comparison, 'a' | 'b'>, names: ReadonlyMap<string, string> = new Map()): { label: string; ids: string } {
  return { label: `${armName(c.a, names)} − ${armName(c.b, names)}`, ids: `${c.a} − ${c.b}` };
}
