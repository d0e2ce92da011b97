/**
 * The experiment's one report: every arm on every evaluated task set with n and 95%
 * hierarchical-bootstrap intervals (from each evaluation's own report, src/eval/report.ts), the
 * split behind each number (held-out or the games the meta-prompt was selected on, with the leak
 * warning), learning curves, the comparisons (each arm against the baseline and the experiment's
 * key contrasts, Holm-corrected over the report; every other pair exploratory) with per-game Δ
 * and the game-level test, the warnings (few games, identical repeats), each fold's held-out gap and selection test (selection optimism, transfer gap, whether
 * the seed was chosen; pooled over folds), the models, and the
 * paper's numbers beside ours where it gives them (Lou et al. 2026, abstract: Jericho, GPT-5
 * meta-agent, W-AUC naive 0.18 → Meta-TTL 0.41 on ID, average score 50.4 → 110.8, 0.23 → 0.28 on
 * OOD; WebArena-Lite ID 0.55 → 0.63) — beside a row only when its games are exactly the paper's
 * task set's (`paperTaskSetOf`; never for our web tasks, which are not WebArena-Lite), and the
 * walkthrough-recall probe's steps (recall vs the shuffled control, per game and pooled). No UI, DOM or Node imports.
 */
import { checkRegistration, type Registration } from './registration.ts';
import { applyHolm, DEFAULT_POWER_DELTA, FEW_GAMES, fewGamesMessage, reverseComparison, withPowerDelta } from '../eval/comparisons.ts';
import type { Comparison, ReportWarning } from '../eval/interface.ts';
import { taskSetOverlap, type GameVocabulary } from '../eval/vocabulary-overlap.ts';
import type { EvaluationStep, ExperimentPlan, ExperimentReport, ExperimentRow, ExperimentState, FoldResult, FoldsPooled, PaperReference, VocabularyOverlapEntry } from './interface.ts';
import { foldSelection, optimismValues, pairedDiffs, pooledSelection, type FoldSelectionInput } from './selection.ts';
import { gamesOf, selectedOnOf } from './plan.ts';
import { SIMULATION_NOTICE, usesSimulatedModel } from '../llm/model-label.ts';
import { replicatedArms, replicatedComparisonsOf } from './replicates.ts';

type PaperNumbers = NonNullable<ExperimentReport['paperReference']>;

/** The paper's reported numbers by reference (arm "naive" = naive meta-agent, "evolved" = Meta-TTL). */
export const PAPER_NUMBERS: Record<Exclude<PaperReference, null>, PaperNumbers> = {
  jericho: {
    source: 'Lou et al., "Learning to Learn-at-Test-Time", arXiv 2604.00830 (2026), abstract', setting: 'Jericho, GPT-5 meta-agent, K = 6, S = 50; ID = detective, zork1, temple; OOD = balances, library, zork3',
    games: { ID: ['detective', 'zork1', 'temple'], OOD: ['balances', 'library', 'zork3'] },
    numbers: [
      { taskSet: 'ID', arm: 'naive', wAuc: 0.18, averageScore: 50.4 }, { taskSet: 'ID', arm: 'evolved', wAuc: 0.41, averageScore: 110.8 },
      { taskSet: 'OOD', arm: 'naive', wAuc: 0.23, averageScore: null }, { taskSet: 'OOD', arm: 'evolved', wAuc: 0.28, averageScore: null },
    ],
  },
  'webarena-lite': {
    source: 'Lou et al., "Learning to Learn-at-Test-Time", arXiv 2604.00830 (2026), abstract', setting: 'WebArena-Lite, in-distribution, success-weighted W-AUC (our web tasks are WebArena-Lite-style, not WebArena-Lite)',
    // None of our task sets is WebArena-Lite: its numbers stay in the header, never beside a row.
    games: {},
    numbers: [{ taskSet: 'ID', arm: 'naive', wAuc: 0.55, averageScore: null }, { taskSet: 'ID', arm: 'evolved', wAuc: 0.63, averageScore: null }],
  },
};

