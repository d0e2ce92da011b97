/**
 * The Evolve view's setup form: which shelf stories are training or validation games (per
 * story: none / train / validation / both, and its seeds), repeats for minibatch and validation
 * sessions, K, S, minibatch size b, the budget in metric calls (1 metric call = 1 candidate
 * evaluated on one task, whatever its repeats), the RNG seed and the proposer (LLM, with or
 * without the trace; the random-mutation control; or the matched random control, `random-neutral`,
 * drawing neutral edits of the word sizes typed or the documented default spread). Derived: the task lists, the split warning (a game in both lists) and
 * what keeps the form from starting — including a budget that cannot pay for the seed's
 * validation plus one full iteration. Defaults follow method.md (K = 6, S = 50, b = 1; the
 * reference repeats minibatches once and validation 5 times, we default to 1 to keep first runs
 * cheap). Web tasks are typed as ids and named sets per side (WEB-ID-train for training,
 * WEB-ID-val for validation…); when every task is a web task K and S default to 3 × 10 and web
 * tasks sharing a template across the split raise no warning (the method splits web tasks by
 * instance). No I/O.
 */
import type { MetaPromptEntry } from '../../agents/meta-prompt-library.ts';
import type { EvolutionConfig, ProposerMode } from '../../evolve/interface.ts';
import type { ProposerInput, ProposerInstruction } from '../../evolve/rules/llm-proposer.ts';
import { DEFAULT_EDIT_SIZES, parseEditSizes } from '../../evolve/rules/neutral-mutation.ts';
import type { Optimizer } from '../../evolve/rules/opro-proposer.ts';
import { budgetRefusal, planBudget } from '../../evolve/rules/budget.ts';
import { EVOLUTION_DEFAULTS } from '../../evolve/run-defaults.ts';
import { SESSION_DEFAULTS } from '../../ttl/run-defaults.ts';
import { parseSeeds, splitWarning, uniquePicks, type TaskPick } from '../shared/format/task-picks.ts';
import { parseWebTaskList, WEB_DEFAULTS, webListIds, webPick, type WebTaskList } from '../shared/format/web-task-list.ts';
import type { WebCatalog } from '../shared/state/web-catalog.ts';
import { isWebTaskId } from '../shared/state/web-task-id.ts';
import { OUTER_LOOP_FIELDS, OuterLoopForm, type OuterLoopFields } from './outer-loop-form.svelte.ts';
import { errorText } from '../shared/state/error-text.ts';

export type SplitRole = 'none' | 'train' | 'val' | 'both';

/** One choice of the seed-strategy list: a meta-prompt's strategy text, named. */
export interface SeedStrategyOption {
  /** The strategy text (the seed candidate's). */
  value: string;
  label: string;
  group: 'Built-in' | 'Your meta-prompts';
}

/**
 * The seed-strategy list: the meta-prompt library's entries (built-in first, then the user's own,
 * `entries` in the catalog's order), one choice per strategy text (the first entry with it), and
 * the form's current strategy when no entry has it any more (a saved form's, "the strategy of the
 * last run"). Pure.
 */
export function seedStrategyOptions(entries: readonly MetaPromptEntry[], current: string): SeedStrategyOption[] {
  const options: SeedStrategyOption[] = [];
  for (const e of entries) {
    if (options.some((o) => o.value === e.strategy)) continue;
    options.push({ value: e.strategy, label: e.name, group: e.provenance.kind === 'built-in' ? 'Built-in' : 'Your meta-prompts' });
  }
  if (!options.some((o) => o.value === current)) options.push({ value: current, label: 'The strategy of the last run (no longer in the library)', group: 'Your meta-prompts' });
  return options;
}

export interface StoryAssignment {
  role: SplitRole;
  /** Seeds as typed ("0, 1"). */
  seeds: string;
}

