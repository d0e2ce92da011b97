/**
 * A view's one error slot: the text of the last thrown error (or of a problem the view found
 * itself), worded by error-text.ts with every API key scrubbed, until it is dismissed or replaced.
 * Every view state composes one (`errors`) and runs its fallible work through `run` / `attempt`
 * instead of catching and wording errors itself. Must not import a view.
 */
import { errorText } from './error-text.ts';

/** How one guarded task shows its failure. */
export interface SlotOptions {
  /** Empty the slot before the task starts (a new attempt replaces the last failure). */
  clear?: boolean;
  /** The shown text around the worded error (e.g. the file's name before it). */
  framed?: (text: string) => string;
}

export class ErrorSlot {
  /** The text shown; null when the slot is empty. */
  message = $state<string | null>(null);

  /** @param wordOf the text of a thrown value, key scrubbed (default errorText; a view with
   * Settings passes `settings.messageOf`, which also scrubs the key not yet registered) */
  constructor(private readonly wordOf: (error: unknown) => string = errorText) {}

  /**
   * Run `task`; when it throws, show its worded text (the error is not rethrown). A task that
   * finishes leaves the slot as it is, so a concurrent task's failure stays shown; of two failures
   * the later one is shown.
   * @returns true when the task finished, false when it threw
   */
  async attempt(task: () => unknown, options: SlotOptions = {}): Promise<boolean> {
    return (await this.settle(task, options)).ok;
  }

  /** `attempt` that hands back what `task` returned.
   * @returns the task's value; undefined when it threw (its text shown) */
  async run<T>(task: () => Promise<T> | T, options: SlotOptions = {}): Promise<T | undefined> {
    const outcome = await this.settle(task, options);
    return outcome.ok ? outcome.value : undefined;
  }

  /** Show thrown value `error` (worded, key scrubbed; `framed` around it) — for a caller whose
   * own control flow must go on after the failure (a run's lifecycle). */
  showError(error: unknown, framed: (text: string) => string = (text) => text): void {
    this.message = framed(this.wordOf(error));
  }

  /** Empty the slot. */
  dismiss(): void {
    this.message = null;
  }

  private async settle<T>(task: () => Promise<T> | T, options: SlotOptions): Promise<{ ok: true; value: T } | { ok: false }> {
    if (options.clear) this.message = null;
    try {
      return { ok: true, value: await task() };
    } catch (error) {
      this.showError(error, options.framed);
      return { ok: false };
    }
  }
}