/**
 * The paper's task set whose games are exactly `games` (order and seeds aside), or null: its numbers
 * may stand beside ours only then (a subset, a superset or other games measure something else).
 */
export function paperTaskSetOf(paper: PaperNumbers, games: readonly string[]): string | null {
  const wanted = [...new Set(games)].sort().join('|');
  return Object.entries(paper.games ?? {}).find(([, list]) => [...new Set(list)].sort().join('|') === wanted)?.[0] ?? null;
}

/** The header line of the paper's numbers: source, setting, the numbers, and when they are set
 * beside ours (only on a task set of exactly the paper's games). */
export function paperReferenceText(paper: PaperNumbers): string {
  const numbers = [...new Set(paper.numbers.map((n) => n.taskSet))].map((set) => {
    const of = (arm: string) => paper.numbers.find((n) => n.taskSet === set && n.arm === arm)?.wAuc;
    return `${set} W-AUC naive ${of('naive')?.toFixed(2) ?? '—'} → Meta-TTL ${of('evolved')?.toFixed(2) ?? '—'}`;
  }).join(', ');
  // A report saved before `games` existed has none: say nothing about where they are shown.
  if (paper.games === undefined) return `Paper: ${paper.source}; ${paper.setting}; ${numbers}.`;
  const where = Object.keys(paper.games).length
    ? `shown beside a task set only when its games are exactly the paper's (${Object.entries(paper.games).map(([set, games]) => `${set} = ${games.join(', ')}`).join('; ')})`
    : 'not shown beside ours: none of our task sets is the paper\'s';
  return `Paper: ${paper.source}; ${paper.setting}; ${numbers} — ${where}.`;
}

type ReportEvolution = ExperimentReport['evolutions'][number];

/** The median and quartiles of `xs` (linear interpolation between order statistics, as numpy's
 * default `percentile`); null for an empty list. */
export function quartiles(xs: readonly number[]): { q1: number; median: number; q3: number } | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => {
    const h = (s.length - 1) * p;
    const lo = Math.floor(h);
    return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
  };
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
}

/**
 * Whether the evolutions that run side by side (same model set and fold, two or more) are matched:
 * equal proposals, accepted and validated counts. Under one budget in metric calls they often are
 * not — a rejected proposal costs 2b metric calls and an accepted one 2b + V — and then a gap
 * between the arms' chosen prompts mixes the proposer's skill with how much search each arm did.
 * Evolutions recorded before the counts were kept are left out.
 */
