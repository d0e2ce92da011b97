/**
 * The matched random control (src/evolve/rules/neutral-mutation.ts, proposer mode
 * `random-neutral`): its edits' word edit distances follow the LLM arm's distribution (two-sample
 * Kolmogorov–Smirnov test, seeded), its words come from the neutral corpus, not our curated
 * strategies; a scripted run records the distribution it drew from and each edit's size; an
 * experiment hands the LLM arm's recorded sizes to the control; the older `random` mode is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { evolutionAccounting, wordEditDistance, wordsOf } from '../src/evolve/accounting.ts';
import { DEFAULT_EDIT_SIZES, NEUTRAL_CORPUS, neutralEdit, parseEditSizes } from '../src/evolve/rules/neutral-mutation.ts';
import { MUTATION_CORPUS } from '../src/evolve/rules/random-mutation.ts';
import { BUILTIN_EXPERIMENTS } from '../src/experiment/builtins.ts';
import { matchedEditSizes, planExperiment } from '../src/experiment/plan.ts';
import { validateExperiment } from '../src/experiment/schema.ts';
import type { EvolutionStep } from '../src/experiment/interface.ts';
import { SeededRng } from '../src/ttl/rng.ts';
import { runScripted, scriptedConfig } from './support/scripted-evolution.ts';

/** The two-sample Kolmogorov–Smirnov statistic D = sup |F_a − F_b| (Smirnov 1939). */
function ksStatistic(a: readonly number[], b: readonly number[]): number {
  const xs = [...new Set([...a, ...b])].sort((x, y) => x - y);
  const cdf = (s: readonly number[], x: number) => s.filter((v) => v <= x).length / s.length;
  return Math.max(...xs.map((x) => Math.abs(cdf(a, x) - cdf(b, x))));
}
/** The critical D at α = 0.01 (asymptotic, c(α) = 1.628). */
const ksCritical = (n: number, m: number) => 1.628 * Math.sqrt((n + m) / (n * m));

const PARENT = Array.from({ length: 40 }, (_, i) => `Rule ${i}: explore the room, then examine each object before moving on.`).join(' ');

describe('neutral edits', () => {
  it('their word edit distances follow the LLM arm\'s distribution (KS test, seeded)', () => {
    const rng = new SeededRng(11);
    // A recorded LLM arm: skewed sizes from small touch-ups to whole rewrites.
    const llm = Array.from({ length: 40 }, () => Math.max(1, Math.round(Math.exp(2 + 3 * rng.next()))));
    const realised = Array.from({ length: 400 }, () => {
      const edit = neutralEdit(PARENT, rng, llm);
      return wordEditDistance(PARENT, edit.strategy);
    });
    const d = ksStatistic(realised, llm);
    expect(d).toBeLessThan(ksCritical(realised.length, llm.length));
    // Against a clearly different distribution (every size doubled) the same test rejects.
    expect(ksStatistic(realised, llm.map((x) => 2 * x + 10))).toBeGreaterThan(ksCritical(realised.length, llm.length));
  });

  it('each edit has its drawn size (at most, where drawn words equal the ones replaced), from the empty seed too', () => {
    const rng = new SeededRng(3);
    for (let k = 0; k < 200; k++) {
      const parent = k % 2 ? PARENT : '';
      const edit = neutralEdit(parent, rng, [1, 5, 30, 120]);
      const size = wordEditDistance(parent, edit.strategy);
      expect(size).toBeLessThanOrEqual(edit.target);
      expect(size).toBeGreaterThanOrEqual(Math.floor(0.9 * edit.target) - 1);
    }
    const a = neutralEdit(PARENT, new SeededRng(9));
    expect(neutralEdit(PARENT, new SeededRng(9))).toEqual(a);
  });

  it('inserted words come from the neutral corpus, which shares no sentence with our curated strategies and names no game', () => {
    const corpusWords = new Set(NEUTRAL_CORPUS.flatMap(wordsOf));
    const rng = new SeededRng(4);
    for (let k = 0; k < 50; k++) for (const w of wordsOf(neutralEdit('', rng).strategy)) expect(corpusWords.has(w)).toBe(true);
    expect(NEUTRAL_CORPUS.filter((s) => MUTATION_CORPUS.includes(s))).toEqual([]);
    const text = NEUTRAL_CORPUS.join(' ').toLowerCase();
    for (const game of ['detective', 'zork', 'temple', 'balances', 'library', 'trinity', 'anchor', 'murdac', 'lantern', 'troll', 'mailbox']) expect(text).not.toContain(game);
  });

  it('bad size lists are named', () => {
    expect(parseEditSizes('12, 40,88')).toEqual([12, 40, 88]);
    expect(() => parseEditSizes('12,0')).toThrow(/"0" is not a whole number from 1/);
    expect(() => parseEditSizes('')).toThrow(/at least one/);
    expect(() => neutralEdit('x', new SeededRng(1), [])).toThrow(RangeError);
  });
});