/** The form's defaults: the core's (evolve/run-defaults.ts, ttl/run-defaults.ts). */
export const EVOLVE_DEFAULTS = {
  trainRepeats: EVOLUTION_DEFAULTS.trainRepeats, valRepeats: EVOLUTION_DEFAULTS.valRepeats, episodes: SESSION_DEFAULTS.episodes, maxSteps: SESSION_DEFAULTS.maxSteps,
  minibatchSize: EVOLUTION_DEFAULTS.minibatchSize, budgetMetricCalls: EVOLUTION_DEFAULTS.budgetMetricCalls, rngSeed: EVOLUTION_DEFAULTS.rngSeed, maxConsecutiveFailures: EVOLUTION_DEFAULTS.maxConsecutiveFailures,
} as const;

const LOADING = 'Loading the web task catalog…';

/** The picks of one side of the split, in shelf order. */
export function picksOf(assignments: Record<string, StoryAssignment>, order: readonly string[], side: 'train' | 'val'): TaskPick[] {
  return order.flatMap((storyId) => {
    const a = assignments[storyId];
    if (!a || (a.role !== side && a.role !== 'both')) return [];
    const parsed = parseSeeds(a.seeds);
    return 'seeds' in parsed ? parsed.seeds.map((seed) => ({ storyId, seed })) : [];
  });
}

/** The Evolve form's fields kept across reloads; `episodes` / `maxSteps` null = not typed; the
 * outer-loop options flat beside them (outer-loop-form.svelte.ts). */
export interface EvolveFormFields extends OuterLoopFields {
  assignments: Record<string, StoryAssignment>;
  trainRepeats: number;
  valRepeats: number;
  webTrain: string;
  webVal: string;
  episodes: number | null;
  maxSteps: number | null;
  minibatchSize: number;
  budgetMetricCalls: number;
  rngSeed: number;
  proposer: string;
  proposerInstruction: string;
  /** 'gepa' | 'opro'; absent in fields saved before the choice (= 'gepa'). */
  optimizer?: string;
  /** 'full' | 'no-trace'; absent in fields saved before the choice (= 'full'). */
  proposerInput?: string;
  /** The matched control's word edit sizes as typed ('' = the default spread); absent in older fields. */
  editSizes?: string;
  contextWindow: number | null;
  seedStrategy: string;
}

/** The fields of a fresh form. */
export const EVOLVE_FORM_FIELDS: EvolveFormFields = {
  assignments: {}, trainRepeats: EVOLVE_DEFAULTS.trainRepeats, valRepeats: EVOLVE_DEFAULTS.valRepeats, webTrain: '', webVal: '', episodes: null, maxSteps: null,
  minibatchSize: EVOLVE_DEFAULTS.minibatchSize, budgetMetricCalls: EVOLVE_DEFAULTS.budgetMetricCalls, rngSeed: EVOLVE_DEFAULTS.rngSeed, proposer: EVOLUTION_DEFAULTS.proposer, proposerInstruction: EVOLUTION_DEFAULTS.proposerInstruction, optimizer: EVOLUTION_DEFAULTS.optimizer, proposerInput: 'full', editSizes: '', contextWindow: null, seedStrategy: EVOLUTION_DEFAULTS.seedStrategy,
  ...OUTER_LOOP_FIELDS,
};

const ROLES: readonly SplitRole[] = ['none', 'train', 'val', 'both'];

