/**
 * An evaluation's defaults, defined once: sessions per policy and task (3), the bootstrap's seed
 * (0), the W-AUC difference the repeats-needed estimate is for (0.05) and the policies compared
 * when none are named (static and naive, naive the baseline). K and S are the session's
 * (`ttl/run-defaults.ts`). Read by the Evaluate form, `metattl eval`'s parser and its help text.
 */
export const EVALUATION_DEFAULTS = {
  repeats: 3,
  bootstrapSeed: 0,
  powerDelta: 0.05,
  policies: ['static', 'naive'],
  baseline: 'naive',
} as const;
