/**
 * An experiment's plan: its folds (leave one game out: test = that game, train = the next game,
 * validation = the rest; pairwise disjoint by construction and checked) and its steps, each an
 * ordinary evolution or evaluation run, evolutions first. Task sets must already be expanded to
 * task ids (the CLI expands named sets such as ID). No UI, DOM or Node imports.
 */
import { budgetRefusal, planBudget } from '../evolve/rules/budget.ts';
import type { EvaluationStep, EvolutionOutcome, EvolutionStep, ExperimentPlan, ExperimentSpec, Fold, PlanStep, RecallProbeStep, StepRecord } from './interface.ts';

/** The game a task id is on: `detective:3` → `detective`, `web:shop/t12:3` → `web:shop/t12`. */
export function gameOf(taskId: string): string {
  return taskId.replace(/:\d+$/, '');
}

/** The distinct games of task ids, in first-seen order. */
export function gamesOf(taskIds: readonly string[]): string[] {
  return [...new Set(taskIds.map(gameOf))];
}

/** @throws Error naming the shared game when two of a fold's splits share one */
export function checkFoldDisjoint(fold: Fold): void {
  const parts = [['train', fold.train], ['validation', fold.val], ['test', fold.test]] as const;
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      const shared = gamesOf(parts[i]![1]).filter((g) => gamesOf(parts[j]![1]).includes(g));
      if (shared.length) throw new Error(`fold ${fold.id}: ${parts[i]![0]} and ${parts[j]![0]} share ${shared.join(', ')}`);
    }
  }
}

/** Leave-one-game-out folds over a task set's games (at least 3). Fold i: test = game i, train =
 * game i+1, validation = every other game (cyclically); each split holds all seeds of its games. */
export function leaveOneOutFolds(taskIds: readonly string[]): Fold[] {
  const games = gamesOf(taskIds);
  if (games.length < 3) throw new Error(`leave-one-out needs at least 3 games, got ${games.length} (${games.join(', ')})`);
  const tasksOf = (list: readonly string[]) => taskIds.filter((t) => list.includes(gameOf(t)));
  return games.map((test, i) => {
    const train = games[(i + 1) % games.length]!;
    const val = games.filter((g) => g !== test && g !== train);
    const fold: Fold = { id: `fold-${test.replace(/[^A-Za-z0-9._-]/g, '_')}`, train: tasksOf([train]), val: tasksOf(val), test: tasksOf([test]) };
    checkFoldDisjoint(fold);
    return fold;
  });
}

/** How many replicates evolution `id` of `spec` runs (absent = 1). */
export function replicatesOf(spec: ExperimentSpec, id: string): number {
  return spec.evolutions.find((e) => e.id === id)?.replicates ?? 1;
}

/** Replicate r's (1-based) rng seed: the evolution's seed + r − 1, mod 2³² (replicate 1 = the seed
 * itself, so a single replicate runs exactly as an unreplicated evolution). */
export function replicateSeed(base: number, replicate: number): number {
  return (base + replicate - 1) % 0x1_0000_0000;
}

/** An evolution step's id: the group's own when unreplicated, `<group>.r<r>` for replicate r of n > 1. */
export function replicateStepId(group: string, replicate: number, replicates: number): string {
  return replicates === 1 ? group : `${group}.r${replicate}`;
}

/** The policy id replicate r of an arm is evaluated under: `<arm>#r<r>`. */
export function replicateArmId(arm: string, replicate: number): string {
  return `${arm}#r${replicate}`;
}

/** The experiment's folds and steps (one model set = one copy of every step, ending with its
 * recall-probe step when the spec has `recallProbe`; ids `m<i>.` prefixed
 * when there are several, `fold-<game>.` in a fold experiment, where each fold ends with
 * `eval-validation`: the arms played afresh on the fold's validation games). An evolution with
 * `replicates: n > 1` plans n evolution steps `evolve-<id>.r1 … .rn` (seeds `replicateSeed`), and
 * each evaluation evaluates every replicate's chosen prompt as its own arm `<arm>#r<r>`. */
