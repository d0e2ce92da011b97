/**
 * The Evolve view's setup form: which library stories are training or validation games (per
 * story: none / train / validation / both, and its seeds), repeats for minibatch and validation
 * sessions, K, S, minibatch size b, the budget in metric calls (1 metric call = 1 candidate
 * evaluated on one task, whatever its repeats), the RNG seed and the proposer (LLM, or the
 * random-mutation control). Derived: the task lists, the split warning (a game in both lists) and
 * what keeps the form from starting — including a budget that cannot pay for the seed's
 * validation plus one full iteration. Defaults follow method.md (K = 6, S = 50, b = 1; the
 * reference repeats minibatches once and validation 5 times, we default to 1 to keep first runs
 * cheap). No I/O.
 */
import type { EvolutionConfig, ProposerMode } from '../../evolve/interface.ts';
import type { ProposerInstruction } from '../../evolve/strategies/llm-proposer.ts';
import { budgetRefusal, planBudget } from '../../evolve/strategies/budget.ts';
import { parseSeeds, splitWarning, uniquePicks, type TaskPick } from '../shared/format/task-picks.ts';

export type SplitRole = 'none' | 'train' | 'val' | 'both';

export interface StoryAssignment {
  role: SplitRole;
  /** Seeds as typed ("0, 1"). */
  seeds: string;
}

export const EVOLVE_DEFAULTS = {
  trainRepeats: 1, valRepeats: 1, episodes: 6, maxSteps: 50, minibatchSize: 1, budgetMetricCalls: 50, rngSeed: 0, maxConsecutiveFailures: 5,
} as const;

/** The picks of one side of the split, in library order. */
export function picksOf(assignments: Record<string, StoryAssignment>, order: readonly string[], side: 'train' | 'val'): TaskPick[] {
  return order.flatMap((storyId) => {
    const a = assignments[storyId];
    if (!a || (a.role !== side && a.role !== 'both')) return [];
    const parsed = parseSeeds(a.seeds);
    return 'seeds' in parsed ? parsed.seeds.map((seed) => ({ storyId, seed })) : [];
  });
}

export class EvolveForm {
  assignments = $state.raw<Record<string, StoryAssignment>>({});
  trainRepeats = $state<number>(EVOLVE_DEFAULTS.trainRepeats);
  valRepeats = $state<number>(EVOLVE_DEFAULTS.valRepeats);
  episodes = $state<number>(EVOLVE_DEFAULTS.episodes);
  maxSteps = $state<number>(EVOLVE_DEFAULTS.maxSteps);
  minibatchSize = $state<number>(EVOLVE_DEFAULTS.minibatchSize);
  budgetMetricCalls = $state<number>(EVOLVE_DEFAULTS.budgetMetricCalls);
  rngSeed = $state<number>(EVOLVE_DEFAULTS.rngSeed);
  proposer = $state<ProposerMode>('llm');
  /** The LLM proposer's instruction (GEPA's "keep game facts", or the general-rules ablation). */
  proposerInstruction = $state<ProposerInstruction>('gepa');
  /** The meta-agent's context window, tokens; null = what the provider reports, else the table,
   * else 32,000 with a note. */
  contextWindow = $state<number | null>(null);
  /** The seed candidate's strategy section ('' = naive). */
  seedStrategy = $state('');

  readonly train = $derived.by(() => picksOf(this.assignments, this.order(), 'train'));
  readonly val = $derived.by(() => picksOf(this.assignments, this.order(), 'val'));
  /** Library id → why its seeds are not valid. */
  readonly seedProblems = $derived.by(() => {
    const out: Record<string, string> = {};
    for (const [id, a] of Object.entries(this.assignments)) {
      const parsed = a.role === 'none' ? null : parseSeeds(a.seeds);
      if (parsed && 'error' in parsed) out[id] = parsed.error;
    }
    return out;
  });
  readonly splitWarning = $derived.by(() => splitWarning(this.train, this.val, this.gameOf));
  /** What must be fixed before a run can start (empty = ready). */
  readonly problems = $derived.by(() => {
    const out: string[] = [];
    if (this.train.length === 0) out.push('Choose at least one training game.');
    if (this.val.length === 0) out.push('Choose at least one validation game.');
    if (Object.keys(this.seedProblems).length > 0) out.push('Fix the seeds marked in the story list.');
    if (this.train.length > 0 && this.val.length > 0) {
      const refusal = budgetRefusal(planBudget({
        budgetMetricCalls: this.budgetMetricCalls, minibatchSize: this.minibatchSize, trainTasks: uniquePicks(this.train).length,
        valTasks: uniquePicks(this.val).length, trainRepeats: this.trainRepeats, valRepeats: this.valRepeats,
      }), this.budgetMetricCalls);
      if (refusal) out.push(refusal);
    }
    return out;
  });

  /**
   * @param gameOf the game (catalog id, else library id) of a library story
   * @param order the library's story ids in picker order (read reactively)
   */
  constructor(
    private readonly gameOf: (storyId: string) => string,
    private readonly order: () => readonly string[],
  ) {}

  assignment(storyId: string): StoryAssignment {
    return this.assignments[storyId] ?? { role: 'none', seeds: '0' };
  }

  setRole(storyId: string, role: SplitRole): void {
    this.assignments = { ...this.assignments, [storyId]: { ...this.assignment(storyId), role } };
  }

  setSeeds(storyId: string, seeds: string): void {
    this.assignments = { ...this.assignments, [storyId]: { ...this.assignment(storyId), seeds } };
  }

  /** Fill the form from an earlier run's config (tasks whose story id is a library id). */
  fillFrom(config: EvolutionConfig, storyOfTask: (taskId: string) => { storyId: string; seed: number } | null): void {
    const next: Record<string, StoryAssignment> = {};
    const add = (taskId: string, side: 'train' | 'val') => {
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
    Object.assign(this, {
      trainRepeats: config.trainRepeats ?? config.repeats, valRepeats: config.valRepeats ?? config.repeats, episodes: config.episodes, maxSteps: config.maxSteps, minibatchSize: config.minibatchSize,
      budgetMetricCalls: config.budgetMetricCalls, rngSeed: config.rngSeed, proposer: config.proposer, seedStrategy: config.seedStrategy,
      proposerInstruction: config.proposerInstruction ?? 'general-rules', contextWindow: config.contextWindow,
    });
  }
}
