/**
 * Budget in metric calls (method.md, "Outer loop" 3): every session is one metric call; a
 * proposal that fails before any child session is charged one. An iteration starts only if its
 * worst case — parent minibatch + child minibatch + full validation — fits in what is left, so
 * the budget is never exceeded.
 */
export function iterationWorstCase(minibatchSize: number, valTasks: number, repeats: number): number {
  return (2 * minibatchSize + valTasks) * repeats;
}

export function canStartIteration(used: number, budget: number, minibatchSize: number, valTasks: number, repeats: number): boolean {
  return used + iterationWorstCase(minibatchSize, valTasks, repeats) <= budget;
}
