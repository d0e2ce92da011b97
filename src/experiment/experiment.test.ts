/**
 * The experiment core without a model: the schema names every bad field, the built-ins carry the
 * paper's values, overrides shrink them, skeptic-holdout's folds are disjoint by construction, the
 * runner skips finished steps on resume, and the selection test's numbers (selection optimism,
 * transfer gap, pooled) are the hand-computed ones, t quantiles from scipy.
 */
import { describe, expect, it } from 'vitest';
import type { EvaluationReport } from '../eval/interface.ts';
import type { Interval } from '../ttl/metrics.ts';
import { applyOverrides, BUILTIN_EXPERIMENTS } from './builtins.ts';
import { freshExperimentState, runExperiment, type ExperimentExecutor } from './experiment-runner.ts';
import type { ExperimentState } from './interface.ts';
import { checkFoldDisjoint, gamesOf, leaveOneOutFolds, planExperiment } from './plan.ts';
import { buildExperimentReport } from './report.ts';
import { EXPERIMENT_CSV_HEADER, experimentFoldsToCsv, experimentReportToCsv, experimentReportToHtml, experimentReportToMarkdown, FOLDS_CSV_HEADER } from './report-formats.ts';
import { ExperimentSpecError, validateExperiment } from './schema.ts';

const iv = (estimate: number, low = estimate, high = estimate): Interval => ({ estimate, low, high, n: 1, resamples: 2000 });

describe('experiment schema', () => {
  it('names every bad field', () => {
    const bad = {
      name: 'x y', episodes: 0, steps: 10, repeats: 1.5, taskSets: { ID: ['a', 'a'], OOD: [] }, evolutions: [{ id: 'e', train: 'NOPE', val: 'ID', budget: 10, proposer: 'gepa' }],
      arms: [{ id: 'naive', policy: 'naive' }, { id: 'evo', evolution: 'missing' }, { id: 'both', policy: 'x', evolution: 'e' }], baseline: 'static', evaluateOn: ['TEST'], paper: 'arxiv',
    };
    let problems: string[] = [];
    try {
      validateExperiment(bad);
    } catch (error) {
      problems = (error as ExperimentSpecError).problems;
    }
    expect(problems.map((p) => p.split(' must ')[0])).toEqual([
      'taskSets.ID', 'taskSets.OOD', 'evolutions[0].proposer', 'evolutions[0].train', 'evolutions[0].val', 'arms[1].evolution', 'arms[2]', 'baseline', 'evaluateOn', 'paper', 'name', 'episodes', 'repeats',
    ]);
    expect(() => validateExperiment([])).toThrow(/must be a JSON object/);
  });

  it('accepts every built-in as it is and fills defaults', () => {
    for (const spec of Object.values(BUILTIN_EXPERIMENTS)) expect(validateExperiment(JSON.parse(JSON.stringify(spec)))).toEqual(JSON.parse(JSON.stringify(spec)));
    const minimal = validateExperiment({ name: 'mine', episodes: 2, steps: 5, repeats: 1, taskSets: { T: ['lever-room'] }, arms: [{ id: 'naive', policy: 'naive' }], baseline: 'naive', evaluateOn: ['T'] });
    expect(minimal).toMatchObject({ format: 'metattl-experiment-1', bootstrapSeed: 0, models: [], evolutions: [], folds: null, paper: null, description: '' });
    expect(minimal.contrasts).toBeUndefined();
  });

  it('declares key contrasts between two different arms; the built-ins declare theirs', () => {
    const base = { name: 'mine', episodes: 2, steps: 5, repeats: 1, taskSets: { T: ['lever-room'] }, arms: [{ id: 'naive', policy: 'naive' }, { id: 'static', policy: 'static' }], baseline: 'naive', evaluateOn: ['T'] };
    expect(validateExperiment({ ...base, contrasts: [{ a: 'static', b: 'naive' }] }).contrasts).toEqual([{ a: 'static', b: 'naive' }]);
    for (const contrasts of [[{ a: 'static', b: 'static' }], [{ a: 'static', b: 'nope' }], 'static-naive']) {
      expect(() => validateExperiment({ ...base, contrasts })).toThrow(/contrasts/);
    }
    expect(BUILTIN_EXPERIMENTS['random-control']!.contrasts).toEqual([{ a: 'evolved', b: 'random-evolved' }, { a: 'evolved', b: 'no-trace-evolved' }]);
    expect(BUILTIN_EXPERIMENTS['optimizer-baselines']!.contrasts).toEqual([{ a: 'evolved', b: 'opro-evolved' }, { a: 'evolved', b: 'textgrad' }]);
  });
});