export function planExperiment(spec: ExperimentSpec): ExperimentPlan {
  const folds = spec.folds ? leaveOneOutFolds(spec.taskSets[spec.folds.leaveOneOut] ?? []) : [];
  const steps: PlanStep[] = [];
  const modelSets = Math.max(1, spec.models.length);
  for (let m = 0; m < modelSets; m++) {
    for (const fold of spec.folds ? folds : [null]) {
      const prefix = `${modelSets > 1 ? `m${m}.` : ''}${fold ? `${fold.id}.` : ''}`;
      const evolutions: EvolutionStep[] = spec.evolutions.flatMap((evolution) => {
        const group = `${prefix}evolve-${evolution.id}`;
        const n = replicatesOf(spec, evolution.id);
        return Array.from({ length: n }, (_, i) => ({
          kind: 'evolution' as const, id: replicateStepId(group, i + 1, n), modelSet: m, fold: fold?.id ?? null, evolution: { ...evolution, rngSeed: replicateSeed(evolution.rngSeed, i + 1) },
          train: fold ? fold.train : spec.taskSets[evolution.train!] ?? [], val: fold ? fold.val : spec.taskSets[evolution.val!] ?? [], replicate: i + 1, replicates: n, group,
        }));
      });
      const armsOf = (withRaw: boolean): EvaluationStep['arms'] => spec.arms.flatMap((a): EvaluationStep['arms'] => {
        if ('policy' in a) return [{ id: a.id, policy: a.policy, ...(withRaw && a.raw ? { raw: true as const } : {}) }];
        const group = `${prefix}evolve-${a.evolution}`;
        const n = replicatesOf(spec, a.evolution);
        if (n === 1) return [{ id: a.id, evolutionStep: group }];
        return Array.from({ length: n }, (_, i) => ({ id: replicateArmId(a.id, i + 1), evolutionStep: replicateStepId(group, i + 1, n), replicateOf: a.id, replicate: i + 1 }));
      });
      const evaluations: EvaluationStep[] = spec.evaluateOn.map((taskSet) => ({
        kind: 'evaluation', id: `${prefix}eval-${taskSet}`, modelSet: m, fold: fold?.id ?? null, taskSet,
        tasks: fold ? fold.test : spec.taskSets[taskSet] ?? [],
        arms: armsOf(true), baseline: spec.baseline, repeats: spec.repeats,
      }));
      // A fold also plays its arms afresh on its validation games: the selection test's
      // "recorded vs fresh" and "validation vs held-out" need the same arms there.
      if (fold) {
        evaluations.push({
          kind: 'evaluation', id: `${prefix}eval-validation`, modelSet: m, fold: fold.id, taskSet: 'validation', tasks: fold.val,
          arms: armsOf(false), baseline: spec.baseline, repeats: spec.repeats, purpose: 'fresh-validation',
        });
      }
      steps.push(...evolutions, ...evaluations);
    }
    const recall = recallProbeStepOf(spec, m, modelSets > 1 ? `m${m}.` : '');
    if (recall) steps.push(recall);
  }
  return { spec, folds, steps };
}

/** Model set m's recall-probe step (`<prefix>recall-probe`, after its runs), or null without
 * `spec.recallProbe`: the distinct story games of its task sets, in order (web tasks left out). */
export function recallProbeStepOf(spec: ExperimentSpec, modelSet: number, prefix: string): RecallProbeStep | null {
  const r = spec.recallProbe;
  if (!r) return null;
  const tasks = r.taskSets.flatMap((name) => spec.taskSets[name] ?? []).filter((t) => !t.startsWith('web:'));
  const games = gamesOf(tasks);
  return { kind: 'recall-probe', id: `${prefix}recall-probe`, modelSet, fold: null, games, tasks: games, options: { k: r.k, probes: r.probes, seed: r.seed } };
}

/** Games an evaluation step's arm was selected on (its evolution's train and validation games), or []. */
export function selectedOnOf(plan: ExperimentPlan, evolutionStepId: string | undefined): string[] {
  const step = plan.steps.find((s): s is EvolutionStep => s.kind === 'evolution' && s.id === evolutionStepId);
  return step ? gamesOf([...step.train, ...step.val]) : [];
}

/** The experiment's declared key contrasts (`spec.contrasts`) between two arms of `step`: each
 * step's own evaluation declares them beside each arm against the baseline, as the experiment's
 * report does (the step Holm-corrects within itself, the report over all its steps). */
export function stepContrasts(plan: ExperimentPlan, step: EvaluationStep): { a: string; b: string }[] {
  const ids = new Set(step.arms.map((a) => a.id));
  return (plan.spec.contrasts ?? []).filter((c) => ids.has(c.a) && ids.has(c.b));
}

/**
 * The edit sizes a `random-neutral` evolution step draws from: the recorded word edit distances of
 * the evolution it matches (`matchEditSizesOf`, in the same model set and fold) when that step has
 * finished with at least one edit; otherwise null (the run then uses the documented default,
 * src/evolve/rules/neutral-mutation.ts DEFAULT_EDIT_SIZES).
 * @returns `{ sizes, source }`, source naming the step and the number of edits, or null
 */
export function matchedEditSizes(plan: ExperimentPlan, step: EvolutionStep, steps: Readonly<Record<string, StepRecord>>): { sizes: number[]; source: string } | null {
  const target = step.evolution.matchEditSizesOf;
  if (step.evolution.proposer !== 'random-neutral' || !target) return null;
  const other = plan.steps.find((s): s is EvolutionStep => s.kind === 'evolution' && s.evolution.id === target && s.modelSet === step.modelSet && s.fold === step.fold);
  const outcome: EvolutionOutcome | undefined = other ? steps[other.id]?.evolution : undefined;
  const sizes = (outcome?.editSizes ?? []).filter((x) => x >= 1);
  return other && sizes.length ? { sizes, source: `measured: ${other.id}'s ${sizes.length} edit${sizes.length === 1 ? '' : 's'}` } : null;
}

/**
 * The first evolution step whose budget (metric calls) cannot pay for the seed's validation plus
 * one full iteration, as "<step id>: <budgetRefusal's sentence>" ("… at least N are needed …"); null
 * when every step's budget is enough. `experiment run` and the page's Start refuse such a plan, and
 * `experiment register` / the page's Register refuse to freeze it (a run card no run can honour).
 */
export function planBudgetProblem(plan: ExperimentPlan): string | null {
  for (const step of plan.steps) {
    if (step.kind !== 'evolution') continue;
    const e = step.evolution;
    const refusal = budgetRefusal(planBudget({ budgetMetricCalls: e.budget, minibatchSize: e.minibatch, trainTasks: step.train.length, valTasks: step.val.length, trainRepeats: e.trainRepeats, valRepeats: e.valRepeats }), e.budget);
    if (refusal) return `${step.id}: ${refusal}`;
  }
  return null;
}
