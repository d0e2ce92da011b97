/**
 * Replicated evolutions without a model: the schema and the plan (n steps, seeds base + r − 1,
 * one arm per replicate), the runner (replicates side by side within the parallel limit, each
 * outcome with its replicate and seed, a resume mid-replicates), the replicated bootstrap (one
 * replicate = exactly the unreplicated nested bootstrap; replicates that differ widen it) and the
 * prompts' dissimilarity against hand-computed values.
 */
import { describe, expect, it } from 'vitest';
import { nestedBootstrapMean, nestedPairedDifference } from '../ttl/metrics.ts';
import { applyOverrides } from './builtins.ts';
import { freshExperimentState, replicateConcurrency, runExperiment, type ExperimentExecutor } from './experiment-runner.ts';
import type { EvaluationReport } from '../eval/interface.ts';
import type { EvolutionStep, ExperimentSpec } from './interface.ts';
import { planExperiment } from './plan.ts';
import { promptDissimilarity, replicatedBootstrapMean, wordEditDistance, wordJaccardDistance } from './replicates.ts';
import { buildExperimentReport } from './report.ts';
import { chosenPromptCaption, chosenPromptText, experimentReportToHtml, experimentReportToMarkdown } from './report-formats.ts';
import { ExperimentSpecError, validateExperiment } from './schema.ts';

const base = {
  name: 'rep', episodes: 2, steps: 3, repeats: 2, taskSets: { T: ['detective:0', 'zork1:0', 'temple:0'] }, baseline: 'naive', evaluateOn: ['T'],
  evolutions: [{ id: 'e', train: 'T', val: 'T', budget: 4, rngSeed: 7 }], arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolution: 'e', replicates: 3 }],
};
const problemsOf = (value: unknown): string[] => {
  try {
    validateExperiment(value);
    return [];
  } catch (error) {
    return (error as ExperimentSpecError).problems;
  }
};

describe('replicated evolutions: schema and plan', () => {
  it('replicates on the arm or on the evolution; out of range or two different numbers are named', () => {
    expect(validateExperiment(base).evolutions[0]!.replicates).toBe(3);
    expect(validateExperiment({ ...base, evolutions: [{ ...base.evolutions[0], replicates: 2 }], arms: [base.arms[0], { id: 'evolved', evolution: 'e' }] }).evolutions[0]!.replicates).toBe(2);
    expect(problemsOf({ ...base, arms: [base.arms[0], { id: 'evolved', evolution: 'e', replicates: 0 }] })).toEqual(['arms[1].replicates must be a whole number from 1 to 20, got 0']);
    expect(problemsOf({ ...base, evolutions: [{ ...base.evolutions[0], replicates: 2 }] })[0]).toMatch(/^arms\[1\]\.replicates must be 2, as evolution "e" already has/);
    expect(applyOverrides(validateExperiment(base), { replicates: 4 }).evolutions[0]!.replicates).toBe(4);
  });

  it('n replicates plan n evolution steps with seeds base + r − 1 and one evaluated arm per replicate; n = 1 plans exactly the unreplicated steps', () => {
    const plan = planExperiment(validateExperiment(base));
    const evolutions = plan.steps.filter((s): s is EvolutionStep => s.kind === 'evolution');
    expect(evolutions.map((s) => [s.id, s.evolution.rngSeed, s.replicate, s.replicates, s.group])).toEqual([
      ['evolve-e.r1', 7, 1, 3, 'evolve-e'], ['evolve-e.r2', 8, 2, 3, 'evolve-e'], ['evolve-e.r3', 9, 3, 3, 'evolve-e'],
    ]);
    const evaluation = plan.steps.find((s) => s.kind === 'evaluation')!;
    expect(evaluation.kind === 'evaluation' && evaluation.arms).toEqual([
      { id: 'naive', policy: 'naive' }, { id: 'evolved#r1', evolutionStep: 'evolve-e.r1', replicateOf: 'evolved', replicate: 1 },
      { id: 'evolved#r2', evolutionStep: 'evolve-e.r2', replicateOf: 'evolved', replicate: 2 }, { id: 'evolved#r3', evolutionStep: 'evolve-e.r3', replicateOf: 'evolved', replicate: 3 },
    ]);
    const single = planExperiment(validateExperiment({ ...base, arms: [base.arms[0], { id: 'evolved', evolution: 'e' }] }));
    expect(single.steps.map((s) => s.id)).toEqual(['evolve-e', 'eval-T']);
    expect(single.steps[0]).toMatchObject({ replicate: 1, replicates: 1, evolution: { rngSeed: 7 } });
    expect(single.steps[1]!.kind === 'evaluation' && single.steps[1]!.arms[1]).toEqual({ id: 'evolved', evolutionStep: 'evolve-e' });
    // Seeds wrap at 2³².
    const top = planExperiment(validateExperiment({ ...base, evolutions: [{ ...base.evolutions[0], rngSeed: 0xffffffff }] }));
    expect(top.steps.filter((s): s is EvolutionStep => s.kind === 'evolution').map((s) => s.evolution.rngSeed)).toEqual([0xffffffff, 0, 1]);
  });

  it('side by side within the concurrency: min(replicates, concurrency) at once, each ⌊concurrency ÷ that⌋', () => {
    expect(replicateConcurrency(4, 3)).toEqual({ parallel: 3, each: 1 });
    expect(replicateConcurrency(8, 3)).toEqual({ parallel: 3, each: 2 });
    expect(replicateConcurrency(2, 5)).toEqual({ parallel: 2, each: 1 });
    expect(replicateConcurrency(1, 5)).toEqual({ parallel: 1, each: 1 });
  });
});