describe('a random-neutral run', () => {
  const world = { scores: new Proxy({} as Record<string, Record<string, number>>, { get: (_t, k: string) => { const v = (k.length % 7) / 10; return { t1: v, t2: v, v1: v, v2: v }; } }), proposals: [] };

  it('records each edit\'s size and draws from its configured distribution', async () => {
    const sizes = [3, 8];
    const run = await runScripted(world, scriptedConfig(['t1', 't2'], ['v1', 'v2'], { budgetMetricCalls: 24, proposer: 'random-neutral', editSizes: { sizes, source: 'given' }, seedStrategy: PARENT }));
    const children = run.state.candidates.filter((c) => c.parentId !== null && c.status !== 'failed');
    expect(children.length).toBeGreaterThan(2);
    for (const c of children) {
      expect(c.editSize).toBeGreaterThanOrEqual(1);
      expect(c.editSize).toBeLessThanOrEqual(8);
      expect(c.editSize).toBe(wordEditDistance(run.state.candidates.find((p) => p.id === c.parentId)!.strategy, c.strategy));
      expect(c.proposerReply).toBeNull();
    }
    expect(evolutionAccounting(run.state).editSizes).toEqual(children.map((c) => c.editSize));
    // The same seed, the same edits (a resumed run replays them).
    const again = await runScripted(world, scriptedConfig(['t1', 't2'], ['v1', 'v2'], { budgetMetricCalls: 24, proposer: 'random-neutral', editSizes: { sizes, source: 'given' }, seedStrategy: PARENT }));
    expect(again.state.candidates.map((c) => c.strategy)).toEqual(run.state.candidates.map((c) => c.strategy));
  });

  it('the older random mode still draws sentences of our curated strategies', async () => {
    const run = await runScripted(world, scriptedConfig(['t1', 't2'], ['v1', 'v2'], { budgetMetricCalls: 16, proposer: 'random' }));
    const child = run.state.candidates.find((c) => c.parentId !== null && c.status !== 'failed')!;
    expect(MUTATION_CORPUS).toContain(child.strategy.split(/(?<=[.!?])\s+/)[0]);
  });
});

describe('the experiment matches the control to the LLM arm', () => {
  const plan = planExperiment(BUILTIN_EXPERIMENTS['random-control']!);
  const evolutions = plan.steps.filter((s): s is EvolutionStep => s.kind === 'evolution');

  it('the built-in\'s plan: three evolutions on ID at equal budget, then one evaluation on the held-out OOD games only', () => {
    expect(plan.steps.map((s) => s.id)).toEqual(['evolve-meta-ttl', 'evolve-random', 'evolve-no-trace', 'eval-OOD']);
    expect(evolutions.map((s) => [s.evolution.proposer, s.evolution.proposerInput ?? 'full', s.evolution.budget, s.train, s.val])).toEqual([
      ['llm', 'full', 100, ['detective', 'zork1', 'temple'], ['detective', 'zork1', 'temple']],
      ['random-neutral', 'full', 100, ['detective', 'zork1', 'temple'], ['detective', 'zork1', 'temple']],
      ['llm', 'no-trace', 100, ['detective', 'zork1', 'temple'], ['detective', 'zork1', 'temple']],
    ]);
    const evaluation = plan.steps[3]!;
    expect(evaluation.kind === 'evaluation' && evaluation.tasks).toEqual(['balances', 'library', 'zork3']);
    expect(evaluation.kind === 'evaluation' && evaluation.arms.map((a) => a.id)).toEqual(['naive', 'evolved', 'random-evolved', 'no-trace-evolved']);
    expect(BUILTIN_EXPERIMENTS['random-control']!.description).toContain('evaluated only on the OOD games, held out from the training games');
  });

  it('hands the LLM arm\'s recorded sizes to the control, or nothing (the default) before it has any', () => {
    const control = evolutions.find((s) => s.evolution.proposer === 'random-neutral')!;
    const llm = evolutions.find((s) => s.evolution.proposer === 'llm')!;
    expect(matchedEditSizes(plan, control, {})).toBeNull();
    const outcome = { runId: 'r', status: 'complete', stopReason: 'budget', metricCallsUsed: 9, budget: 9, sessionsPlayed: 9, bestCandidateId: 'c1', bestStrategy: 's', bestValWAuc: 0.2, candidates: 3, editSizes: [40, 120, 0] };
    expect(matchedEditSizes(plan, control, { [llm.id]: { status: 'complete', evolution: outcome } })).toEqual({ sizes: [40, 120], source: `measured: ${llm.id}'s 2 edits` });
    expect(matchedEditSizes(plan, llm, { [llm.id]: { status: 'complete', evolution: outcome } })).toBeNull();
    expect(DEFAULT_EDIT_SIZES.length).toBeGreaterThan(5);
  });

  it('matchEditSizesOf must name an earlier LLM evolution of a random-neutral one', () => {
    const spec = BUILTIN_EXPERIMENTS['random-control']!;
    expect(() => validateExperiment({ ...spec, evolutions: [spec.evolutions[0], { ...spec.evolutions[1], matchEditSizesOf: 'nope' }] })).toThrow(/evolutions\[1\]\.matchEditSizesOf must be the id of an earlier evolution with the LLM proposer/);
    expect(() => validateExperiment({ ...spec, evolutions: [spec.evolutions[0], { ...spec.evolutions[1], proposer: 'random' }] })).toThrow(/matchEditSizesOf must be left out unless the proposer is "random-neutral"/);
  });
});
