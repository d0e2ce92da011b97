/**
 * GEPA's merge proposer against GEPA 0.1.4's own code: the common-ancestor search with
 * the merged text choice (sample_and_attempt_merge_programs_by_common_predictors) and the merged
 * candidate's validation subsample (select_eval_subsample_for_merged_program), run in Python
 * (test/gepa-reference/merge.py) on the same 400 generated pools / 200 score pairs with the same
 * scripted draws, must choose exactly what ours choose and use exactly as many draws.
 */
import { describe, expect, it } from 'vitest';
import { attemptMerge, mergeSubsample, type MergeMemory, type MergePoolEntry } from '../src/evolve/rules/merge.ts';
import { SeededRng } from '../src/ttl/rng.ts';
import { runGepaReference } from './support/gepa-reference.ts';

/** Uniforms answered from a script, as the Python side's ScriptedRandom answers them. */
function scripted(draws: number[]) {
  return {
    next: () => {
      const u = draws.shift();
      if (u === undefined) throw new Error('ran out of scripted draws');
      return u;
    },
    left: () => draws.length,
  };
}

interface MergeCase { strategies: string[]; parents: (number | null)[][]; scores: number[]; candidates: number[]; triplets: [number, number, number][]; draws: number[] }
interface SubsampleCase { scores1: Record<string, number>; scores2: Record<string, number>; draws: number[] }

function generate(): { merges: MergeCase[]; subsamples: SubsampleCase[] } {
  const rng = new SeededRng(2205);
  const merges: MergeCase[] = [];
  for (let i = 0; i < 400; i++) {
    const n = 3 + rng.int(6);
    // Few distinct texts, so descendants often keep an ancestor's text; each program after the seed
    // has one earlier parent, or (one in four) two, as a merge does.
    const strategies = Array.from({ length: n }, () => rng.pick(['A', 'B', 'C', 'D']));
    const parents: (number | null)[][] = [[null]];
    for (let p = 1; p < n; p++) {
      const first = rng.int(p);
      const second = rng.int(p);
      parents.push(rng.next() < 0.25 && second !== first ? [first, second] : [first]);
    }
    // Scores 0.25 … 1 (never 0: Python's weighted draw raises on a zero total, ours draws uniformly).
    const scores = Array.from({ length: n }, () => (1 + rng.int(4)) / 4);
    const candidates = Array.from({ length: n }, (_, k) => k).filter(() => rng.next() < 0.7);
    const triplets: [number, number, number][] = rng.next() < 0.3 && n >= 4 ? [[1, 2, 0], [2, 3, 0]] : [];
    merges.push({ strategies, parents, scores, candidates, triplets, draws: Array.from({ length: 400 }, () => rng.next()) });
  }
  const subsamples: SubsampleCase[] = [];
  for (let i = 0; i < 200; i++) {
    const tasks = Array.from({ length: 1 + rng.int(9) }, (_, t) => `t${t}`);
    const row = () => Object.fromEntries(tasks.map((t) => [t, rng.int(4) / 4]));
    subsamples.push({ scores1: row(), scores2: row(), draws: Array.from({ length: 12 }, () => rng.next()) });
  }
  return { merges, subsamples };
}

/** Our pool of a case: program k is candidate `c${k}`. */
function poolOf(c: MergeCase): Map<string, MergePoolEntry> {
  return new Map(c.strategies.map((strategy, k) => [`c${k}`, { id: `c${k}`, strategy, parentIds: c.parents[k]!.filter((p) => p !== null).map((p) => `c${p}`), score: c.scores[k]! }]));
}

describe('the merge proposer equals GEPA 0.1.4 on the same inputs', () => {
  it('common-ancestor pair, ancestor draw, merged text and the draws used; the validation subsample', async () => {
    const cases = generate();
    type GepaOut = { merges: { merge: { strategy: string; id1: number; id2: number; ancestor: number } | null; drawsLeft: number; descriptions: [number, number, number[]][] }[]; subsamples: { subsample: string[]; drawsLeft: number }[] };
    const gepa = await runGepaReference<GepaOut>('merge.py', cases);

    const ours = cases.merges.map((c) => {
      const rng = scripted([...c.draws]);
      const memory: MergeMemory = { triplets: c.triplets.map((t) => t.map((k) => `c${k}`) as [string, string, string]), descriptions: [] };
      const found = attemptMerge(c.candidates.map((k) => `c${k}`), poolOf(c), memory, rng);
      return {
        merge: found && { strategy: found.strategy, id1: found.id1, id2: found.id2, ancestor: found.ancestorId },
        drawsLeft: rng.left(), descriptions: memory.descriptions,
      };
    });
    const theirs = gepa.merges.map((g) => ({
      merge: g.merge && { strategy: g.merge.strategy, id1: `c${g.merge.id1}`, id2: `c${g.merge.id2}`, ancestor: `c${g.merge.ancestor}` },
      drawsLeft: g.drawsLeft, descriptions: g.descriptions.map(([a, b, d]) => [`c${a}`, `c${b}`, d.map((k) => `c${k}`)]),
    }));
    expect(ours).toEqual(theirs);
    // The cases exercise both outcomes, and merges whose text is not the first parent's.
    const found = ours.filter((o) => o.merge !== null);
    expect(found.length).toBeGreaterThan(40);
    expect(ours.length - found.length).toBeGreaterThan(40);
    expect(ours.filter((o, i) => o.merge && o.merge.strategy !== cases.merges[i]!.strategies[Number(o.merge.id1.slice(1))]).length).toBeGreaterThan(0);

    const ourSubsamples = cases.subsamples.map((c) => {
      const rng = scripted([...c.draws]);
      const subsample = mergeSubsample(c.scores1, c.scores2, Object.keys(c.scores1), rng);
      return { subsample, drawsLeft: rng.left() };
    });
    expect(ourSubsamples).toEqual(gepa.subsamples);
    expect(ourSubsamples.some((s) => new Set(s.subsample).size < s.subsample.length)).toBe(true);
  });
});
