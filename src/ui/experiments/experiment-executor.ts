/**
 * The page's executor of experiment steps (src/experiment/experiment-runner.ts `ExperimentExecutor`):
 * an evolution step becomes an ordinary page evolution run (EvolutionDriver, the Evolve view's
 * driver) and an evaluation step an ordinary page evaluation (EvaluationDriver), each stored in
 * IndexedDB under the run id `<experiment id>.<step id>`, so each resumes inside itself exactly as
 * a run started from its own view. The mapping from a step to a run's config and from a finished
 * run to the step's outcome is pure and exported (tested); the drivers, task resolution and the
 * settings are injected. The replicates of an evolution run side by side, as the CLI runs them:
 * min(replicates, concurrency) at once on drivers of their own, each with ⌊concurrency ÷ that⌋
 * sessions at once (`replicateConcurrency`); each replicate is its own run (own id, rng seed and
 * cache), so its result is the one it has run alone. A recall-probe step runs the core probe
 * (src/experiment/recall-step.ts) with the Settings' actor on the walkthroughs the experiment
 * gives. Must not import a view.
 */
import { DEFAULT_GUIDING_PROMPT } from '../../agents/actor-prompt.ts';
import type { EvaluatedPolicy, EvaluationConfig, EvaluationState } from '../../eval/interface.ts';
import type { EvolutionConfig, EvolutionState, EvolutionTask } from '../../evolve/interface.ts';
import { EVOLUTION_DEFAULTS } from '../../evolve/run-defaults.ts';
import { DEFAULT_EDIT_SIZES } from '../../evolve/rules/neutral-mutation.ts';
import { replicateConcurrency, type ExperimentExecutor, type StepResult } from '../../experiment/experiment-runner.ts';
import type { EvaluationOutcome, EvaluationStep, EvolutionOutcome, EvolutionStep, ExperimentPlan, ExperimentState, RecallOutcome } from '../../experiment/interface.ts';
import { recallGamesOf, runRecallProbeStep } from '../../experiment/recall-step.ts';
import type { ChatModel } from '../../llm/interface.ts';
import { evaluationOutcomeOf, evolutionOutcomeOf } from '../../experiment/outcomes.ts';
import { matchedEditSizes, selectedOnOf, stepContrasts } from '../../experiment/plan.ts';
import { WEB_DEFAULT_GUIDING_PROMPT } from '../../web/texts.ts';
import type { PolicyOption } from '../shared/state/policy-options.ts';

/** What every run of the experiment takes from Settings: models by role, concurrency, and the
 * meta-agent's context window in tokens. */
export interface RunShape {
  models: { actor: string; metaAgent: string; proposer: string };
  concurrency: number;
  contextWindow: number;
}

/** The run id of an experiment step: `<experiment id>.<step id>` (unique in this browser's store). */
export const stepRunId = (experimentId: string, stepId: string): string => `${experimentId}.${stepId}`;

const guideFor = (tasks: readonly { task?: { kind: string } }[]): string => (tasks.length > 0 && tasks.every((t) => t.task?.kind === 'web') ? WEB_DEFAULT_GUIDING_PROMPT : DEFAULT_GUIDING_PROMPT);

/** The evolution run of `step` (GEPA defaults of the Evolve view: the GEPA instruction and
 * optimizer, no seed strategy, 5 consecutive failures). `train` / `val` are the step's tasks resolved. */
export function evolutionConfigOf(plan: ExperimentPlan, step: EvolutionStep, train: EvolutionTask[], val: EvolutionTask[], shape: RunShape, editSizes: { sizes: number[]; source: string } | null = null): EvolutionConfig {
  const e = step.evolution;
  return {
    train, val, repeats: e.valRepeats, trainRepeats: e.trainRepeats, valRepeats: e.valRepeats, episodes: plan.spec.episodes, maxSteps: plan.spec.steps,
    initialGuidingPrompt: guideFor([...train, ...val]), seedStrategy: EVOLUTION_DEFAULTS.seedStrategy, minibatchSize: e.minibatch, budgetMetricCalls: e.budget, maxConsecutiveFailures: EVOLUTION_DEFAULTS.maxConsecutiveFailures,
    proposer: e.proposer, ...(e.proposer === 'random-neutral' ? { editSizes: editSizes ?? { sizes: [...DEFAULT_EDIT_SIZES], source: 'default' } } : {}),
    proposerInstruction: EVOLUTION_DEFAULTS.proposerInstruction, ...(e.proposer === 'llm' ? { optimizer: EVOLUTION_DEFAULTS.optimizer } : {}), ...(e.proposerInput ? { proposerInput: e.proposerInput } : {}), rngSeed: e.rngSeed,
    concurrency: shape.concurrency, models: { ...shape.models }, contextWindow: shape.contextWindow,
  };
}

