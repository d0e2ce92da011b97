/**
 * GEPA ≥ 0.1.4's outer-loop rules against GEPA's own code: its candidate selectors
 * (pareto, current_best, epsilon_greedy, top_k_pareto), acceptance criteria and the
 * no-improvement and score-threshold stoppers, run in Python (test/gepa-reference/strategies.py)
 * on the same 300 generated score matrices with the same scripted draws, must choose exactly what
 * ours choose. Plus hand-computed examples, and the runner using them end to end.
 */
import { describe, expect, it } from 'vitest';
import { acceptanceRule } from '../src/evolve/rules/acceptance.ts';
import { currentBest, selectCandidate, type CandidateSelection } from '../src/evolve/rules/candidate-selection.ts';
import type { ScoreMatrix } from '../src/evolve/rules/pareto.ts';
import { StopConditions } from '../src/evolve/rules/stop-conditions.ts';
import { SeededRng } from '../src/ttl/rng.ts';
import { runGepaReference } from './support/gepa-reference.ts';
import { runScripted, scriptedConfig } from './support/scripted-evolution.ts';

/** Draws answered from a script of uniforms, as the Python side's ScriptedRandom answers them. */
function scripted(draws: number[]) {
  const next = () => {
    const u = draws.shift();
    if (u === undefined) throw new Error('ran out of scripted draws');
    return u;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]! };
}

interface SelectionCase { selection: CandidateSelection; epsilon?: number; k?: number; scores: Record<string, number>[]; tasks: string[]; draws: number[] }

function generate(): SelectionCase[] {
  const rng = new SeededRng(2204);
  const cases: SelectionCase[] = [];
  const kinds: { selection: CandidateSelection; epsilon?: number; k?: number }[] = [
    { selection: 'pareto' }, { selection: 'current_best' }, { selection: 'epsilon_greedy', epsilon: 0.3 }, { selection: 'epsilon_greedy', epsilon: 1 },
    { selection: 'top_k_pareto', k: 1 }, { selection: 'top_k_pareto', k: 2 }, { selection: 'top_k_pareto', k: 5 },
  ];
  for (let i = 0; i < 300; i++) {
    const tasks = Array.from({ length: 1 + rng.int(4) }, (_, t) => `t${t}`);
    // Coarse scores (0, 0.25, … 1) so ties, shared fronts and dominated candidates are common.
    const scores = Array.from({ length: 1 + rng.int(7) }, () => Object.fromEntries(tasks.map((t) => [t, rng.int(5) / 4])));
    cases.push({ ...kinds[i % kinds.length]!, scores, tasks, draws: [rng.next(), rng.next(), rng.next()] });
  }
  return cases;
}

const matrix = (rows: Record<string, number>[]): ScoreMatrix => Object.fromEntries(rows.map((row, i) => [`c${i}`, row]));

describe('outer-loop rules equal GEPA 0.1.4 on the same inputs', () => {
  it('candidate selection, acceptance and the no-improvement / score-threshold stoppers', async () => {
    const selections = generate();
    const acceptance = [[0.2, 0.3], [0.3, 0.3], [0.4, 0.3], [0, 0], [0.5, 0.25]].map(([a, b]) => ({ before: [a!], after: [b!] }));
    const stops = [{ n: 1, threshold: 0.5, bests: [0.1, 0.1, 0.2] }, { n: 3, threshold: 0.9, bests: [0.1, 0.2, 0.2, 0.2, 0.3, 0.3, 0.3, 0.3, 0.95] }, { n: 2, threshold: 0.25, bests: [0, 0, 0.25] }];
    const gepa = await runGepaReference<{ selections: number[]; acceptance: [boolean, boolean][]; stops: [boolean, boolean][][] }>('strategies.py', { selections, acceptance, stops });

    const ours = selections.map((c) => selectCandidate({ selection: c.selection, ...(c.epsilon !== undefined ? { epsilon: c.epsilon } : {}), ...(c.k !== undefined ? { topK: c.k } : {}) }, matrix(c.scores), c.tasks, scripted([...c.draws])));
    expect(ours).toEqual(gepa.selections.map((i) => `c${i}`));
    // The cases exercise each strategy choosing something other than the first candidate.
    for (const kind of ['pareto', 'current_best', 'epsilon_greedy', 'top_k_pareto']) expect(ours.filter((id, i) => selections[i]!.selection === kind && id !== 'c0').length, kind).toBeGreaterThan(5);

    expect(acceptance.map((c) => [acceptanceRule('strict_improvement')(c.before[0]!, c.after[0]!), acceptanceRule('improvement_or_equal')(c.before[0]!, c.after[0]!)])).toEqual(gepa.acceptance);

    const ourStops = stops.map((c) => {
      const noImprovement = new StopConditions({ noImprovementIterations: c.n }, 0);
      const threshold = new StopConditions({ scoreThreshold: c.threshold }, 0);
      const input = (best: number) => ({ bestMeanVal: best, nowMs: 0, proposerUsd: null, stopFile: false });
      return c.bests.map((best) => [noImprovement.check(input(best)) !== null, threshold.check(input(best)) !== null]);
    });
    expect(ourStops).toEqual(gepa.stops);
  });
});

