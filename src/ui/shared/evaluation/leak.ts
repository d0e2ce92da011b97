/**
 * Selection-leak warnings of the Evaluate view (method.md, "Clean splits"): a policy whose
 * meta-prompt was selected on some games (an evolved entry's `selectedOn` = its run's train and
 * validation games) is not held out on those games. Shown before the run from the plan, and after
 * it from the report's `leakWarning`. Pure.
 */

export interface PlannedPolicy {
  id: string;
  /** Game ids the policy's meta-prompt was selected on. */
  selectedOn: readonly string[];
}

export interface PlannedLeak {
  policyId: string;
  /** Games of the plan the policy was selected on, in plan order. */
  games: string[];
  message: string;
}

/** Leaks of a plan: per policy, the planned games it was selected on. */
export function plannedLeaks(policies: readonly PlannedPolicy[], games: readonly string[]): PlannedLeak[] {
  const planned = [...new Set(games)];
  return policies.flatMap((p) => {
    const hit = planned.filter((g) => p.selectedOn.includes(g));
    if (hit.length === 0) return [];
    return [{ policyId: p.id, games: hit, message: `${p.id} was selected on ${hit.join(', ')}: its results there are not a held-out test.` }];
  });
}

/** The leak marker of a results row: a short label and the full message (null when clean). */
export function leakBadge(leakWarning: string | null): { label: string; title: string } | null {
  return leakWarning ? { label: 'leak', title: leakWarning } : null;
}
