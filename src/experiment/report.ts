/**
 * The experiment's one report: every arm on every evaluated task set with n and 95%
 * hierarchical-bootstrap intervals (from each evaluation's own report, src/eval/report.ts), the
 * split behind each number (held-out or the games the meta-prompt was selected on, with the leak
 * warning), learning curves, the comparisons (each arm against the baseline and the experiment's
 * key contrasts, Holm-corrected over the report; every other pair exploratory) with per-game Δ
 * and the game-level test, the warnings (few games, identical repeats), each fold's held-out gap and selection inflation, the models, and the
 * paper's numbers beside ours where it gives them (Lou et al. 2026, abstract: Jericho, GPT-5
 * meta-agent, W-AUC naive 0.18 → Meta-TTL 0.41 on ID, average score 50.4 → 110.8, 0.23 → 0.28 on
 * OOD; WebArena-Lite ID 0.55 → 0.63). No UI, DOM or Node imports.
 */
import { applyHolm, DEFAULT_POWER_DELTA, FEW_GAMES, fewGamesMessage, reverseComparison, withPowerDelta } from '../eval/comparisons.ts';
import type { Comparison, ReportWarning } from '../eval/interface.ts';
import type { ExperimentPlan, ExperimentReport, ExperimentRow, ExperimentState, FoldResult, PaperReference } from './interface.ts';
import { gamesOf, selectedOnOf } from './plan.ts';
import { SIMULATION_NOTICE, usesSimulatedModel } from '../llm/simulated-model.ts';

type PaperNumbers = NonNullable<ExperimentReport['paperReference']>;

/** The paper's reported numbers by reference (arm "naive" = naive meta-agent, "evolved" = Meta-TTL). */
export const PAPER_NUMBERS: Record<Exclude<PaperReference, null>, PaperNumbers> = {
  jericho: {
    source: 'Lou et al., "Learning to Learn-at-Test-Time", arXiv 2604.00830 (2026), abstract', setting: 'Jericho, GPT-5 meta-agent, K = 6, S = 50; ID = detective, zork1, temple; OOD = balances, library, zork3',
    numbers: [
      { taskSet: 'ID', arm: 'naive', wAuc: 0.18, averageScore: 50.4 }, { taskSet: 'ID', arm: 'evolved', wAuc: 0.41, averageScore: 110.8 },
      { taskSet: 'OOD', arm: 'naive', wAuc: 0.23, averageScore: null }, { taskSet: 'OOD', arm: 'evolved', wAuc: 0.28, averageScore: null },
    ],
  },
  'webarena-lite': {
    source: 'Lou et al., "Learning to Learn-at-Test-Time", arXiv 2604.00830 (2026), abstract', setting: 'WebArena-Lite, in-distribution, success-weighted W-AUC (our web tasks are WebArena-Lite-style, not WebArena-Lite)',
    numbers: [{ taskSet: 'ID', arm: 'naive', wAuc: 0.55, averageScore: null }, { taskSet: 'ID', arm: 'evolved', wAuc: 0.63, averageScore: null }],
  },
};

function rowsOf(plan: ExperimentPlan, state: ExperimentState, paper: PaperNumbers | null): ExperimentRow[] {
  const rows: ExperimentRow[] = [];
  for (const step of plan.steps) {
    if (step.kind !== 'evaluation') continue;
    const report = state.steps[step.id]?.evaluation?.report;
    if (!report) continue;
    for (const p of report.policies) {
      const arm = step.arms.find((a) => a.id === p.policyId);
      const selectedOn = selectedOnOf(plan, arm?.evolutionStep);
      const games = gamesOf(step.tasks);
      const role = !arm?.evolutionStep ? 'not-selected' : games.some((g) => selectedOn.includes(g)) ? 'selected-on' : 'held-out';
      const reference = paper?.numbers.find((n) => n.taskSet === step.taskSet && n.arm === p.policyId);
      rows.push({
        step: step.id, modelSet: step.modelSet, fold: step.fold, taskSet: step.taskSet, split: { games, role }, arm: p.policyId, sessions: p.sessions, games: p.games,
        wAuc: p.wAuc, averageScore: p.averageScore, bestScore: p.bestScore, diffVsBaseline: p.diffVsBaseline, leakWarning: p.leakWarning, curve: p.curve, ...(p.normalisedCurve ? { normalisedCurve: p.normalisedCurve } : {}),
        paper: reference ? { wAuc: reference.wAuc, averageScore: reference.averageScore } : null,
      });
    }
  }
  return rows;
}

/** Each fold's held-out gap (the first evolved arm − the baseline) and its selection inflation. */
function foldResultsOf(plan: ExperimentPlan, state: ExperimentState, rows: readonly ExperimentRow[]): FoldResult[] {
  const out: FoldResult[] = [];
  for (const step of plan.steps) {
    if (step.kind !== 'evaluation' || !step.fold) continue;
    const fold = plan.folds.find((f) => f.id === step.fold)!;
    const arm = step.arms.find((a) => a.evolutionStep);
    const row = rows.find((r) => r.step === step.id && r.arm === arm?.id);
    const validationWAuc = arm ? state.steps[arm.evolutionStep!]?.evolution?.bestValWAuc ?? null : null;
    out.push({
      fold: fold.id, modelSet: step.modelSet, train: fold.train, val: fold.val, test: fold.test, heldOutGap: row?.diffVsBaseline ?? null, heldOutWAuc: row?.wAuc ?? null,
      validationWAuc, selectionInflation: validationWAuc !== null && row ? validationWAuc - row.wAuc.estimate : null,
    });
  }
  return out;
}

