/**
 * One running game on the page: its engine, transcript, last step result, in-memory undo stack
 * (a snapshot before each step) and the story's save slots in the store. Engine calls are
 * serialised in a queue so no command is lost or interleaved. Errors thrown by the engine or the
 * store propagate to the caller (the `Player` shows them); a fault is data in `last.fault`.
 */
import type { EngineSnapshot, StepResult } from '../../engine/interface.ts';
import type { SaveSlotSummary, Store } from '../../store/interface.ts';
import type { GameEngine } from '../shared/state/services.ts';

/** `output`: the game's text; `input`: the echoed `> command`; `notice`: the player's own note
 * ("[Saved to slot …]"); `status`: the status line reprinted after an undo or a restore. */
export type TranscriptKind = 'output' | 'input' | 'notice' | 'status';

export interface TranscriptEntry {
  /** Unique within the page (keyed each blocks). */
  id: number;
  kind: TranscriptKind;
  text: string;
}

interface UndoPoint {
  snapshot: EngineSnapshot;
  /** The game's latest text shown at that point (reprinted when undoing back to it). */
  shown: string;
  last: StepResult;
  /** What undoing it takes back, for the reprint's note: `“east”`, `the restore of “x”`. */
  label: string;
}

/** Most undo points kept (each holds a snapshot: RAM + stacks, tens of KB). */
export const MAX_UNDO = 100;

let nextEntryId = 1;
const entry = (kind: TranscriptKind, text: string): TranscriptEntry => ({ id: nextEntryId++, kind, text });

/** Game output without the trailing input prompt (">"), which the command line replaces. */
export const withoutPrompt = (text: string): string => text.replace(/(^|\n)>\s*$/, '$1').replace(/\s+$/, '');

/** A status line as one line of text (its padding runs become " — "), '' when none. */
export const statusText = (statusLine: string): string => statusLine.trim().replace(/\s{2,}/g, ' — ');

/** The game's latest text in a transcript ('' when none). */
export const lastOutputOf = (transcript: readonly TranscriptEntry[]): string => transcript.findLast((e) => e.kind === 'output')?.text ?? '';

/** What Parchment and Lectrote show after an undo or a restore, in our words: a note of what
 * happened, where you are (the status line), and the game's text as it was then. */
function reprint(note: string, result: StepResult, shown: string): TranscriptEntry[] {
  const status = statusText(result.statusLine);
  const text = roomPart(shown, status.split(' — ')[0] ?? '');
  return [entry('notice', note), ...(status ? [entry('status', status)] : []), ...(text ? [entry('output', text)] : [])];
}

/** Of the game's text, the part from the last line naming the room (`location`, the status
 * line's first field) on: the room's description without the banner before it. The whole text
 * when no line names the room. */
export function roomPart(shown: string, location: string): string {
  if (location === '') return shown;
  const lines = shown.split('\n');
  const at = lines.findLastIndex((line) => line.trim() === location);
  return at < 0 ? shown : lines.slice(at).join('\n');
}

