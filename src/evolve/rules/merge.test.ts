import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../ttl/rng.ts';
import { canStartIteration, iterationWorstCase, mergeWorstCase, planBudget } from './budget.ts';
import { ancestorsOf, attemptMerge, MergeSchedule, mergeSubsample, sampleDistinct, weightedPick, type MergeMemory, type MergePoolEntry } from './merge.ts';
import { drawProposalSlots, parseProposals, proposalsPerIteration, proposalsText } from './proposals.ts';

const script = (draws: number[]) => ({ next: () => draws.shift() ?? Number.NaN, left: () => draws.length });
const entry = (id: string, strategy: string, parentIds: string[], score: number): [string, MergePoolEntry] => [id, { id, strategy, parentIds, score }];

// c0 "S0" (0.3) → c1 "S1" (0.5) → c2 "S0" (0.4, back to the seed's text); c0 → c3 "S3" (0.6).
const pool = new Map([entry('c0', 'S0', [], 0.3), entry('c1', 'S1', ['c0'], 0.5), entry('c2', 'S0', ['c1'], 0.4), entry('c3', 'S3', ['c0'], 0.6)]);
const emptyMemory = (): MergeMemory => ({ triplets: [], descriptions: [] });

describe('draws', () => {
  it('sampleDistinct takes ⌊u·n⌋ of what is left; weightedPick is bisect-right over cumulative weights', () => {
    expect(sampleDistinct(['a', 'b', 'c'], 2, script([0.9, 0.1]))).toEqual(['c', 'a']);
    expect(() => sampleDistinct(['a'], 2, script([]))).toThrow(RangeError);
    // weights 1, 2, 1 (total 4): u·4 = 0.96 → a; 1.0 → b (cumulative 1 is not > 1); 2.96 → b; 3.0 → c.
    expect([0.24, 0.25, 0.74, 0.75].map((u) => weightedPick(['a', 'b', 'c'], [1, 2, 1], script([u])))).toEqual(['a', 'b', 'b', 'c']);
    expect(weightedPick(['a', 'b', 'c'], [0, 0, 0], script([0.5]))).toBe('b');
  });
});