// Per replicate: the chosen prompt, and an offset added to every session of its arm.
const PROMPTS = ['explore every room and take all', 'explore every room then take all items', 'read the map and go north'];
const OFFSET = [0, 0.2, -0.1];
const NAIVE: Record<string, number[]> = { 'detective:0': [0.1, 0.12], 'zork1:0': [0.02, 0.03], 'temple:0': [0.3, 0.26] };
const emptyReport = (): EvaluationReport => ({ id: 'r', status: 'complete', stopReason: null, stopMessage: null, plannedSessions: 0, faultedEpisodes: 0, baselinePolicyId: 'naive', bootstrap: { resamples: 2000, seed: 0, level: 0.95 }, games: [], totalSessions: 0, policies: [] });

function fakeExecutor(spec: ExperimentSpec, options: { parallel: number; stopAt?: Set<string> }) {
  const calls: string[] = [];
  let inFlight = 0;
  let most = 0;
  const exec: ExperimentExecutor = {
    now: () => '2026-01-01T00:00:00.000Z',
    save: async () => undefined,
    parallelEvolutions: options.parallel,
    evolution: async (step) => {
      calls.push(step.id);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      if (options.stopAt?.has(step.id)) return { exitCode: 130, outcome: null };
      return { exitCode: 0, outcome: { runId: step.id, status: 'complete', stopReason: 'budget', metricCallsUsed: 4, budget: 4, sessionsPlayed: 4, bestCandidateId: `c${step.replicate}`, bestStrategy: PROMPTS[step.replicate - 1]!, bestValWAuc: 0.3, candidates: 2, bestIsSeed: false } };
    },
    evaluation: async (step) => {
      calls.push(step.id);
      const sessions = step.tasks.flatMap((task) => step.arms.flatMap((arm) => NAIVE[task]!.map((w, repeat) => ({ policyId: arm.id, taskId: task, repeat, wAuc: arm.replicate ? w + 0.1 + OFFSET[arm.replicate - 1]! : w }))));
      return { exitCode: 0, outcome: { runId: step.id, status: 'complete', report: emptyReport(), sessions } };
    },
  };
  return { exec, calls, most: () => most };
}

