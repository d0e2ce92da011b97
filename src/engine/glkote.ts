/**
 * Our GlkOte: consumes glkapi's RemGlk-style JSON updates (windows, content, input requests,
 * special input, exit) and keeps the state a headless player needs — buffer-window text since the
 * last step, grid windows (status line), the pending input request. Follows the GlkOte protocol
 * of glkote-term/glkapi.js (Plotkin, "GlkOte" data formats). DOM-free: the same class serves the
 * Worker, the CLI and the tests; the page renders what the engine returns.
 */
import { explainInterpreterError } from './errors.ts';
import type { ScreenState } from './interface.ts';

/** One run of styled text: the protocol sends either flat [style, text, …] arrays or objects. */
type Span = string | { style?: string; text?: string };

interface Paragraph {
  append?: boolean;
  content?: Span[];
}

interface WindowUpdate {
  id: number;
  type?: string;
  rock?: number;
  gridwidth?: number;
  gridheight?: number;
}

interface ContentUpdate {
  id: number;
  text?: Paragraph[];
  lines?: { line: number; content?: Span[] }[];
  clear?: boolean;
}

interface InputRequest {
  id: number;
  gen?: number;
  type: 'line' | 'char';
  maxlen?: number;
}

/** A file prompt raised by glk_fileref_create_by_prompt. */
export interface SpecialInput {
  type: string;
  filemode?: string;
  filetype?: string;
}

/** The subset of an update message we read. */
export interface GlkUpdate {
  type: string;
  gen?: number;
  windows?: WindowUpdate[];
  content?: ContentUpdate[];
  input?: InputRequest[];
  specialinput?: SpecialInput;
  disable?: boolean;
  message?: string;
}

/** The event-accepting interface glkapi hands to GlkOte.init (its init options, with `Glk`). */
export interface GlkInterface {
  accept(event: Record<string, unknown>): void;
  /** The Glk API object the VM prints through (glkapi passes its init options here). */
  Glk?: Record<string, unknown>;
}

/**
 * Most characters of screen output one step may produce (about 200 KB; a normal step prints a few
 * hundred). Output beyond it is dropped as it is printed — before glkapi accumulates it — so a
 * story that prints forever keeps memory flat until the watchdog ends the step, and the
 * observation says the output was cut.
 */
export const MAX_STEP_OUTPUT_CHARS = 200_000;

/** The note appended to a step's text whose output was cut at `limit` characters. */
export function outputCutNote(limit: number): string {
  return `[Output cut: the story printed more than ${limit.toLocaleString('en-US')} characters in this step; the rest was dropped.]`;
}

/** glkapi's stream type of a window's stream and window type of a text buffer (glkapi.js
 * `strtype_Window`, `Const.wintype_TextBuffer`). Grid windows are bounded by their size. */
const STRTYPE_WINDOW = 2;
const WINTYPE_TEXT_BUFFER = 3;

/** Display metrics reported to glkapi: an 80×25 character screen. */
const METRICS = {
  width: 80, height: 25,
  buffercharwidth: 1, buffercharheight: 1, buffermarginx: 0, buffermarginy: 0,
  gridcharwidth: 1, gridcharheight: 1, gridmarginx: 0, gridmarginy: 0,
  graphicsmarginx: 0, graphicsmarginy: 0,
  inspacingx: 0, inspacingy: 0, outspacingx: 0, outspacingy: 0,
};

export class HeadlessGlkOte {
  /** Generation number of the latest update; events must echo it. */
  generation = 0;
  /** The pending line/char input request, if any. */
  input: InputRequest | null = null;
  specialInput: SpecialInput | null = null;
  exited = false;
  /** A fatal VM/Glk error message, if one was reported. */
  errorMessage: string | null = null;
  private iface: GlkInterface | null = null;
  private readonly windows = new Map<number, { type: string; rock: number; width: number; height: number }>();
  private gridLines = new Map<number, string[]>();
  private text = '';
  /** The upper-window text (grid lines beyond the status line) last added to `text`. */
  private upperShown = '';
  /** Characters printed to windows since the last `takeText`, counting dropped ones. */
  private printed = 0;
  private cut = false;

