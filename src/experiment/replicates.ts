/**
 * Replicated evolutions: an evolution arm with `replicates: n` runs n independent evolutions (rng
 * seeds base + r − 1), each chosen prompt is evaluated as its own policy `<arm>#r<r>`, and the arm
 * is reported across them, so the optimiser's run-to-run variance is inside its interval.
 *
 * The interval (`replicatedBootstrapMean`): a percentile bootstrap (Efron & Tibshirani 1993, ch. 13;
 * B = 2,000, 95 %) over the crossed design replicates × games, resampling both factors
 * independently as the pigeonhole bootstrap does for crossed random effects (Owen 2007, "The
 * pigeonhole bootstrap", Ann. Appl. Stat. 1(2)), with the repeats nested inside each cell as the
 * hierarchical bootstrap does (Davison & Hinkley 1997, §3.8). One resample:
 *   1. draw R replicates with replacement (the outer level; with R = 1 nothing is drawn);
 *   2. draw G games with replacement;
 *   3. for each drawn game and each drawn replicate: draw that game's seeds with replacement (a
 *      game with one seed draws none), then each drawn seed's values with replacement;
 *   θ* = the mean of every value drawn. The estimate θ̂ = the mean of all values.
 * Hierarchy: replicates → games → seeds → repeats. With R = 1 every random draw is the one
 * `nestedBootstrapMean` (src/ttl/metrics.ts) makes, in the same order, so one replicate gives
 * exactly the unreplicated interval. Δ against an arm that is not replicated uses the same
 * bootstrap on the paired differences (arm replicate r − the other arm, same task and repeat).
 *
 * How much the chosen prompts differ (`wordEditDistance`, `wordJaccardDistance`): prompts are split
 * into words (lower-cased, runs of whitespace separate words, punctuation stays on its word).
 *   - word edit distance d_E(a, b) = Levenshtein distance over the word sequences (insert, delete,
 *     substitute one word, each cost 1; Levenshtein 1966) ÷ max(|a|, |b|); 0 for two empty prompts.
 *   - Jaccard distance d_J(a, b) = 1 − |A ∩ B| ÷ |A ∪ B| over the sets of words (Jaccard 1912);
 *     0 for two empty prompts.
 * Both are in [0, 1]: 0 = the same words, 1 = nothing shared. Pure; no UI, DOM or Node imports.
 */
import { gameLevelPower, repeatsNeeded, signFlipP, tInterval, varianceComponents } from '../eval/game-level.ts';
import type { Comparison } from '../eval/interface.ts';
import { percentile, type BootstrapOptions, type Interval } from '../ttl/metrics.ts';
import { SeededRng } from '../ttl/rng.ts';
import type { EvaluationStep, EvolutionOutcome, ExperimentPlan, ExperimentState, PromptDissimilarity, ReplicatedArm, ReplicateRow } from './interface.ts';
import { gameOf } from './plan.ts';
import type { SessionWAuc } from './selection.ts';

const meanOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The replicated percentile bootstrap of the mean (module docstring).
 * @param data replicate → game → seed → values (W-AUC or paired differences); games are aligned
 *   by index across replicates (a replicate without a game's data gives an empty list there)
 * @returns the interval; `n` = all values; NaN bounds when there are none
 */
export function replicatedBootstrapMean(data: readonly (readonly (readonly (readonly number[])[])[])[], options: BootstrapOptions): Interval {
  const reps = data.map((games) => games.map((g) => g.filter((seed) => seed.length > 0)));
  const gameCount = Math.max(0, ...reps.map((r) => r.length));
  // A game is kept when some replicate has values on it (as nestedBootstrapMean drops empty games).
  const kept = Array.from({ length: gameCount }, (_, g) => g).filter((g) => reps.some((r) => (r[g]?.length ?? 0) > 0));
  const rng = new SeededRng(options.seed);
  const b = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  const all = reps.flat(3);
  const draws: number[] = [];
  for (let i = 0; i < b && kept.length > 0; i++) {
    const drawnReps = reps.length === 1 ? [reps[0]!] : reps.map(() => reps[rng.int(reps.length)]!);
    let sum = 0;
    let count = 0;
    for (let g = 0; g < kept.length; g++) {
      const game = kept[rng.int(kept.length)]!;
      for (const rep of drawnReps) {
        const seeds = rep[game] ?? [];
        for (let s = 0; s < seeds.length; s++) {
          const seed = seeds.length === 1 ? seeds[0]! : seeds[rng.int(seeds.length)]!;
          for (let k = 0; k < seed.length; k++) sum += seed[rng.int(seed.length)]!;
          count += seed.length;
        }
      }
    }
    // A draw of replicates that never played any drawn game carries no information: skipped.
    if (count > 0) draws.push(sum / count);
  }
  draws.sort((x, y) => x - y);
  const tail = (1 - level) / 2;
  return { estimate: all.length ? meanOf(all) : Number.NaN, low: percentile(draws, tail), high: percentile(draws, 1 - tail), resamples: draws.length, n: all.length };
}

const wordsOf = (text: string): string[] => text.toLowerCase().split(/\s+/).filter((w) => w !== '');

/** Normalised word-level edit distance d_E ∈ [0, 1] (module docstring). */
export function wordEditDistance(a: string, b: string): number {
  const x = wordsOf(a);
  const y = wordsOf(b);
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 0;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[y.length]! / longest;
}

/** Jaccard distance d_J ∈ [0, 1] over the two prompts' sets of words (module docstring). */
export function wordJaccardDistance(a: string, b: string): number {
  const x = new Set(wordsOf(a));
  const y = new Set(wordsOf(b));
  const union = new Set([...x, ...y]).size;
  if (union === 0) return 0;
  return 1 - [...x].filter((w) => y.has(w)).length / union;
}

/** Pairwise dissimilarity of n prompts: every pair i < j (1-based replicates) and the means. */
export function promptDissimilarity(prompts: readonly string[]): PromptDissimilarity {
  const pairs: PromptDissimilarity['pairs'] = [];
  for (let i = 0; i < prompts.length; i++) {
    for (let j = i + 1; j < prompts.length; j++) pairs.push({ a: i + 1, b: j + 1, editDistance: wordEditDistance(prompts[i]!, prompts[j]!), jaccardDistance: wordJaccardDistance(prompts[i]!, prompts[j]!) });
  }
  return { pairs, meanEditDistance: pairs.length ? meanOf(pairs.map((p) => p.editDistance)) : null, meanJaccardDistance: pairs.length ? meanOf(pairs.map((p) => p.jaccardDistance)) : null };
}

/** replicate → game → seed(task) → values, games in first-seen order over all replicates. */
function nestByGame(perReplicate: readonly { taskId: string; value: number }[][]): { games: string[]; data: number[][][][] } {
  const games = [...new Set(perReplicate.flat().map((s) => gameOf(s.taskId)))];
  const data = perReplicate.map((sessions) => games.map((game) => {
    const seeds = new Map<string, number[]>();
    for (const s of sessions) if (gameOf(s.taskId) === game) seeds.set(s.taskId, [...(seeds.get(s.taskId) ?? []), s.value]);
    return [...seeds.values()];
  }));
  return { games, data };
}

/** Paired differences of `a`'s sessions against `b`'s on the same (task, repeat). */
function pairedSessions(sessions: readonly SessionWAuc[], a: string, b: string): { taskId: string; value: number }[] {
  const other = new Map(sessions.filter((s) => s.policyId === b).map((s) => [`${s.taskId}\u0000${s.repeat}`, s.wAuc]));
  return sessions.filter((s) => s.policyId === a && other.has(`${s.taskId}\u0000${s.repeat}`)).map((s) => ({ taskId: s.taskId, value: s.wAuc - other.get(`${s.taskId}\u0000${s.repeat}`)! }));
}

/**
 * The replicated comparison `arm − other` on one step: `replicatePairs` lists, per replicate, the
 * two policy ids whose paired differences (same task and repeat) form that replicate — (`<arm>#r<r>`,
 * other) when `other` is not replicated; (`<arm>#r<r>`, `<other>#r<r>`) when both are, with the same
 * number of replicates (independent runs of each, so the r-th of each form one independent pair of
 * runs). Δ by the replicated
 * bootstrap; per game the same bootstrap on that game alone; the game-level test on the G game
 * means of the differences (pooled over replicates); power from those differences as compareArms
 * computes it (src/eval/comparisons.ts; replicates count as further sessions of each game, so it is
 * optimistic when replicates differ). Null without pairs. `holmP`/`positive` left for applyHolm.
 */
export function replicatedComparison(arm: string, other: string, replicatePairs: readonly (readonly [string, string])[], taskSet: string, sessions: readonly SessionWAuc[], boot: BootstrapOptions, powerDelta: number): Comparison | null {
  const perReplicate = replicatePairs.map(([a, b]) => pairedSessions(sessions, a, b));
  const pairs = perReplicate.flat();
  if (!pairs.length) return null;
  const { games, data } = nestByGame(perReplicate);
  const all = replicatedBootstrapMean(data, boot);
  const perGame = games.map((game, g) => {
    const i = replicatedBootstrapMean(data.map((rep) => [rep[g]!]), boot);
    return { game, mean: i.estimate, low: i.low, high: i.high, sessions: i.n };
  });
  const diffsByGame = games.map((_, g) => data.flatMap((rep) => rep[g]!.flat()));
  const t = tInterval(diffsByGame.map(meanOf));
  const flip = signFlipP(diffsByGame.map(meanOf), boot.seed);
  const v = varianceComponents(diffsByGame);
  const seedsPerGame = meanOf(games.map((_, g) => new Set(pairs.filter((p) => gameOf(p.taskId) === games[g]).map((p) => p.taskId)).size));
  const repeatsNow = pairs.length / games.length / seedsPerGame;
  const powerInput = { delta: powerDelta, sessionSd: v.sessionSd, tau: v.tau, games: games.length, seedsPerGame };
  const need = repeatsNeeded(powerInput);
  return {
    a: arm, b: other, taskSet, declared: false, sessions: pairs.length, delta: { mean: all.estimate, low: all.low, high: all.high }, perGame,
    gameLevel: { tLow: t.low, tHigh: t.high, tP: t.p, signFlipP: flip.p, minP: flip.minP, games: games.length, exact: flip.exact }, holmP: null, positive: false,
    power: { delta: powerDelta, sessionSd: v.sessionSd, tau: v.tau, seedsPerGame, repeatsNow, repeatsNeeded: need.repeats, powerNow: gameLevelPower(powerInput, repeatsNow), reason: need.reason },
  };
}

/** The replicated arms of `step` (spec arm id → its replicate arms, in replicate order). */
export function replicatedArmsOf(step: EvaluationStep): Map<string, EvaluationStep['arms']> {
  const out = new Map<string, EvaluationStep['arms']>();
  for (const a of step.arms) if (a.replicateOf) out.set(a.replicateOf, [...(out.get(a.replicateOf) ?? []), a]);
  return out;
}

/** Every replicated arm on every finished evaluation step, aggregated (module docstring). */
export function replicatedArms(plan: ExperimentPlan, state: ExperimentState): ReplicatedArm[] {
  const out: ReplicatedArm[] = [];
  const boot: BootstrapOptions = { seed: plan.spec.bootstrapSeed, resamples: 2000, level: 0.95 };
  for (const step of plan.steps) {
    if (step.kind !== 'evaluation') continue;
    const sessions = state.steps[step.id]?.evaluation?.sessions;
    if (!sessions) continue;
    for (const [arm, reps] of replicatedArmsOf(step)) {
      const values = reps.map((r) => sessions.filter((s) => s.policyId === r.id).map((s) => ({ taskId: s.taskId, value: s.wAuc })));
      const wAuc = values.flat().length ? replicatedBootstrapMean(nestByGame(values).data, boot) : null;
      const baselineReplicated = step.arms.some((a) => a.replicateOf === step.baseline);
      const diffs = baselineReplicated ? [] : reps.map((r) => pairedSessions(sessions, r.id, step.baseline));
      const delta = diffs.flat().length ? replicatedBootstrapMean(nestByGame(diffs).data, boot) : null;
      const perReplicate = reps.map((r, i): ReplicateRow => {
        const outcome: EvolutionOutcome | undefined = state.steps[r.evolutionStep!]?.evolution;
        const v = values[i]!.map((x) => x.value);
        const d = diffs[i]?.map((x) => x.value) ?? [];
        return {
          replicate: r.replicate!, policyId: r.id, evolutionStep: r.evolutionStep!, rngSeed: outcome?.rngSeed ?? null, chosenCandidate: outcome?.bestCandidateId ?? null, chosenIsSeed: outcome?.bestIsSeed ?? null,
          prompt: outcome?.bestStrategy ?? '', wAuc: v.length ? meanOf(v) : null, delta: d.length ? meanOf(d) : null, sessions: v.length,
        };
      });
      const means = perReplicate.flatMap((r) => (r.wAuc === null ? [] : [r.wAuc]));
      const sd = means.length > 1 ? Math.sqrt(means.reduce((s, x) => s + (x - meanOf(means)) ** 2, 0) / (means.length - 1)) : null;
      out.push({
        step: step.id, taskSet: step.taskSet, arm, replicates: reps.length, baseline: step.baseline, wAuc, delta, perReplicate,
        wAucSpread: means.length ? { min: Math.min(...means), max: Math.max(...means), range: Math.max(...means) - Math.min(...means), sd } : null,
        dissimilarity: promptDissimilarity(perReplicate.map((r) => r.prompt)),
      });
    }
  }
  return out;
}

/** The replicated comparisons of `step`: each replicated arm against every arm that is not
 * replicated (the baseline among them), oriented arm − other, and each pair of replicated arms with
 * the same number of replicates (replicate r against replicate r), in arm order. Replicated arms
 * with different numbers of replicates get no comparison. */
export function replicatedComparisonsOf(step: EvaluationStep, sessions: readonly SessionWAuc[], bootstrapSeed: number, powerDelta: number): Comparison[] {
  const out: Comparison[] = [];
  const boot: BootstrapOptions = { seed: bootstrapSeed, resamples: 2000, level: 0.95 };
  const plain = step.arms.filter((a) => !a.replicateOf);
  const replicated = [...replicatedArmsOf(step)];
  for (const [i, [arm, reps]] of replicated.entries()) {
    for (const other of plain) {
      const c = replicatedComparison(arm, other.id, reps.map((r) => [r.id, other.id] as const), step.taskSet, sessions, boot, powerDelta);
      if (c) out.push(c);
    }
    for (const [other, otherReps] of replicated.slice(i + 1)) {
      if (otherReps.length !== reps.length) continue;
      const c = replicatedComparison(arm, other, reps.map((r, k) => [r.id, otherReps[k]!.id] as const), step.taskSet, sessions, boot, powerDelta);
      if (c) out.push(c);
    }
  }
  return out;
}
