/**
 * The outer loop against GEPA 0.1.0 (gepa-ai/gepa, tag v0.1.0) on identical inputs, in a scripted
 * world (fixed scores per strategy and task, a proposer that writes S1, S2, … in order):
 * - parent selection draws once per iteration, with the frequencies of the Pareto front counts;
 * - ties are broken as GEPA breaks them (pruning order, sampling-list order, best candidate);
 * - the sequence of evaluations, the budget after each step, the pool and the best candidate
 *   equal the trace GEPA's code produces (derived step by step below from its source).
 */
import { describe, expect, it } from 'vitest';
import { BudgetTooSmallError } from '../src/evolve/evolution-runner.ts';
import { paretoFronts, parentSamplingList, pruneDominated } from '../src/evolve/rules/pareto.ts';
import { selectBest } from '../src/evolve/rules/selection.ts';
import type { EvolutionState } from '../src/evolve/interface.ts';
import { SeededRng } from '../src/ttl/rng.ts';
import { runScripted, scriptedConfig } from './support/scripted-evolution.ts';

/** Which parent iteration `iteration` drew. */
const parentAt = (events: { type: string }[], iteration: number) =>
  (events.find((e) => e.type === 'iteration_started' && (e as unknown as { iteration: number }).iteration === iteration) as unknown as { parentId: string } | undefined)?.parentId;

/** |observed − expected| within 4 binomial standard deviations. */
function expectBinomial(observed: number, n: number, p: number) {
  const sd = Math.sqrt(n * p * (1 - p));
  expect(Math.abs(observed - n * p)).toBeLessThanOrEqual(4 * sd);
}

