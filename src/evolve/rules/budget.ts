/**
 * Budget in metric calls (method.md, "Outer loop" 3; GEPA counts the same unit): a metric call is
 * one (candidate, task) evaluation, whatever its repeats; the sessions it plays are counted
 * separately. A proposal that fails before any child session is charged one metric call. An
 * iteration starts only if its worst case — parent minibatch + child minibatch + full validation
 * — fits in what is left, and a run starts only if the seed's validation plus one worst-case
 * iteration fits, so the budget is never exceeded and a started run makes at least one proposal.
 * With k proposals per iteration (rules/proposals.ts) the worst case is k · (2b + V); an
 * iteration that may try a merge first (rules/merge.ts) needs at most the larger of that and
 * the merge's min(5, V) + V.
 */

/** What the budget arithmetic needs from a run's config. */
export interface BudgetShape {
  budgetMetricCalls: number;
  minibatchSize: number;
  trainTasks: number;
  valTasks: number;
  /** Sessions per (candidate, minibatch task) and per (candidate, validation task). */
  trainRepeats: number;
  valRepeats: number;
  /** Proposals per iteration, P · N (default 1). */
  proposalsPerIteration?: number;
}

/** The minibatch size actually drawn: b, capped by the number of training tasks. */
export function effectiveMinibatch(minibatchSize: number, trainTasks: number): number {
  return Math.max(0, Math.min(minibatchSize, trainTasks));
}

/** Metric calls an iteration of k proposals may need at most: k · (2b + V). */
export function iterationWorstCase(minibatchSize: number, valTasks: number, proposals = 1): number {
  return proposals * (2 * minibatchSize + valTasks);
}

/** Metric calls a merge may need at most: its distinct subsample tasks (≤ min(5, V)) + V. */
export function mergeWorstCase(valTasks: number, subsampleSize = 5): number {
  return Math.min(subsampleSize, valTasks) + valTasks;
}

/** Whether an iteration whose worst case is `worstCase` metric calls fits (default: one
 * proposal's, 2b + V). */
export function canStartIteration(used: number, budget: number, minibatchSize: number, valTasks: number, worstCase = iterationWorstCase(minibatchSize, valTasks)): boolean {
  return used + worstCase <= budget;
}

export interface BudgetPlan {
  /** Metric calls (= validation tasks) and sessions of the seed's validation. */
  seedCalls: number;
  seedSessions: number;
  /** 2b + V. */
  iterationWorstCase: number;
  /** The smallest budget that can start: seed validation + one worst-case iteration. */
  minimumBudget: number;
  /** False when the budget cannot pay for the seed's validation plus one full iteration. */
  canStart: boolean;
  /** Proposals when every child is accepted (the fewest) … when every child is rejected or every
   * proposal fails (the most); merges are not counted. */
  proposals: { low: number; high: number };
  /** Sessions played: fewest … most over those scenarios. */
  sessions: { low: number; high: number };
  /** The budget that guarantees 3 proposals: seed + 3 · worst case. */
  budgetForThree: number;
}

/** Count what a budget allows, iteration by iteration, under the loop's start rule. */
export function planBudget(shape: BudgetShape): BudgetPlan {
  const v = shape.valTasks;
  const b = effectiveMinibatch(shape.minibatchSize, shape.trainTasks);
  const k = shape.proposalsPerIteration ?? 1;
  const worst = iterationWorstCase(b, v, k);
  const seedSessions = v * shape.valRepeats;
  const run = (calls: number, sessionsPerIteration: number) => {
    let used = v;
    let sessions = seedSessions;
    let n = 0;
    while (b > 0 && used + worst <= shape.budgetMetricCalls) [used, sessions, n] = [used + calls, sessions + sessionsPerIteration, n + 1];
    return { n: n * k, sessions };
  };
  const accepted = run(k * (2 * b + v), k * (2 * b * shape.trainRepeats + seedSessions));
  const rejected = run(k * 2 * b, k * 2 * b * shape.trainRepeats);
  const failed = run(k * (b + 1), k * b * shape.trainRepeats);
  return {
    seedCalls: v, seedSessions, iterationWorstCase: worst, minimumBudget: v + worst,
    canStart: b > 0 && v + worst <= shape.budgetMetricCalls,
    proposals: { low: accepted.n, high: Math.max(rejected.n, failed.n) },
    sessions: { low: Math.min(accepted.sessions, rejected.sessions, failed.sessions), high: Math.max(accepted.sessions, rejected.sessions) },
    budgetForThree: v + 3 * worst,
  };
}

/** Why a run cannot start, with the numbers (null when it can). */
export function budgetRefusal(plan: BudgetPlan, budget: number): string | null {
  if (plan.canStart) return null;
  return `The budget of ${budget} metric call${budget === 1 ? '' : 's'} cannot pay for the seed's validation (${plan.seedCalls}) plus one full iteration (${plan.iterationWorstCase}: 2 × minibatch + validation tasks): at least ${plan.minimumBudget} are needed (${plan.budgetForThree} guarantee 3 proposals).`;
}

/** Sessions per (candidate, task) for a sweep's purpose; runs stored before the split use `repeats`. */
export function repeatsFor(config: { repeats: number; trainRepeats?: number; valRepeats?: number }, purpose: 'train' | 'val'): number {
  return (purpose === 'train' ? config.trainRepeats : config.valRepeats) ?? config.repeats;
}
