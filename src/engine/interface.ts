/**
 * Public types of the engine: a Z-machine story file run by ifvms behind a headless Glk.
 * Shapes here are shared by the synchronous in-thread engine, the Worker / worker_thread proxy
 * and the CLI. Must not import DOM or Node APIs.
 */

/** How a game ended, as seen by the engine (method.md, "Termination and outcomes"). */
export type EndReason = 'quit' | 'death' | 'victory' | 'unknown';

/** A fault outside the game's own logic. `interpreter_hang`: a step exceeded its time budget and
 * the engine's worker was terminated; `interpreter_error`: the VM threw. */
export type EngineFaultKind = 'interpreter_hang' | 'interpreter_error';

export interface EngineFault {
  kind: EngineFaultKind;
  /** Human-readable cause (VM exception message, or the time budget that was exceeded). */
  message: string;
}

/** What the game was waiting for when a step returned. `null` once the VM has quit. */
export type InputKind = 'line' | 'char' | null;

/**
 * The result of one step (one command or keypress) or of the start of a game.
 * Scores and moves are signed score points / turns read from the game; `null` when the game keeps
 * no readable score (then `scoreSource` says why).
 */
export interface StepResult {
  /** What was actually sent to the game after normalisation ('' for the game's start). For a
   * keypress this is the single character sent, or '' for Enter. */
  command: string;
  /** Text printed during this step, the echoed command excluded: the main (buffer) window's
   * text, including text printed before a screen clear, and any new upper-window text beyond the
   * status line (quote boxes, chapter cards), in the order shown. */
  text: string;
  /** The status line (top grid window, first row), whitespace-trimmed; '' when there is none. */
  statusLine: string;
  score: number | null;
  moves: number | null;
  /** True when the game has ended (quit, death or victory text followed by the restart question,
   * or a fault). Further steps are refused until `reset()`. */
  done: boolean;
  endReason: EndReason | null;
  /** The input the game waits for next. */
  inputKind: InputKind;
  /** Set when the step ended in an interpreter fault; `done` is then true and `score` is the
   * last good score. */
  fault: EngineFault | null;
  /** Where the player is after this step: the player object's parent in the object tree (a room,
   * or a chair, vehicle, … the player is in or on), read from the VM's memory after the step —
   * Jericho's `get_player_location()`. Null when the story's player object is unknown (not in the
   * catalog) or has no parent. */
  location: PlayerLocation | null;
}

/** An object of the story's object tree: its number and its short name as the game prints it
 * (abbreviations expanded; may be '' for an object with no name). */
export interface PlayerLocation {
  /** Object number (1-based, Z-Machine Standard §12). */
  id: number;
  name: string;
}

/** Where the score/moves come from, decided once per story at load (reads: see scoring.ts). */
export type ScoreSource =
  | { kind: 'catalog'; score: RamRead; moves: RamRead | null }
  | { kind: 'victory-text'; moves: RamRead | null }
  /** Jericho's status-line parse: the number after the last ':' (negated when `negate`); `last`
   * is the latest value, kept while the status line shows none. */
  | { kind: 'status-line-text'; negate: boolean; last: number | null; moves: RamRead | null }
  | { kind: 'v3-header' }
  /** v3 "time" game (Flags 1 bit 1) with no catalog score: no score, moves unknown. */
  | { kind: 'v3-time' }
  | { kind: 'status-line-globals'; scoreGlobal: number | null; movesGlobal: number | null };

/** A RAM read from the catalog (games.json `score_read` / `moves_read`). */
export interface RamRead {
  /** Byte address in Z-machine memory. */
  addr: number;
  /** 1: one byte (unsigned unless `signed`), 2: a signed big-endian 16-bit word. */
  bytes: number;
  signed?: boolean;
  /** Added to the value read (games.json "minus 545"). */
  offset?: number;
}

