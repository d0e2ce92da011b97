/**
 * What the Evolve and Evaluate setups share: their props (the form, the shelf's stories, the
 * estimate, the caps from Settings, Start) and the rules of their common number fields.
 */
import type { NumberRule } from './number-rule.ts';

/** A shelf story as a setup's task table lists it (max score in score points; null = unknown). */
export interface SetupStory {
  id: string;
  title: string;
  game: string;
  maxScore: number | null;
}

/** Spending caps from Settings: USD and tokens (null = none). */
export interface SetupCaps {
  maxUsd: number | null;
  maxTokens: number | null;
}

/** Props of a run view's setup, for its form `F` and its cost estimate `E`. */
export interface RunSetupProps<F, E> {
  form: F;
  stories: readonly SetupStory[];
  estimate: E | null;
  caps: SetupCaps;
  /** Sessions run at once (Settings). */
  concurrency: number;
  disabled: boolean;
  onCaps: (patch: Partial<SetupCaps>) => void;
  onStart: () => void;
}

/** Repeats, K, S and the like: a whole number from 1 to 10,000. */
export const POSITIVE_RULE: NumberRule = { min: 1, max: 10_000, integer: true, nullable: false };
/** The meta-agent's context window in tokens (empty = the default). */
export const WINDOW_RULE: NumberRule = { min: 1000, integer: true, nullable: true };
