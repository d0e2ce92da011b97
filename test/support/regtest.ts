/**
 * Golden transcripts in Andrew Plotkin's RegTest format (regtest.py 1.8, shipped in
 * node_modules/glkote-term/tests; see eblong.com/zarf/plotex/regtest.html). Parsing and checking
 * are separate from how a command reaches the game, so the same `.regtest` file runs against the
 * engine in Node and against the built page in Chromium. Mirrors regtest.py's parse_tests,
 * Command, LiteralCheck, RegExpCheck and LiteralCountCheck; imports nothing from src/.
 */

/** One input of a test. `fileref_prompt` names a save/restore file; our engine answers file
 * prompts itself, so it sends nothing. Timer, hyperlink, refresh, arrange and debug inputs are
 * parsed but not supported by our players (running one is a failure). */
export type RegtestInput =
  | { type: 'line'; value: string }
  /** `value`: one character, '\n' for Return, or a Glk key name ('left', 'escape', 'func1', …). */
  | { type: 'char'; value: string }
  | { type: 'fileref_prompt'; value: string }
  | { type: 'timer' | 'hyperlink' | 'refresh' | 'arrange' | 'debug'; value: string };

/** A check on the output of one input. Checks look at one output line at a time (a paragraph of
 * the story window, or a row of the status window), as regtest.py does. */
export interface RegtestCheck {
  /** literal: substring; regex: JavaScript RegExp source (regtest.py uses Python `re.search`);
   * count: the substring occurs at least `count` times, overlaps included. */
  kind: 'literal' | 'regex' | 'count';
  pattern: string;
  /** Minimum number of occurrences (1 unless `{count=N}`). */
  count: number;
  /** `!` or `{invert}`: the check passes when the plain check fails. */
  inverse: boolean;
  /** `{status}`: look at the status (grid) window instead of the story window. */
  inStatus: boolean;
  /** `{vital}`: a failure ends the test case. */
  vital: boolean;
  /** The check line as written in the file (for messages). */
  source: string;
}

export interface RegtestCommand {
  input: RegtestInput;
  checks: RegtestCheck[];
}

/** One `* name` section: one session of the game from its start. */
export interface RegtestCase {
  name: string;
  /** `** game:` inside the section, else the file's. */
  gameFile: string | null;
  /** Checks on the text printed before the first input (the prologue). */
  initChecks: RegtestCheck[];
  /** The inputs, `** pre:` commands first and `{include}` sections expanded in place. */
  commands: RegtestCommand[];
  /** Names starting with '-' or '_' are left out of a run of all tests (regtest.py). */
  hidden: boolean;
}

export interface Regtest {
  gameFile: string | null;
  /** `** remformat: yes`: the file expects a RemGlk (JSON) interpreter, i.e. a status window. */
  remFormat: boolean;
  cases: RegtestCase[];
}

/** What a player returns for the game's start and for each input. `StepResult` fits. */
export interface RegtestOutput {
  /** Story-window text of this turn; lines are separated by '\n'. */
  text: string;
  /** The status window: its rows, or one string for its first row ('' when there is none). */
  statusLine: string | readonly string[];
  /** The input the game waits for next, when the player knows it (checked like regtest.py). */
  inputKind?: 'line' | 'char' | null;
  /** An interpreter fault: reported as a failure and ends the case. */
  fault?: { kind: string; message: string } | null;
}

/** A game session to run a case against: a fresh `Engine` fits as is. `step` receives a line, or
 * for a char input the character ('' for Return). */
export interface RegtestPlayer {
  readonly start: RegtestOutput | PromiseLike<RegtestOutput>;
  step(command: string): RegtestOutput | PromiseLike<RegtestOutput>;
}

const INPUT_TYPES = new Set(['line', 'char', 'timer', 'hyperlink', 'refresh', 'arrange', 'include', 'fileref_prompt', 'debug']);
const GLK_KEY_NAMES = new Set([
  'left', 'right', 'up', 'down', 'return', 'delete', 'escape', 'tab', 'pageup', 'pagedown', 'home', 'end',
  ...Array.from({ length: 12 }, (_, i) => `func${i + 1}`),
]);

type RawCommand = { input: RegtestInput | { type: 'include'; value: string }; checks: RegtestCheck[] };
type RawCase = { name: string; gameFile: string | null; initChecks: RegtestCheck[]; commands: RawCommand[] };

/**
 * Parse a `.regtest` file.
 * @throws Error (with the line number) on what regtest.py rejects, and on checks that need raw
 *   Glk data we do not keep (`{graphics}`, `{hyperlink=N}`, `{image=N}`, `{json …}`).
 */
