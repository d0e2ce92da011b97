/**
 * The built-in experiments and the overrides that shrink or edit them: the paper's
 * Jericho protocol (Lou et al. 2026, §5; reference code zzzlou/meta-ttl: GEPA budget 100 metric
 * calls, minibatch 1, validation ×5, K = 6, S = 50, 15 repeats), the reviews' leave-one-game-out
 * test, the matched random control (LLM proposer, neutral random edits of the LLM's edit sizes,
 * and the LLM proposer without the trajectory, each at equal budget, evaluated off the training games), and the WebArena-Lite-style protocol on our
 * web task sets. Every value is editable. No UI, DOM or Node imports.
 */
import type { ArmSpec, EvolutionSpec, ExperimentSpec } from './interface.ts';
import { validateExperiment } from './schema.ts';

const JERICHO_SETS = { ID: ['detective', 'zork1', 'temple'], OOD: ['balances', 'library', 'zork3'] };
const BASELINES: ArmSpec[] = [{ id: 'static', policy: 'static' }, { id: 'reflexion', policy: 'reflexion' }, { id: 'memory', policy: 'memory' }, { id: 'naive', policy: 'naive' }];
/**
 * The Jericho games we have story files for that share the least of their Z-machine dictionary
 * with the ID games (`metattl stories overlap --train detective,zork1,temple`, formula in
 * src/eval/vocabulary-overlap.ts): trinity 31.1 %, anchor 31.6 %, murdac 39.6 % of their words,
 * against 71.3–77.9 % for the paper's OOD games (library, balances, zork3).
 */
export const VOCAB_OOD_GAMES = ['trinity', 'anchor', 'murdac'];
const PAPER_EVOLUTION: EvolutionSpec = { id: 'meta-ttl', train: 'ID', val: 'ID', budget: 100, minibatch: 1, trainRepeats: 1, valRepeats: 5, proposer: 'llm', rngSeed: 0 };
const common = { format: 'metattl-experiment-1' as const, bootstrapSeed: 0, models: [], folds: null, baseline: 'naive' };

export const BUILTIN_EXPERIMENTS: Record<string, ExperimentSpec> = {
  'paper-jericho': {
    ...common, name: 'paper-jericho', description: 'The paper\'s Jericho protocol: evolve on detective, zork1, temple (budget 100 metric calls, minibatch 1), then static, Reflexion, memory, naive and the evolved meta-prompt on ID and OOD games.',
    episodes: 6, steps: 50, repeats: 15, taskSets: JERICHO_SETS, evolutions: [PAPER_EVOLUTION],
    arms: [...BASELINES, { id: 'evolved', evolution: 'meta-ttl' }], evaluateOn: ['ID', 'OOD'], paper: 'jericho',
  },
  'skeptic-holdout': {
    ...common, name: 'skeptic-holdout', description: 'The reviews\' test: leave one ID game out, evolve on the other two (train / validation), test the chosen meta-prompt and naive on the held-out game and again, fresh, on the validation game (selection optimism = recorded − fresh validation W-AUC; transfer gap = (chosen − naive) on validation − on held-out); rotate over the three.',
    episodes: 6, steps: 50, repeats: 15, taskSets: { ID: JERICHO_SETS.ID }, folds: { leaveOneOut: 'ID' },
    evolutions: [{ ...PAPER_EVOLUTION, train: undefined, val: undefined }], arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolution: 'meta-ttl' }], evaluateOn: ['test'], paper: null,
  },
  'random-control': {
    ...common, name: 'random-control',
    description: 'The same evolution on the ID games three ways at equal budget: the LLM proposer; neutral random edits (a neutral corpus, not our strategies) whose sizes follow the LLM arm\'s recorded edit sizes; and the LLM proposer shown the parent but no trajectory (isolates what reading the trajectory adds). Proposals, accepted, validated and proposer tokens are reported side by side. The chosen meta-prompts and naive are evaluated only on the OOD games, held out from the training games: random-vs-proposer means something only off the games selected on.',
    episodes: 6, steps: 50, repeats: 15, taskSets: JERICHO_SETS,
    evolutions: [PAPER_EVOLUTION, { ...PAPER_EVOLUTION, id: 'random', proposer: 'random-neutral', matchEditSizesOf: 'meta-ttl' }, { ...PAPER_EVOLUTION, id: 'no-trace', proposerInput: 'no-trace' }],
    arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolution: 'meta-ttl' }, { id: 'random-evolved', evolution: 'random' }, { id: 'no-trace-evolved', evolution: 'no-trace' }], evaluateOn: ['OOD'], paper: 'jericho',
    contrasts: [{ a: 'evolved', b: 'random-evolved' }, { a: 'evolved', b: 'no-trace-evolved' }],
  },
  'optimizer-baselines': {
    ...common, name: 'optimizer-baselines', description: 'Other optimizers as baselines: the GEPA-style evolution and an OPRO-style one at equal budget, with the TextGrad adaptation policy and naive beside their chosen meta-prompts, on ID and OOD games; every arm that reflects uses the meta-agent model.',
    episodes: 6, steps: 50, repeats: 15, taskSets: JERICHO_SETS, evolutions: [PAPER_EVOLUTION, { ...PAPER_EVOLUTION, id: 'opro', optimizer: 'opro' }],
    arms: [{ id: 'naive', policy: 'naive' }, { id: 'textgrad', policy: 'textgrad' }, { id: 'evolved', evolution: 'meta-ttl' }, { id: 'opro-evolved', evolution: 'opro' }], evaluateOn: ['ID', 'OOD'], paper: 'jericho',
    contrasts: [{ a: 'evolved', b: 'opro-evolved' }, { a: 'evolved', b: 'textgrad' }],
  },
  'web-lite': {
    ...common, name: 'web-lite', description: 'The WebArena-Lite-style ID/OOD protocol on our web tasks: evolve on WEB-ID-train / WEB-ID-val, evaluate on WEB-ID-test and WEB-OOD.',
    episodes: 3, steps: 10, repeats: 5, taskSets: { train: ['WEB-ID-train'], val: ['WEB-ID-val'], ID: ['WEB-ID-test'], OOD: ['WEB-OOD'] },
    evolutions: [{ ...PAPER_EVOLUTION, train: 'train', val: 'val' }], arms: [...BASELINES, { id: 'evolved', evolution: 'meta-ttl' }], evaluateOn: ['ID', 'OOD'], paper: 'webarena-lite',
  },
  'vocab-ood': {
    ...common, name: 'vocab-ood', description: 'The falsifier: evolve on the ID games as the paper does, then naive and the evolved meta-prompt on ID, on the paper\'s OOD games (71–78 % of their dictionary words shared with ID) and on VOCAB-OOD, the Jericho games sharing the least vocabulary with ID (trinity, anchor, murdac: 31–40 %). A gain that survives on VOCAB-OOD is not carried by shared words.',
    episodes: 6, steps: 50, repeats: 15, taskSets: { ...JERICHO_SETS, 'VOCAB-OOD': VOCAB_OOD_GAMES }, evolutions: [PAPER_EVOLUTION],
    arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolution: 'meta-ttl' }], evaluateOn: ['ID', 'OOD', 'VOCAB-OOD'], paper: 'jericho',
  },
};