describe('replicated evolutions: runner and report', () => {
  it('runs replicates side by side, stamps replicate and seed on each outcome; a replicate stopped mid-way resumes alone', async () => {
    const spec = validateExperiment(base);
    const plan = planExperiment(spec);
    const first = fakeExecutor(spec, { parallel: 2, stopAt: new Set(['evolve-e.r2']) });
    const stopped = await runExperiment(plan, freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], first.exec.now()), first.exec);
    expect(stopped).toMatchObject({ exitCode: 130, state: { status: 'stopped' } });
    expect(first.calls).toEqual(['evolve-e.r1', 'evolve-e.r2']);
    expect(first.most()).toBe(2);
    expect(stopped.state.steps['evolve-e.r1']).toMatchObject({ status: 'complete', evolution: { replicate: 1, rngSeed: 7 } });
    expect(stopped.state.steps['evolve-e.r2']!.status).toBe('stopped');

    const second = fakeExecutor(spec, { parallel: 2 });
    const done = await runExperiment(plan, stopped.state, second.exec);
    expect(done.exitCode).toBe(0);
    expect(second.calls).toEqual(['evolve-e.r2', 'evolve-e.r3', 'eval-T']);
    expect(['evolve-e.r1', 'evolve-e.r2', 'evolve-e.r3'].map((id) => [done.state.steps[id]!.evolution!.replicate, done.state.steps[id]!.evolution!.rngSeed])).toEqual([[1, 7], [2, 8], [3, 9]]);

    // One after another without a parallel limit.
    const serial = fakeExecutor(spec, { parallel: 1 });
    await runExperiment(plan, freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], serial.exec.now()), serial.exec);
    expect(serial.most()).toBe(1);

    const report = buildExperimentReport(plan, done.state);
    const [arm] = report.replicated!;
    expect(arm).toMatchObject({ step: 'eval-T', arm: 'evolved', replicates: 3, baseline: 'naive' });
    expect(arm!.perReplicate.map((r) => [r.replicate, r.policyId, r.rngSeed, r.chosenCandidate, r.prompt, r.sessions])).toEqual([
      [1, 'evolved#r1', 7, 'c1', PROMPTS[0], 6], [2, 'evolved#r2', 8, 'c2', PROMPTS[1], 6], [3, 'evolved#r3', 9, 'c3', PROMPTS[2], 6],
    ]);
    // Per replicate Δ = 0.1 + offset exactly; mean over replicates 0.1 + 0.1/3.
    expect(arm!.perReplicate.map((r) => r.delta)).toEqual([expect.closeTo(0.1, 12), expect.closeTo(0.3, 12), expect.closeTo(0, 12)]);
    expect(arm!.delta!.estimate).toBeCloseTo(0.1 + 0.1 / 3, 12);
    const naiveMean = Object.values(NAIVE).flat().reduce((a, b) => a + b, 0) / 6;
    expect(arm!.perReplicate.map((r) => r.wAuc)).toEqual(OFFSET.map((o) => expect.closeTo(naiveMean + 0.1 + o, 12)));
    expect(arm!.wAucSpread).toEqual({ min: expect.closeTo(naiveMean, 12), max: expect.closeTo(naiveMean + 0.3, 12), range: expect.closeTo(0.3, 12), sd: expect.closeTo(Math.sqrt(((0 - 0.1 / 3) ** 2 + (0.2 - 0.1 / 3) ** 2 + (-0.1 - 0.1 / 3) ** 2) / 2), 12) });
    expect(arm!.dissimilarity.pairs.map((p) => [p.a, p.b])).toEqual([[1, 2], [1, 3], [2, 3]]);
    // The declared comparison is the arm across replicates; each replicate's own pair is exploratory.
    const declared = report.comparisons!.find((c) => c.a === 'evolved' && c.b === 'naive')!;
    expect([declared.delta.mean, declared.delta.low, declared.delta.high]).toEqual([arm!.delta!.estimate, arm!.delta!.low, arm!.delta!.high]);
    expect(declared.delta.high - declared.delta.low).toBeGreaterThan(0.2);
    expect(declared.gameLevel.games).toBe(3);
    expect(report.comparisons!.filter((c) => c.a.includes('#') || c.b.includes('#'))).toEqual([]);
    const md = experimentReportToMarkdown(report);
    for (const text of ['## Replicated evolutions', 'evolved on T: 3 replicates', '| 2 | evolved#r2 | 8 | c2 |', 'W-AUC spread', 'word edit distance', 'r1–r2']) expect(md).toContain(text);
    const html = experimentReportToHtml(report);
    expect(html).toContain('<section id="replicates">');
    expect(html).toContain('explore every room then take all items');
    // Each chosen prompt is captioned as what it is: here every replicate changed the seed.
    expect(md).toContain('Chosen prompt of r2 (written by the evolution):');
    expect(html).toContain('<summary>Chosen prompt of r2 (written by the evolution)</summary>');
  });

  it('a replicate that kept the seed says so, and an empty prompt is named, not an empty block', () => {
    expect(chosenPromptCaption({ replicate: 1, chosenIsSeed: true })).toBe('Chosen prompt of r1 (the seed, unchanged: no selection happened)');
    expect(chosenPromptCaption({ replicate: 3, chosenIsSeed: false })).toBe('Chosen prompt of r3 (written by the evolution)');
    expect(chosenPromptText({ prompt: '' })).toBe('(empty: no strategy section)');
    expect(chosenPromptText({ prompt: 'go north' })).toBe('go north');
  });
});

