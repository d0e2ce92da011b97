/**
 * The experiment the Experiments view would run, as chosen and edited: a built-in or the user's
 * JSON file (its text kept as loaded or edited, checked by src/experiment/schema.ts: the spec, or
 * one problem per bad field), and the overrides (K, S, repeats, budget, minibatch, sessions per
 * minibatch / validation task, replicates per evolution; task sets as typed). No I/O.
 */
import { BUILTIN_EXPERIMENTS, type ExperimentOverrides } from '../../experiment/builtins.ts';
import type { ExperimentSpec } from '../../experiment/interface.ts';
import { ExperimentSpecError, validateExperiment } from '../../experiment/schema.ts';
import { errorText } from '../shared/state/error-text.ts';

export type ExperimentSource = { kind: 'builtin'; name: string } | { kind: 'file'; fileName: string };

/** The overrides the view edits (null = keep the experiment's value). */
export type EditableOverrides = Record<'episodes' | 'steps' | 'repeats' | 'budget' | 'minibatch' | 'trainRepeats' | 'valRepeats' | 'replicates', number | null>;
const NO_OVERRIDES: EditableOverrides = { episodes: null, steps: null, repeats: null, budget: null, minibatch: null, trainRepeats: null, valRepeats: null, replicates: null };

export class ExperimentSetupState {
  readonly builtins = Object.values(BUILTIN_EXPERIMENTS);
  source = $state<ExperimentSource>({ kind: 'builtin', name: 'paper-jericho' });
  fileText = $state('');
  fileSpec = $state.raw<ExperimentSpec | null>(null);
  fileProblems = $state.raw<string[]>([]);
  overrides = $state<EditableOverrides>({ ...NO_OVERRIDES });
  /** Task set name → its tasks as typed (comma-separated); absent or empty = the experiment's. */
  taskSetText = $state<Record<string, string>>({});
  /** The experiment chosen, before overrides (null: a file with problems). */
  readonly base: ExperimentSpec | null = $derived.by(() => (this.source.kind === 'builtin' ? (BUILTIN_EXPERIMENTS[this.source.name] ?? null) : this.fileSpec));

  chooseBuiltin(name: string): void {
    this.source = { kind: 'builtin', name };
    this.resetEdits();
  }

  /** Take the text of file `fileName` as the experiment, and check it. */
  load(text: string, fileName: string): void {
    this.fileText = text;
    this.source = { kind: 'file', fileName };
    this.resetEdits();
    this.checkFile();
  }

  /** Check the file's text again (after editing it). */
  checkFile(): void {
    let json: unknown;
    try {
      json = JSON.parse(this.fileText);
    } catch (error) {
      this.fileSpec = null;
      this.fileProblems = [`not JSON: ${errorText(error)}`];
      return;
    }
    try {
      this.fileSpec = validateExperiment(json);
      this.fileProblems = [];
    } catch (error) {
      this.fileSpec = null;
      this.fileProblems = error instanceof ExperimentSpecError ? error.problems : [errorText(error)];
    }
  }

  /** The edits as core overrides for `base` (task sets it does not have are ignored). */
  overridesOf(base: ExperimentSpec): ExperimentOverrides {
    const o: ExperimentOverrides = {};
    for (const [key, value] of Object.entries(this.overrides)) if (value !== null) (o as Record<string, number>)[key] = value;
    const typed = Object.entries(this.taskSetText).filter(([name, text]) => base.taskSets[name] && text.trim() !== '');
    if (typed.length) o.taskSets = Object.fromEntries(typed.map(([name, text]) => [name, text.split(',').map((t) => t.trim()).filter(Boolean)]));
    return o;
  }

  private resetEdits(): void {
    this.overrides = { ...NO_OVERRIDES };
    this.taskSetText = {};
  }
}