export class GameSession {
  transcript = $state.raw<TranscriptEntry[]>([]);
  last = $state.raw<StepResult | null>(null);
  slots = $state.raw<SaveSlotSummary[]>([]);
  private undoStack = $state.raw<UndoPoint[]>([]);
  private pending = $state(0);
  readonly canUndo = $derived(this.undoStack.length > 0);
  readonly busy = $derived(this.pending > 0);
  private engine = $state.raw<GameEngine | null>(null);
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: () => Store,
    private readonly now: () => number,
  ) {}

  /** md5 of the running story, null when none. */
  get storyMd5(): string | null {
    return this.engine?.info.md5 ?? null;
  }

  /** Seed the running engine was loaded with. */
  get seed(): number | null {
    return this.engine?.seed ?? null;
  }

  /** Adopt a freshly loaded engine (the previous one is disposed) and show its opening text. */
  begin(engine: GameEngine): Promise<void> {
    this.engine?.dispose();
    this.engine = engine;
    this.transcript = [entry('output', withoutPrompt(engine.start.text))];
    this.last = engine.start;
    this.undoStack = [];
    this.slots = [];
    return this.refreshSlots();
  }

  /** Stop the game and clear the page. */
  end(): void {
    this.engine?.dispose();
    this.engine = null;
    this.transcript = [];
    this.last = null;
    this.undoStack = [];
    this.slots = [];
  }

  /** Send a command (or, when the game waits for a key, its first character; '' = Enter). */
  send(command: string): Promise<void> {
    return this.enqueue(async (engine) => {
      if (this.last?.done) return;
      const snapshot = await engine.snapshot();
      const shownBefore = lastOutputOf(this.transcript);
      const lastBefore = this.last ?? engine.start;
      const result = await engine.step(command);
      if (engine !== this.engine) return;
      const label = this.last?.inputKind === 'char' ? 'the key pressed' : `“${result.command}”`;
      this.undoStack = [...this.undoStack.slice(1 - MAX_UNDO), { snapshot, shown: shownBefore, last: lastBefore, label }];
      const shown = this.last?.inputKind === 'char' ? `> [${result.command === '' ? 'Enter' : `key ${result.command}`}]` : `> ${result.command}`;
      const added = [entry('input', shown)];
      const text = withoutPrompt(result.text);
      if (text) added.push(entry('output', text));
      if (result.fault) added.push(entry('notice', faultText(result)));
      this.transcript = [...this.transcript, ...added];
      this.last = result;
    });
  }

  /** Go back to the state before the last step or save-slot restore (nothing when none). The
   * transcript keeps what was played and reprints where you are: the status line and the game's
   * text as it was then. */
  undo(): Promise<void> {
    return this.enqueue(async (engine) => {
      const point = this.undoStack.at(-1);
      if (!point) return;
      const result = await engine.restore(point.snapshot);
      this.undoStack = this.undoStack.slice(0, -1);
      this.transcript = [...this.transcript, ...reprint(`[Undone: ${point.label}]`, { ...point.last, statusLine: result.statusLine || point.last.statusLine }, point.shown)];
      this.last = point.last;
    });
  }

  /** Back to the start of the game (same seed); clears undo. */
  restart(): Promise<void> {
    return this.enqueue(async (engine) => {
      const result = await engine.reset();
      this.transcript = [entry('notice', '[Restarted]'), entry('output', withoutPrompt(result.text))];
      this.last = result;
      this.undoStack = [];
    });
  }

  /** Save the current state to the slot `name` (replacing a slot of that name). */
  save(name: string): Promise<void> {
    return this.enqueue(async (engine) => {
      const snapshot = await engine.snapshot();
      await this.store().putSave({ storyMd5: engine.info.md5, name, snapshot, savedAt: this.now(), shownText: lastOutputOf(this.transcript) });
      this.transcript = [...this.transcript, entry('notice', `[Saved to slot “${name.trim()}”]`)];
      await this.refreshSlots();
    });
  }

  /** Restore the slot `name` and reprint where you are (status line, the game's text when it was
   * saved); undo can take it back. @throws Error when the slot is gone */
  restoreSlot(name: string): Promise<void> {
    return this.enqueue(async (engine) => {
      const slot = await this.store().getSave(engine.info.md5, name);
      if (!slot) throw new Error(`There is no save slot “${name}” for this story.`);
      const before = this.last && !this.last.fault ? await engine.snapshot().catch(() => null) : null;
      const result = await engine.restore(slot.snapshot as EngineSnapshot);
      if (before && this.last) this.undoStack = [...this.undoStack.slice(1 - MAX_UNDO), { snapshot: before, shown: lastOutputOf(this.transcript), last: this.last, label: `the restore of “${slot.name}”` }];
      this.transcript = [...this.transcript, ...reprint(`[Restored slot “${slot.name}”]`, result, slot.shownText ?? '')];
      this.last = result;
    });
  }

  deleteSlot(name: string): Promise<void> {
    return this.enqueue(async (engine) => {
      await this.store().deleteSave(engine.info.md5, name);
      await this.refreshSlots();
    });
  }

  /** Reload the slot list of the running story from the store. */
  async refreshSlots(): Promise<void> {
    const md5 = this.storyMd5;
    if (!md5) return;
    const slots = await this.store().listSaves(md5);
    if (md5 === this.storyMd5) this.slots = slots;
  }

  /** Run `task` after every earlier one, on the engine current when it was queued. */
  private enqueue(task: (engine: GameEngine) => Promise<void>): Promise<void> {
    const engine = this.engine;
    if (!engine) return Promise.resolve();
    this.pending++;
    const run = this.queue.then(async () => {
      if (engine !== this.engine) return;
      try {
        await task(engine);
      } catch (error) {
        if (engine === this.engine) throw error; // a replaced game's errors are moot
      }
    });
    this.queue = run.catch(() => undefined);
    return run.finally(() => {
      this.pending--;
    });
  }
}

function faultText(result: StepResult): string {
  const what = result.fault?.kind === 'interpreter_hang' ? 'The interpreter hung' : 'The interpreter failed';
  return `[${what}: ${result.fault?.message ?? ''} Restart, undo or restore a slot to continue.]`;
}
