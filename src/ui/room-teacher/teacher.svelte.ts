/**
 * The teacher's control of a room (`?view=room-teacher`): the live document (read-only), the
 * teacher's snapshot (`GET /api/room`: usage and every submission, refreshed on each change of the
 * document and every few seconds for usage), and every teacher action as one HTTP request the
 * server checks. A refusal is shown in the server's plain words (`problem`); nothing is decided in
 * the page that the server does not check again.
 */
import type { RoomCaps, RoomSnapshot, RoundConfig } from '../../room/protocol.ts';
import { errorText } from '../shared/state/error-text.ts';
import type { ExportFormat, RoomApi } from '../shared/room/room-api.ts';
import { currentRound, roundTasks } from '../shared/room/room-board.ts';
import type { RoomLive } from '../shared/room/room-live.svelte.ts';

/** A shipped story the teacher may put in a round. */
export interface StoryChoice {
  id: string;
  title: string;
  teaching: boolean;
}

/** The round form: stories and seeds for each set, K, S, repeats and the timer. */
export interface RoundForm {
  title: string;
  practiceStories: string[];
  practiceSeeds: string;
  hiddenStories: string[];
  hiddenSeeds: string;
  episodes: number;
  steps: number;
  repeats: number;
  /** null: no timer. */
  minutes: number | null;
}

/** The form's request (pure). @throws RangeError naming what is wrong */
export function roundConfigOf(form: RoundForm): RoundConfig {
  const practiceTasks = roundTasks(form.practiceStories, form.practiceSeeds);
  const hiddenTasks = roundTasks(form.hiddenStories, form.hiddenSeeds);
  if (hiddenTasks.length === 0) throw new RangeError('Choose at least one story and one seed for the hidden set: submissions are scored on it.');
  const overlap = hiddenTasks.filter((t) => practiceTasks.includes(t));
  if (overlap.length > 0) throw new RangeError(`The hidden set repeats practice tasks (${overlap.slice(0, 3).join(', ')}): give it other seeds.`);
  return { title: form.title.trim() || 'Round', practiceTasks, hiddenTasks, episodes: form.episodes, steps: form.steps, repeats: form.repeats, minutes: form.minutes };
}

/** The title a round gets by default: "Round N", N its index in the room (1 for the first). */
export function nextRoundTitle(roundsSoFar: number): string {
  return `Round ${roundsSoFar + 1}`;
}

/** How the view reaches the outside: downloads and the clock. */
export interface TeacherHost {
  download(blob: Blob, name: string): void;
  setInterval(callback: () => void, ms: number): unknown;
}

/** Usage is refreshed this often while nothing changes in the document, ms. */
export const USAGE_REFRESH_MS = 5000;

/** The teacher's view state: the snapshot, the round form, the action in flight and its outcome. */
export class TeacherRoom {
  snapshot = $state<RoomSnapshot | null>(null);
  /** The last refusal or failure, in plain words (null: none). */
  problem = $state<string | null>(null);
  /** What the last action did, in words. */
  done = $state<string | null>(null);
  /** The action in flight (its label), or null. */
  busy = $state<string | null>(null);
  /** The "end room" steps: offered the export first, then asked to confirm. */
  ending = $state<'no' | 'offered'>('no');
  ended = $state(false);
  form = $state<RoundForm>({ title: 'Round 1', practiceStories: ['lever-room'], practiceSeeds: '1, 2', hiddenStories: ['lever-room'], hiddenSeeds: '3, 4', episodes: 3, steps: 12, repeats: 1, minutes: 10 });
  evolveBudget = $state(20);
  private refreshing: Promise<void> | null = null;
  /** Whether the teacher typed the title since the last round opened (then it is not replaced). */
  private titleTyped = false;
  /** The default title last put in the form. */
  private titleDefault = '';
  private again = false;

  constructor(readonly api: RoomApi, readonly live: RoomLive, private readonly host: TeacherHost) {
    live.onChange(() => {
      this.followTitle();
      void this.refresh();
    });
    host.setInterval(() => void this.refresh(), USAGE_REFRESH_MS);
    this.followTitle();
    void this.refresh();
  }

  /** The round shown (the current one, else the latest). */
  get round() {
    return this.live.state ? currentRound(this.live.state) : null;
  }