export class EvolveForm {
  assignments = $state.raw<Record<string, StoryAssignment>>({});
  trainRepeats = $state<number>(EVOLVE_DEFAULTS.trainRepeats);
  valRepeats = $state<number>(EVOLVE_DEFAULTS.valRepeats);
  /** Web tasks as typed per side: ids and named sets ("WEB-ID-train", "web:shop/t1:1"). */
  webTrain = $state('');
  webVal = $state('');
  /** The web task catalog once loaded (null: not yet). */
  webCatalog = $state.raw<WebCatalog | null>(null);
  /** K and S as typed (null: the default for the tasks chosen). */
  private episodesTyped = $state<number | null>(null);
  private maxStepsTyped = $state<number | null>(null);
  get episodes(): number {
    return this.episodesTyped ?? (this.allWeb ? WEB_DEFAULTS.episodes : EVOLVE_DEFAULTS.episodes);
  }
  set episodes(value: number) {
    this.episodesTyped = value;
  }
  get maxSteps(): number {
    return this.maxStepsTyped ?? (this.allWeb ? WEB_DEFAULTS.maxSteps : EVOLVE_DEFAULTS.maxSteps);
  }
  set maxSteps(value: number) {
    this.maxStepsTyped = value;
  }
  minibatchSize = $state<number>(EVOLVE_DEFAULTS.minibatchSize);
  budgetMetricCalls = $state<number>(EVOLVE_DEFAULTS.budgetMetricCalls);
  rngSeed = $state<number>(EVOLVE_DEFAULTS.rngSeed);
  proposer = $state<ProposerMode>(EVOLUTION_DEFAULTS.proposer);
  /** The LLM proposer's instruction (GEPA's "keep game facts", or the general-rules ablation). */
  proposerInstruction = $state<ProposerInstruction>(EVOLUTION_DEFAULTS.proposerInstruction);
  /** Which outer loop writes the LLM proposals: GEPA's reflection on a parent, or OPRO's scored history. */
  optimizer = $state<Optimizer>(EVOLUTION_DEFAULTS.optimizer);
  /** What the LLM proposer sees besides the parent: the worst run's reflective dataset ('full'), or nothing
   * ('no-trace': the ablation that isolates reading the trajectory; GEPA optimizer only). */
  proposerInput = $state<ProposerInput>('full');
  /** The matched random control's word edit sizes as typed ("12, 40, 88"); '' = the default spread. */
  editSizes = $state('');
  /** The typed edit sizes parsed (the default spread when none are typed), or why they are not valid. */
  readonly editSizesParsed = $derived.by((): { sizes: number[]; source: string } | { error: string } => {
    if (!this.editSizes.trim()) return { sizes: [...DEFAULT_EDIT_SIZES], source: 'default' };
    try {
      return { sizes: parseEditSizes(this.editSizes), source: 'given' };
    } catch (error) {
      return { error: errorText(error).replace(/^--edit-sizes/, 'Edit sizes') };
    }
  });
  /** The meta-agent's context window, tokens; null = what the provider reports, else the table,
   * else 32,000 with a note. */
  contextWindow = $state<number | null>(null);
  /** The seed candidate's strategy section ('' = naive). */
  seedStrategy = $state<string>(EVOLUTION_DEFAULTS.seedStrategy);
  /** Selection, acceptance, merge, proposals per iteration, stop conditions. */
  readonly outer = new OuterLoopForm();

  /** The typed web tasks parsed per side (null: none typed, or the catalog is still loading). */
  readonly webTrainList = $derived.by(() => this.parseWeb(this.webTrain));
  readonly webValList = $derived.by(() => this.parseWeb(this.webVal));
  readonly train = $derived.by(() => [...picksOf(this.assignments, this.order(), 'train'), ...webPicksOf(this.webTrainList)]);
  readonly val = $derived.by(() => [...picksOf(this.assignments, this.order(), 'val'), ...webPicksOf(this.webValList)]);
  /** Every task chosen is a web task (K and S default to 3 × 10; the web guiding prompt). */
  readonly allWeb = $derived.by(() => this.train.length + this.val.length > 0 && [...this.train, ...this.val].every((p) => isWebTaskId(p.storyId)));
  /** Shelf id → why its seeds are not valid. */
  readonly seedProblems = $derived.by(() => {
    const out: Record<string, string> = {};
    for (const [id, a] of Object.entries(this.assignments)) {
      const parsed = a.role === 'none' ? null : parseSeeds(a.seeds);
      if (parsed && 'error' in parsed) out[id] = parsed.error;
    }
    return out;
  });
  readonly splitWarning = $derived.by(() => splitWarning(...([this.train, this.val].map((side) => side.filter((p) => !isWebTaskId(p.storyId))) as [TaskPick[], TaskPick[]]), this.gameOf));
  /** What must be fixed before a run can start (empty = ready). */
  readonly problems = $derived.by(() => {
    const out: string[] = [];
    for (const [side, list, text] of [['training', this.webTrainList, this.webTrain], ['validation', this.webValList, this.webVal]] as const) {
      if (list && 'error' in list) out.push(`Web ${side} tasks: ${list.error}`);
      else if (text.trim() && !this.webCatalog && !out.includes(LOADING)) out.push(LOADING);
    }
    if (this.train.length === 0) out.push('Choose at least one training game.');
    if (this.val.length === 0) out.push('Choose at least one validation game.');
    if (Object.keys(this.seedProblems).length > 0) out.push('Fix the seeds marked in the story list.');
    if (this.proposer === 'random-neutral' && 'error' in this.editSizesParsed) out.push(this.editSizesParsed.error);
    out.push(...this.outer.problems);
    if (this.train.length > 0 && this.val.length > 0) {
      const refusal = budgetRefusal(planBudget({
        budgetMetricCalls: this.budgetMetricCalls, minibatchSize: this.minibatchSize, trainTasks: uniquePicks(this.train).length,
        valTasks: uniquePicks(this.val).length, trainRepeats: this.trainRepeats, valRepeats: this.valRepeats, proposalsPerIteration: this.outer.proposalsPerIteration,
      }), this.budgetMetricCalls);
      if (refusal) out.push(refusal);
    }
    return out;
  });