describe('built-in experiments', () => {
  it('paper-jericho carries the reference values, editable by overrides', () => {
    const p = BUILTIN_EXPERIMENTS['paper-jericho']!;
    expect(p).toMatchObject({ episodes: 6, steps: 50, repeats: 15, evaluateOn: ['ID', 'OOD'], taskSets: { ID: ['detective', 'zork1', 'temple'], OOD: ['balances', 'library', 'zork3'] } });
    expect(p.evolutions[0]).toMatchObject({ budget: 100, minibatch: 1, train: 'ID', val: 'ID', proposer: 'llm' });
    expect(p.arms.map((a) => a.id)).toEqual(['static', 'reflexion', 'memory', 'naive', 'evolved']);
    const small = applyOverrides(p, { episodes: 2, steps: 3, repeats: 1, budget: 8, valRepeats: 1, taskSets: { OOD: ['balances'] } });
    expect(small).toMatchObject({ episodes: 2, steps: 3, repeats: 1, taskSets: { OOD: ['balances'] } });
    expect(small.evolutions[0]).toMatchObject({ budget: 8, valRepeats: 1, minibatch: 1 });
    expect(() => applyOverrides(p, { taskSets: { HELD: ['x'] } })).toThrow(/no task set "HELD"/);
    const control = BUILTIN_EXPERIMENTS['random-control']!;
    expect(control.evolutions.map((e) => [e.id, e.proposer, e.budget, e.matchEditSizesOf, e.proposerInput])).toEqual([
      ['meta-ttl', 'llm', 100, undefined, undefined], ['random', 'random-neutral', 100, 'meta-ttl', undefined], ['no-trace', 'llm', 100, undefined, 'no-trace'],
    ]);
  });

  it('skeptic-holdout: three folds, train / validation / test disjoint, each game tested once', () => {
    const plan = planExperiment({ ...BUILTIN_EXPERIMENTS['skeptic-holdout']!, taskSets: { ID: ['detective:0', 'zork1:0', 'temple:0'] } });
    expect(plan.folds).toEqual([
      { id: 'fold-detective', train: ['zork1:0'], val: ['temple:0'], test: ['detective:0'] },
      { id: 'fold-zork1', train: ['temple:0'], val: ['detective:0'], test: ['zork1:0'] },
      { id: 'fold-temple', train: ['detective:0'], val: ['zork1:0'], test: ['temple:0'] },
    ]);
    for (const f of plan.folds) {
      const all = [...gamesOf(f.train), ...gamesOf(f.val), ...gamesOf(f.test)];
      expect(new Set(all).size).toBe(all.length);
    }
    expect(plan.steps.map((s) => s.id)).toEqual([
      'fold-detective.evolve-meta-ttl', 'fold-detective.eval-test', 'fold-detective.eval-validation', 'fold-zork1.evolve-meta-ttl', 'fold-zork1.eval-test', 'fold-zork1.eval-validation',
      'fold-temple.evolve-meta-ttl', 'fold-temple.eval-test', 'fold-temple.eval-validation',
    ]);
    // The selection test plays both arms afresh on the fold's validation games.
    expect(plan.steps[2]).toMatchObject({ kind: 'evaluation', taskSet: 'validation', tasks: ['temple:0'], purpose: 'fresh-validation', arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolutionStep: 'fold-detective.evolve-meta-ttl' }] });
    // Two seeds of one game stay on one side of every split.
    for (const f of leaveOneOutFolds(['a:1', 'a:2', 'b:1', 'c:1', 'd:1'])) checkFoldDisjoint(f);
    expect(leaveOneOutFolds(['a:1', 'a:2', 'b:1', 'c:1'])[0]).toEqual({ id: 'fold-a', train: ['b:1'], val: ['c:1'], test: ['a:1', 'a:2'] });
    expect(() => checkFoldDisjoint({ id: 'f', train: ['a:1'], val: ['b:1'], test: ['a:2'] })).toThrow('fold f: train and test share a');
    expect(() => leaveOneOutFolds(['a:1', 'b:1'])).toThrow(/at least 3 games/);
  });

  it('each model set runs every step, the evolved arm bound to its own set\'s evolution', () => {
    const plan = planExperiment({ ...BUILTIN_EXPERIMENTS['paper-jericho']!, models: [{ actor: 'a1' }, { actor: 'a2', metaAgent: 'm2' }] });
    expect(plan.steps.map((s) => s.id)).toEqual(['m0.evolve-meta-ttl', 'm0.eval-ID', 'm0.eval-OOD', 'm1.evolve-meta-ttl', 'm1.eval-ID', 'm1.eval-OOD']);
    const last = plan.steps[5]!;
    expect(last.kind === 'evaluation' && last.arms.find((a) => a.id === 'evolved')).toEqual({ id: 'evolved', evolutionStep: 'm1.evolve-meta-ttl' });
    expect(last.modelSet).toBe(1);
  });
});