  /** @param maxStepOutputChars the per-step output cap, characters (default MAX_STEP_OUTPUT_CHARS) */
  constructor(private readonly maxStepOutputChars = MAX_STEP_OUTPUT_CHARS) {}

  /** Called by glkapi's init: remember the interface, cap the Glk output, send the `init` event. */
  init(iface: GlkInterface): void {
    this.iface = iface;
    if (iface.Glk) this.capOutput(iface.Glk);
    iface.accept({ type: 'init', gen: 0, metrics: METRICS, support: [] });
  }

  /** True when this step's output went over the cap (reset by `takeText`). */
  get outputCut(): boolean {
    return this.cut;
  }

  /**
   * Wrap the Glk calls ifvms prints through so that text-buffer window output beyond the per-step
   * cap is dropped (grid windows, file and memory streams are untouched). Counts UTF-16 code units.
   */
  private capOutput(glk: Record<string, unknown>): void {
    const current = glk.glk_stream_get_current as (() => unknown) | undefined;
    const admit = (stream: unknown, length: number): boolean => {
      const str = stream as { type?: number; win?: { type?: number } | null } | null;
      if (str?.type !== STRTYPE_WINDOW || str.win?.type !== WINTYPE_TEXT_BUFFER) return true;
      this.printed += length;
      if (this.printed <= this.maxStepOutputChars) return true;
      this.cut = true;
      return false;
    };
    const wrap = (name: string, streamOf: (args: unknown[]) => unknown, lengthOf: (args: unknown[]) => number): void => {
      const original = glk[name];
      if (typeof original !== 'function') return;
      glk[name] = (...args: unknown[]) => (admit(streamOf(args), lengthOf(args)) ? original(...args) : undefined);
    };
    const textLength = (value: unknown): number => (typeof value === 'string' || Array.isArray(value) ? value.length : 1);
    const currentStream = (): unknown => current?.();
    for (const name of ['glk_put_jstring', 'glk_put_char', 'glk_put_char_uni', 'glk_put_string', 'glk_put_string_uni', 'glk_put_buffer', 'glk_put_buffer_uni']) {
      wrap(name, currentStream, (args) => textLength(args[0]));
    }
    for (const name of ['glk_put_jstring_stream', 'glk_put_char_stream', 'glk_put_char_stream_uni', 'glk_put_string_stream', 'glk_put_string_stream_uni', 'glk_put_buffer_stream', 'glk_put_buffer_stream_uni']) {
      wrap(name, (args) => args[0], (args) => textLength(args[1]));
    }
  }

  /** Send an event to the game (line, char, specialresponse) with the current generation. */
  send(event: Record<string, unknown>): void {
    if (!this.iface) throw new Error('GlkOte not initialised');
    this.iface.accept({ ...event, gen: this.generation });
  }

  update(data: GlkUpdate): void {
    if (data.type === 'exit') {
      this.exited = true;
      this.input = null;
    }
    if (data.type !== 'update' && data.type !== 'exit') return;
    if (typeof data.gen === 'number') this.generation = data.gen;
    if (data.windows) this.updateWindows(data.windows);
    if (data.content) {
      // Grids first: a quote box or chapter card comes before the buffer text of the same update.
      const grids = data.content.filter((c) => c.lines);
      for (const c of grids) this.updateContent(c);
      if (grids.length || data.windows) this.noteUpperWindow();
      for (const c of data.content) if (!c.lines) this.updateContent(c);
    }
    if (data.input) this.input = data.input.find((i) => i.type === 'line' || i.type === 'char') ?? null;
    this.specialInput = data.specialinput ?? null;
    if (data.disable) this.input = null;
  }

  /** A fatal VM/Glk error: kept in the user's terms (interpreter internals explained). */
  error(message: unknown): void {
    this.errorMessage = explainInterpreterError(message);
  }

  log(): void {}
  warning(): void {}
  getinterface(): GlkInterface | null {
    return this.iface;
  }