export function armMatchingOf(evolutions: readonly ReportEvolution[]): NonNullable<ExperimentReport['armMatching']> {
  const groups = new Map<string, ReportEvolution[]>();
  for (const e of evolutions) {
    if (e.proposals === undefined) continue;
    const key = `${e.modelSet}|${e.fold ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()].filter((g) => g.length > 1).map((g) => {
    const same = (f: (e: ReportEvolution) => number | undefined) => new Set(g.map(f)).size === 1;
    const matched = same((e) => e.proposals) && same((e) => e.accepted) && same((e) => e.validated);
    const counts = g.map((e) => `${e.step} (${e.proposer}) ${e.proposals} proposals, ${e.accepted ?? 0} accepted, ${e.validated ?? 0} validated`).join('; ');
    const sizes = g.map((e) => {
      const q = quartiles(e.editSizes ?? []);
      return `${e.step} ${q ? `median ${q.median.toFixed(1)} [${q.q1.toFixed(1)}–${q.q3.toFixed(1)}] over ${e.editSizes!.length}` : 'none'}${e.editSizeTarget ? ` (drawn from ${e.editSizeTarget.source})` : ''}`;
    }).join('; ');
    const text = matched
      ? `Matched: ${counts}. The arms searched equally; a difference between their chosen prompts is the proposers'.`
      : `Not matched: ${counts}. At an equal budget in metric calls the arms made different amounts of search (a rejected proposal costs 2 × minibatch metric calls, an accepted one 2 × minibatch + the validation tasks), so a difference between their chosen prompts mixes the proposer's skill with the number of proposals tried and validated.`;
    return { modelSet: g[0]!.modelSet, fold: g[0]!.fold, steps: g.map((e) => e.step), matched, text: `${text} Edit sizes (words): ${sizes}.` };
  });
}

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
      const paperSet = paper ? paperTaskSetOf(paper, games) : null;
      const reference = paperSet === null ? undefined : paper!.numbers.find((n) => n.taskSet === paperSet && n.arm === p.policyId);
      rows.push({
        step: step.id, modelSet: step.modelSet, fold: step.fold, taskSet: step.taskSet, split: { games, role }, arm: p.policyId, sessions: p.sessions, games: p.games,
        wAuc: p.wAuc, averageScore: p.averageScore, bestScore: p.bestScore, diffVsBaseline: p.diffVsBaseline, leakWarning: p.leakWarning, curve: p.curve, ...(p.normalisedCurve ? { normalisedCurve: p.normalisedCurve } : {}),
        paper: reference ? { wAuc: reference.wAuc, averageScore: reference.averageScore } : null, ...(p.rawMetaPrompt ? { rawMetaPrompt: true as const } : {}),
      });
    }
  }
  return rows;
}

/** Each fold's held-out gap (the first evolved arm − the baseline) and its selection test
 * (selection optimism and transfer gap, src/experiment/selection.ts), and the pooled rows. */
function foldResultsOf(plan: ExperimentPlan, state: ExperimentState, rows: readonly ExperimentRow[]): { folds: FoldResult[]; pooled: FoldsPooled[] } {
  const out: FoldResult[] = [];
  const inputs = new Map<number, FoldSelectionInput[]>();
  for (const step of plan.steps) {
    if (step.kind !== 'evaluation' || !step.fold || step.purpose) continue;
    const fold = plan.folds.find((f) => f.id === step.fold)!;
    const arm = step.arms.find((a) => a.evolutionStep);
    const row = rows.find((r) => r.step === step.id && r.arm === arm?.id);
    const evolution = arm ? state.steps[arm.evolutionStep!]?.evolution : undefined;
    const validationWAuc = evolution?.bestValWAuc ?? null;
    const fresh = plan.steps.find((s): s is EvaluationStep => s.kind === 'evaluation' && s.purpose === 'fresh-validation' && s.fold === step.fold && s.modelSet === step.modelSet);
    const freshSessions = fresh ? state.steps[fresh.id]?.evaluation?.sessions ?? [] : [];
    const testSessions = state.steps[step.id]?.evaluation?.sessions ?? [];
    const recorded = evolution?.bestValScores ?? (validationWAuc !== null ? Object.fromEntries(fold.val.map((t) => [t, validationWAuc])) : {});
    const input: FoldSelectionInput = arm
      ? { optimism: optimismValues(freshSessions, arm.id, recorded), validationDiffs: pairedDiffs(freshSessions, arm.id, step.baseline), testDiffs: pairedDiffs(testSessions, arm.id, step.baseline) }
      : { optimism: [], validationDiffs: [], testDiffs: [] };
    const chosenIsSeed = evolution?.bestIsSeed ?? null;
    inputs.set(step.modelSet, [...(inputs.get(step.modelSet) ?? []), input]);
    out.push({
      fold: fold.id, modelSet: step.modelSet, train: fold.train, val: fold.val, test: fold.test, heldOutGap: row?.diffVsBaseline ?? null, heldOutWAuc: row?.wAuc ?? null,
      validationWAuc, freshValidationWAuc: (fresh && rows.find((r) => r.step === fresh.id && r.arm === arm?.id)?.wAuc) ?? null,
      chosenCandidate: evolution?.bestCandidateId ?? null, chosenIsSeed, ...foldSelection(input),
    });
  }
  const pooled = [...inputs].map(([modelSet, folds]) => ({ modelSet, ...pooledSelection(folds), seedFolds: out.filter((f) => f.modelSet === modelSet && f.chosenIsSeed === true).length }));
  return { folds: out, pooled };
}