/** An evaluation report with one row per arm: [W-AUC, Δ vs naive]. */
function evalReport(arms: Record<string, [number, number | null]>): EvaluationReport {
  return {
    id: 'r', status: 'complete', stopReason: null, stopMessage: null, plannedSessions: 2, faultedEpisodes: 0, baselinePolicyId: 'naive', bootstrap: { resamples: 2000, seed: 0, level: 0.95 }, games: [], totalSessions: 2,
    policies: Object.entries(arms).map(([policyId, [w, d]]) => ({
      policyId, taskSet: 'custom', sessions: 1, games: 1, wAuc: iv(w, w - 0.1, w + 0.1), averageScore: iv(10), bestScore: iv(12), diffVsBaseline: d === null ? null : iv(d, d - 0.05, d + 0.05),
      beatsBaseline: false, leakWarning: null, curve: [iv(1), iv(2)], costUsd: null,
    })),
  };
}

/** Fresh sessions of one evaluation: arm → W-AUC per repeat, all on `task`. */
const sessionsOf = (task: string, arms: Record<string, number[]>) => Object.entries(arms).flatMap(([policyId, ws]) => ws.map((wAuc, repeat) => ({ policyId, taskId: task, repeat, wAuc })));

describe('experiment runner and report', () => {
  // scipy.stats.t.ppf(0.975, df) for the integer df these data give.
  const T975 = { 2: 4.302652729911275, 4: 2.7764451051977987, 6: 2.4469118511449692 } as const;
  const recordedByFold: Record<string, number> = { 'fold-detective': 0.5, 'fold-zork1': 0.3, 'fold-temple': 0.4 };

  it('runs steps in order, stops on a stopped step, skips finished steps on resume; the selection test as computed by hand', async () => {
    const spec = { ...BUILTIN_EXPERIMENTS['skeptic-holdout']!, repeats: 3, taskSets: { ID: ['detective:0', 'zork1:0', 'temple:0'] } };
    const plan = planExperiment(spec);
    const calls: string[] = [];
    let stopAt: string | null = 'fold-zork1.eval-test';
    const saved: string[] = [];
    const exec: ExperimentExecutor = {
      now: () => '2026-01-01T00:00:00.000Z',
      save: async (s) => void saved.push(s.status),
      evolution: async (step) => {
        calls.push(step.id);
        const recorded = recordedByFold[step.fold!]!;
        return { exitCode: 0, outcome: { runId: step.id, status: 'complete', stopReason: 'budget', metricCallsUsed: 8, budget: 8, sessionsPlayed: 5, bestCandidateId: 'c1', bestStrategy: 's', bestValWAuc: recorded, candidates: 2, bestIsSeed: step.fold === 'fold-temple', bestValScores: { [step.val[0]!]: recorded } } };
      },
      evaluation: async (step, evolved) => {
        calls.push(step.id);
        expect(Object.keys(evolved)).toEqual([step.arms[1]!.evolutionStep]);
        if (step.id === stopAt) return { exitCode: 130, outcome: null };
        // Fresh validation: evolved 0.4, 0.45, 0.35 vs naive 0.1, 0.2, 0.15 (Δ 0.3, 0.25, 0.2); held out: Δ 0.1, 0.2, 0.15.
        const sessions = step.purpose === 'fresh-validation'
          ? sessionsOf(step.tasks[0]!, { naive: [0.1, 0.2, 0.15], evolved: [0.4, 0.45, 0.35] })
          : sessionsOf(step.tasks[0]!, { naive: [0.1, 0.1, 0.1], evolved: [0.2, 0.3, 0.25] });
        return { exitCode: 0, outcome: { runId: step.id, status: 'complete', report: evalReport({ naive: [0.1, null], evolved: [0.2, 0.1] }), sessions } };
      },
    };
    const state: ExperimentState = freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], exec.now());
    const first = await runExperiment(plan, state, exec);
    expect(first).toMatchObject({ exitCode: 130, state: { status: 'stopped' } });
    expect(calls).toEqual(['fold-detective.evolve-meta-ttl', 'fold-detective.eval-test', 'fold-detective.eval-validation', 'fold-zork1.evolve-meta-ttl', 'fold-zork1.eval-test']);
    stopAt = null;
    calls.length = 0;
    const second = await runExperiment(plan, first.state, exec);
    expect(second.exitCode).toBe(0);
    expect(calls).toEqual(['fold-zork1.eval-test', 'fold-zork1.eval-validation', 'fold-temple.evolve-meta-ttl', 'fold-temple.eval-test', 'fold-temple.eval-validation']);
    const report = buildExperimentReport(plan, second.state);
    expect(report.pendingSteps).toEqual([]);

    // Independent arithmetic. Optimism values = recorded − fresh (0.4, 0.45, 0.35): mean recorded − 0.4, SD 0.05, n 3, 2 df.
    const optimismHalf = T975[2] * 0.05 / Math.sqrt(3);
    // Transfer gap: mean(0.3, 0.25, 0.2) − mean(0.1, 0.2, 0.15) = 0.1; both variances 0.0025, n 3 → Welch df 4.
    const gapHalf = T975[4] * Math.sqrt(0.0025 / 3 + 0.0025 / 3);
    for (const f of report.foldResults) {
      const optimism = recordedByFold[f.fold]! - 0.4;
      expect(f.selectionOptimism!.mean).toBeCloseTo(optimism, 12);
      expect(f.selectionOptimism!.low).toBeCloseTo(optimism - optimismHalf, 9);
      expect(f.selectionOptimism!.high).toBeCloseTo(optimism + optimismHalf, 9);
      expect(f.selectionOptimism).toMatchObject({ n: 3, df: expect.closeTo(2, 9) });
      expect(f.transferGap!.mean).toBeCloseTo(0.1, 12);
      expect([f.transferGap!.low, f.transferGap!.high, f.transferGap!.n]).toEqual([expect.closeTo(0.1 - gapHalf, 9), expect.closeTo(0.1 + gapHalf, 9), 6]);
      expect(f.transferGap!.df).toBeCloseTo(4, 9);
    }
    expect(report.foldResults.map((f) => [f.fold, f.chosenCandidate, f.chosenIsSeed, f.heldOutGap?.estimate, f.validationWAuc, f.freshValidationWAuc?.estimate])).toEqual([
      ['fold-detective', 'c1', false, 0.1, 0.5, 0.2], ['fold-zork1', 'c1', false, 0.1, 0.3, 0.2], ['fold-temple', 'c1', true, 0.1, 0.4, 0.2],
    ]);
    // Pooled: fold optimisms 0.1, −0.1, 0 → mean 0; each fold weighs 1/3 → SE² = 3 · (1/9) · 0.0025/3, Welch df 6.
    const [pooled] = report.foldsPooled!;
    expect(pooled).toMatchObject({ modelSet: 0, folds: 3, seedFolds: 1 });
    expect(pooled!.selectionOptimism!.mean).toBeCloseTo(0, 12);
    expect(pooled!.selectionOptimism!.high).toBeCloseTo(T975[6] * Math.sqrt(0.0025 / 9), 9);
    expect(pooled!.selectionOptimism!.df).toBeCloseTo(6, 9);
    // Across folds: t over (0.1, −0.1, 0): SD 0.1, 2 df.
    expect(pooled!.acrossFolds.selectionOptimism!.high).toBeCloseTo(T975[2] * 0.1 / Math.sqrt(3), 9);
    // Transfer gap pooled: six terms ±1/3, each variance 0.0025 with n 3 → SE² = 6 · (1/9) · 0.0025/3, df 12; across folds zero spread.
    expect(pooled!.transferGap!.mean).toBeCloseTo(0.1, 12);
    expect(pooled!.transferGap!.df).toBeCloseTo(12, 9);
    expect(pooled!.acrossFolds.transferGap).toEqual({ mean: expect.closeTo(0.1, 12), low: expect.closeTo(0.1, 12), high: expect.closeTo(0.1, 12) });
    expect(report.foldRegime).toMatch(/1 training \+ 1 validation game and tests on 1 held-out game; the paper's protocol trains and validates on the same 3 games \(3 = 3\)/);

    expect(report.rows.find((r) => r.step === 'fold-detective.eval-test' && r.arm === 'evolved')!.split).toEqual({ games: ['detective'], role: 'held-out' });
    expect(report.rows.find((r) => r.step === 'fold-detective.eval-validation' && r.arm === 'evolved')!.split).toEqual({ games: ['temple'], role: 'selected-on' });
    const md = experimentReportToMarkdown(report);
    for (const text of ['## Folds', 'selection optimism', 'transfer gap', '0.100 [', '(n 3)', 'c1 (seed: no selection happened)', '1 of 3 folds chose the seed', 'Regime: Each fold selects on 1 training + 1 validation game', 'unit: one fresh session', 'cannot show', 'fold-temple', 'Models: set 0: actor a, meta-agent m, proposer p', '## Learning curves']) expect(md).toContain(text);
    expect(md).not.toContain('selection inflation');
    const html = experimentReportToHtml(report);
    expect(html).toContain('<table id="folds">');
    expect(html).toContain('<p id="fold-regime">');
    expect(html.match(/<svg/g)).toHaveLength(6);
    const csv = experimentReportToCsv(report).trim().split('\n');
    expect(csv[0]).toBe(EXPERIMENT_CSV_HEADER.join(','));
    expect(csv).toHaveLength(1 + 12);
    const folds = experimentFoldsToCsv(report).trim().split('\n').map((l) => l.split(','));
    expect(folds[0]).toEqual(FOLDS_CSV_HEADER);
    expect(folds.map((r) => r[1])).toEqual(['fold', 'fold-detective', 'fold-zork1', 'fold-temple', 'pooled']);
    expect(Number(folds[1]![FOLDS_CSV_HEADER.indexOf('selection_optimism_low')])).toBeCloseTo(0.1 - optimismHalf, 9);
    expect(folds[3]![FOLDS_CSV_HEADER.indexOf('chosen_is_seed')]).toBe('true');
    // The fresh-validation steps were selected on: their comparisons are never declared.
    expect(report.comparisons!.every((c) => !c.step.endsWith('eval-validation'))).toBe(true);
  });

  it('every fold chose the seed on deterministic replies: chosenIsSeed everywhere, selection optimism 0 with a zero-width interval', async () => {
    const spec = { ...BUILTIN_EXPERIMENTS['skeptic-holdout']!, repeats: 2, taskSets: { ID: ['detective:0', 'zork1:0', 'temple:0'] } };
    const plan = planExperiment(spec);
    // A deterministic game per task: every session of the same prompt on it scores the same.
    const wAucOf: Record<string, number> = { 'detective:0': 0.2, 'zork1:0': 0.05, 'temple:0': 0.6 };
    const exec: ExperimentExecutor = {
      now: () => '2026-01-01T00:00:00.000Z',
      save: async () => undefined,
      evolution: async (step) => ({ exitCode: 0, outcome: { runId: step.id, status: 'complete', stopReason: 'budget', metricCallsUsed: 1, budget: 1, sessionsPlayed: 1, bestCandidateId: 'c0', bestStrategy: 'seed', bestValWAuc: wAucOf[step.val[0]!]!, candidates: 1, bestIsSeed: true, bestValScores: { [step.val[0]!]: wAucOf[step.val[0]!]! } } }),
      evaluation: async (step) => ({ exitCode: 0, outcome: { runId: step.id, status: 'complete', report: evalReport({ naive: [0.1, null], evolved: [0.1, 0] }), sessions: sessionsOf(step.tasks[0]!, { naive: [wAucOf[step.tasks[0]!]!, wAucOf[step.tasks[0]!]!], evolved: [wAucOf[step.tasks[0]!]!, wAucOf[step.tasks[0]!]!] }) } }),
    };
    const { state } = await runExperiment(plan, freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], exec.now()), exec);
    const report = buildExperimentReport(plan, state);
    expect(report.foldResults.map((f) => f.chosenIsSeed)).toEqual([true, true, true]);
    for (const f of report.foldResults) {
      expect(f.selectionOptimism).toEqual({ mean: 0, low: 0, high: 0, n: 2, df: null });
      expect(f.transferGap).toEqual({ mean: 0, low: 0, high: 0, n: 4, df: null });
    }
    // The old "validation − held-out W-AUC" would have printed game difficulty here: 0.6 − 0.2, 0.2 − 0.05, 0.05 − 0.6.
    expect(report.foldsPooled).toEqual([{ modelSet: 0, folds: 3, seedFolds: 3, selectionOptimism: { mean: 0, low: 0, high: 0, n: 6, df: null }, transferGap: { mean: 0, low: 0, high: 0, n: 12, df: null }, acrossFolds: { selectionOptimism: { mean: 0, low: 0, high: 0 }, transferGap: { mean: 0, low: 0, high: 0 } } }]);
    expect(experimentReportToMarkdown(report)).toContain('3 of 3 folds chose the seed');
  });
});

