/**
 * Local acceptance (method.md 2f; GEPA src/gepa/strategies/acceptance.py): by default a child is accepted only if its summed minibatch score — the
 * sum over minibatch tasks of the mean W-AUC over repeats — is strictly higher than its parent's.
 */
export function acceptStrictImprovement(parentSum: number, childSum: number): boolean {
  return childSum > parentSum;
}

/** GEPA's ImprovementOrEqualAcceptance (≥ 0.1.4): a child whose summed minibatch score equals its
 * parent's is accepted too (lateral moves). */
export function acceptImprovementOrEqual(parentSum: number, childSum: number): boolean {
  return childSum >= parentSum;
}

export const ACCEPTANCES = ['strict_improvement', 'improvement_or_equal'] as const;
/** The acceptance rule of a run (GEPA's `acceptance_criterion`); default `strict_improvement`. */
export type Acceptance = (typeof ACCEPTANCES)[number];

/** The rule for `acceptance`. */
export function acceptanceRule(acceptance: Acceptance = 'strict_improvement'): (parentSum: number, childSum: number) => boolean {
  return acceptance === 'improvement_or_equal' ? acceptImprovementOrEqual : acceptStrictImprovement;
}
