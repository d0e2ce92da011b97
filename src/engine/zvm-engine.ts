/**
 * The synchronous engine: ifvms' ZVM driven by its own Glk instance (vendored glkapi factory) and
 * our headless GlkOte. The only module that imports ifvms. Randomness is the frotz generator
 * (ground-truth.md), snapshots are Quetzal RAM+stacks plus VM/Glk state (engine-notes.md,
 * "Snapshot and restore"). Engines of one story in a thread share compiled routines and parsed
 * dictionaries (story-cache.ts). DOM-free: runs in Node, a Worker or a worker_thread.
 */
import ZVM from 'ifvms/src/zvm.js';
import { createGlk, type GlkApi } from './vendor/glkapi-factory.js';
import { EngineError } from './errors.ts';
import { checkEnd, endReasonFor } from './end-detection.ts';
import { createRngState, restartRng, zRandom } from './frotz-rng.ts';
import { HeadlessGlkOte } from './glkote.ts';
import { keypressFor, normaliseCommand } from './input.ts';
import { keepTextAcrossClears, unicodeTableHas, writeInterpreterHeader } from './interpreter-header.ts';
import type { Engine, EngineSnapshot, LoadOptions, PlayerLocation, StepResult, StoryInfo, StoryRules, TrackingState } from './interface.ts';
import { MemoryDialog } from './memory-dialog.ts';
import { playerLocation, type ZMemory } from './object-tree.ts';
import { chooseScoreSource, readScore, type MemoryReader } from './scoring.ts';
import { shareStoryWork } from './story-cache.ts';
import { identifyStory, type IdentifiedStory } from './story-file.ts';

/** Maximum automatic answers to file prompts within one step (save/restore/script chains). */
const MAX_FILE_PROMPTS = 4;

/**
 * Load a story file and run it to its first input (after the catalog's intro actions).
 * @param bytes raw story file (.z3/.z5/.z8 or .zblorb)
 * @throws StoryFileError for bytes that are not a runnable Z-code story file
 */
export function loadStory(bytes: Uint8Array, options: LoadOptions): Engine {
  return new ZvmEngine(identifyStory(bytes), options);
}

interface ReadData {
  buffer?: number[];
  [key: string]: unknown;
}

interface VmState {
  io: Record<string, unknown>;
  readData: ReadData;
  bufferLength: number;
  inputKind: 'line' | 'char' | null;
  undo: unknown[];
  undoLength: number;
}

class ZvmEngine implements Engine {
  readonly info: StoryInfo;
  readonly seed: number;
  readonly start: StepResult;
  private readonly rules: StoryRules | undefined;
  private readonly zcode: Uint8Array;
  private readonly md5: string;
  private vm!: ZVM;
  private glk!: GlkApi;
  private glkote!: HeadlessGlkOte;
  private readonly dialog = new MemoryDialog();
  private rng;
  private tracking: TrackingState;
  private readonly initialTracking: TrackingState;
  /** Characters the story can receive: those its Unicode table holds. */
  private readonly canEncode = (code: number): boolean => unicodeTableHas(this.vm, code);
  /** Null for a story that ended without ever asking for input (reset() then reboots it). */
  private readonly startSnapshot: EngineSnapshot | null;

  constructor(story: IdentifiedStory, options: LoadOptions) {
    this.rules = options.rules;
    this.seed = options.seed;
    this.zcode = story.zcode;
    this.md5 = story.md5;
    this.rng = createRngState(options.seed);
    // v3 Flags 1 bit 1: a "time" game, whose status line shows hours:minutes (Standard §8.2.3.2).
    const v3TimeGame = story.version === 3 && (story.zcode[1]! & 0x02) !== 0;
    this.tracking = {
      victorySeen: false, lastScore: null, lastMoves: null, done: false, endReason: null,
      scoreSource: chooseScoreSource(story.version, options.rules, { v3TimeGame }),
    };
    this.initialTracking = structuredClone(this.tracking);
    this.boot();
    const header = new DataView(story.zcode.buffer, story.zcode.byteOffset, story.zcode.byteLength);
    this.info = {
      md5: story.md5, zcodeVersion: story.version, release: header.getUint16(0x02),
      serial: String.fromCharCode(...story.zcode.subarray(0x12, 0x18)), globalsAddr: header.getUint16(0x0c),
      fromBlorb: story.fromBlorb,
    };
    let start = this.observe('');
    for (const action of options.rules?.introActions ?? []) {
      const intro = this.step(action.replace(/\n$/, ''));
      start = { ...intro, command: '', text: `${start.text}\n${intro.text}`.trim() };
    }
    if (start.fault) throw new EngineError('worker_failed', `The story failed to start: ${start.fault.message}`);
    this.start = start;
    this.startSnapshot = this.glkote.input ? this.snapshot() : null;
  }