  /**
   * Text printed since the last call: buffer windows (player's echoed input excluded) and any new
   * upper-window text beyond the status line (quote boxes, chapter cards), in the order shown; when
   * the output went over the per-step cap, what was kept plus `outputCutNote`.
   */
  takeText(): string {
    let out = this.text.replace(/^\n+/, '');
    if (this.cut) out = `${out.replace(/\n+$/, '')}\n${outputCutNote(this.maxStepOutputChars)}\n`;
    this.text = '';
    this.printed = 0;
    this.cut = false;
    return out;
  }

  /** The first row of the top-most grid window, trimmed and with runs of spaces collapsed. */
  statusLine(): string {
    const status = this.statusRow();
    return status ? this.gridLines.get(status.id)![status.row]!.trim().replace(/\s{2,}/g, '  ') : '';
  }

  /** Grid text other than the status line: every non-blank grid line, right-trimmed. */
  upperWindowText(): string {
    const status = this.statusRow();
    const out: string[] = [];
    for (const [id, w] of this.windows) {
      if (w.type !== 'grid') continue;
      for (const [row, line] of (this.gridLines.get(id) ?? []).entries()) {
        if (line.trim() !== '' && !(status && status.id === id && status.row === row)) out.push(line.trimEnd());
      }
    }
    return out.join('\n');
  }

  /** Where the status line is: the first non-blank row of the first grid window that has one. */
  private statusRow(): { id: number; row: number } | null {
    for (const [id, w] of this.windows) {
      if (w.type !== 'grid') continue;
      const row = (this.gridLines.get(id) ?? []).findIndex((l) => l.trim() !== '');
      if (row >= 0) return { id, row };
    }
    return null;
  }

  /** Add the upper-window text to the step's text when it changed to something new. */
  private noteUpperWindow(): void {
    const upper = this.upperWindowText();
    if (upper !== this.upperShown && upper !== '') this.text += `\n${upper}\n`;
    this.upperShown = upper;
  }

  saveScreen(): ScreenState {
    const gridLines: Record<string, string[]> = {};
    for (const [id, lines] of this.gridLines) gridLines[id] = [...lines];
    return { gridLines };
  }

  restoreScreen(state: ScreenState): void {
    this.gridLines = new Map(Object.entries(state.gridLines).map(([id, lines]) => [Number(id), [...lines]]));
    this.upperShown = this.upperWindowText();
    this.text = '';
  }

  private updateWindows(list: WindowUpdate[]): void {
    const seen = new Set<number>();
    for (const w of list) {
      seen.add(w.id);
      this.windows.set(w.id, { type: w.type ?? 'buffer', rock: w.rock ?? 0, width: w.gridwidth ?? 0, height: w.gridheight ?? 0 });
      if (w.type === 'grid') {
        const lines = this.gridLines.get(w.id) ?? [];
        lines.length = w.gridheight ?? 0;
        this.gridLines.set(w.id, Array.from(lines, (l) => l ?? ''));
      }
    }
    for (const id of [...this.windows.keys()]) {
      if (!seen.has(id)) {
        this.windows.delete(id);
        this.gridLines.delete(id);
      }
    }
  }

  private updateContent(c: ContentUpdate): void {
    const win = this.windows.get(c.id);
    if (c.lines) {
      const lines = this.gridLines.get(c.id) ?? [];
      for (const l of c.lines) lines[l.line] = spansToText(l.content ?? [], false);
      this.gridLines.set(c.id, lines);
    }
    if (c.text && (!win || win.type === 'buffer')) {
      for (const p of c.text) {
        if (!p.append) this.text += '\n';
        this.text += spansToText(p.content ?? [], true);
      }
    }
  }
}

/** Control characters a terminal would not show (C0 except tab/newline, DEL, C1): dfrotz drops them. */
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Join styled runs; optionally drop the echo of the player's input (style "input"). */
function spansToText(spans: Span[], skipInput: boolean): string {
  return joinSpans(spans, skipInput).replace(CONTROL, '');
}

function joinSpans(spans: Span[], skipInput: boolean): string {
  let out = '';
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i];
    if (typeof s === 'string') {
      const text = spans[i + 1];
      i++;
      if (typeof text === 'string' && !(skipInput && s === 'input')) out += text;
    } else if (s && !(skipInput && s.style === 'input')) {
      out += s.text ?? '';
    }
  }
  return out;
}