describe('outer-loop rules, hand-computed', () => {
  // c0 mean 0.3, c1 mean 0.5 (leads t0), c2 mean 0.5 (leads t1), c3 mean 0.2 (leads nothing).
  const scores: ScoreMatrix = { c0: { t0: 0.4, t1: 0.2 }, c1: { t0: 0.9, t1: 0.1 }, c2: { t0: 0.2, t1: 0.8 }, c3: { t0: 0.1, t1: 0.3 } };
  const tasks = ['t0', 't1'];

  it('current_best takes the earliest of the best means; epsilon_greedy explores below ε only', () => {
    expect(currentBest(scores, tasks)).toBe('c1');
    expect(selectCandidate({ selection: 'current_best' }, scores, tasks, scripted([]))).toBe('c1');
    expect(selectCandidate({ selection: 'epsilon_greedy', epsilon: 0.1 }, scores, tasks, scripted([0.1]))).toBe('c1');
    // 0.05 < 0.1 explores: the second draw 0.8 picks index ⌊0.8·4⌋ = 3 of c0…c3.
    expect(selectCandidate({ selection: 'epsilon_greedy', epsilon: 0.1 }, scores, tasks, scripted([0.05, 0.8]))).toBe('c3');
    expect(() => selectCandidate({ selection: 'epsilon_greedy', epsilon: 1.5 }, scores, tasks, scripted([]))).toThrow(/epsilon/);
  });

  it('top_k_pareto keeps only the k best by mean in the fronts; pareto draws over every leader', () => {
    // k = 1: only c1 (the earlier of the 0.5 ties) survives; it leads t0, so every draw is c1.
    for (const u of [0, 0.5, 0.99]) expect(selectCandidate({ selection: 'top_k_pareto', topK: 1 }, scores, tasks, scripted([u]))).toBe('c1');
    // k = 2: c1 and c2, one front each → a draw of 0.6 picks the second of [c1, c2].
    expect(selectCandidate({ selection: 'top_k_pareto', topK: 2 }, scores, tasks, scripted([0.6]))).toBe('c2');
    expect(selectCandidate({ selection: 'pareto' }, scores, tasks, scripted([0.6]))).toBe('c2');
    // Not in the top k and leading nothing: the best by mean.
    expect(selectCandidate({ selection: 'top_k_pareto', topK: 1 }, { c0: { t0: 0.5 }, c1: { t0: 0.5 } }, ['t0'], scripted([0.9]))).toBe('c0');
  });

  it('stop conditions: time limit from the invocation start, proposer cap only with a price, the stop file first', () => {
    const stops = new StopConditions({ timeLimitMinutes: 2, maxProposerUsd: 0.5 }, 1_000);
    const at = (nowMs: number, proposerUsd: number | null, stopFile = false) => stops.check({ bestMeanVal: 0, nowMs, proposerUsd, stopFile })?.reason ?? null;
    expect(at(1_000 + 120_000, null)).toBeNull();
    expect(at(1_000 + 120_001, null)).toBe('time_limit');
    expect(at(5_000, 0.49)).toBeNull();
    expect(at(5_000, 0.5)).toBe('proposer_usd_cap');
    expect(at(5_000, null, true)).toBe('stop_file');
  });
});

describe('the runner with the new strategies', () => {
  // c1 (S1) ties its parent on the minibatch: rejected by strict improvement, accepted by improvement-or-equal.
  const world = { scores: { '': { A: 0.3, T: 0.2 }, S1: { A: 0.5, T: 0.2 }, S2: { A: 0.1, T: 0.1 }, S3: { A: 0.1, T: 0.1 } }, proposals: ['S1', 'S2', 'S3'] };

  it('improvement-or-equal accepts a lateral move that strict improvement rejects; the options are recorded', async () => {
    const strict = await runScripted(world, scriptedConfig(['T'], ['A'], { budgetMetricCalls: 7 }));
    expect(strict.state.candidates[1]).toMatchObject({ status: 'rejected', reason: "minibatch sum 0.2000 ≤ parent's 0.2000" });
    const lateral = await runScripted(world, scriptedConfig(['T'], ['A'], { budgetMetricCalls: 7, acceptance: 'improvement_or_equal' }));
    expect(lateral.state.candidates[1]).toMatchObject({ status: 'accepted', reason: "minibatch sum 0.2000 ≥ parent's 0.2000", valScores: { A: 0.5 } });
    expect(lateral.state.config.acceptance).toBe('improvement_or_equal');
    expect(lateral.state.best.byMean).toBe('c1');
  });

  it('no improvement for N iterations and a score threshold end the run complete, before the budget', async () => {
    const noImprovement = await runScripted(world, scriptedConfig(['T'], ['A'], { budgetMetricCalls: 40, stopConditions: { noImprovementIterations: 2 } }));
    // Checks: before it. 1 (best 0.3, sets it), 2 (0.3: 1 without), 3 (0.3: 2 without → stop): two iterations ran.
    expect(noImprovement.state).toMatchObject({ status: 'complete', stopReason: 'no_improvement', iteration: 2 });
    const threshold = await runScripted(world, scriptedConfig(['T'], ['A'], { budgetMetricCalls: 40, acceptance: 'improvement_or_equal', stopConditions: { scoreThreshold: 0.5 } }));
    expect(threshold.state).toMatchObject({ status: 'complete', stopReason: 'score_threshold', iteration: 1 });
  });

  it('a stop file stops the run before its next iteration, resumable', async () => {
    let present = false;
    const run = await runScripted(world, scriptedConfig(['T'], ['A'], { budgetMetricCalls: 40 }), {
      stopFile: () => present,
      onEvent: (event) => void (event.type === 'rejected' && (present = true)),
    });
    expect(run.state).toMatchObject({ status: 'stopped', stopReason: 'stop_file', iteration: 1 });
  });
});