describe('raw arms', () => {
  const base = { name: 'raw', episodes: 2, steps: 3, repeats: 1, taskSets: { T: ['lever-room'] }, baseline: 'naive', evaluateOn: ['T'], evolutions: [{ id: 'e', train: 'T', val: 'T', budget: 4 }] };
  it('"raw": true on a policy arm is kept into the plan; on a baseline, naive or an evolution, or not a boolean, it is named', () => {
    const spec = validateExperiment({ ...base, arms: [{ id: 'naive', policy: 'naive' }, { id: 'paper', policy: 'prompts/paper.txt', raw: true }, { id: 'plain', policy: 'fact-bank', raw: false }] });
    expect(spec.arms).toEqual([{ id: 'naive', policy: 'naive' }, { id: 'paper', policy: 'prompts/paper.txt', raw: true }, { id: 'plain', policy: 'fact-bank' }]);
    const step = planExperiment(spec).steps.find((s) => s.kind === 'evaluation')!;
    expect(step.kind === 'evaluation' && step.arms).toEqual([{ id: 'naive', policy: 'naive' }, { id: 'paper', policy: 'prompts/paper.txt', raw: true }, { id: 'plain', policy: 'fact-bank' }]);
    let error: ExperimentSpecError | null = null;
    try {
      validateExperiment({ ...base, arms: [{ id: 'naive', policy: 'naive', raw: true }, { id: 's', policy: 'static', raw: true }, { id: 'ev', evolution: 'e', raw: true }, { id: 'x', policy: 'a.txt', raw: 'yes' }] });
    } catch (e) {
      error = e as ExperimentSpecError;
    }
    expect(error?.problems).toEqual([
      'arms[0].raw must be left out for policy "naive" (raw takes a meta-prompt: its text becomes the whole system prompt), got true',
      'arms[1].raw must be left out for policy "static" (raw takes a meta-prompt: its text becomes the whole system prompt), got true',
      'arms[2].raw must be left out for an evolution arm (raw takes a meta-prompt file), got true',
      'arms[3].raw must be true or false, got "yes"',
    ]);
  });
});