  step(command: string): StepResult {
    if (this.tracking.done) throw new EngineError('game_over', 'The game is over: reset() or restore() before the next step.');
    const input = this.glkote.input;
    if (!input) throw new EngineError('no_input_pending', 'The game is not waiting for input.');
    let sent: string;
    try {
      if (input.type === 'char') {
        const key = keypressFor(command, this.canEncode);
        sent = key.recorded;
        this.glkote.send({ type: 'char', window: input.id, value: key.value });
      } else {
        sent = normaliseCommand(command, this.canEncode);
        this.glkote.send({ type: 'line', window: input.id, value: sent });
      }
      this.answerFilePrompts();
    } catch (error) {
      this.glkote.error(error);
      sent = normaliseCommand(command, this.canEncode);
    }
    return this.observe(sent);
  }

  snapshot(): EngineSnapshot {
    const vm = this.vm;
    if (!this.glkote.input) throw new EngineError('no_input_pending', 'A snapshot needs the game to wait for input.');
    const { streams: _streams, ...io } = vm.io as Record<string, unknown>;
    const { buffer, ...readData } = (vm.read_data ?? {}) as ReadData;
    const vmState: VmState = {
      io: structuredClone(io), readData: structuredClone(readData), bufferLength: buffer?.length ?? 0,
      inputKind: this.glkote.input.type, undo: structuredClone(vm.undo), undoLength: vm.undo_len,
    };
    return {
      format: 'metattl-engine-snapshot-1', md5: this.info.md5,
      quetzal: new Uint8Array(vm.save_file(vm.pc, 1)), vmState, rngState: { ...this.rng },
      screen: this.glkote.saveScreen(), tracking: structuredClone(this.tracking),
    };
  }

  restore(snapshot: EngineSnapshot): StepResult {
    if (snapshot?.format !== 'metattl-engine-snapshot-1' || snapshot.md5 !== this.info.md5) {
      throw new EngineError('bad_snapshot', 'This snapshot belongs to another story file or is not an engine snapshot.');
    }
    if (!this.glkote.input || this.glkote.errorMessage) this.boot();
    const vm = this.vm;
    const state = snapshot.vmState as VmState;
    vm.restart(1);
    vm.restore_file(snapshot.quetzal.slice().buffer, 1);
    const streams = (vm.io as { streams: unknown }).streams;
    vm.io = { ...structuredClone(state.io), streams };
    vm.undo = structuredClone(state.undo);
    vm.undo_len = state.undoLength;
    vm.read_data = { ...structuredClone(state.readData), buffer: this.reRequestInput(state) };
    this.rng = { ...snapshot.rngState };
    this.tracking = structuredClone(snapshot.tracking);
    // Snapshots from before catalog reads carried bytes/offsets had word addresses: re-derive.
    const source = this.tracking.scoreSource as { kind: string; score?: unknown; moves?: unknown };
    if ((source.kind === 'catalog' && !source.score) || (source.kind === 'victory-text' && source.moves === undefined)) {
      this.tracking.scoreSource = structuredClone(this.initialTracking.scoreSource);
    }
    this.glkote.restoreScreen(snapshot.screen);
    this.glk.update();
    this.glkote.takeText();
    return {
      command: '', text: '', statusLine: this.glkote.statusLine(), score: this.tracking.lastScore,
      moves: this.tracking.lastMoves, done: this.tracking.done, endReason: this.tracking.endReason,
      inputKind: this.glkote.input?.type ?? null, fault: null, location: this.location(),
    };
  }

  /** Back to the start; in-game save files of earlier episodes are dropped. */
  reset(): StepResult {
    this.dialog.clear();
    if (!this.startSnapshot) {
      // A story that ended without asking for input: run it again from a fresh VM.
      this.tracking = structuredClone(this.initialTracking);
      this.rng = createRngState(this.seed);
      this.boot();
      this.observe('');
      return { ...this.start };
    }
    this.restore(this.startSnapshot);
    return { ...this.start };
  }