export function parseRegtest(text: string): Regtest {
  let gameFile: string | null = null;
  let remFormat = false;
  const pre: RawCommand[] = [];
  const cases: RawCase[] = [];
  let current: RawCase | null = null;
  let checks: RegtestCheck[] | null = null;
  text.split(/\r?\n/).forEach((raw, index) => {
    const where = `line ${index + 1}`;
    const ln = raw.trim();
    if (!ln || ln.startsWith('#')) return;
    if (ln.startsWith('**')) {
      const body = ln.slice(2).trim();
      const colon = body.indexOf(':');
      if (colon < 0) return;
      const key = body.slice(0, colon).trim();
      const value = body.slice(colon + 1).trim();
      if (current && key === 'game') current.gameFile = value;
      else if (current) throw new Error(`${where}: option "** ${key}" not allowed inside "* ${current.name}"`);
      else if (key === 'game') gameFile = value;
      else if (key === 'remformat') remFormat = value.toLowerCase() > 'og'; // regtest.py's test for "yes"/"on"
      else if (key === 'pre' || key === 'precommand') pre.push({ input: parseInput(value, where), checks: [] });
      else if (key !== 'interpreter') throw new Error(`${where}: unsupported option "** ${key}"`);
      return;
    }
    if (ln.startsWith('*')) {
      const name = ln.slice(1).trim();
      if (cases.some((c) => c.name === name)) throw new Error(`${where}: test name used twice: ${name}`);
      current = { name, gameFile: null, initChecks: [], commands: [] };
      cases.push(current);
      checks = current.initChecks;
      return;
    }
    if (!current || !checks) throw new Error(`${where}: "${ln}" comes before the first "* test"`);
    if (ln.startsWith('>')) {
      const command: RawCommand = { input: parseInput(ln.slice(1), where), checks: [] };
      current.commands.push(command);
      checks = command.checks;
      return;
    }
    checks.push(parseCheck(ln, where));
  });
  const byName = new Map(cases.map((c) => [c.name, c]));
  return {
    gameFile,
    remFormat,
    cases: cases.map((c) => ({
      name: c.name, gameFile: c.gameFile ?? gameFile, initChecks: c.initChecks,
      commands: expand([...pre, ...c.commands], byName, [c.name]), hidden: /^[-_]/.test(c.name),
    })),
  };
}

/** Replace `{include} name` by that section's commands, recursively (regtest.py list_commands). */
function expand(commands: RawCommand[], byName: Map<string, RawCase>, nested: string[]): RegtestCommand[] {
  const out: RegtestCommand[] = [];
  for (const command of commands) {
    const input = command.input;
    if (input.type !== 'include') {
      out.push({ input, checks: command.checks });
      continue;
    }
    const included = byName.get(input.value);
    if (!included) throw new Error(`included test not found: ${input.value}`);
    if (nested.includes(input.value)) throw new Error(`included test includes itself: ${input.value}`);
    out.push(...expand(included.commands, byName, [...nested, input.value]));
  }
  return out;
}

/** A `>` line without its '>': optional `{type}` prefix, then the argument. */
function parseInput(body: string, where: string): RawCommand['input'] {
  const prefix = /^\{([a-z_]*)\}/.exec(body);
  if (!prefix) return { type: 'line', value: body.trim() };
  const type = prefix[1] ?? '';
  const value = body.slice(prefix[0].length).trim();
  if (!INPUT_TYPES.has(type)) throw new Error(`${where}: unknown command type {${type}}`);
  if (type === 'char') return { type: 'char', value: parseChar(value, where) };
  return { type, value } as RawCommand['input'];
}

/** A `{char}` argument: '' = Return, one character, a Glk key name, 'space', 0xHEX or decimal. */
function parseChar(arg: string, where: string): string {
  if (arg.length === 0) return '\n';
  if (arg.length === 1) return arg;
  const lower = arg.toLowerCase();
  if (GLK_KEY_NAMES.has(lower)) return lower;
  if (lower === 'space') return ' ';
  const code = lower.startsWith('0x') ? Number.parseInt(lower.slice(2), 16) : /^\d+$/.test(arg) ? Number(arg) : NaN;
  if (Number.isNaN(code)) throw new Error(`${where}: unable to interpret char "${arg}"`);
  return String.fromCodePoint(code);
}

/** A check line: `!`, `{invert}`, `{status}`, `{vital}` prefixes, then `/regex`, `{count=N} text`
 * or a literal. As in regtest.py the regex is everything after the slash (no closing slash). */