/** The fold regime in words: games per split of the first fold, against the paper's protocol. */
function foldRegimeOf(plan: ExperimentPlan): string | undefined {
  const f = plan.folds[0];
  if (!f) return undefined;
  const n = (ids: string[]) => gamesOf(ids).length;
  return `Each fold selects on ${n(f.train)} training + ${n(f.val)} validation game${n(f.val) === 1 ? '' : 's'} and tests on ${n(f.test)} held-out game; the paper's protocol trains and validates on the same 3 games (3 = 3) and has no held-out game. With one validation game, the chosen prompt is selected on a single game's sessions.`;
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
    // A replicated arm's comparisons across its replicates (src/experiment/replicates.ts) come first:
    // they are the arm's; each replicate's own (`<arm>#r<r>`) stays among the exploratory pairs.
    const sessions = state.steps[step.id]?.evaluation?.sessions ?? [];
    const pool = [...replicatedComparisonsOf(step, sessions, spec.bootstrapSeed, powerDelta), ...(report.comparisons ?? []), ...(report.exploratoryComparisons ?? [])];
    const used = new Set<Comparison>();
    const seen = new Set<string>();
    // A fresh-validation step is on games the prompt was selected on: nothing there is declared.
    for (const w of step.purpose === 'fresh-validation' ? [] : wanted) {
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
    for (const w of report.warnings ?? []) if (w.code !== 'few_games') warnings.push({ code: w.code, message: `${step.id}: ${w.message}`, ...(w.policyId !== undefined ? { policyId: w.policyId } : {}), step: step.id });
  }
  applyHolm(declared);
  return { declared, exploratory, warnings };
}

/**
 * Each evaluation step's vocabulary overlap with its training games: T = the train and validation
 * games of the evolutions the step's arms use (else of every evolution in the same fold and model
 * set); a step with no evolution behind it gets no entry. Games without a vocabulary are listed in
 * `missing` and make the pooled share null (per-game rows are kept for the others).
 */
export function vocabularyOverlapOf(plan: ExperimentPlan, vocabularies: Readonly<Record<string, GameVocabulary>>): VocabularyOverlapEntry[] {
  const out: VocabularyOverlapEntry[] = [];
  for (const step of plan.steps) {
    if (step.kind !== 'evaluation') continue;
    let training = [...new Set(step.arms.flatMap((a) => selectedOnOf(plan, a.evolutionStep)))];
    if (!training.length) {
      const evolutions = plan.steps.filter((s) => s.kind === 'evolution' && s.fold === step.fold && s.modelSet === step.modelSet);
      training = [...new Set(evolutions.flatMap((s) => selectedOnOf(plan, s.id)))];
    }
    if (!training.length) continue;
    const games = gamesOf(step.tasks);
    if ([...games, ...training].some((g) => g.startsWith('web:'))) continue; // web tasks have no dictionary
    out.push({ step: step.id, ...taskSetOverlap(step.taskSet, games, training, vocabularies) });
  }
  return out;
}

/** The report of an experiment in any state (steps not finished are listed in `pendingSteps`).
 * @param options.powerDelta the Δ (W-AUC) the repeats-needed estimates are for (default 0.05)
 * @param options.vocabularies game id (as the plan names it) → its vocabularies, for the
 *   vocabulary-overlap column and section (absent: neither is shown)
 * @param options.registration the run's registration.json (registration.ts): the report then says
 *   whether the run matches it and labels every comparison primary, secondary or exploratory */
