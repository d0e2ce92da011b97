/**
 * Test support: a scripted world in which the outer loop's fourth iteration merges two candidates
 * (test/evolution-merge.test.ts works it out by hand; e2e/evolve-merge.spec.ts shows it on the
 * page), and a generator answering from a script of uniforms.
 */
import type { SeededRng } from '../../src/ttl/rng.ts';
import { scriptedConfig, type ScriptedWorld } from './scripted-evolution.ts';

/** A generator answering from a script of uniforms (the loop's only draws here are the merge's). */
export function scriptedRng(draws: number[]): SeededRng {
  const next = () => {
    const u = draws.shift();
    if (u === undefined) throw new Error('ran out of scripted draws');
    return u;
  };
  const int = (n: number) => Math.floor(next() * n);
  const rng = {
    next, int, pick: <T>(items: readonly T[]) => items[int(items.length)]!, getState: () => draws.length,
    shuffle: <T>(items: readonly T[]) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
  return rng as unknown as SeededRng;
}

// Every child ties its parent on the training task (accepted under improvement-or-equal), and
// current_best picks parents without a draw. Validation (A, B, C): S0 0.1 0.1 0.6 (mean 0.2667),
// S1 0.3 0.3 0.3 (0.3), S3 0.7 0 0.3 (0.3333).
export const world: ScriptedWorld = {
  scores: { S0: { T: 0.2, A: 0.1, B: 0.1, C: 0.6 }, S1: { T: 0.2, A: 0.3, B: 0.3, C: 0.3 }, S3: { T: 0.2, A: 0.7, B: 0, C: 0.3 } },
  proposals: ['S1', 'S0', 'S3'],
};
export const mergeConfig = (budget: number) => scriptedConfig(['T'], ['A', 'B', 'C'], { seedStrategy: 'S0', budgetMetricCalls: budget, acceptance: 'improvement_or_equal', candidateSelection: 'current_best', merge: { maxMerges: 5 } });
/** Iteration 3's merge search: c1 is c2's parent, so all 10 × 10 pair draws (2 each) fail. */
export const failedSearch = () => Array.from({ length: 200 }, () => 0);

/** The draws of the merge that iteration 4 rejects (subsample B, C, A, B, C). */
export const rejectedMergeDraws = () => [...failedSearch(), 0.5, 0.9, 0, 0, 0, 0, 0.5, 0.9];
/** The draws of the merge that iteration 4 accepts (subsample B, C, A, A, A). */
export const acceptedMergeDraws = () => [...failedSearch(), 0.5, 0.9, 0, 0, 0, 0, 0, 0];
