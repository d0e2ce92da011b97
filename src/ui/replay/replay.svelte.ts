/**
 * The Replay view's state: which file is open (a shipped replay, or a file the user picked or
 * dropped, parsed by replay-source.ts), which of its sessions is shown, and the player stepping
 * through it. No provider is involved. `?replay=<id>` opens a shipped replay on entering the view.
 * Errors (download, bad file) are shown, never thrown.
 */
import type { Schedule } from '../shared/state/retry-countdown.svelte.ts';
import type { PlayerServices } from '../shared/state/services.ts';
import { ReplayPlayer } from '../shared/replay/replay-player.svelte.ts';
import { parseReplayFile, type ReplaySource } from './replay-source.ts';
import { SHIPPED_REPLAYS, shippedReplay, type ShippedReplay } from '../shared/replay/shipped-replays.ts';
import { ErrorSlot } from '../shared/state/error-slot.svelte.ts';

export type ReplayFiles = Pick<PlayerServices, 'resolve' | 'fetchBytes' | 'readFile' | 'query'>;

export class ReplayState {
  readonly shipped: readonly ShippedReplay[] = SHIPPED_REPLAYS;
  readonly player: ReplayPlayer;
  source = $state.raw<ReplaySource | null>(null);
  /** Where the open source came from (a shipped replay's label or a file name). */
  sourceName = $state<string | null>(null);
  /** Index of the shown session in `source.items` (null: none shown). */
  selected = $state<number | null>(null);
  loading = $state(false);
  /** The view's error slot. */
  readonly errors = new ErrorSlot();
  /** The error slot's text (a thrown error's, key scrubbed, or a problem found here); null when none. */
  get error(): string | null {
    return this.errors.message;
  }
  set error(message: string | null) {
    this.errors.message = message;
  }
  private appliedQuery: string | null = null;

  constructor(
    private readonly files: ReplayFiles,
    schedule?: Schedule,
  ) {
    this.player = new ReplayPlayer(schedule);
  }

  /** Each visit: open `?replay=<id>` when it names a shipped replay not opened yet. */
  async enter(): Promise<void> {
    const wanted = this.files.query().get('replay');
    if (wanted === null || wanted === this.appliedQuery) return;
    this.appliedQuery = wanted;
    if (shippedReplay(wanted)) await this.openShipped(wanted);
    else this.error = `There is no shipped replay “${wanted}”.`;
  }

  /** Download and open a shipped replay. */
  async openShipped(id: string): Promise<void> {
    const entry = shippedReplay(id);
    if (!entry) return;
    await this.openSource(entry.label, async () => new TextDecoder().decode(await this.files.fetchBytes(this.files.resolve(entry.path))));
  }

  /** Open a file the user picked or dropped (validated). */
  async openFile(file: File): Promise<void> {
    await this.openSource(file.name, async () => new TextDecoder().decode(await this.files.readFile(file)));
  }

  /** Show session `index` of the open source. */
  select(index: number): void {
    const item = this.source?.items[index];
    if (!item) return;
    this.selected = index;
    this.player.load(item.record);
  }

  /** Back to the open evolution's or evaluation's overview (no session shown). */
  showOverview(): void {
    this.selected = null;
    this.player.clear();
  }

  dismissError(): void {
    this.errors.dismiss();
  }

  /** Read, parse and show a source; the one shown stays when this fails. */
  private async openSource(name: string, read: () => Promise<string>): Promise<void> {
    this.loading = true;
    await this.errors.run(async () => {
      const source = parseReplayFile(await read());
      this.source = source;
      this.sourceName = name;
      this.selected = null;
      this.player.clear();
      if (source.items.length > 0 && (source.kind === 'session' || source.items.length === 1)) this.select(0);
    }, { clear: true, framed: (text) => `${name}: ${text}` });
    this.loading = false;
  }
}