/** Editable values of an experiment (the CLI's flags); absent = keep the experiment's. */
export interface ExperimentOverrides {
  episodes?: number;
  steps?: number;
  repeats?: number;
  /** Applied to every evolution. */
  budget?: number;
  minibatch?: number;
  trainRepeats?: number;
  valRepeats?: number;
  rngSeed?: number;
  /** Applied to every evolution (and every arm that names a number of replicates). */
  replicates?: number;
  /** Task set name → its new task list. */
  taskSets?: Record<string, string[]>;
}

/** The experiment with overrides applied, checked again. @throws ExperimentSpecError (e.g. a task set the experiment does not have) */
export function applyOverrides(spec: ExperimentSpec, o: ExperimentOverrides): ExperimentSpec {
  const unknown = Object.keys(o.taskSets ?? {}).filter((name) => !spec.taskSets[name]);
  const evolution = (e: EvolutionSpec): EvolutionSpec => ({
    ...e, ...(o.budget !== undefined ? { budget: o.budget } : {}), ...(o.minibatch !== undefined ? { minibatch: o.minibatch } : {}),
    ...(o.trainRepeats !== undefined ? { trainRepeats: o.trainRepeats } : {}), ...(o.valRepeats !== undefined ? { valRepeats: o.valRepeats } : {}),
    ...(o.rngSeed !== undefined ? { rngSeed: o.rngSeed } : {}), ...(o.replicates !== undefined ? { replicates: o.replicates } : {}),
  });
  const arms = spec.arms.map((a) => ('evolution' in a && a.replicates !== undefined && o.replicates !== undefined ? { ...a, replicates: o.replicates } : a));
  const edited = {
    ...spec, ...(o.episodes !== undefined ? { episodes: o.episodes } : {}), ...(o.steps !== undefined ? { steps: o.steps } : {}), ...(o.repeats !== undefined ? { repeats: o.repeats } : {}),
    taskSets: { ...spec.taskSets, ...o.taskSets }, evolutions: spec.evolutions.map(evolution), arms,
  };
  const checked = validateExperiment(JSON.parse(JSON.stringify(edited)));
  if (unknown.length) throw new Error(`--task-set ${unknown[0]}: the experiment has no task set "${unknown[0]}" (it has ${Object.keys(spec.taskSets).join(', ')})`);
  return checked;
}