/** Per-story knowledge that is data, not code (from `public/stories/catalog.json`). */
export interface StoryRules {
  /** What Jericho reads for the score; `null` = no RAM score. */
  scoreRead?: RamRead | null;
  movesRead?: RamRead | null;
  /** Score shown on the status line as its last number after a ':' (Jericho parses it so for
   * games with no RAM score); `negate` for games that count down. */
  statusLineScore?: { negate: boolean } | null;
  /** Text whose appearance means the game was won (alternatives: any of them). */
  victoryText?: string | string[] | null;
  /** Text whose appearance means the game was lost / is over (alternatives: any of them). */
  gameOverText?: string | string[] | null;
  /** Score reported once the victory text appeared, for games with no RAM score (Jericho: 1). */
  victoryScore?: number | null;
  /** Inputs sent before the first command (e.g. '\n' for a "press any key" title page). */
  introActions?: string[];
  /** Object number of the player (Jericho's per-game `get_self_object_num`; for our teaching
   * games the Inform library's `selfobj`); the step's `location` is its parent. Null/absent: no
   * location is reported. */
  playerObject?: number | null;
}

/** Facts about a loaded story file. */
export interface StoryInfo {
  md5: string;
  /** Z-machine version from header byte 0 (3, 4, 5 or 8). */
  zcodeVersion: number;
  release: number;
  serial: string;
  /** Byte address of the global variables table. */
  globalsAddr: number;
  /** True when the story file came out of a Blorb (.zblorb) container. */
  fromBlorb: boolean;
}

export interface LoadOptions {
  /** frotz random-number seed (ground-truth.md, "The frotz random-number generator"); 0 is a fixed
   * state, not "random". Must be an integer in [0, 2^32). */
  seed: number;
  rules?: StoryRules;
}

/**
 * A snapshot of a running game at a line- or char-input prompt: Quetzal RAM + stacks, VM I/O
 * state, generator state and screen state. Plain data: survives `structuredClone` (Worker
 * messages, IndexedDB).
 */
export interface EngineSnapshot {
  readonly format: 'metattl-engine-snapshot-1';
  readonly md5: string;
  readonly quetzal: Uint8Array;
  readonly vmState: unknown;
  readonly rngState: RngState;
  readonly screen: ScreenState;
  readonly tracking: TrackingState;
}

/** State of the frotz-compatible generator (see frotz-rng.ts). */
export interface RngState {
  seed: number;
  a: number;
  /** Counting mode: 0 when off, else the period n of the sequence 0..n−1 (frotz "interval"). */
  interval: number;
  counter: number;
}

/** Glk grid state kept by the headless GlkOte (status line). */
export interface ScreenState {
  gridLines: Record<string, string[]>;
}

/** End-of-game and score tracking that must survive snapshot/restore. */
export interface TrackingState {
  victorySeen: boolean;
  lastScore: number | null;
  lastMoves: number | null;
  done: boolean;
  endReason: EndReason | null;
  scoreSource: ScoreSource;
}

/**
 * A synchronous engine (one VM + its own Glk instance). Every method runs to completion before it
 * returns; a Z-code infinite loop therefore blocks the calling thread — use `EngineProxy` (worker)
 * whenever the story is untrusted.
 */
export interface Engine {
  readonly info: StoryInfo;
  readonly seed: number;
  /** The observation at the start (after intro actions). */
  readonly start: StepResult;
  step(command: string): StepResult;
  snapshot(): EngineSnapshot;
  /** Throws `EngineError('bad_snapshot')` for a snapshot of another story. */
  restore(snapshot: EngineSnapshot): StepResult;
  /** Restore the start snapshot (generator included); returns the start observation. */
  reset(): StepResult;
}

/** Codes of `StoryFileError` (bad input) and `EngineError` (misuse). */
export type StoryFileErrorCode =
  | 'empty'
  | 'truncated'
  | 'not_zcode'
  | 'glulx'
  | 'unsupported_version'
  | 'blorb_without_zcode'
  /** A header address (static base, high memory, dictionary, …) points outside the file. */
  | 'bad_header';

export type EngineErrorCode = 'bad_snapshot' | 'game_over' | 'no_input_pending' | 'worker_failed';