/** The evaluated policies of `step`'s arms: a named policy from `options` (static, reflexion,
 * memory, naive, a built-in or library meta-prompt; with the arm's `raw`, its text as the whole
 * system prompt) under the arm's id, or an evolved arm's chosen
 * strategy with `selectedOn` = its evolution's train + validation games (the leak warning).
 * @throws Error naming an arm whose policy is not among `options` */
export function armPolicies(plan: ExperimentPlan, step: EvaluationStep, evolved: Record<string, EvolutionOutcome>, options: readonly PolicyOption[]): EvaluatedPolicy[] {
  return step.arms.map((arm) => {
    if (arm.evolutionStep) {
      const outcome = evolved[arm.evolutionStep];
      if (!outcome) throw new Error(`Arm “${arm.id}” needs evolution ${arm.evolutionStep}, which has not finished.`);
      return { id: arm.id, name: `${arm.id} (${outcome.bestCandidateId ?? 'seed'} of ${arm.evolutionStep})`, spec: { kind: 'meta', name: arm.id, strategy: outcome.bestStrategy }, selectedOn: selectedOnOf(plan, arm.evolutionStep) };
    }
    const option = options.find((o) => o.id === arm.policy);
    if (!option) throw new Error(`Arm “${arm.id}”: the page has no policy “${arm.policy}” (it has ${options.map((o) => o.id).join(', ')}).`);
    if (!arm.raw) return { id: arm.id, name: option.label, spec: option.spec, selectedOn: [...option.selectedOn] };
    // Raw: the meta-prompt's text is the meta-agent's whole system message (no header, no footer).
    if (option.spec.kind !== 'meta') throw new Error(`Arm “${arm.id}”: “raw” takes a meta-prompt, and “${arm.policy}” is the ${option.label} baseline.`);
    return { id: arm.id, name: `${option.label} (raw)`, spec: { ...option.spec, raw: true }, selectedOn: [...option.selectedOn] };
  });
}

/** The evaluation run of `step` on its resolved `tasks` (one task set, named as in the experiment). */
export function evaluationConfigOf(plan: ExperimentPlan, step: EvaluationStep, policies: EvaluatedPolicy[], tasks: EvolutionTask[], shape: RunShape): EvaluationConfig {
  return {
    policies, taskSets: [{ name: step.taskSet, tasks }], repeats: step.repeats, episodes: plan.spec.episodes, maxSteps: plan.spec.steps,
    initialGuidingPrompt: guideFor(tasks), baselinePolicyId: step.baseline, bootstrapSeed: plan.spec.bootstrapSeed, concurrency: shape.concurrency,
    models: { actor: shape.models.actor, metaAgent: shape.models.metaAgent }, contextWindow: shape.contextWindow,
    ...(stepContrasts(plan, step).length ? { contrasts: stepContrasts(plan, step) } : {}),
  };
}

/** A run as the step's outcome: the core's (experiment/outcomes.ts), shared with the CLI's executor. */
export { evaluationOutcomeOf, evolutionOutcomeOf };

/** A run driver as the executor uses it (EvolutionDriver / EvaluationDriver): `run` starts or
 * resumes run `id` and returns its final state, or null when it did not run (error shown by the driver). */
export interface StepDriver<S, C> {
  run(id: string, config: C): Promise<S | null>;
  readonly state: S | null;
}

export interface BrowserExecutorDeps {
  experimentId: string;
  evolution: StepDriver<EvolutionState, EvolutionConfig>;
  evaluation: StepDriver<EvaluationState, EvaluationConfig>;
  /** An experiment task id (`game:seed`) resolved against the story shelf. @throws Error for a missing story */
  resolve(taskId: string): Promise<EvolutionTask>;
  /** The stored config of run `id`, when it exists (a resume keeps the config it started with). */
  storedConfig(id: string, kind: 'evolution' | 'evaluation'): Promise<EvolutionConfig | EvaluationConfig | undefined>;
  shape(): Promise<RunShape>;
  policies(): Promise<readonly PolicyOption[]>;
  save(state: ExperimentState): Promise<void>;
  now(): string;
  /** Further evolution drivers for replicates side by side (`evolution` is the first); absent or
   * empty = one replicate after another. */
  sideDrivers?: readonly StepDriver<EvolutionState, EvolutionConfig>[];
  /** The concurrency the replicates side by side share (Settings' sessions at once); default 1. */
  concurrency?: number;
  /** The Settings' actor for a recall-probe step: the model, its name, calls at once, the stop
   * signal; `dispose` when done. Absent: the page cannot run the probe step. */
  recallModel?(): Promise<{ model: ChatModel; name: string; concurrency: number; signal?: AbortSignal; dispose(): void }>;
  /** A game's title for the recall question (the story shelf's; default the game id). */
  titleOf?(game: string): string;
}