describe('two replicated arms', () => {
  it('a declared contrast between two replicated arms pairs replicate r with replicate r', async () => {
    const spec = validateExperiment({
      ...base, evolutions: [base.evolutions[0], { ...base.evolutions[0], id: 'f', rngSeed: 100 }],
      arms: [...base.arms, { id: 'other', evolution: 'f', replicates: 3 }], contrasts: [{ a: 'evolved', b: 'other' }],
    });
    const plan = planExperiment(spec);
    const fake = fakeExecutor(spec, { parallel: 3 });
    const { state } = await runExperiment(plan, freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], fake.exec.now()), fake.exec);
    const report = buildExperimentReport(plan, state);
    expect(report.comparisons!.map((c) => `${c.a}-${c.b}`)).toEqual(['evolved-naive', 'other-naive', 'evolved-other']);
    // Replicate r of each arm plays with the same offset: every paired difference is exactly 0,
    // so r-with-r pairing gives a zero-width interval (pairing across replicates would not).
    const contrast = report.comparisons![2]!;
    expect([contrast.delta.mean, contrast.delta.low, contrast.delta.high].map((x) => Math.abs(x) < 1e-12)).toEqual([true, true, true]);
    expect(contrast.sessions).toBe(3 * 6);
    expect(report.replicated!.map((a) => a.arm)).toEqual(['evolved', 'other']);
    expect(report.replicated![1]!.perReplicate.map((r) => r.rngSeed)).toEqual([100, 101, 102]);
  });
});