function parseCheck(source: string, where: string): RegtestCheck {
  let ln = source;
  const flags = { inverse: false, inStatus: false, vital: false };
  for (let m = /^(?:!|\{[a-z]*\})/.exec(ln); m; m = /^(?:!|\{[a-z]*\})/.exec(ln)) {
    ln = ln.slice(m[0].length).trim();
    if (m[0] === '!' || m[0] === '{invert}') flags.inverse = true;
    else if (m[0] === '{status}') flags.inStatus = true;
    else if (m[0] === '{vital}') flags.vital = true;
    else throw new Error(`${where}: unsupported check modifier ${m[0]}`);
  }
  if (ln.startsWith('/')) {
    const pattern = ln.slice(1).trim();
    new RegExp(pattern); // throws SyntaxError now rather than during a run
    return { kind: 'regex', pattern, count: 1, ...flags, source };
  }
  const count = /^\{count=(\d+)\}/.exec(ln);
  if (count) return { kind: 'count', pattern: ln.slice(count[0].length).trim(), count: Number(count[1]), ...flags, source };
  if (/^\{(?:hyperlink=|image=|json )/.test(ln)) throw new Error(`${where}: unsupported check (needs raw Glk data): ${ln}`);
  return { kind: 'literal', pattern: ln, count: 1, ...flags, source };
}

/** Evaluate one check on output lines. @returns null when it passes, else why it failed. */
export function evaluateCheck(check: RegtestCheck, lines: readonly string[]): string | null {
  let result: string | null;
  if (check.kind === 'regex') {
    const re = new RegExp(check.pattern);
    result = lines.some((l) => re.test(l)) ? null : 'not found';
  } else {
    let found = 0;
    for (const l of lines) {
      for (let at = l.indexOf(check.pattern); at >= 0 && found < check.count; at = l.indexOf(check.pattern, at + 1)) found++;
    }
    result = found >= check.count ? null : found === 0 ? 'not found' : `only found ${found} times`;
  }
  if (!check.inverse) return result;
  return result ? null : 'inverse test should fail';
}

/** Lines a check looks at: story text split at newlines, or the status rows. */
function linesFor(check: RegtestCheck, text: string, statusLine: string | readonly string[]): readonly string[] {
  if (!check.inStatus) return text.split('\n');
  return typeof statusLine === 'string' ? [statusLine] : statusLine;
}

/**
 * Run checks on one turn's output.
 * @returns failure messages, `<check line>: <reason>`; empty when all pass.
 */
export function checkOutput(checks: readonly RegtestCheck[], text: string, statusLine: string | readonly string[]): string[] {
  const failures: string[] = [];
  for (const check of checks) {
    const why = evaluateCheck(check, linesFor(check, text, statusLine));
    if (why) failures.push(`${check.source}: ${why}`);
  }
  return failures;
}

/** How a `RegtestInput` is sent through `RegtestPlayer.step`, or null when it is not supported. */
export function commandFor(input: RegtestInput): string | null {
  if (input.type === 'line') return input.value;
  if (input.type === 'char') return input.value === '\n' || input.value === 'return' ? '' : input.value.length === 1 ? input.value : null;
  return null;
}

/**
 * Play one case from the game's start and run its checks. A `{fileref_prompt}` input sends
 * nothing: the player answered the prompt within the previous step, so its checks look at that
 * step's output. A thrown error, a fault, an unsupported input, an input of the wrong kind or a
 * failed `{vital}` check ends the case (as regtest.py does).
 * @returns failure messages prefixed with the input they follow; empty when the case passes.
 */
export async function runRegtestCase(player: RegtestPlayer, testCase: RegtestCase): Promise<string[]> {
  const failures: string[] = [];
  let label = '(start)';
  const record = (checks: readonly RegtestCheck[], output: RegtestOutput): boolean => {
    let vitalFailed = false;
    for (const check of checks) {
      const why = evaluateCheck(check, linesFor(check, output.text, output.statusLine));
      if (!why) continue;
      failures.push(`${label}: ${check.source}: ${why}`);
      vitalFailed ||= check.vital;
    }
    return vitalFailed;
  };
  try {
    let output = await player.start;
    if (output.fault) return [`${label}: ${output.fault.kind}: ${output.fault.message}`];
    if (record(testCase.initChecks, output)) return failures;
    for (const { input, checks } of testCase.commands) {
      label = `> ${input.type === 'line' ? '' : `{${input.type}} `}${input.value === '\n' ? '' : input.value}`;
      if (input.type !== 'fileref_prompt') {
        const command = commandFor(input);
        if (command === null) return [...failures, `${label}: input type not supported by this player`];
        const expected = input.type === 'char' ? 'char' : 'line';
        if (output.inputKind !== undefined && output.inputKind !== expected) {
          return [...failures, `${label}: the game is not expecting ${expected} input (waits for ${output.inputKind ?? 'nothing'})`];
        }
        output = await player.step(command);
        if (output.fault) return [...failures, `${label}: ${output.fault.kind}: ${output.fault.message}`];
      }
      if (record(checks, output)) return failures;
    }
  } catch (error) {
    failures.push(`${label}: threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  return failures;
}