/** Where the page looks for a recall-probe step's walkthroughs (said when one is missing). */
export const PAGE_WALKTHROUGHS = 'the page reads walkthroughs only from the experiment\'s recallProbe.walkthroughs (game → commands); the CLI also reads Jericho\'s games.json';

/** How `plan`'s replicated evolutions share `concurrency` with `drivers` drivers: replicates at once
 * (≤ drivers, ≤ the most replicates of any evolution) and sessions at once for each. */
export function sideBySide(plan: ExperimentPlan, concurrency: number, drivers: number): { parallel: number; each: number } {
  const most = Math.max(1, ...plan.steps.map((s) => (s.kind === 'evolution' ? s.replicates : 1)));
  return replicateConcurrency(concurrency, Math.min(most, Math.max(1, drivers)));
}

/** The executor: exit code 0 when the run returned a state (complete, or stopped at a cap: the
 * runner marks a non-complete step stopped), 1 when it did not run. */
export function browserExecutor(plan: ExperimentPlan, deps: BrowserExecutorDeps): ExperimentExecutor {
  const resolveAll = (ids: readonly string[]) => Promise.all(ids.map((id) => deps.resolve(id)));
  const drivers = [deps.evolution, ...(deps.sideDrivers ?? [])];
  const share = sideBySide(plan, deps.concurrency ?? 1, drivers.length);
  const busy = new Set<number>();
  return {
    now: deps.now,
    save: deps.save,
    parallelEvolutions: share.parallel,
    async evolution(step, steps): Promise<StepResult<EvolutionOutcome>> {
      const id = stepRunId(deps.experimentId, step.id);
      // The first free driver (the runner starts at most `share.parallel` ≤ drivers at once).
      const slot = drivers.findIndex((_, i) => !busy.has(i));
      if (slot < 0) throw new Error(`No free evolution driver for ${step.id} (${drivers.length} side by side).`);
      busy.add(slot);
      const driver = drivers[slot]!;
      try {
        const stored = (await deps.storedConfig(id, 'evolution')) as EvolutionConfig | undefined;
        const shape = await deps.shape();
        // Replicates side by side share the concurrency, as the CLI's do.
        const sized = step.replicates > 1 && share.parallel > 1 ? { ...shape, concurrency: share.each } : shape;
        const config = stored ?? evolutionConfigOf(plan, step, await resolveAll(step.train), await resolveAll(step.val), sized, matchedEditSizes(plan, step, steps));
        const state = (await driver.run(id, config)) ?? (driver.state?.id === id ? driver.state : null);
        return { exitCode: state && state.status !== 'running' ? 0 : 1, outcome: state ? evolutionOutcomeOf(state) : null };
      } finally {
        busy.delete(slot);
      }
    },
    async evaluation(step, evolved): Promise<StepResult<EvaluationOutcome>> {
      const id = stepRunId(deps.experimentId, step.id);
      const stored = (await deps.storedConfig(id, 'evaluation')) as EvaluationConfig | undefined;
      const config = stored ?? evaluationConfigOf(plan, step, armPolicies(plan, step, evolved, await deps.policies()), await resolveAll(step.tasks), await deps.shape());
      const state = (await deps.evaluation.run(id, config)) ?? (deps.evaluation.state?.id === id ? deps.evaluation.state : null);
      return { exitCode: state && state.status !== 'running' ? 0 : 1, outcome: state && state.results.length > 0 ? evaluationOutcomeOf(state) : null };
    },
    async recallProbe(step): Promise<StepResult<RecallOutcome>> {
      // The same core as the CLI's `probe recall`: recall-step.ts over eval/recall-probe.ts.
      const walkthroughs = plan.spec.recallProbe?.walkthroughs ?? {};
      const games = recallGamesOf(step, (g) => walkthroughs[g] ?? null, deps.titleOf ?? ((g) => g), PAGE_WALKTHROUGHS);
      if (!deps.recallModel) throw new Error(`${step.id}: this page cannot run the walkthrough-recall probe.`);
      const actor = await deps.recallModel();
      try {
        const outcome = await runRecallProbeStep(step, games, actor.model, actor.name, `the experiment's recallProbe.walkthroughs (${step.games.join(', ')})`, { concurrency: actor.concurrency, ...(actor.signal ? { signal: actor.signal } : {}) });
        return { exitCode: 0, outcome };
      } catch (error) {
        // Stopped: the step stays pending-stopped and is asked again on Resume.
        if (actor.signal?.aborted) return { exitCode: 130, outcome: null };
        throw error;
      } finally {
        actor.dispose();
      }
    },
  };
}
