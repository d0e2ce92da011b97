/**
 * The stored sessions (store runs of kind "session", newest first): the list with each one's
 * summary (session-store.ts `sessionSummary`), the ones picked for comparison (their learning
 * curves overlaid), export (`exportSession`, JSON without any key), import (`importSession`,
 * ImportError messages shown as they are) and delete. Store errors are shown, never thrown.
 */
import type { RunSummary, SettingValue, Store } from '../../store/interface.ts';
import { exportSession, importSession } from '../../ttl/session-io.ts';
import type { SessionStatus } from '../../ttl/session-record.ts';
import { loadSession, saveSession } from '../../ttl/session-store.ts';
import type { PlayerServices } from '../shared/state/services.ts';
import { exportFileName } from './session-plan.ts';
import { ErrorSlot } from '../shared/state/error-slot.svelte.ts';

/** One row of the runs list (read defensively from the run's summary). */
export interface SessionListItem {
  id: string;
  title: string;
  seed: number;
  policy: string;
  episodes: number;
  maxSteps: number;
  status: SessionStatus;
  /** Final score per ended episode. */
  scores: number[];
  wAuc: number | null;
  maxScore: number | null;
  /** Episode attempts cut short by provider faults (not scored). */
  faultedEpisodes: number;
  /** Who played (llm/model-label.ts name; "unknown model" in lists stored before it was recorded). */
  model: string;
  simulated: boolean;
  /** The model's caveat (simulated, scripted), or null. */
  caveat: string | null;
  /** A person's edits of the guide mid-episode (0 or absent: the policy's own result). */
  interventions?: number;
  startedAt: string;
  /** ms since the Unix epoch. */
  updatedAt: number;
  /** The name of the file it was imported from, without `.json` (a workshop participant's, say):
   * what tells a class's imported results apart; absent for a session run here. */
  source?: string;
}

/** Store setting: the file name each imported session came from, by session id (`importedName`). */
export const IMPORTED_NAMES_KEY = 'importedSessionNames';

/** A session file's name as its label: the base name without `.json`, trimmed, at most 80 characters. */
export function importedName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base.replace(/\.json$/i, '').trim().slice(0, 80);
}

const num = (v: SettingValue | undefined, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const str = (v: SettingValue | undefined, fallback: string): string => (typeof v === 'string' ? v : fallback);

/** A run summary as a list item (unknown fields get neutral values); `sources`: the imported
 * sessions' file names by id (IMPORTED_NAMES_KEY). */
export function listItemOf(run: RunSummary, sources: Readonly<Record<string, SettingValue>> = {}): SessionListItem {
  const source = sources[run.id];
  const s = (run.summary && typeof run.summary === 'object' && !Array.isArray(run.summary) ? run.summary : {}) as Record<string, SettingValue>;
  const status = str(s.status, 'stopped');
  return {
    id: run.id, title: str(s.title, '(unknown story)'), seed: num(s.seed, 0), policy: str(s.policy, '?'),
    episodes: num(s.episodes, 0), maxSteps: num(s.maxSteps, 0),
    status: status === 'running' || status === 'complete' ? status : 'stopped',
    scores: Array.isArray(s.scores) ? s.scores.filter((x): x is number => typeof x === 'number') : [],
    wAuc: typeof s.wAuc === 'number' ? s.wAuc : null, maxScore: typeof s.maxScore === 'number' ? s.maxScore : null,
    faultedEpisodes: num(s.faultedEpisodes, 0), interventions: num(s.interventions, 0), model: str(s.model, 'unknown model'), simulated: s.simulated === true,
    caveat: typeof s.modelCaveat === 'string' ? s.modelCaveat : null, startedAt: str(s.startedAt, ''), updatedAt: run.updatedAt,
    ...(typeof source === 'string' && source !== '' ? { source } : {}),
  };
}

const recordOf = (v: SettingValue | undefined): Record<string, SettingValue> => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});

export class SessionRuns {
  items = $state.raw<SessionListItem[]>([]);
  /** Ids picked for the overlaid learning curves. */
  compareIds = $state.raw<string[]>([]);
  readonly compared = $derived(this.items.filter((i) => this.compareIds.includes(i.id)));
  /** Sessions that did not finish (resumable), newest first. */
  readonly unfinished = $derived(this.items.filter((i) => i.status !== 'complete'));
  /** The view's error slot. */
  readonly errors = new ErrorSlot();
  /** The error slot's text (a thrown error's, key scrubbed, or a problem found here); null when none. */
  get error(): string | null {
    return this.errors.message;
  }
  set error(message: string | null) {
    this.errors.message = message;
  }
  /** The id of the session just imported (to open it). */
  lastImported = $state<string | null>(null);

  constructor(
    private readonly store: () => Store,
    private readonly services: PlayerServices,
  ) {}

  async refresh(): Promise<void> {
    await this.errors.run(async () => {
      // Sessions of an evaluation or evolution (id `<run id>:<key>`) belong to that run, not to this list.
      const sources = recordOf(await this.store().getSetting(IMPORTED_NAMES_KEY).catch(() => undefined));
      this.items = (await this.store().listRuns('session')).filter((r) => !r.id.includes(':')).map((run) => listItemOf(run, sources));
      this.compareIds = this.compareIds.filter((id) => this.items.some((i) => i.id === id));
    }, { clear: true });
  }

  toggleCompare(id: string): void {
    this.compareIds = this.compareIds.includes(id) ? this.compareIds.filter((x) => x !== id) : [...this.compareIds, id];
  }

  /** Download a stored session as JSON. */
  async exportRun(id: string): Promise<void> {
    await this.errors.run(async () => {
      const record = await loadSession(this.store(), id);
      if (!record) throw new Error('This session is no longer stored.');
      this.services.download(exportFileName(record), exportSession(record), 'application/json');
    }, { clear: true });
  }

  /** Store a session file (an id already stored is kept under a new id), labelled by its file name
   * (`importedName`: a class's results, imported one file at a time, are told apart by it). */
  async importFile(file: File): Promise<void> {
    this.lastImported = null;
    await this.errors.run(async () => {
      const record = importSession(new TextDecoder().decode(await this.services.readFile(file)));
      const taken = this.items.some((i) => i.id === record.id) || (await this.store().getRun(record.id)) !== undefined;
      const stored = taken ? { ...record, id: `${record.id}-imported-${this.services.now().toString(36)}` } : record;
      // An imported unfinished session is kept as stopped (it can be resumed here).
      await saveSession(this.store(), { ...stored, status: stored.status === 'running' ? 'stopped' : stored.status }, this.services.now);
      const name = importedName(file.name);
      if (name !== '') {
        const names = recordOf(await this.store().getSetting(IMPORTED_NAMES_KEY).catch(() => undefined));
        await this.store().setSetting(IMPORTED_NAMES_KEY, { ...names, [stored.id]: name });
      }
      this.lastImported = stored.id;
      await this.refresh();
    }, { clear: true });
  }

  async remove(id: string): Promise<void> {
    await this.errors.run(async () => {
      await this.store().deleteRun(id);
      await this.refresh();
    }, { clear: true });
  }

  dismissError(): void {
    this.errors.dismiss();
  }
}