describe('replicated bootstrap', () => {
  // games → seeds → repeats, as nestedBootstrapMean takes them.
  const one = [[[0.1, 0.2, 0.15], [0.3, 0.25]], [[0.05, 0.0, 0.1]], [[0.6, 0.5], [0.55, 0.7], [0.4]]];
  it('one replicate gives exactly the unreplicated nested bootstrap (same draws), for W-AUC and paired Δ', () => {
    for (const seed of [0, 1, 42]) expect(replicatedBootstrapMean([one], { seed, resamples: 500 })).toEqual(nestedBootstrapMean(one, { seed, resamples: 500 }));
    const pairs = one.map((g) => g.map((s) => s.map((x, i) => [x, x / 2 + i * 0.01] as [number, number])));
    expect(replicatedBootstrapMean([pairs.map((g) => g.map((s) => s.map(([a, b]) => a - b)))], { seed: 3, resamples: 400 })).toEqual(nestedPairedDifference(pairs, { seed: 3, resamples: 400 }));
  });

  it('identical replicates keep the estimate; replicates that differ widen the interval beyond pooling them as one', () => {
    // Games of similar difficulty, so the replicates' spread is what shows.
    const flat = [[[0.28, 0.32, 0.3], [0.31, 0.29]], [[0.27, 0.33, 0.3]], [[0.3, 0.32], [0.29, 0.31], [0.3]]];
    const shifted = (d: number) => flat.map((g) => g.map((s) => s.map((x) => x + d)));
    const same = replicatedBootstrapMean([flat, flat, flat], { seed: 5 });
    expect(same.estimate).toBeCloseTo(nestedBootstrapMean(flat, { seed: 5 }).estimate, 12);
    const differ = [shifted(-0.15), flat, shifted(0.15)];
    const replicated = replicatedBootstrapMean(differ, { seed: 5 });
    // The same sessions as if one prompt had played them all (each seed's values merged, replicates ignored).
    const pooled = nestedBootstrapMean(flat.map((g, gi) => g.map((_, si) => differ.flatMap((rep) => rep[gi]![si]!))), { seed: 5 });
    expect(replicated.estimate).toBeCloseTo(pooled.estimate, 12);
    expect(replicated.high - replicated.low).toBeGreaterThan(2 * (pooled.high - pooled.low));
    expect(replicated.high - replicated.low).toBeGreaterThan(5 * (same.high - same.low));
    // The replicate means are 0.15, 0.30, 0.45: the interval reaches toward both ends.
    expect(replicated.low).toBeLessThan(0.2);
    expect(replicated.high).toBeGreaterThan(0.4);
    expect(replicated.n).toBe(3 * 13);
  });
});

describe('prompt dissimilarity', () => {
  it('word edit distance and Jaccard distance as computed by hand', () => {
    // 1 insertion over max(3, 4) words; sets {the, cat, sat} vs {the, cat, sat, down}: 1 − 3/4.
    expect(wordEditDistance('the cat sat', 'the cat sat down')).toBe(0.25);
    expect(wordJaccardDistance('the cat sat', 'the cat sat down')).toBe(0.25);
    // Reversed: a b c → c b a is 2 substitutions of 3 words; the same set.
    expect(wordEditDistance('a b c', 'c b a')).toBeCloseTo(2 / 3, 15);
    expect(wordJaccardDistance('a b c', 'c b a')).toBe(0);
    // Case and runs of whitespace do not count; punctuation stays on its word ("north." ≠ "north").
    expect(wordEditDistance('Explore  NORTH', 'explore north')).toBe(0);
    expect(wordEditDistance('go north.', 'go north')).toBe(0.5);
    expect(wordJaccardDistance('go north.', 'go north')).toBeCloseTo(1 - 1 / 3, 15);
    expect([wordEditDistance('', ''), wordJaccardDistance('', ''), wordEditDistance('', 'x y'), wordJaccardDistance('x', 'y')]).toEqual([0, 0, 1, 1]);
    // kitten → sitting over words: k i t t e n vs s i t t i n g: 3 edits of 7.
    expect(wordEditDistance('k i t t e n', 's i t t i n g')).toBeCloseTo(3 / 7, 15);
    const d = promptDissimilarity(['the cat sat', 'the cat sat down', 'a b c']);
    expect(d.pairs).toEqual([
      { a: 1, b: 2, editDistance: 0.25, jaccardDistance: 0.25 }, { a: 1, b: 3, editDistance: 1, jaccardDistance: 1 }, { a: 2, b: 3, editDistance: 1, jaccardDistance: 1 },
    ]);
    expect(d.meanEditDistance).toBeCloseTo(2.25 / 3, 15);
    expect(promptDissimilarity(['only one'])).toEqual({ pairs: [], meanEditDistance: null, meanJaccardDistance: null });
  });
});