describe("the paper's numbers stand only beside the paper's games", () => {
  /** The report of `spec` when every evaluation gives naive 0.1 and evolved 0.2. */
  async function reportOf(spec: Parameters<typeof planExperiment>[0]) {
    const plan = planExperiment(spec);
    const exec: ExperimentExecutor = {
      now: () => '2026-01-01T00:00:00.000Z',
      save: async () => {},
      evolution: async (step) => ({ exitCode: 0, outcome: { runId: step.id, status: 'complete', stopReason: 'budget', metricCallsUsed: 8, budget: 8, sessionsPlayed: 5, bestCandidateId: 'c1', bestStrategy: 's', bestValWAuc: 0.3, candidates: 2 } }),
      evaluation: async (step) => ({ exitCode: 0, outcome: { runId: step.id, status: 'complete', report: evalReport({ naive: [0.1, null], evolved: [0.2, 0.1] }) } }),
    };
    const { state } = await runExperiment(plan, freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], exec.now()), exec);
    const report = buildExperimentReport(plan, state);
    return { report, paper: (taskSet: string, arm: string) => report.rows.find((r) => r.taskSet === taskSet && r.arm === arm)!.paper?.wAuc ?? null };
  }
  const jericho = { ...BUILTIN_EXPERIMENTS['vocab-ood']!, taskSets: BUILTIN_EXPERIMENTS['paper-jericho']!.taskSets, evaluateOn: ['ID', 'OOD'] };

  it('the paper\'s ID and OOD games (any seeds, any order) get 0.18 → 0.41 and 0.23 → 0.28', async () => {
    const { paper, report } = await reportOf({ ...jericho, taskSets: { ID: ['temple:1', 'detective:0', 'zork1:3'], OOD: ['zork3', 'library', 'balances'] } });
    expect([paper('ID', 'naive'), paper('ID', 'evolved'), paper('OOD', 'naive'), paper('OOD', 'evolved')]).toEqual([0.18, 0.41, 0.23, 0.28]);
    expect(experimentReportToMarkdown(report)).toContain("ID W-AUC naive 0.18 → Meta-TTL 0.41, OOD W-AUC naive 0.23 → Meta-TTL 0.28 — shown beside a task set only when its games are exactly the paper's (ID = detective, zork1, temple; OOD = balances, library, zork3).");
  });

  it('a subset, a superset or other games under the paper\'s set names get none; the games decide, not the name', async () => {
    const { paper } = await reportOf({ ...jericho, taskSets: { ID: ['detective', 'zork1', 'temple', 'zork2'], OOD: ['balances', 'library'] } });
    expect([paper('ID', 'naive'), paper('ID', 'evolved'), paper('OOD', 'naive'), paper('OOD', 'evolved')]).toEqual([null, null, null, null]);
    const renamed = await reportOf({ ...jericho, taskSets: { ID: ['lever-room', 'vault', 'zork2'], OOD: ['detective', 'zork1', 'temple'] } });
    expect([renamed.paper('ID', 'evolved'), renamed.paper('OOD', 'naive'), renamed.paper('OOD', 'evolved')]).toEqual([null, 0.18, 0.41]);
  });

  it('our web tasks are not WebArena-Lite: its 0.55 → 0.63 is in the header only', async () => {
    const web = BUILTIN_EXPERIMENTS['web-lite']!;
    const { paper, report } = await reportOf({ ...web, arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolution: 'meta-ttl' }], taskSets: { train: ['web:shop/t1:1'], val: ['web:shop/t1:3'], ID: ['web:shop/t1:4'], OOD: ['web:shop-admin/t13:1'] } });
    expect([paper('ID', 'naive'), paper('ID', 'evolved')]).toEqual([null, null]);
    const md = experimentReportToMarkdown(report);
    expect(md).toContain("ID W-AUC naive 0.55 → Meta-TTL 0.63 — not shown beside ours: none of our task sets is the paper's.");
    const at = EXPERIMENT_CSV_HEADER.indexOf('paper_wauc');
    expect(experimentReportToCsv(report).split('\n').slice(1).filter(Boolean).every((line) => line.split(',').slice(at, at + 4).join(',') === ',,false,')).toBe(true);
  });
});

