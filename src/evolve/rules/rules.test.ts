import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../ttl/rng.ts';
import { acceptStrictImprovement } from './acceptance.ts';
import { canStartIteration, iterationWorstCase } from './budget.ts';
import { parseProposal } from './llm-proposer.ts';
import { EpochMinibatchSampler } from './minibatch.ts';
import { frontCounts, paretoFronts, pruneDominated, selectParent } from './pareto.ts';
import { MUTATION_CORPUS, mutateStrategy, splitSentences } from './random-mutation.ts';
import { meanScores, selectBest, zScores } from './selection.ts';

const TASKS = ['t1', 't2', 't3'];

describe('Pareto pool', () => {
  it('fronts hold every candidate tied for the best on each task', () => {
    const scores = { a: { t1: 0.5, t2: 0.1, t3: 0.2 }, b: { t1: 0.5, t2: 0.3, t3: 0.1 }, c: { t1: 0.2, t2: 0.3, t3: 0.2 } };
    expect(paretoFronts(scores, TASKS)).toEqual({ t1: ['a', 'b'], t2: ['b', 'c'], t3: ['a', 'c'] });
  });

  it('drops candidates no front needs, weakest mean first', () => {
    // Means: a 0.2667, b 0.3, c 0.2333. c goes first (t2 keeps b, t3 keeps a); then a and b are both needed.
    const scores = { a: { t1: 0.5, t2: 0.1, t3: 0.2 }, b: { t1: 0.5, t2: 0.3, t3: 0.1 }, c: { t1: 0.2, t2: 0.3, t3: 0.2 } };
    const pruned = pruneDominated(paretoFronts(scores, TASKS), scores, TASKS);
    expect(pruned).toEqual({ t1: ['a', 'b'], t2: ['b'], t3: ['a'] });
    expect([...frontCounts(pruned)].sort()).toEqual([['a', 2], ['b', 2]]);
  });

  it('a candidate best on one task alone is always kept; exact duplicates keep one', () => {
    const scores = { a: { t1: 1, t2: 0, t3: 0 }, b: { t1: 0, t2: 1, t3: 1 }, c: { t1: 0, t2: 1, t3: 1 } };
    const pruned = pruneDominated(paretoFronts(scores, TASKS), scores, TASKS);
    expect(pruned.t1).toEqual(['a']);
    expect(pruned.t2).toEqual(pruned.t3);
    expect(pruned.t2).toHaveLength(1);
  });

  it('samples parents in proportion to the fronts they lead (seeded)', () => {
    const scores = { a: { t1: 1, t2: 1, t3: 0 }, b: { t1: 0, t2: 0, t3: 1 } };
    const rng = new SeededRng(42);
    const picks = Array.from({ length: 3000 }, () => selectParent(scores, TASKS, rng));
    const share = picks.filter((p) => p === 'a').length / picks.length;
    expect(share).toBeGreaterThan(0.6);
    expect(share).toBeLessThan(0.73);
    expect(selectParent(scores, TASKS, new SeededRng(7))).toBe(selectParent(scores, TASKS, new SeededRng(7)));
  });
});

describe('budget, acceptance, selection', () => {
  it('an iteration starts only if parent + child minibatch + full validation fit (metric calls, not sessions)', () => {
    expect(iterationWorstCase(1, 3)).toBe(5);
    expect(canStartIteration(15, 20, 1, 3)).toBe(true);
    expect(canStartIteration(16, 20, 1, 3)).toBe(false);
  });

  it('acceptance is a strict improvement of the minibatch sum', () => {
    expect(acceptStrictImprovement(0.4, 0.41)).toBe(true);
    expect(acceptStrictImprovement(0.4, 0.4)).toBe(false);
  });

  it('z-scores by hand: the mean and the z-score can pick different candidates', () => {
    const two = ['t1', 't2'];
    // Means: a 0.5, b 0.4, c 0.3. t1: mean 0.6, population sd √(0.14/3); t2: mean 0.2, sd √(0.02/3).
    const scores = { a: { t1: 0.9, t2: 0.1 }, b: { t1: 0.5, t2: 0.3 }, c: { t1: 0.4, t2: 0.2 } };
    const sd1 = Math.sqrt(0.14 / 3);
    const sd2 = Math.sqrt(0.02 / 3);
    const z = zScores(scores, two);
    expect(z.get('a')).toBeCloseTo((0.3 / sd1 - 0.1 / sd2) / 2, 10);
    expect(z.get('b')).toBeCloseTo((-0.1 / sd1 + 0.1 / sd2) / 2, 10);
    expect(z.get('c')).toBeCloseTo((-0.2 / sd1 + 0) / 2, 10);
    expect(meanScores(scores, two).get('a')).toBeCloseTo(0.5, 12);
    expect(selectBest(scores, two)).toEqual({ byMean: 'a', byZScore: 'b' });
  });

  it('z = 0 on a task whose scores all tie', () => {
    const z = zScores({ a: { t1: 0.5 }, b: { t1: 0.5 } }, ['t1']);
    expect([z.get('a'), z.get('b')]).toEqual([0, 0]);
  });
});

describe('minibatches and proposals', () => {
  it('epoch-shuffled minibatches cover every task once per epoch, never repeating within a batch', () => {
    const sampler = new EpochMinibatchSampler(['a', 'b', 'c'], 2);
    const rng = new SeededRng(3);
    const batches = Array.from({ length: 6 }, () => sampler.next(rng));
    for (const b of batches) expect(new Set(b).size).toBe(2);
    expect(batches.slice(0, 3).flat().filter((t) => t === 'a').length).toBeGreaterThanOrEqual(1);
  });

  it('parses <strategy>, accepts a fenced block, rejects empty, truncated and unchanged', () => {
    expect(parseProposal('Because...\n<strategy>\nKeep a fact bank.\n</strategy>', 'stop', '')).toEqual({ strategy: 'Keep a fact bank.', status: 'ok' });
    expect(parseProposal('Here:\n```\nReplay scoring moves.\n```', 'stop', '')).toEqual({ strategy: 'Replay scoring moves.', status: 'ok' });
    expect(parseProposal('<strategy></strategy>', 'stop', 'x').status).toBe('empty');
    expect(parseProposal('', 'length', 'x').status).toBe('truncated');
    expect(parseProposal('<strategy>Keep going and', 'length', 'x').status).toBe('truncated');
    expect(parseProposal('<strategy> same </strategy>', 'stop', 'same').status).toBe('unchanged');
  });

  it('random mutation grows an empty seed from the library corpus and edits sentences', () => {
    const rng = new SeededRng(1);
    const first = mutateStrategy('', rng);
    expect(first.kind).toBe('insert');
    expect(MUTATION_CORPUS).toContain(first.strategy);
    let s = first.strategy;
    for (let i = 0; i < 20; i++) s = mutateStrategy(s, rng).strategy;
    for (const sentence of splitSentences(s)) expect(MUTATION_CORPUS).toContain(sentence);
  });
});
