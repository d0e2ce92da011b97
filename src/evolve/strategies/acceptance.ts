/**
 * Local acceptance (method.md 2f): a child is accepted only if its summed minibatch score — the
 * sum over minibatch tasks of the mean W-AUC over repeats — is strictly higher than its parent's.
 */
export function acceptStrictImprovement(parentSum: number, childSum: number): boolean {
  return childSum > parentSum;
}
