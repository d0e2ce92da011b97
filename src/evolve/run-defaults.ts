/**
 * An evolution's defaults, defined once (method.md, "Outer loop"; GEPA's names): repeats of each
 * minibatch and validation session (1: the reference repeats validation 5 times, we keep first
 * runs cheap), minibatch size b = 1, budget 50 metric calls, the loop's RNG seed 0, 5 consecutive
 * failed proposals stop the run, the LLM proposer with GEPA's instruction and optimizer, GEPA's
 * Pareto parent choice and strict-improvement acceptance, at most 5 merges, top-k 5, ε = 0.1.
 * K and S are the session's (`ttl/run-defaults.ts`). Read by the Evolve form, the experiment
 * executors, `metattl evolve`'s parser and its help text. No imports (the strategies import it),
 * so `metattl --help` stays light; test/run-defaults.test.ts checks each name is one its
 * strategy knows.
 */
export const EVOLUTION_DEFAULTS = {
  repeats: 1,
  trainRepeats: 1,
  valRepeats: 1,
  minibatchSize: 1,
  budgetMetricCalls: 50,
  rngSeed: 0,
  maxConsecutiveFailures: 5,
  seedStrategy: '',
  proposer: 'llm',
  proposerInstruction: 'gepa',
  optimizer: 'gepa',
  proposerInput: 'full',
  candidateSelection: 'pareto',
  acceptance: 'strict_improvement',
  maxMerges: 5,
  topK: 5,
  epsilon: 0.1,
} as const;
