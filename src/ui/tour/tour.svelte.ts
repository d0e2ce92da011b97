/**
 * The guided tour's state: open or closed, and which step (tour-steps.ts). On the first visit it
 * opens by itself; "seen" is written to the store's settings only once it has been shown: closed,
 * finished, or on screen while the user worked on the page beside it (`usedBeside`). So a page
 * reloaded while it loads or shows — e.g. a cold dev server re-optimising its dependencies — shows
 * it again, and a later visit after that does not. The
 * nav's "Tour" button re-opens it. A store failure only means it may show again. While something
 * else asks for the first look (a share link's preview, `waitFor`), the first-visit tour waits and
 * opens when `release()` is called. Once the user chose the simulated model, the steps say it plays.
 */
import type { Store } from '../../store/interface.ts';
import { tourSteps, type TourStep } from './tour-steps.ts';

/** Store setting: true once the tour has been shown (closed, finished, or used beside). */
export const TOUR_SEEN_KEY = 'tourSeen';

export class TourState {
  /** The steps, naming the simulated model as the player once the user chose it (reactive). */
  get steps(): readonly TourStep[] {
    return tourSteps(this.simulatedChosen());
  }
  open = $state(false);
  /** Index of the step shown. */
  index = $state(0);
  /** True once the saved "seen" flag has been read (or could not be). */
  ready = $state(false);
  readonly step = $derived(this.steps[this.index] ?? this.steps[0]!);
  readonly isFirst = $derived(this.index === 0);
  readonly isLast = $derived(this.index === this.steps.length - 1);
  private store: Store | null = null;
  /** The first-visit tour is due but waits (see `init`'s `waitFor`). */
  private due = false;

  /** @param simulatedChosen true once the user chose the simulated model (Settings' provider; read
   *   reactively): the tour then says the simulated model plays, not a language model */
  constructor(private readonly simulatedChosen: () => boolean = () => false) {}

  /**
   * Read the "seen" flag; open the tour on the first visit (remembered when it is closed) — unless
   * `waitFor()` is true then (e.g. a share preview is showing): it opens at `release()` instead.
   */
  async init(store: Store, waitFor: () => boolean = () => false): Promise<void> {
    this.store = store;
    const seen = await store.getSetting(TOUR_SEEN_KEY).catch(() => undefined);
    if (seen !== true) {
      if (waitFor()) this.due = true;
      else this.firstShow();
    }
    this.ready = true;
  }

  /** What the tour waited for is done: open the first-visit tour if it is due. */
  release(): void {
    if (!this.due) return;
    this.due = false;
    this.firstShow();
  }

  private firstShow(): void {
    this.show(0);
  }

  /** Open the tour at step `index` (the nav's "Tour" button: from the start). */
  show(index = 0): void {
    this.index = Math.max(0, Math.min(this.steps.length - 1, index));
    this.open = true;
  }

  next(): void {
    if (!this.isLast) this.index++;
  }

  back(): void {
    if (!this.isFirst) this.index--;
  }

  /** The user worked on the page beside the shown tour (TourPanel's `onUsedBeside`): it is "seen"
   * (it stays open). */
  usedBeside(): void {
    if (this.open) this.markSeen();
  }

  private markSeen(): void {
    if (this.store) void this.store.setSetting(TOUR_SEEN_KEY, true).catch(() => undefined);
  }

  /** Close it (Close, Esc, Done or "Watch a replay"): from now on it is "seen". */
  close(): void {
    this.open = false;
    this.markSeen();
  }
}