describe('parent selection draws once per iteration', () => {
  it('two leaders (seed leads A, c1 leads B): iteration 2 picks each with probability 1/2 over 400 seeds, never crashes', async () => {
    // The reported case: the seed scores A 0.3, B 0.1; c1 scores A 0.1, B 0.3 and is accepted (0.2 > 0.1).
    const world = {
      scores: { '': { A: 0.3, B: 0.1, T: 0.1 }, S1: { A: 0.1, B: 0.3, T: 0.2 }, S2: { A: 0, B: 0, T: 0 } },
      proposals: ['S1', 'S2'],
    };
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 400; seed++) {
      // Budget: seed 2 + iteration 1 (2 + 2) + iteration 2's worst case 4 = 10.
      const run = await runScripted(world, scriptedConfig(['T'], ['A', 'B'], { rngSeed: seed, budgetMetricCalls: 10 }));
      expect(run.state.candidates[1]!.status).toBe('accepted');
      const parent = parentAt(run.events, 2)!;
      counts.set(parent, (counts.get(parent) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['c0', 'c1']);
    expectBinomial(counts.get('c0')!, 400, 1 / 2);
  });

  it('three leaders: each is drawn 1/3 of the time over 600 seeds', async () => {
    const world = {
      scores: {
        '': { A: 0.3, B: 0.1, C: 0.1, T: 0.1 }, S1: { A: 0.1, B: 0.3, C: 0.1, T: 0.2 },
        S2: { A: 0.1, B: 0.1, C: 0.3, T: 0.3 }, S3: { A: 0, B: 0, C: 0, T: 0 },
      },
      proposals: ['S1', 'S2', 'S3'],
    };
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 600; seed++) {
      // Budget: seed 3 + two accepted iterations (5 each) + iteration 3's worst case 5 = 18.
      const run = await runScripted(world, scriptedConfig(['T'], ['A', 'B', 'C'], { rngSeed: seed, budgetMetricCalls: 18 }));
      expect(run.state.candidates.map((c) => c.status)).toEqual(['seed', 'accepted', 'accepted', 'rejected']);
      const parent = parentAt(run.events, 3)!;
      counts.set(parent, (counts.get(parent) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['c0', 'c1', 'c2']);
    for (const id of ['c0', 'c1', 'c2']) expectBinomial(counts.get(id)!, 600, 1 / 3);
  });
});

describe("GEPA's tie-breaking", () => {
  it('best candidate: the earliest created among equal means (c9 before c10 and c12)', () => {
    const row = { t1: 0.2, t2: 0.2 };
    const scores = { c10: row, c12: row, c9: row, c3: { t1: 0.1, t2: 0.1 } };
    expect(selectBest(scores, ['t1', 't2'])).toEqual({ byMean: 'c9', byZScore: 'c9' });
  });

  it("pruning removes tied candidates in order of first appearance in the fronts: keeps {c0, c1}, samples c1 2/3", () => {
    // gepa_utils.remove_dominated_programs: programs in first-appearance order (c1, c2, c3, c0), stably
    // sorted by mean (c2, c3, c0 at 0.1, then c1); c2 and c3 are dominated (t1 keeps c1, t3 keeps c0).
    const scores = { c0: { t1: 0.1, t2: 0.1, t3: 0.1 }, c1: { t1: 0.2, t2: 0.2, t3: 0 }, c2: { t1: 0.2, t2: 0, t3: 0.1 }, c3: { t1: 0.2, t2: 0, t3: 0.1 } };
    const tasks = ['t1', 't2', 't3'];
    expect(pruneDominated(paretoFronts(scores, tasks), scores, tasks)).toEqual({ t1: ['c1'], t2: ['c1'], t3: ['c0'] });
    expect(parentSamplingList(scores, tasks)).toEqual(['c1', 'c1', 'c0']);
  });

  it('fronts and sampling lists order candidates by creation, not as strings', () => {
    const scores = { c10: { t: 1 }, c9: { t: 1 }, c2: { t: 0 } };
    expect(paretoFronts(scores, ['t'])).toEqual({ t: ['c9', 'c10'] });
  });
});

/** A generator whose `pick` returns scripted indices (and records the lists it was offered). */
class ScriptedRng extends SeededRng {
  offered: string[][] = [];
  constructor(private readonly indices: number[]) {
    super(0);
  }
  override pick<T>(items: readonly T[]): T {
    this.offered.push(items.map(String));
    const i = this.indices.shift();
    if (i === undefined || i >= items.length) throw new Error(`no scripted draw for ${items.length} items`);
    return items[i]!;
  }
}

describe('the whole loop against a GEPA trace', () => {
  // Inputs: validation tasks v1 v2 v3, one training task t (minibatch b = 1, so every minibatch
  // is [t] and the sampler draws nothing), the proposer writes S1 … S5, W-AUCs below.
  const scores = {
    '': { v1: 0.1, v2: 0.1, v3: 0.1, t: 0.1 },
    S1: { v1: 0.2, v2: 0.2, v3: 0, t: 0.2 },
    S2: { v1: 0.2, v2: 0, v3: 0.1, t: 0.3 },
    S3: { v1: 0, v2: 0, v3: 0, t: 0.2 },
    S4: { v1: 0.2, v2: 0.2, v3: 0.1, t: 0.15 },
    S5: { v1: 0.2, v2: 0.2, v3: 0.1, t: 0.25 },
  };
  const proposals = ['S1', 'S2', 'S3', 'S4', 'S5'];

  it('same evaluations, budget after every step, pool and best candidate as GEPA 0.1.0', async () => {
    // GEPA's trace for these inputs, derived from v0.1.0's source (program k = its k-th accepted
    // program; P0 = seed). initialize_gepa_state evaluates the seed on the valset (+3 → 3).
    // Each iteration (engine.run → ReflectiveMutationProposer.propose): ParetoCandidateSelector
    // calls select_program_candidate_from_pareto_front once (rng.choice over the sampling list),
    // evaluates the parent on the minibatch (+1), proposes, evaluates the child on it (+1); the
    // engine accepts only if new_sum > old_sum, then evaluates it on the valset (+3).
    // - it 1: fronts all {P0}; list [P0, P0, P0]; draw 0 → P0. child S1 0.2 > 0.1 → P1. total 4, 5, 8.
    // - it 2: fronts v1 {P1}, v2 {P1}, v3 {P0}; nothing dominated; list [P1, P1, P0]; draw 2 → P0.
    //   S2 0.3 > 0.1 → P2. total 9, 10, 13.
    // - it 3: fronts v1 {P1, P2}, v2 {P1}, v3 {P0, P2}. remove_dominated_programs: first-appearance
    //   order P1, P2, P0, stably sorted by mean → P2, P0 (0.1), P1; P2 is dominated (v1 keeps P1,
    //   v3 keeps P0), then nothing else → list [P1, P1, P0]; draw 0 → P1. S3 0.2 ≤ 0.2 → rejected.
    //   total 14, 15.
    // - it 4: same list; draw 2 → P0. S4 0.15 > 0.1 → P3 (mean 0.1667). total 16, 17, 20.
    // - it 5: fronts v1 {P1, P2, P3}, v2 {P1, P3}, v3 {P0, P2, P3}; pruning drops P2, P0, P1 in
    //   that order → list [P3, P3, P3]; draw 0 → P3 (t 0.15). S5 0.25 > 0.15 → P4, same means as
    //   P3. total 21, 22, 25 = max_metric_calls: MaxMetricCallsStopper stops.
    // - get_best_program: the first index with the highest mean → P3 (P4 ties, later).
    const rng = new ScriptedRng([0, 2, 0, 2, 0]);
    // Validation repeated twice: still one metric call per (candidate, task), as in GEPA.
    const config = scriptedConfig(['t'], ['v1', 'v2', 'v3'], { budgetMetricCalls: 25, trainRepeats: 1, valRepeats: 2 });
    const run = await runScripted({ scores, proposals }, config, { rng });

    const val = (s: string) => [[s, 'v1'], [s, 'v2'], [s, 'v3']];
    const expected = [
      ...val(''),
      ['', 't'], ['S1', 't'], ...val('S1'),
      ['', 't'], ['S2', 't'], ...val('S2'),
      ['S1', 't'], ['S3', 't'],
      ['', 't'], ['S4', 't'], ...val('S4'),
      ['S4', 't'], ['S5', 't'], ...val('S5'),
    ];
    const perTask = run.evaluations.filter(([, , repeat]) => repeat === 0).map(([s, t]) => [s, t]);
    expect(perTask).toEqual(expected);
    expect(run.evaluations).toHaveLength(expected.length + 3 * 5 /* second validation repeats of 5 programs */);
    const budget = run.events.filter((e) => e.type === 'budget_spent').map((e) => (e as { metricCallsUsed: number }).metricCallsUsed);
    expect(budget).toEqual([3, 4, 5, 8, 9, 10, 13, 14, 15, 16, 17, 20, 21, 22, 25]);
    // The lists GEPA's rng.choice draws from, in GEPA's order (our ids: P1 = c1, P2 = c2, P3 = c4, P4 = c5).
    expect(rng.offered).toEqual([['c0', 'c0', 'c0'], ['c1', 'c1', 'c0'], ['c1', 'c1', 'c0'], ['c1', 'c1', 'c0'], ['c4', 'c4', 'c4']]);
    expect(run.state.candidates.map((c) => [c.id, c.parentId, c.status])).toEqual([
      ['c0', null, 'seed'], ['c1', 'c0', 'accepted'], ['c2', 'c0', 'accepted'], ['c3', 'c1', 'rejected'], ['c4', 'c0', 'accepted'], ['c5', 'c4', 'accepted'],
    ]);
    expect(run.state.best.byMean).toBe('c4');
    expect(run.state.metricCallsUsed).toBe(25);
    expect(run.state.sessionsPlayed).toBe(25 + 15);
    expect(run.state.stopReason).toBe('budget');
  });

  it('metric calls that a provider fault stopped and a later attempt in the sweep recovered count as clean ones: the same trace, budget, pool and best', async () => {
    const config = scriptedConfig(['t'], ['v1', 'v2', 'v3'], { budgetMetricCalls: 25, trainRepeats: 1, valRepeats: 2, concurrency: 2 });
    const clean = await runScripted({ scores, proposals }, config, { rng: new ScriptedRng([0, 2, 0, 2, 0]) });
    // The seed's second v2 repeat, the child S2 on its minibatch (twice), S4's v3 and S5's second v1.
    const faults = { '|v2|1': 1, 'S2|t|0': 2, 'S4|v3|0': 1, 'S5|v1|1': 1 };
    const faulted = await runScripted({ scores, proposals, faults }, config, { rng: new ScriptedRng([0, 2, 0, 2, 0]) });
    expect([faulted.state.status, faulted.state.faultedEpisodes]).toEqual(['complete', 5]);
    expect(faulted.evaluations).toHaveLength(clean.evaluations.length + 5);
    const comparable = (s: EvolutionState) => ({ ...s, faultedEpisodes: 0, startedAt: '', finishedAt: '' });
    expect(comparable(faulted.state)).toEqual(comparable(clean.state));
    const events = (run: { events: { type: string }[] }) => run.events.filter((e) => e.type !== 'finished');
    expect(events(faulted)).toEqual(events(clean));
  });
});

describe('the proposer instruction', () => {
  const world = { scores: { '': { A: 0.1, T: 0.1 }, S1: { A: 0.2, T: 0.2 } }, proposals: ['S1'] };
  it("new runs follow GEPA's default instruction (keep niche game facts); the general-rules ablation is selectable and recorded", async () => {
    const gepa = await runScripted(world, scriptedConfig(['T'], ['A'], { budgetMetricCalls: 4, proposerInstruction: 'gepa' }));
    expect(gepa.proposerSystems).toHaveLength(1);
    expect(gepa.proposerSystems[0]).toMatch(/niche, game-specific fact/);
    expect(gepa.proposerSystems[0]).not.toMatch(/not a walkthrough/);
    expect(gepa.state.config.proposerInstruction).toBe('gepa');
    const ablation = await runScripted(world, scriptedConfig(['T'], ['A'], { budgetMetricCalls: 4, proposerInstruction: 'general-rules' }));
    expect(ablation.proposerSystems[0]).toMatch(/general rules about how to learn from episode logs, not a walkthrough/);
  });
});

describe('budget units and refusal', () => {
  const world = { scores: { '': { A: 0.1, B: 0.1, C: 0.1, D: 0.1, E: 0.1, F: 0.1, T: 0.1, U: 0.1, W: 0.1 } }, proposals: [] };
  for (const [budget, val, b] of [[2, 3, 1], [4, 6, 1], [10, 6, 3]] as const) {
    it(`budget ${budget} with ${val} validation tasks and minibatch ${b} is refused before any call`, async () => {
      const config = scriptedConfig(['T', 'U', 'W'], ['A', 'B', 'C', 'D', 'E', 'F'].slice(0, val), { budgetMetricCalls: budget, minibatchSize: b });
      const attempt = runScripted(world, config);
      await expect(attempt).rejects.toBeInstanceOf(BudgetTooSmallError);
      await expect(attempt).rejects.toThrow(`at least ${val + 2 * b + val} are needed`);
    });
  }

  it('the reference configuration (3 train, 3 validation ×5, minibatch ×1, budget 100): 27 proposals when every other child is accepted, never over budget', async () => {
    // Even children beat every earlier minibatch score (accepted: 2 + 3 metric calls), odd ones score
    // 0.1 and never beat a parent (rejected: 2 calls). Seed 3; pairs cost 7: 13 pairs → 94; one more
    // accepted → 99; the next worst case (5) does not fit. GEPA's loop (run while total < 100)
    // would make one more, rejected, proposal and end at 101.
    const scores: Record<string, Record<string, number>> = { '': { A: 0.1, B: 0.1, C: 0.1, T: 0.1, U: 0.1, W: 0.1 } };
    const proposals = Array.from({ length: 60 }, (_, i) => `S${i + 1}`);
    proposals.forEach((s, i) => {
      const x = i % 2 === 0 ? 0.5 + i / 1000 : 0.1;
      scores[s] = { A: 0.1 + i / 1000, B: 0.1, C: 0.1, T: x, U: x, W: x };
    });
    const config = scriptedConfig(['T', 'U', 'W'], ['A', 'B', 'C'], { budgetMetricCalls: 100, trainRepeats: 1, valRepeats: 5, rngSeed: 3 });
    const run = await runScripted({ scores, proposals }, config);
    expect(run.state.candidates.length - 1).toBe(27);
    expect(run.state.candidates.filter((c) => c.status === 'accepted')).toHaveLength(14);
    expect(run.state.metricCallsUsed).toBe(99);
    expect(run.state.sessionsPlayed).toBe(15 + 27 * 2 + 14 * 15);
    const budget = run.events.filter((e) => e.type === 'budget_spent').map((e) => (e as unknown as { metricCallsUsed: number }).metricCallsUsed);
    expect(Math.max(...budget)).toBe(99);
  });
});