  /** Fetches the teacher's snapshot; one request at a time, one more if asked meanwhile. */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        this.snapshot = await this.api.snapshot();
        this.followTitle();
      } catch (error) {
        if (!this.ended) this.problem = errorText(error);
      } finally {
        this.refreshing = null;
        if (this.again) {
          this.again = false;
          void this.refresh();
        }
      }
    })();
    return this.refreshing;
  }

  /** The teacher types the round's title (an empty one gives the default back). */
  typeTitle(title: string): void {
    this.form.title = title;
    this.titleTyped = title.trim() !== '';
  }

  /** Puts "Round N" (N = the next round's index, from the document or the snapshot) in the form unless the teacher typed a title. */
  private followTitle(): void {
    const next = nextRoundTitle(Math.max(this.live.state?.rounds.length ?? 0, this.snapshot?.rounds.length ?? 0));
    if (next === this.titleDefault) return;
    this.titleDefault = next;
    if (!this.titleTyped) this.form.title = next;
  }

  /** Runs one action: busy while it runs, its refusal in `problem`, `doneText` in `done`. */
  async act(label: string, action: () => Promise<unknown>, doneText: string): Promise<boolean> {
    this.busy = label;
    this.problem = null;
    this.done = null;
    try {
      await action();
      this.done = doneText;
      return true;
    } catch (error) {
      this.problem = errorText(error);
      return false;
    } finally {
      this.busy = null;
      void this.refresh();
    }
  }

  /** Opens a round from the form; with `closeCurrent`, closes the current one first (next round). */
  async openRound(closeCurrent: boolean): Promise<void> {
    let config: RoundConfig;
    try {
      config = roundConfigOf(this.form);
    } catch (error) {
      this.problem = errorText(error);
      this.done = null;
      return;
    }
    const current = this.round;
    const opened = await this.act('open', async () => {
      if (closeCurrent && current && current.state !== 'closed') await this.api.roundAction(current.id, 'close');
      await this.api.openRound(config);
    }, `Round "${config.title}" is open: ${config.practiceTasks.length} practice and ${config.hiddenTasks.length} hidden task${config.hiddenTasks.length === 1 ? '' : 's'}.`);
    if (!opened) return;
    this.titleTyped = false;
    this.titleDefault = '';
    this.followTitle();
  }

  /** Locks, reveals or closes the round shown; resolves to whether the server did it. */
  roundAction(action: 'lock' | 'reveal' | 'close'): Promise<boolean> {
    const round = this.round;
    if (!round) return Promise.resolve(false);
    const words = { lock: 'locked: no more submissions', reveal: 'revealed: hidden tasks and texts are public', close: 'closed' }[action];
    return this.act(action, () => this.api.roundAction(round.id, action), `"${round.title}" ${words}.`);
  }

  /** Changes some of the per-participant caps (null: no cap), keeping the others. */
  setCaps(patch: Partial<RoomCaps>): Promise<boolean> {
    const caps = this.snapshot?.settings.caps ?? this.live.state?.settings?.caps;
    if (!caps) return Promise.resolve(false);
    return this.act('caps', () => this.api.patchSettings({ caps: { ...caps, ...patch } }), 'Caps saved.');
  }

  /** Hides (true) or shows the participants' names on the projector. */
  setNamesHidden(hidden: boolean): Promise<boolean> {
    return this.act('names', () => this.api.patchSettings({ namesHidden: hidden }), hidden ? 'Names are hidden on the projector.' : 'Names are shown on the projector.');
  }

  /** The kill switch for every participant's model calls: stop (true) or allow again. */
  killAll(killed: boolean): Promise<boolean> {
    return this.act('kill-all', () => this.api.killAll(killed), killed ? "Every participant's model calls are stopped." : 'Model calls are allowed again.');
  }

  /** Starts the class evolution on the round shown with the budget typed. */
  startEvolution(): Promise<boolean> {
    const round = this.round;
    if (!round) return Promise.resolve(false);
    return this.act('evolve', () => this.api.startEvolution({ roundId: round.id, budget: this.evolveBudget }), `The class evolution started with a budget of ${this.evolveBudget} sessions.`);
  }

  /** Downloads the export in `format`. */
  exportAs(format: ExportFormat): Promise<boolean> {
    return this.act(`export-${format}`, async () => {
      const file = await this.api.exportFile(format);
      this.host.download(file.blob, file.name);
    }, `Export (${format}) downloaded.`);
  }

  /** Ends the room (after the export was offered): the server wipes its data; its final export (JSON) is downloaded as a last copy. */
  async endRoom(): Promise<void> {
    const code = this.snapshot?.code ?? 'room';
    const end = async (): Promise<void> => {
      const reply = await this.api.end();
      if (reply.export !== undefined) this.host.download(new Blob([JSON.stringify(reply.export, null, 2)], { type: 'application/json' }), `room-${code}-final.json`);
    };
    if (await this.act('end', end, 'The room has ended and its data is wiped; its final results were downloaded (JSON).')) {
      this.ended = true;
      this.ending = 'no';
    }
  }

}