  /**
   * @param gameOf the game (catalog id, else shelf id) of a shelf story
   * @param order the shelf's story ids in picker order (read reactively)
   */
  constructor(
    private readonly gameOf: (storyId: string) => string,
    private readonly order: () => readonly string[],
  ) {}

  /** The fields a reload keeps (form-memory.svelte.ts; K and S only when typed). */
  snapshot(): EvolveFormFields {
    return {
      assignments: this.assignments, trainRepeats: this.trainRepeats, valRepeats: this.valRepeats, webTrain: this.webTrain, webVal: this.webVal,
      episodes: this.episodesTyped, maxSteps: this.maxStepsTyped, minibatchSize: this.minibatchSize, budgetMetricCalls: this.budgetMetricCalls,
      rngSeed: this.rngSeed, proposer: this.proposer, proposerInstruction: this.proposerInstruction, optimizer: this.optimizer, proposerInput: this.proposerInput, editSizes: this.editSizes,
      contextWindow: this.contextWindow, seedStrategy: this.seedStrategy, ...this.outer.snapshot(),
    };
  }

  /** Fill the form with fields `snapshot` gave (merged over `EVOLVE_FORM_FIELDS`; a damaged
   * assignment or an unknown proposer keeps the default). */
  restore(saved: EvolveFormFields): void {
    const assignments: Record<string, StoryAssignment> = {};
    for (const [id, a] of Object.entries(saved.assignments)) {
      const value = a as unknown as Partial<StoryAssignment> | null;
      if (value && ROLES.includes(value.role as SplitRole) && typeof value.seeds === 'string') assignments[id] = { role: value.role as SplitRole, seeds: value.seeds };
    }
    this.assignments = assignments;
    this.trainRepeats = saved.trainRepeats;
    this.valRepeats = saved.valRepeats;
    this.webTrain = saved.webTrain;
    this.webVal = saved.webVal;
    this.episodesTyped = saved.episodes;
    this.maxStepsTyped = saved.maxSteps;
    this.minibatchSize = saved.minibatchSize;
    this.budgetMetricCalls = saved.budgetMetricCalls;
    this.rngSeed = saved.rngSeed;
    this.proposer = saved.proposer === 'random' || saved.proposer === 'random-neutral' ? saved.proposer : 'llm';
    this.proposerInput = saved.proposerInput === 'no-trace' ? 'no-trace' : 'full';
    this.editSizes = typeof saved.editSizes === 'string' ? saved.editSizes : '';
    this.proposerInstruction = saved.proposerInstruction === 'general-rules' ? 'general-rules' : 'gepa';
    this.optimizer = saved.optimizer === 'opro' ? 'opro' : 'gepa';
    this.contextWindow = saved.contextWindow;
    this.seedStrategy = saved.seedStrategy;
    this.outer.restore(saved);
  }

