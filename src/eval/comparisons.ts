/**
 * Any arm against any arm, corrected: paired comparisons a − b of W-AUC on one task set (the
 * nested bootstrap, each game's Δ with its own interval, the game-level t-interval and exact
 * sign-flip p from game-level.ts), Holm's correction over a report's declared contrasts, the
 * repeats needed for a named Δ, and the report-wide warnings `few_games` and `identical_repeats`.
 * No UI or DOM imports.
 */
import { nestedBootstrapMean, nestedPairedDifference, type BootstrapOptions } from '../ttl/metrics.ts';
import { gameLevelPower, holm, repeatsNeeded, signFlipP, tInterval, varianceComponents } from './game-level.ts';
import { EVALUATION_DEFAULTS } from './run-defaults.ts';
import type { Comparison, EvaluationResult, ReportWarning } from './interface.ts';

/** Below this many games a result is a claim about these games, not games in general. */
export const FEW_GAMES = 6;
/** α of the flag "Δ > 0 (Holm)". */
export const FLAG_ALPHA = 0.05;
/** The Δ the report's power estimate is for when the user names none (W-AUC units). */
export const DEFAULT_POWER_DELTA: number = EVALUATION_DEFAULTS.powerDelta;

/** The few-games sentence shown wherever a result with G < 6 games is. */
export const fewGamesMessage = (games: number, taskSet?: string): string =>
  `${games} game${games === 1 ? '' : 's'}${taskSet ? ` (task set ${taskSet})` : ''} cannot support a claim about games in general; this is a claim about these games.`;