export function buildExperimentReport(plan: ExperimentPlan, state: ExperimentState, options: { powerDelta?: number; vocabularies?: Readonly<Record<string, GameVocabulary>>; registration?: Registration | null } = {}): ExperimentReport {
  const powerDelta = options.powerDelta ?? DEFAULT_POWER_DELTA;
  const raw = comparisonsOf(plan, state, powerDelta);
  const registered = options.registration ? checkRegistration(options.registration, state, raw.declared, raw.exploratory) : null;
  const compared = registered ? { ...raw, declared: registered.declared, exploratory: registered.exploratory } : raw;
  const { spec } = plan;
  // A simulation's numbers are never set beside the paper's (they show the loop, not a model).
  const simulated = state.models.some((m) => usesSimulatedModel([m.actor, m.metaAgent, m.proposer]));
  const paper = spec.paper && !simulated ? PAPER_NUMBERS[spec.paper] : null;
  const vocabulary = options.vocabularies ? vocabularyOverlapOf(plan, options.vocabularies) : undefined;
  const rows = rowsOf(plan, state, paper).map((row) => (vocabulary ? { ...row, dictionaryOverlap: vocabulary.find((v) => v.step === row.step)?.dictionary?.share ?? null } : row));
  const evolutions = plan.steps.flatMap((s) => {
    const outcome = s.kind === 'evolution' ? state.steps[s.id]?.evolution : undefined;
    return s.kind === 'evolution' && outcome ? [{ ...outcome, step: s.id, modelSet: s.modelSet, fold: s.fold, train: s.train, val: s.val, proposer: s.evolution.proposer, optimizer: s.evolution.optimizer ?? 'gepa', ...(s.evolution.proposerInput ? { proposerInput: s.evolution.proposerInput } : {}) }] : [];
  });
  const perGame = plan.steps.flatMap((step) => (step.kind !== 'evaluation' ? [] : (state.steps[step.id]?.evaluation?.report.games ?? []).map((g) => ({
    step: step.id, taskSet: step.taskSet, arm: g.policyId, game: g.storyId, sessions: g.sessions, wAuc: g.wAuc, averageScore: g.averageScore, bestScore: g.bestScore,
  }))));
  const folded = foldResultsOf(plan, state, rows);
  const recall = plan.steps.flatMap((s) => {
    const outcome = s.kind === 'recall-probe' ? state.steps[s.id]?.recall : undefined;
    if (!outcome) return [];
    const { items: _items, status: _status, ...kept } = outcome;
    return [{ step: s.id, modelSet: s.modelSet, ...kept }];
  });
  const replicated = replicatedArms(plan, state);
  return {
    format: 'metattl-experiment-report-1', name: spec.name, description: spec.description, status: state.status,
    settings: { episodes: spec.episodes, steps: spec.steps, repeats: spec.repeats, bootstrapSeed: spec.bootstrapSeed }, models: state.models.map((m, i) => (spec.models[i]?.label ? { ...m, label: spec.models[i]!.label! } : m)), folds: plan.folds,
    evolutions, rows, perGame, foldResults: folded.folds, ...(plan.folds.length ? { foldsPooled: folded.pooled, foldRegime: foldRegimeOf(plan) } : {}), paperReference: paper, pendingSteps: plan.steps.filter((s) => state.steps[s.id]?.status !== 'complete').map((s) => s.id),
    comparisons: compared.declared, exploratoryComparisons: compared.exploratory, warnings: compared.warnings, powerDelta, ...(vocabulary ? { vocabulary } : {}),
    armMatching: armMatchingOf(evolutions),
    codeVersion: state.codeVersion ?? null, registration: registered?.check ?? null, ...(replicated.length ? { replicated } : {}),
    ...(simulated ? { simulated: SIMULATION_NOTICE } : {}), ...(recall.length ? { recall } : {}),
  };
}
