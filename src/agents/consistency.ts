/**
 * The one consistency checker of recorded play, shared by every import (trajectory, session,
 * evolution and evaluation files, through their zod schemas' `superRefine`) and by resume
 * (src/ttl/session-integrity.ts checks each stored episode with `episodeStepsProblem`): a record
 * whose numbers contradict each other is refused with the first inconsistent field, before
 * anything is stored. Pure.
 */
import type { z } from 'zod';

/** The first inconsistency of a record: where (a field path, as zod paths are) and what is wrong. */
export interface Inconsistency {
  /** Field path inside the checked object, e.g. `['steps', 1, 'index']`. */
  path: (string | number)[];
  message: string;
}

/** One ended episode's recorded steps and outcome (a trajectory, or a session's episode). */
export interface EpisodeSteps {
  steps: readonly { index: number; reward: number; score: number | null; parseStatus: string; error: { kind: string } | null }[];
  startScore: number | null;
  finalScore: number | null;
  termination: string;
  maxSteps: number;
  /** A web task: judged once more at its step limit, so its final score may exceed the last step's. */
  web: boolean;
}

/**
 * The first inconsistency of an ended episode, or null: step indices 1, 2, 3 … (none repeated or
 * skipped), each reward the score change it records, at most `maxSteps` steps, as many steps as
 * the termination implies (`step_limit` ⇒ exactly `maxSteps`; `error` / interpreter faults ⇒ the
 * last step shows the fault), and the last step's score equal to the final score.
 * `step` is the 1-based step the problem is at (null: the episode as a whole).
 */
export function episodeStepsProblem(e: EpisodeSteps): { step: number | null; field: string; problem: string } | null {
  const steps = e.steps;
  for (const [i, s] of steps.entries()) {
    if (s.index !== i + 1) return { step: i + 1, field: `steps.${i}.index`, problem: `it is step ${s.index} where step ${i + 1} should be (step indices ${steps.map((x) => x.index).join(', ')})` };
  }
  let previous = e.startScore;
  for (const [i, s] of steps.entries()) {
    if (s.score !== null && previous !== null && s.reward !== s.score - previous) return { step: s.index, field: `steps.${i}.reward`, problem: `its reward ${s.reward} does not match the score going from ${previous} to ${s.score}` };
    previous = s.score ?? previous;
  }
  const last = steps.at(-1);
  const n = steps.length;
  if (n > e.maxSteps) return { step: null, field: 'steps', problem: `it has ${n} steps, more than the session's limit of ${e.maxSteps}` };
  if (e.termination === 'step_limit' && n !== e.maxSteps) return { step: n + 1, field: 'steps', problem: `it is missing: the episode ended at the step limit of ${e.maxSteps} but ${n} steps are stored` };
  if (e.termination === 'error' && last?.parseStatus !== 'llm_error') return { step: n + 1, field: 'steps', problem: 'it is missing: the episode ended with a provider fault that no stored step shows' };
  if ((e.termination === 'interpreter_error' || e.termination === 'interpreter_hang') && last?.error?.kind !== 'interpreter') {
    return { step: n + 1, field: 'steps', problem: 'it is missing: the episode ended with an interpreter fault that no stored step shows' };
  }
  const finalScore = last ? last.score : e.startScore;
  const judgedAtLimit = e.termination === 'step_limit' && e.web;
  if (finalScore !== e.finalScore && !judgedAtLimit) return { step: last?.index ?? null, field: 'finalScore', problem: `the last stored score ${finalScore} is not the episode's final score ${e.finalScore}` };
  return null;
}

/** `a.b.3` → `['a', 'b', 3]`. */
export const fieldPath = (field: string): (string | number)[] => field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));

/** Report an inconsistency as a zod issue (so the import's message names the field). */
export function addInconsistency(ctx: z.RefinementCtx, found: Inconsistency | null): void {
  if (found) ctx.addIssue({ code: 'custom', path: found.path, message: found.message });
}
