/**
 * What the Evolve and Evaluate views' states share around their run driver (run-driver.svelte.ts):
 * the stored runs list, opening the views (story shelf, token counter, the run last shown reopened
 * after a reload), resume / stop / open / delete, and the messages shown (notice; the error slot,
 * error-slot.svelte.ts, that shows every thrown error with the key scrubbed). A view's state extends `RunViewState` with
 * its form, config and estimate. Must not import a view.
 */
import type { EvolutionTask } from '../../../evolve/interface.ts';
import { estimateTokenCounter, type TokenCounter } from '../../../llm/token-count.ts';
import type { Role } from '../../../llm/interface.ts';
import type { RunKind, RunSummary } from '../../../store/interface.ts';
import { gameIdOf } from '../format/task-picks.ts';
import type { RunDriver } from './run-driver.svelte.ts';
import type { RunServices } from './run-services.ts';
import { ErrorSlot } from './error-slot.svelte.ts';

export { browserSchedule } from './retry-countdown.svelte.ts';

/** A new run's id: `<prefix>-<base-36 time>-<4 random base-36 digits>`. */
export function randomRunId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** A task of a run, resolved against the story shelf (story md5, max score); `storyId` is the game
 * (catalog id, else shelf id). */
export type ScoredTask = Pick<EvolutionTask, 'id' | 'storyId' | 'title' | 'md5' | 'seed' | 'maxScore' | 'task'>;

export abstract class RunViewState<S extends { id: string; status: string; config: C }, C> {
  abstract readonly driver: RunDriver<S, C>;
  /** Stored runs of this kind, newest first. */
  runList = $state.raw<RunSummary[]>([]);
  /** The estimate's token counter (the cheap one: no tokenizer fetch for an estimate). */
  countTokens = $state.raw<TokenCounter | null>(null);
  ready = $state(false);
  /** A confirmation or note to show (e.g. "Saved to the library", a context-window guess). */
  notice = $state<string | null>(null);
  /** The view's error slot (thrown errors worded by `runs.messageOf`, key scrubbed). */
  readonly errors = new ErrorSlot((error) => this.runs.messageOf(error));
  /** The error slot's text: a thrown error's (key scrubbed) or a problem found before a run; null when none. */
  get error(): string | null {
    return this.errors.message;
  }
  set error(message: string | null) {
    this.errors.message = message;
  }

  /** The store setting that keeps the id of the run last shown. */
  protected abstract readonly lastRunKey: string;
  protected abstract readonly runKind: RunKind;
  /** Shown when deleting a run that is running. */
  protected abstract readonly runningMessage: string;
  private starting: Promise<void> | null = null;

  constructor(
    protected readonly runs: RunServices,
    private readonly newRunId: () => string,
  ) {}

  /** The game of a shelf story (catalog id, else shelf id). */
  gameOf(storyId: string): string {
    const entry = this.runs.shelf.find(storyId);
    return entry ? gameIdOf(entry) : storyId;
  }

  /** Open the story shelf, the token counter and the runs list; reopen the run last shown. Idempotent. */
  init(): Promise<void> {
    this.starting ??= this.open();
    return this.starting;
  }

  /** After the story shelf opened, before the runs list is read (e.g. the catalog). */
  protected async opened(): Promise<void> {}
  /** Forget what the view shows of the current run beyond the driver (e.g. a selected candidate). */
  protected forgetShown(): void {}
  /** After a run here ended or stopped (e.g. record it in the meta-prompt Library). */
  protected async afterRun(): Promise<void> {}

  private async open(): Promise<void> {
    await this.errors.run(async () => {
      await this.runs.shelf.init();
      await this.opened();
      this.countTokens = estimateTokenCounter();
      await this.refreshRuns();
      const last = await this.runs.store.getSetting(this.lastRunKey).catch(() => undefined);
      if (typeof last === 'string' && this.runList.some((r) => r.id === last)) await this.driver.show(last);
    });
    this.ready = true;
  }

  async refreshRuns(): Promise<void> {
    await this.errors.run(async () => {
      this.runList = await this.runs.store.listRuns(this.runKind);
    });
  }

  /** Start a new run: the first of `problems` or a missing setting for `roles` is shown instead;
   * so is an error thrown by `buildConfig`. */
  protected async launch(problems: readonly string[], roles: readonly Role[], buildConfig: () => Promise<C>): Promise<void> {
    this.notice = null;
    this.error = problems[0] ?? this.runs.settingsProblem(roles);
    if (this.error !== null || this.driver.driving) return;
    let config: C;
    try {
      config = await buildConfig();
    } catch (error) {
      this.errors.showError(error);
      return;
    }
    const id = this.newRunId();
    this.forgetShown();
    await this.runs.store.setSetting(this.lastRunKey, id).catch(() => undefined);
    await this.driver.run(id, config);
    await this.afterRun();
    await this.refreshRuns();
  }

  /** Resume the run shown; `fromLastGood` after a damage report (keep the intact records). */
  async resume(fromLastGood = false): Promise<void> {
    this.notice = null;
    this.error = null;
    await this.driver.resume(fromLastGood);
    await this.afterRun();
    await this.refreshRuns();
  }

  stop(): void {
    this.driver.stop();
  }

  /** Show stored run `id` (read-only while another tab drives it). */
  async openRun(id: string): Promise<void> {
    if (this.driver.driving) return;
    this.notice = null;
    this.forgetShown();
    await this.driver.show(id);
    await this.runs.store.setSetting(this.lastRunKey, id).catch(() => undefined);
  }

  async deleteRun(id: string): Promise<void> {
    await this.errors.run(async () => {
      if ((this.driver.driving && this.driver.state?.id === id) || (await this.runs.isRunLocked(id))) throw new Error(this.runningMessage);
      await this.runs.store.deleteRun(id);
      // Its unfinished sessions (kept so a resume continues them) go with it.
      for (const session of await this.runs.store.listRuns('session')) if (session.id.startsWith(`${id}:`)) await this.runs.store.deleteRun(session.id);
      if (this.driver.state?.id === id) {
        this.driver.clear();
        this.forgetShown();
      }
      await this.refreshRuns();
    });
  }

  /** Task `storyId`:`seed` resolved against the story shelf. @throws Error naming a story without a
   * max score (W-AUC needs it) or no longer on the story shelf */
  protected async scoredTask(storyId: string, seed: number): Promise<ScoredTask> {
    const t = await this.runs.resolveTask(storyId, seed);
    if (t.maxScore === null) throw new Error(`“${t.title}” has no known max score, so W-AUC is undefined for it. Set its max score in the Play view first.`);
    return { id: t.id, storyId: this.gameOf(storyId), title: t.title, md5: t.md5, seed: t.seed, maxScore: t.maxScore, ...(t.task ? { task: t.task } : {}) };
  }

  dismiss(): void {
    this.error = null;
    this.notice = null;
    this.driver.error = null;
    this.driver.damaged = null;
  }
}
