/**
 * The Learn view's workshop presets (a live demo must be cheap and fast): a teaching game (The
 * Lever Room first, games/README.md) with its catalog seed, K = 3 episodes of S = 15 steps. Applied
 * when workshop mode turns on, once the Learn form is ready, never while a session runs (or while
 * the form shows an unfinished session's settings) and never over what the user changed
 * afterwards. `workshopPreset` is pure.
 */
import type { ShelfEntry } from '../shared/state/shelf.ts';
import type { LearnForm } from '../shared/format/learn-form.ts';

export const WORKSHOP_EPISODES = 3;
export const WORKSHOP_MAX_STEPS = 15;
/** Teaching games in order of preference (the catalog tags them "teaching"). */
export const PREFERRED_TEACHING_GAMES = ['lever-room', 'vault'] as const;

/** The preset form fields for a story shelf: the preferred teaching game present (else any), its
 * seed, K and S; without a teaching game only K and S. */
export function workshopPreset(entries: readonly ShelfEntry[]): Partial<LearnForm> {
  const teaching = entries.filter((e) => e.catalog?.tags.includes('teaching'));
  const game = PREFERRED_TEACHING_GAMES.map((id) => teaching.find((e) => e.id === id)).find((e) => e !== undefined) ?? teaching[0];
  const counts = { episodes: WORKSHOP_EPISODES, maxSteps: WORKSHOP_MAX_STEPS };
  return game ? { storyId: game.id, seed: game.catalog?.defaultSeed ?? 0, seedRandom: false, ...counts } : counts;
}

/** What the applier needs of the Learn setup. */
export interface PresetTarget {
  init(): Promise<void>;
  readonly shelf: { readonly entries: readonly ShelfEntry[] };
  change(patch: Partial<LearnForm>): void;
  /** True when the form was restored from the user's last settings (form-memory.svelte.ts). */
  readonly restoredForm?: boolean;
  /** True when a field changed after the form was ready (the user typed, a share link applied). */
  readonly changedAfterLoad?: boolean;
  /** False while the Learn view's code has not loaded (it loads when the view is first shown): a
   * preset due then waits for `apply` (the view's first showing) instead of loading it. */
  readonly loaded?: boolean;
}

/** Applies the preset once per "workshop mode turned on", when the Learn form is ready. */
export class WorkshopPresets {
  private pending = false;
  /** The first `modeChanged` is the page load (workshop on from the URL or the store): a form the
   * user left in an earlier visit, or changed since this load, is kept then, not replaced by the
   * preset. */
  private atLoad = true;
  /** The due preset is the page load's (kept until it is applied, also when that waits for the
   * Learn view's code). */
  private pendingAtLoad = false;

  constructor(
    private readonly target: PresetTarget,
    /** True while the form must not change (a session runs, or an unfinished one is shown). */
    private readonly running: () => boolean,
  ) {}

  /** Workshop mode changed: on → a preset is due (applied now when the form is ready). */
  modeChanged(on: boolean): Promise<void> {
    this.pending = on;
    this.pendingAtLoad = on && this.atLoad;
    this.atLoad = false;
    return on && this.target.loaded !== false ? this.apply() : Promise.resolve();
  }

  /** Apply a due preset once the form is ready (call when the Learn view is shown). */
  async apply(): Promise<void> {
    if (!this.pending) return;
    await this.target.init();
    if (!this.pending || this.running()) return;
    const atLoad = this.pendingAtLoad;
    this.pending = false;
    this.pendingAtLoad = false;
    if (atLoad && (this.target.restoredForm || this.target.changedAfterLoad)) return;
    this.target.change(workshopPreset(this.target.shelf.entries));
  }
}