type StepComparison = Comparison & { step: string };

/**
 * The experiment's comparisons: per evaluation step, each arm against the baseline and the spec's
 * `contrasts` (declared, oriented a − b as declared), taken from the step report's comparisons of
 * every pair, then Holm over all declared ones of the report; every other pair exploratory.
 */
function comparisonsOf(plan: ExperimentPlan, state: ExperimentState, powerDelta: number): { declared: StepComparison[]; exploratory: StepComparison[]; warnings: ReportWarning[] } {
  const { spec } = plan;
  const wanted = [...spec.arms.filter((a) => a.id !== spec.baseline).map((a) => ({ a: a.id, b: spec.baseline })), ...(spec.contrasts ?? [])];
  const declared: StepComparison[] = [];
  const exploratory: StepComparison[] = [];
  const warnings: ReportWarning[] = [];
  for (const step of plan.steps) {
    if (step.kind !== 'evaluation') continue;
    const report = state.steps[step.id]?.evaluation?.report;
    if (!report) continue;
    const pool = [...(report.comparisons ?? []), ...(report.exploratoryComparisons ?? [])];
    const used = new Set<Comparison>();
    const seen = new Set<string>();
    for (const w of wanted) {
      for (const c of pool) {
        if (used.has(c) || seen.has(`${c.taskSet}|${[w.a, w.b].sort().join('|')}`)) continue;
        const oriented = c.a === w.a && c.b === w.b ? { ...c } : c.a === w.b && c.b === w.a ? reverseComparison(c) : null;
        if (!oriented) continue;
        used.add(c);
        seen.add(`${c.taskSet}|${[w.a, w.b].sort().join('|')}`);
        declared.push({ ...withPowerDelta(oriented, powerDelta), declared: true, step: step.id, taskSet: step.taskSet });
      }
    }
    for (const c of pool) if (!used.has(c)) exploratory.push({ ...withPowerDelta(c, powerDelta), declared: false, holmP: null, positive: false, step: step.id, taskSet: step.taskSet });
    // The step's evaluation names its task set "custom": few_games is said again with the experiment's name.
    const games = [...new Set(report.games.map((g) => g.storyId))];
    if (games.length > 0 && games.length < FEW_GAMES) warnings.push({ code: 'few_games', message: `${step.id}: ${fewGamesMessage(games.length, step.taskSet)} (${games.join(', ')})` });
    for (const w of report.warnings ?? []) if (w.code !== 'few_games') warnings.push({ code: w.code, message: `${step.id}: ${w.message}` });
  }
  applyHolm(declared);
  return { declared, exploratory, warnings };
}

/** The report of an experiment in any state (steps not finished are listed in `pendingSteps`).
 * @param options.powerDelta the Δ (W-AUC) the repeats-needed estimates are for (default 0.05) */
export function buildExperimentReport(plan: ExperimentPlan, state: ExperimentState, options: { powerDelta?: number } = {}): ExperimentReport {
  const powerDelta = options.powerDelta ?? DEFAULT_POWER_DELTA;
  const compared = comparisonsOf(plan, state, powerDelta);
  const { spec } = plan;
  // A simulation's numbers are never set beside the paper's (they show the loop, not a model).
  const simulated = state.models.some((m) => usesSimulatedModel([m.actor, m.metaAgent, m.proposer]));
  const paper = spec.paper && !simulated ? PAPER_NUMBERS[spec.paper] : null;
  const rows = rowsOf(plan, state, paper);
  const evolutions = plan.steps.flatMap((s) => {
    const outcome = s.kind === 'evolution' ? state.steps[s.id]?.evolution : undefined;
    return s.kind === 'evolution' && outcome ? [{ ...outcome, step: s.id, modelSet: s.modelSet, fold: s.fold, train: s.train, val: s.val, proposer: s.evolution.proposer, optimizer: s.evolution.optimizer ?? 'gepa' }] : [];
  });
  const perGame = plan.steps.flatMap((step) => (step.kind !== 'evaluation' ? [] : (state.steps[step.id]?.evaluation?.report.games ?? []).map((g) => ({
    step: step.id, taskSet: step.taskSet, arm: g.policyId, game: g.storyId, sessions: g.sessions, wAuc: g.wAuc, averageScore: g.averageScore, bestScore: g.bestScore,
  }))));
  return {
    format: 'metattl-experiment-report-1', name: spec.name, description: spec.description, status: state.status,
    settings: { episodes: spec.episodes, steps: spec.steps, repeats: spec.repeats, bootstrapSeed: spec.bootstrapSeed }, models: state.models, folds: plan.folds,
    evolutions, rows, perGame, foldResults: foldResultsOf(plan, state, rows), paperReference: paper, pendingSteps: plan.steps.filter((s) => state.steps[s.id]?.status !== 'complete').map((s) => s.id),
    comparisons: compared.declared, exploratoryComparisons: compared.exploratory, warnings: compared.warnings, powerDelta,
    ...(simulated ? { simulated: SIMULATION_NOTICE } : {}),
  };
}