describe('experiment report.csv: identical repeats', () => {
  it('ends every row with identical_repeats, true only for the arm and step whose evaluation warned of it', async () => {
    const spec = { ...BUILTIN_EXPERIMENTS['vocab-ood']!, taskSets: { ...BUILTIN_EXPERIMENTS['vocab-ood']!.taskSets, ID: ['lever-room', 'vault', 'zork2'], OOD: ['detective'] }, evaluateOn: ['ID', 'OOD'] };
    const plan = planExperiment(spec);
    const exec: ExperimentExecutor = {
      now: () => '2026-01-01T00:00:00.000Z',
      save: async () => {},
      evolution: async (step) => ({ exitCode: 0, outcome: { runId: step.id, status: 'complete', stopReason: 'budget', metricCallsUsed: 8, budget: 8, sessionsPlayed: 5, bestCandidateId: 'c1', bestStrategy: 's', bestValWAuc: 0.3, candidates: 2 } }),
      evaluation: async (step) => {
        const report = evalReport({ naive: [0.1, null], evolved: [0.2, 0.1] });
        // Only the OOD evaluation's evolved arm repeated itself exactly.
        if (step.taskSet === 'OOD') report.warnings = [{ code: 'identical_repeats', policyId: 'evolved', message: 'Every repeat of evolved gave the same scores on each of its 1 task: …' }];
        return { exitCode: 0, outcome: { runId: step.id, status: 'complete', report } };
      },
    };
    const { state } = await runExperiment(plan, freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], exec.now()), exec);
    const report = buildExperimentReport(plan, state);
    expect(report.warnings!.filter((w) => w.code === 'identical_repeats')).toEqual([{ code: 'identical_repeats', policyId: 'evolved', step: 'eval-OOD', message: 'eval-OOD: Every repeat of evolved gave the same scores on each of its 1 task: …' }]);
    const csv = experimentReportToCsv(report).trim().split('\n').map((l) => l.split(','));
    expect(EXPERIMENT_CSV_HEADER.slice(-4)).toEqual(['dictionary_overlap', 'identical_repeats', 'model', 'model_caveat']);
    expect(csv[0]).toEqual(EXPERIMENT_CSV_HEADER);
    const col = (name: string) => EXPERIMENT_CSV_HEADER.indexOf(name);
    expect(csv.slice(1).map((r) => [r[col('step')], r[col('arm')], r[col('identical_repeats')]])).toEqual([
      ['eval-ID', 'naive', 'false'], ['eval-ID', 'evolved', 'false'], ['eval-OOD', 'naive', 'false'], ['eval-OOD', 'evolved', 'true'],
    ]);
    // A report saved before warnings named their step: the column is there, false.
    const older = { ...report, warnings: report.warnings!.map(({ step: _step, ...w }) => w) };
    expect(experimentReportToCsv(older).trim().split('\n').slice(1).map((l) => l.split(',')[col('identical_repeats')])).toEqual(['false', 'false', 'false', 'false']);
  });
});