  /** Create a fresh VM + Glk + GlkOte and run the story to its first input. */
  private boot(): void {
    const vm = new ZVM();
    shareStoryWork(vm, this.md5);
    const glk = createGlk();
    const glkote = new HeadlessGlkOte();
    vm.random = (range: number) => zRandom(this.rng, range);
    const updateHeader = vm.update_header.bind(vm);
    vm.update_header = () => {
      updateHeader();
      writeInterpreterHeader(vm);
    };
    keepTextAcrossClears(glk);
    const restart = vm.restart.bind(vm);
    vm.restart = (autorestoring?: number) => {
      restart(autorestoring);
      if (!autorestoring) restartRng(this.rng);
    };
    this.vm = vm;
    this.glk = glk;
    this.glkote = glkote;
    restartRng(this.rng);
    const options = { vm, Glk: glk, GlkOte: glkote, Dialog: this.dialog };
    vm.prepare(this.zcode.slice(), options);
    glk.init(options);
  }

  /** Answer save/restore/script file prompts from the in-memory slot so a step never hangs. */
  private answerFilePrompts(): void {
    for (let i = 0; i < MAX_FILE_PROMPTS && this.glkote.specialInput; i++) {
      const special = this.glkote.specialInput;
      this.glkote.send({ type: 'specialresponse', response: 'fileref_prompt', value: this.dialog.promptAnswer(special.filetype ?? 'data') });
    }
  }

  /** Replace the pending Glk input request with the snapshot's kind; returns the line buffer. */
  private reRequestInput(state: VmState): number[] | undefined {
    const vm = this.vm;
    const win = vm.mainwin;
    this.glk.glk_cancel_line_event(win, null);
    this.glk.glk_cancel_char_event(win);
    if (state.inputKind === 'char') {
      this.glk.glk_request_char_event_uni(win);
      return undefined;
    }
    const buffer = new Array<number>(state.bufferLength).fill(0);
    this.glk.glk_request_line_event_uni(win, buffer, 0);
    return buffer;
  }

  /** Build the step result from what the game printed, updating score and end tracking. */
  private observe(command: string): StepResult {
    const text = this.glkote.takeText();
    const statusLine = this.glkote.statusLine();
    const t = this.tracking;
    const fault = this.glkote.errorMessage ? { kind: 'interpreter_error' as const, message: this.glkote.errorMessage } : null;
    const end = checkEnd(`${statusLine}\n${text}`, this.rules);
    if (end.victory) t.victorySeen = true;
    if (!fault) {
      const read = readScore(t.scoreSource, this.memory(), statusLine, t.victorySeen ? (this.rules?.victoryScore ?? 1) : 0);
      t.scoreSource = read.source;
      t.lastScore = read.score;
      t.lastMoves = read.moves;
    }
    const quit = this.glkote.exited || this.vm.quit === 1;
    const waiting = !!this.glkote.input;
    const ending = end.victory || end.death || t.victorySeen;
    const keyAfterEnding = ending && this.glkote.input?.type === 'char';
    if (fault || quit || (waiting && (end.catalogEnd || (ending && (end.restartQuestion || keyAfterEnding))))) {
      t.done = true;
      t.endReason = fault ? null : endReasonFor(t.victorySeen || end.victory, end.death, quit);
    } else if (!waiting) {
      t.done = true;
      t.endReason = 'unknown';
    }
    return {
      command, text, statusLine, score: t.lastScore, moves: t.lastMoves, done: t.done,
      endReason: t.endReason, inputKind: this.glkote.input?.type ?? null, fault, location: this.location(),
    };
  }

  /** The player's location read from the VM's memory now (object-tree.ts); null without a
   * catalog player object. */
  private location(): PlayerLocation | null {
    const player = this.rules?.playerObject;
    if (!player) return null;
    const m = this.vm.m;
    const mem: ZMemory = { uint8: (addr) => m.getUint8(addr), size: m.byteLength };
    return playerLocation(mem, this.info?.zcodeVersion ?? this.vm.version, player);
  }

  private memory(): MemoryReader {
    const m = this.vm.m;
    return { int16: (addr: number) => m.getInt16(addr), uint8: (addr: number) => m.getUint8(addr), globalsAddr: this.vm.globals };
  }
}
