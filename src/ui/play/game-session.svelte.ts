/**
 * One running game on the page: its engine, transcript, last step result, in-memory undo stack
 * (a snapshot before each step) and the story's save slots in the store. Engine calls are
 * serialised in a queue so no command is lost or interleaved. Errors thrown by the engine or the
 * store propagate to the caller (the `Player` shows them); a fault is data in `last.fault`.
 */
import type { EngineSnapshot, StepResult } from '../../engine/interface.ts';
import type { SaveSlotSummary, Store } from '../../store/interface.ts';
import type { GameEngine } from '../shared/stores/services.ts';

export type TranscriptKind = 'output' | 'input' | 'notice';

export interface TranscriptEntry {
  /** Unique within the page (keyed each blocks). */
  id: number;
  kind: TranscriptKind;
  text: string;
}

interface UndoPoint {
  snapshot: EngineSnapshot;
  transcript: TranscriptEntry[];
  last: StepResult;
}

/** Most undo points kept (each holds a snapshot: RAM + stacks, tens of KB). */
export const MAX_UNDO = 100;

let nextEntryId = 1;
const entry = (kind: TranscriptKind, text: string): TranscriptEntry => ({ id: nextEntryId++, kind, text });

/** Game output without the trailing input prompt (">"), which the command line replaces. */
export const withoutPrompt = (text: string): string => text.replace(/(^|\n)>\s*$/, '$1').replace(/\s+$/, '');

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
      const before = { snapshot, transcript: this.transcript, last: this.last ?? engine.start };
      const result = await engine.step(command);
      if (engine !== this.engine) return;
      this.undoStack = [...this.undoStack.slice(1 - MAX_UNDO), before];
      const shown = this.last?.inputKind === 'char' ? `> [${result.command === '' ? 'Enter' : `key ${result.command}`}]` : `> ${result.command}`;
      const added = [entry('input', shown)];
      const text = withoutPrompt(result.text);
      if (text) added.push(entry('output', text));
      if (result.fault) added.push(entry('notice', faultText(result)));
      this.transcript = [...this.transcript, ...added];
      this.last = result;
    });
  }

  /** Go back to the state before the last step, save-slot restore or nothing when none. */
  undo(): Promise<void> {
    return this.enqueue(async (engine) => {
      const point = this.undoStack.at(-1);
      if (!point) return;
      await engine.restore(point.snapshot);
      this.undoStack = this.undoStack.slice(0, -1);
      this.transcript = [...point.transcript, entry('notice', '[Undone]')];
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
      await this.store().putSave({ storyMd5: engine.info.md5, name, snapshot, savedAt: this.now() });
      this.transcript = [...this.transcript, entry('notice', `[Saved to slot “${name.trim()}”]`)];
      await this.refreshSlots();
    });
  }

  /** Restore the slot `name`; undo can take it back. @throws Error when the slot is gone */
  restoreSlot(name: string): Promise<void> {
    return this.enqueue(async (engine) => {
      const slot = await this.store().getSave(engine.info.md5, name);
      if (!slot) throw new Error(`There is no save slot “${name}” for this story.`);
      const before = this.last && !this.last.fault ? await engine.snapshot().catch(() => null) : null;
      const result = await engine.restore(slot.snapshot as EngineSnapshot);
      if (before && this.last) this.undoStack = [...this.undoStack.slice(1 - MAX_UNDO), { snapshot: before, transcript: this.transcript, last: this.last }];
      this.transcript = [...this.transcript, entry('notice', `[Restored slot “${slot.name}”]`)];
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