  /** The run config's proposer fields (evolve/interface.ts): the mode, with the matched control's
   * edit sizes, the LLM proposer's instruction, optimizer and input ('no-trace' only with the GEPA
   * optimizer, as the CLI requires). Call only when `problems` is empty (valid edit sizes). */
  proposerConfig(): Pick<EvolutionConfig, 'proposer' | 'proposerInstruction' | 'optimizer' | 'proposerInput' | 'editSizes'> {
    const sizes = this.editSizesParsed;
    return {
      proposer: this.proposer, proposerInstruction: this.proposerInstruction, ...(this.proposer === 'llm' ? { optimizer: this.optimizer } : {}),
      ...(this.proposer === 'llm' && this.optimizer === 'gepa' && this.proposerInput === 'no-trace' ? { proposerInput: 'no-trace' as const } : {}),
      ...(this.proposer === 'random-neutral' && 'sizes' in sizes ? { editSizes: sizes } : {}),
    };
  }

  private parseWeb(text: string): WebTaskList | { error: string } | null {
    return text.trim() && this.webCatalog ? parseWebTaskList(text, this.webCatalog) : null;
  }

  assignment(storyId: string): StoryAssignment {
    return this.assignments[storyId] ?? { role: 'none', seeds: '0' };
  }

  setRole(storyId: string, role: SplitRole): void {
    this.assignments = { ...this.assignments, [storyId]: { ...this.assignment(storyId), role } };
  }

  setSeeds(storyId: string, seeds: string): void {
    this.assignments = { ...this.assignments, [storyId]: { ...this.assignment(storyId), seeds } };
  }

  /** Fill the form from an earlier run's config (tasks whose story id is a shelf id). */
  fillFrom(config: EvolutionConfig, storyOfTask: (taskId: string) => { storyId: string; seed: number } | null): void {
    const next: Record<string, StoryAssignment> = {};
    const web = { train: [] as string[], val: [] as string[] };
    const add = (taskId: string, side: 'train' | 'val') => {
      if (isWebTaskId(taskId)) return void web[side].push(taskId);
      const t = storyOfTask(taskId);
      if (!t) return;
      const a = next[t.storyId] ?? { role: 'none' as SplitRole, seeds: '' };
      const role: SplitRole = a.role === 'none' || a.role === side ? side : 'both';
      const seeds = [...a.seeds.split(/[\s,]+/).filter(Boolean), String(t.seed)].filter((x, i, all) => all.indexOf(x) === i).join(', ');
      next[t.storyId] = { role, seeds };
    };
    config.train.forEach((t) => add(t.id, 'train'));
    config.val.forEach((t) => add(t.id, 'val'));
    this.assignments = next;
    this.webTrain = web.train.join(', ');
    this.webVal = web.val.join(', ');
    Object.assign(this, {
      trainRepeats: config.trainRepeats ?? config.repeats, valRepeats: config.valRepeats ?? config.repeats, episodes: config.episodes, maxSteps: config.maxSteps, minibatchSize: config.minibatchSize,
      budgetMetricCalls: config.budgetMetricCalls, rngSeed: config.rngSeed, proposer: config.proposer, seedStrategy: config.seedStrategy,
      proposerInstruction: config.proposerInstruction ?? 'general-rules', optimizer: config.optimizer ?? 'gepa', contextWindow: config.contextWindow,
      proposerInput: config.proposerInput ?? 'full', editSizes: config.editSizes && config.editSizes.source !== 'default' ? config.editSizes.sizes.join(', ') : '',
    });
    this.outer.fillFrom(config);
  }
}

/** The picks of a parsed web list (none while it is empty, loading or wrong). */
function webPicksOf(list: WebTaskList | { error: string } | null): TaskPick[] {
  return list && 'sets' in list ? webListIds(list).map(webPick) : [];
}