describe('the merge of two Pareto candidates with a common ancestor', () => {
  it('c2 kept the ancestor c0\'s text and c3 changed it: the merge takes c3\'s text; both parents and the ancestor recorded', () => {
    expect([...ancestorsOf('c2', pool)].sort()).toEqual(['c0', 'c1']);
    // Pair draw: 0.9 → index 1 of [c2, c3] = c3, then c2; ordered c2, c3. Ancestor draw over [c0]: 0.
    const memory = emptyMemory();
    const rng = script([0.9, 0, 0]);
    expect(attemptMerge(['c2', 'c3'], pool, memory, rng)).toEqual({ strategy: 'S3', id1: 'c2', id2: 'c3', ancestorId: 'c0', textFrom: 'c3' });
    expect(rng.left()).toBe(0);
    expect(memory.descriptions).toEqual([['c2', 'c3', ['c3']]]);
  });

  it('no merge when one is the other\'s ancestor, when the triplet was tried, when the ancestor is better, or below 3 in the pool', () => {
    // c1 is c2's parent: every one of the 10 × 10 tries fails, 2 draws each.
    const rng = script(Array.from({ length: 200 }, () => 0.5));
    expect(attemptMerge(['c1', 'c2'], pool, emptyMemory(), rng)).toBeNull();
    expect(rng.left()).toBe(0);
    expect(attemptMerge(['c2', 'c3'], pool, { triplets: [['c2', 'c3', 'c0']], descriptions: [] }, new SeededRng(1))).toBeNull();
    const betterSeed = new Map([...pool, entry('c0', 'S0', [], 0.45)]);
    expect(attemptMerge(['c2', 'c3'], betterSeed, emptyMemory(), new SeededRng(1))).toBeNull();
    expect(attemptMerge(['c0', 'c1'], new Map([...pool].slice(0, 2)), emptyMemory(), script([]))).toBeNull();
  });

  it('the validation subsample: up to 2 where each parent is better and where they tie, then drawn with replacement', () => {
    const s1 = { t0: 0.5, t1: 0.2, t2: 0.3 };
    const s2 = { t0: 0.1, t1: 0.4, t2: 0.3 };
    // One task per bucket (t0: s1 better, t1: s2 better, t2: tie), then 2 of [t0, t1, t2]: ⌊0.5·3⌋ = t1, ⌊0·3⌋ = t0.
    expect(mergeSubsample(s1, s2, ['t0', 't1', 't2'], script([0.7, 0.1, 0.99, 0.5, 0]))).toEqual(['t0', 't1', 't2', 't1', 't0']);
    // Six tasks, all ties: 2 from the tie bucket, then 3 distinct from the 4 unused.
    const ties = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((t) => [t, 0.5]));
    expect(mergeSubsample(ties, ties, Object.keys(ties), script([0, 0, 0, 0, 0]))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('schedule: one merge due per accepted reflective proposal while fewer than max were accepted; tried only right after one', () => {
    const s = new MergeSchedule(2);
    expect(s.takeTurn()).toBe(false);
    s.reflectiveAccepted();
    expect(s.takeTurn()).toBe(true);
    expect(s.takeTurn()).toBe(false);
    s.reflectiveAccepted();
    s.reflectiveAccepted();
    expect(s.mergesDue).toBe(3);
    s.mergeAccepted();
    s.reflectiveAccepted();
    s.mergeAccepted();
    expect([s.mergesDue, s.mergesAccepted]).toEqual([2, 2]);
    s.reflectiveAccepted();
    expect(s.mergesDue).toBe(2);
    expect(s.takeTurn()).toBe(true);
  });
});

describe('proposals per iteration and the budget', () => {
  it('parses PxN and N', () => {
    expect(parseProposals('2x3')).toEqual({ parents: 2, mutations: 3 });
    expect(parseProposals('2×3')).toEqual({ parents: 2, mutations: 3 });
    expect(parseProposals('4')).toEqual({ parents: 1, mutations: 4 });
    for (const bad of ['0x2', '2x0', 'x2', 'abc', '9x9', '1.5']) expect(() => parseProposals(bad), bad).toThrow(RangeError);
    expect(proposalsPerIteration({ parents: 2, mutations: 3 })).toBe(6);
    expect(proposalsPerIteration(undefined)).toBe(1);
    expect(proposalsText(undefined)).toBe('1×1');
  });

  it('draws P parents, each followed by its N minibatches', () => {
    const log: string[] = [];
    let k = 0;
    const slots = drawProposalSlots({ parents: 2, mutations: 2 }, () => (log.push('parent'), `p${log.length}`), () => (log.push('mb'), [`t${k++}`]));
    expect(log).toEqual(['parent', 'mb', 'mb', 'parent', 'mb', 'mb']);
    expect(slots).toEqual([{ parent: 'p1', minibatch: ['t0'] }, { parent: 'p1', minibatch: ['t1'] }, { parent: 'p4', minibatch: ['t2'] }, { parent: 'p4', minibatch: ['t3'] }]);
    expect(drawProposalSlots(undefined, () => 'p', () => ['t'])).toEqual([{ parent: 'p', minibatch: ['t'] }]);
  });

  it('worst case k · (2b + V); a merge min(5, V) + V; the plan counts k proposals per iteration', () => {
    expect(iterationWorstCase(1, 3, 6)).toBe(30);
    expect([mergeWorstCase(3), mergeWorstCase(8)]).toEqual([6, 13]);
    expect(canStartIteration(18, 24, 1, 3, 6)).toBe(true);
    expect(canStartIteration(19, 24, 1, 3, 6)).toBe(false);
    // Budget 20, b = 1, V = 2, k = 2: worst 8. All accepted: 2 → 10 → 18 (2 iterations, 4 proposals);
    // all rejected (4 a round): 2 → 6 → 10 → 14, then 14 + 8 > 20 (3 iterations, 6 proposals).
    const plan = planBudget({ budgetMetricCalls: 20, minibatchSize: 1, trainTasks: 1, valTasks: 2, trainRepeats: 1, valRepeats: 1, proposalsPerIteration: 2 });
    expect(plan).toMatchObject({ iterationWorstCase: 8, minimumBudget: 10, proposals: { low: 4, high: 6 } });
    expect(planBudget({ budgetMetricCalls: 20, minibatchSize: 1, trainTasks: 1, valTasks: 2, trainRepeats: 1, valRepeats: 1 }).proposals).toEqual({ low: 4, high: 8 });
  });
});
