/**
 * The experiment core without a model: the schema names every bad field, the built-ins carry the
 * paper's values, overrides shrink them, skeptic-holdout's folds are disjoint by construction, the
 * runner skips finished steps on resume, and the report's fold numbers are the hand-computed ones.
 */
import { describe, expect, it } from 'vitest';
import type { EvaluationReport } from '../eval/interface.ts';
import type { Interval } from '../ttl/metrics.ts';
import { applyOverrides, BUILTIN_EXPERIMENTS } from './builtins.ts';
import { freshExperimentState, runExperiment, type ExperimentExecutor } from './experiment-runner.ts';
import type { ExperimentState } from './interface.ts';
import { checkFoldDisjoint, gamesOf, leaveOneOutFolds, planExperiment } from './plan.ts';
import { buildExperimentReport } from './report.ts';
import { EXPERIMENT_CSV_HEADER, experimentReportToCsv, experimentReportToHtml, experimentReportToMarkdown } from './report-formats.ts';
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
    expect(BUILTIN_EXPERIMENTS['random-control']!.contrasts).toEqual([{ a: 'evolved', b: 'random-evolved' }]);
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
    expect(control.evolutions.map((e) => [e.proposer, e.budget])).toEqual([['llm', 100], ['random', 100]]);
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
    expect(plan.steps.map((s) => s.id)).toEqual(['fold-detective.evolve-meta-ttl', 'fold-detective.eval-test', 'fold-zork1.evolve-meta-ttl', 'fold-zork1.eval-test', 'fold-temple.evolve-meta-ttl', 'fold-temple.eval-test']);
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

describe('experiment runner and report', () => {
  it('runs steps in order, stops on a stopped step, skips finished steps on resume; fold numbers as computed by hand', async () => {
    const spec = { ...BUILTIN_EXPERIMENTS['skeptic-holdout']!, taskSets: { ID: ['detective:0', 'zork1:0', 'temple:0'] } };
    const plan = planExperiment(spec);
    const calls: string[] = [];
    let stopAt: string | null = 'fold-zork1.eval-test';
    const val: Record<string, number> = { 'fold-detective.evolve-meta-ttl': 0.5, 'fold-zork1.evolve-meta-ttl': 0.3, 'fold-temple.evolve-meta-ttl': 0.2 };
    const saved: string[] = [];
    const exec: ExperimentExecutor = {
      now: () => '2026-01-01T00:00:00.000Z',
      save: async (s) => void saved.push(s.status),
      evolution: async (step) => (calls.push(step.id), { exitCode: 0, outcome: { runId: step.id, status: 'complete', stopReason: 'budget', metricCallsUsed: 8, budget: 8, sessionsPlayed: 5, bestCandidateId: 'c1', bestStrategy: 's', bestValWAuc: val[step.id]!, candidates: 2 } }),
      evaluation: async (step, evolved) => {
        calls.push(step.id);
        expect(Object.keys(evolved)).toEqual([step.arms[1]!.evolutionStep]);
        if (step.id === stopAt) return { exitCode: 130, outcome: null };
        return { exitCode: 0, outcome: { runId: step.id, status: 'complete', report: evalReport({ naive: [0.1, null], evolved: [0.2, 0.1] }) } };
      },
    };
    const state: ExperimentState = freshExperimentState(plan, [{ actor: 'a', metaAgent: 'm', proposer: 'p' }], exec.now());
    const first = await runExperiment(plan, state, exec);
    expect(first).toMatchObject({ exitCode: 130, state: { status: 'stopped' } });
    expect(calls).toEqual(['fold-detective.evolve-meta-ttl', 'fold-detective.eval-test', 'fold-zork1.evolve-meta-ttl', 'fold-zork1.eval-test']);
    stopAt = null;
    calls.length = 0;
    const second = await runExperiment(plan, first.state, exec);
    expect(second.exitCode).toBe(0);
    expect(calls).toEqual(['fold-zork1.eval-test', 'fold-temple.evolve-meta-ttl', 'fold-temple.eval-test']);
    const report = buildExperimentReport(plan, second.state);
    expect(report.pendingSteps).toEqual([]);
    // Inflation = validation W-AUC − held-out W-AUC: 0.5 − 0.2, 0.3 − 0.2, 0.2 − 0.2.
    expect(report.foldResults.map((f) => [f.fold, f.heldOutGap?.estimate, f.heldOutWAuc?.estimate, f.validationWAuc, Number(f.selectionInflation!.toFixed(6))])).toEqual([
      ['fold-detective', 0.1, 0.2, 0.5, 0.3], ['fold-zork1', 0.1, 0.2, 0.3, 0.1], ['fold-temple', 0.1, 0.2, 0.2, 0],
    ]);
    expect(report.rows.find((r) => r.step === 'fold-detective.eval-test' && r.arm === 'evolved')!.split).toEqual({ games: ['detective'], role: 'held-out' });
    const md = experimentReportToMarkdown(report);
    for (const text of ['## Folds', 'selection inflation', '0.300', 'fold-temple', 'Models: set 0: actor a, meta-agent m, proposer p', '## Learning curves']) expect(md).toContain(text);
    const html = experimentReportToHtml(report);
    expect(html).toContain('<table id="folds">');
    expect(html.match(/<svg/g)).toHaveLength(3);
    const csv = experimentReportToCsv(report).trim().split('\n');
    expect(csv[0]).toBe(EXPERIMENT_CSV_HEADER.join(','));
    expect(csv).toHaveLength(1 + 6);
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
  const jericho = { ...BUILTIN_EXPERIMENTS['random-control']!, arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolution: 'meta-ttl' }], contrasts: undefined };

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
    expect(experimentReportToCsv(report).split('\n').slice(1).filter(Boolean).every((line) => line.endsWith(',,,false,'))).toBe(true);
  });
});