describe('experiment report: model sets by their labels', () => {
  it('names a labelled model set by its label where people read it; an unlabelled one by its number', async () => {
    const spec = validateExperiment({ name: 'labelled', episodes: 1, steps: 3, repeats: 1, taskSets: { T: ['lever-room'] }, models: [{ label: 'small actor', actor: 'a' }, { actor: 'b' }], arms: [{ id: 'naive', policy: 'naive' }], baseline: 'naive', evaluateOn: ['T'] });
    const plan = planExperiment(spec);
    const exec: ExperimentExecutor = {
      now: () => '2026-01-01T00:00:00.000Z', save: async () => {},
      evolution: async () => ({ exitCode: 1, outcome: null }),
      evaluation: async (step) => ({ exitCode: 0, outcome: { runId: step.id, status: 'complete', report: evalReport({ naive: [0.1, null] }) } }),
    };
    const { state } = await runExperiment(plan, freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }, { actor: 'b', metaAgent: 'm', proposer: 'p' }], exec.now()), exec);
    const report = buildExperimentReport(plan, state);
    expect(report.models).toEqual([{ actor: 'a', metaAgent: 'm', proposer: 'p', label: 'small actor' }, { actor: 'b', metaAgent: 'm', proposer: 'p' }]);
    expect(experimentReportToMarkdown(report)).toContain('- Models: set 0 (small actor): actor a, meta-agent m, proposer p; set 1: actor b, meta-agent m, proposer p.');
    expect(experimentReportToHtml(report)).toContain('<li>Models: set 0 (small actor): actor a, meta-agent m, proposer p; set 1: actor b, meta-agent m, proposer p.</li>');
  });
});
