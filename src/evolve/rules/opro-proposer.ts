/**
 * The OPRO-style proposer, a baseline outer loop (Yang et al., "Large Language Models as
 * Optimizers", ICLR 2024): instead of GEPA's reflection on one parent, the proposer reads the
 * optimisation trajectory — earlier solutions with their scores, sorted in ascending order so the
 * best come last (the paper's Sec. 2.2, "meta-prompt design"; ascending order is its default and
 * the best of the orders its Sec. 5.3 ablation compares), at most the 20 best (its Sec. 5.1 setup)
 * — plus an exemplar of the task, and is asked for a new solution that scores higher than all of
 * them. Here a solution is a meta-prompt's strategy section, its score the mean validation W-AUC.
 * Budget, pool, parent selection and acceptance stay the loop's (evolution-runner.ts). Our own
 * prompt text. Imports no UI.
 */
import type { ChatMessage } from '../../llm/interface.ts';
import type { EnvironmentKind } from '../../web/interface.ts';
import { fixedPartsForReference, playerSubject } from './llm-proposer.ts';

/** Which outer loop writes the proposals: GEPA's reflective mutation (default) or OPRO. */
export type Optimizer = (typeof OPTIMIZERS)[number];
export const OPTIMIZERS = ['gepa', 'opro'] as const satisfies readonly string[];

/** Most scored solutions shown to the proposer (the paper keeps the 20 best). */
export const OPRO_MAX_HISTORY = 20;

/** One earlier solution and its score (mean validation W-AUC over the run's validation tasks, in [0, 1]). */
export interface ScoredStrategy {
  candidateId: string;
  strategy: string;
  score: number;
}

/** The pool's candidates that have a validation score on every task (seed and accepted ones). */
interface PoolCandidate {
  id: string;
  strategy: string;
  status: string;
  valScores: Record<string, number>;
}

/**
 * The optimisation trajectory: the pool's scored candidates (seed and accepted), each with its mean
 * validation W-AUC over `valIds`, the `limit` best kept, in ascending order of score (ties: the
 * older candidate first, so the newest of a tie is nearest the end).
 */
export function scoredHistory(candidates: readonly PoolCandidate[], valIds: readonly string[], limit = OPRO_MAX_HISTORY): ScoredStrategy[] {
  const scored = candidates
    .map((c, order) => ({ c, order }))
    .filter(({ c }) => (c.status === 'seed' || c.status === 'accepted') && valIds.length > 0 && valIds.every((t) => c.valScores[t] !== undefined))
    .map(({ c, order }) => ({ order, item: { candidateId: c.id, strategy: c.strategy, score: valIds.reduce((s, t) => s + c.valScores[t]!, 0) / valIds.length } }));
  scored.sort((a, b) => a.item.score - b.item.score || a.order - b.order);
  return scored.slice(Math.max(0, scored.length - limit)).map((s) => s.item);
}

function oproSystem(kind: EnvironmentKind): string {
  return `You are an optimiser. The solutions you write are STRATEGY SECTIONS of a meta-agent's system prompt. The meta-agent coaches a language model that ${playerSubject(kind)} (episodes): after each episode it reads the log and writes the guiding prompt for the next episode. Its system prompt is a fixed header, the strategy section, and a fixed footer; only the strategy section changes.

${fixedPartsForReference(kind)}
A strategy section's score is how fast the player's scores rise over the episodes with it (a weighted area under the score curve, from 0 to 1; higher is better). You will see earlier strategy sections with their scores, sorted by score from lowest to highest, and one session played with a strategy as an example of the task.

Write a new strategy section that is different from all the earlier ones and scores higher than every one of them. Answer with your reasoning, then the complete new strategy section inside <strategy>…</strategy>.`;
}

/** How a solution is shown in the trajectory (an empty strategy is the naive meta-agent). */
function solutionText(s: ScoredStrategy): string {
  const text = s.strategy.trim() === '' ? '(empty: no strategy, the naive meta-agent)' : s.strategy.trim();
  return `<solution score="${s.score.toFixed(3)}">\n${text}\n</solution>`;
}

/**
 * The OPRO meta-prompt as chat messages: system = the task and the instruction; user = the scored
 * trajectory (ascending, best last) then the exemplar (a reflective dataset, reflective-dataset.ts).
 * @param history from `scoredHistory` (already sorted and cut)
 */
export function buildOproMessages(history: readonly ScoredStrategy[], dataset: string, kind: EnvironmentKind = 'zmachine'): ChatMessage[] {
  const trajectory = history.length > 0 ? history.map(solutionText).join('\n\n') : '(none yet)';
  return [
    { role: 'system', content: oproSystem(kind) },
    {
      role: 'user',
      content: `Earlier strategy sections and their scores, from lowest to highest:\n\n${trajectory}\n\nAn example of the task — a session played with one of them, its worst run:\n${dataset}\n\nWrite a new strategy section that scores higher than all of the above.`,
    },
  ];
}