/** games → seeds (tasks) → values, in first-seen order. */
function nest<T>(items: readonly { storyId: string; taskId: string; value: T }[]): { game: string; seeds: T[][] }[] {
  const groups = new Map<string, Map<string, T[]>>();
  for (const it of items) {
    const game = groups.get(it.storyId) ?? new Map<string, T[]>();
    game.set(it.taskId, [...(game.get(it.taskId) ?? []), it.value]);
    groups.set(it.storyId, game);
  }
  return [...groups].map(([game, seeds]) => ({ game, seeds: [...seeds.values()] }));
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * The comparison a − b on one task set's results (pairs matched on task and repeat). Null when no
 * pair matches. `holmP` is left null and `positive` false: `applyHolm` sets them over a family.
 */
export function compareArms(a: string, b: string, taskSet: string, results: readonly EvaluationResult[], boot: BootstrapOptions, powerDelta = DEFAULT_POWER_DELTA): Comparison | null {
  const mine = results.filter((r) => r.taskSet === taskSet);
  const other = new Map(mine.filter((r) => r.policyId === b).map((r) => [`${r.taskId}|${r.repeat}`, r]));
  const pairs = mine.filter((r) => r.policyId === a && other.has(`${r.taskId}|${r.repeat}`)).map((r) => ({ storyId: r.storyId, taskId: r.taskId, value: [r.wAuc, other.get(`${r.taskId}|${r.repeat}`)!.wAuc] as [number, number] }));
  if (pairs.length === 0) return null;
  const games = nest(pairs);
  const all = nestedPairedDifference(games.map((g) => g.seeds), boot);
  const perGame = games.map((g) => {
    const i = nestedBootstrapMean([g.seeds.map((s) => s.map(([x, y]) => x - y))], boot);
    return { game: g.game, mean: i.estimate, low: i.low, high: i.high, sessions: i.n };
  });
  const diffsByGame = games.map((g) => g.seeds.flat().map(([x, y]) => x - y));
  const gameMeans = diffsByGame.map(mean);
  const t = tInterval(gameMeans);
  const flip = signFlipP(gameMeans, boot.seed);
  const v = varianceComponents(diffsByGame);
  const seedsPerGame = mean(games.map((g) => g.seeds.length));
  const repeatsNow = pairs.length / games.length / seedsPerGame;
  const powerInput = { delta: powerDelta, sessionSd: v.sessionSd, tau: v.tau, games: games.length, seedsPerGame };
  const need = repeatsNeeded(powerInput);
  return {
    a, b, taskSet, declared: false, sessions: pairs.length,
    delta: { mean: all.estimate, low: all.low, high: all.high }, perGame,
    gameLevel: { tLow: t.low, tHigh: t.high, tP: t.p, signFlipP: flip.p, minP: flip.minP, games: games.length, exact: flip.exact },
    holmP: null, positive: false,
    power: { delta: powerDelta, sessionSd: v.sessionSd, tau: v.tau, seedsPerGame, repeatsNow, repeatsNeeded: need.repeats, powerNow: gameLevelPower(powerInput, repeatsNow), reason: need.reason },
  };
}

/** The comparison's power estimate for another Δ (from its recorded σ, τ, games and seeds). */
export function withPowerDelta(c: Comparison, delta: number): Comparison {
  if (c.power.delta === delta) return c;
  const input = { delta, sessionSd: c.power.sessionSd, tau: c.power.tau, games: c.gameLevel.games, seedsPerGame: c.power.seedsPerGame ?? 1 };
  const need = repeatsNeeded(input);
  return { ...c, power: { ...c.power, delta, repeatsNeeded: need.repeats, reason: need.reason, powerNow: gameLevelPower(input, c.power.repeatsNow ?? 1) } };
}

/** Holm over the declared comparisons' sign-flip p (in place); exploratory ones keep holmP null. */
export function applyHolm(comparisons: Comparison[], alpha = FLAG_ALPHA): Comparison[] {
  const declared = comparisons.filter((c) => c.declared);
  const adjusted = holm(declared.map((c) => c.gameLevel.signFlipP));
  declared.forEach((c, i) => {
    c.holmP = adjusted[i]!;
    c.positive = c.holmP <= alpha && c.delta.mean > 0;
  });
  for (const c of comparisons) if (!c.declared) { c.holmP = null; c.positive = false; }
  return comparisons;
}

/** The comparison b − a from a − b (every interval mirrored; two-sided p unchanged). */
export function reverseComparison(c: Comparison): Comparison {
  const flip = (d: { mean: number; low: number; high: number }) => ({ mean: -d.mean, low: -d.high, high: -d.low });
  return {
    ...c, a: c.b, b: c.a, delta: flip(c.delta), perGame: c.perGame.map((g) => ({ ...g, ...flip(g) })),
    gameLevel: { ...c.gameLevel, tLow: -c.gameLevel.tHigh, tHigh: -c.gameLevel.tLow }, holmP: null, positive: false,
  };
}

/**
 * Every comparison of a report: `declared` (each policy against the baseline, then `contrasts`,
 * Holm-corrected together) and `exploratory` (every other pair of policies, later − earlier).
 */
export function buildComparisons(
  policyIds: readonly string[], baseline: string, contrasts: readonly { a: string; b: string }[], taskSets: readonly string[],
  results: readonly EvaluationResult[], boot: BootstrapOptions, powerDelta = DEFAULT_POWER_DELTA,
): { declared: Comparison[]; exploratory: Comparison[] } {
  const wanted: { a: string; b: string }[] = [];
  const key = (a: string, b: string) => [a, b].sort().join('\u0000');
  const seen = new Set<string>();
  for (const p of policyIds) if (p !== baseline && policyIds.includes(baseline)) { wanted.push({ a: p, b: baseline }); seen.add(key(p, baseline)); }
  for (const c of contrasts) if (c.a !== c.b && policyIds.includes(c.a) && policyIds.includes(c.b) && !seen.has(key(c.a, c.b))) { wanted.push(c); seen.add(key(c.a, c.b)); }
  const declared: Comparison[] = [];
  const exploratory: Comparison[] = [];
  for (const set of taskSets) {
    for (const w of wanted) {
      const c = compareArms(w.a, w.b, set, results, boot, powerDelta);
      if (c) declared.push({ ...c, declared: true });
    }
    for (let j = 0; j < policyIds.length; j++) {
      for (let i = 0; i < j; i++) {
        if (seen.has(key(policyIds[i]!, policyIds[j]!))) continue;
        const c = compareArms(policyIds[j]!, policyIds[i]!, set, results, boot, powerDelta);
        if (c) exploratory.push(c);
      }
    }
  }
  applyHolm(declared);
  return { declared, exploratory };
}

/**
 * Report-wide warnings: `few_games` per task set whose comparisons rest on fewer than 6 games, and
 * `identical_repeats` per policy whose every task with ≥ 2 repeats gave the same scores in every
 * repeat (its within-task intervals are zero-width: the repeats measured nothing).
 */
export function reportWarnings(results: readonly EvaluationResult[], taskSets: readonly string[], policyNames: ReadonlyMap<string, string> = new Map()): ReportWarning[] {
  const out: ReportWarning[] = [];
  for (const set of taskSets) {
    const games = [...new Set(results.filter((r) => r.taskSet === set).map((r) => r.storyId))];
    if (games.length > 0 && games.length < FEW_GAMES) out.push({ code: 'few_games', message: `${fewGamesMessage(games.length, set)} (${games.join(', ')})` });
  }
  const byPolicy = new Map<string, Map<string, EvaluationResult[]>>();
  for (const r of results) {
    const tasks = byPolicy.get(r.policyId) ?? new Map<string, EvaluationResult[]>();
    const k = `${r.taskSet}|${r.taskId}`;
    tasks.set(k, [...(tasks.get(k) ?? []), r]);
    byPolicy.set(r.policyId, tasks);
  }
  for (const [policy, tasks] of byPolicy) {
    const repeated = [...tasks.values()].filter((rs) => rs.length >= 2);
    if (repeated.length === 0) continue;
    const same = (rs: EvaluationResult[]) => rs.every((r) => r.wAuc === rs[0]!.wAuc && JSON.stringify(r.scores) === JSON.stringify(rs[0]!.scores));
    if (repeated.every(same)) {
      out.push({ code: 'identical_repeats', policyId: policy, message: `Every repeat of ${policyNames.get(policy) ?? policy} gave the same scores on each of its ${repeated.length} task${repeated.length === 1 ? '' : 's'}: its within-task intervals are zero-width and show no sampling variation (a deterministic provider, or a model that scores the same whatever it does).` });
    }
  }
  return out;
}
