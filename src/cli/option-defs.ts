/**
 * One definition per command-line option, used both to build `node:util` parseArgs' config and to
 * write the command's `--help` page, so the help cannot drift from what the parser accepts. Every
 * CLI command parses its arguments through `parseCommand` (test/cli-help.test.ts checks that no
 * module calls parseArgs on its own). Light on purpose: `metattl --help` loads it and nothing of
 * the core beyond the lists of names it shows.
 */
import { parseArgs } from 'node:util';

/** One option: what parseArgs needs (type, multiple, default) and what the help page says. */
export interface OptionDef {
  readonly type: 'string' | 'boolean';
  /** Repeatable: every occurrence is kept (parseArgs `multiple`). */
  readonly multiple?: boolean;
  /** The value parseArgs fills in when the option is absent. */
  readonly default?: string | boolean;
  /** The default the command applies itself after parsing (e.g. "6; web tasks 3"), said on the help page only. */
  readonly defaultText?: string;
  /** The value's placeholder on the help page, e.g. `DIR` in `--store DIR` (string options). */
  readonly value?: string;
  /** One line: what the option does. */
  readonly description: string;
  /** `provider`: one of the model / provider options every model-calling command shares (listed apart). */
  readonly group?: 'provider';
}

/** Options by their long name (without `--`). */
export type OptionDefs = Readonly<Record<string, OptionDef>>;

/** A command's help page and parser: the name as typed (`evolve add-candidate`), one line for the index, synopsis lines, notes, options. */
export interface CommandSpec {
  readonly name: string;
  /** One line in `metattl --help` (at most 72 characters). */
  readonly summary: string;
  /** The longer paragraph heading the command's own page (default: the summary). */
  readonly description?: string;
  /** What follows `npx metattl <name>` on the usage line(s), e.g. `<story> --commands FILE [options]`. */
  readonly synopsis: readonly string[];
  /** Paragraphs after the options (each may hold several sentences; wrapped to 100 columns). */
  readonly notes?: readonly string[];
  /** Whether the command takes positional arguments (parseArgs `allowPositionals`). */
  readonly positionals: boolean;
  readonly options: OptionDefs;
}

/** parseArgs' config for a set of definitions: each option's type, multiple and default, nothing else. */
export type ParseConfigOf<T extends OptionDefs> = { -readonly [K in keyof T]: Pick<T[K], Extract<keyof T[K], 'type' | 'multiple' | 'default'>> };

/** The parseArgs `options` object for `defs` (help-only fields dropped). */
export function parseConfig<const T extends OptionDefs>(defs: T): ParseConfigOf<T> {
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; default?: string | boolean }> = {};
  for (const [name, def] of Object.entries(defs)) {
    config[name] = { type: def.type, ...(def.multiple ? { multiple: true } : {}), ...(def.default !== undefined ? { default: def.default } : {}) };
  }
  return config as ParseConfigOf<T>;
}

/**
 * Parse a command's argv with its definitions (strict: an unknown option throws parseArgs'
 * ERR_PARSE_ARGS_UNKNOWN_OPTION, which main.ts turns into exit 2).
 * @returns parseArgs' `{ values, positionals }`
 */
export function parseCommand<const S extends CommandSpec>(spec: S, args: string[]) {
  return parseArgs({ args, options: parseConfig(spec.options as S['options']), allowPositionals: spec.positionals as S['positionals'] });
}

const WIDTH = 100;

/** Wrap `text` to `width` columns, every line prefixed by `indent`. */
export function wrap(text: string, indent: string, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

/** `--name VALUE` (or `--name` for a boolean) as the help page shows it. */
export function optionLabel(name: string, def: OptionDef): string {
  return def.type === 'boolean' ? `--${name}` : `--${name} ${def.value ?? 'VALUE'}`;
}

/** The option's description with its default and repeatability, as one paragraph. */
export function optionText(def: OptionDef): string {
  const dflt = def.defaultText ?? (typeof def.default === 'string' ? def.default : undefined);
  const extras = [dflt !== undefined ? `default: ${dflt}` : '', def.multiple ? 'repeatable' : ''].filter(Boolean);
  return extras.length ? `${def.description} (${extras.join('; ')})` : def.description;
}

function optionLines(defs: [string, OptionDef][]): string[] {
  return defs.flatMap(([name, def]) => [`  ${optionLabel(name, def)}`, ...wrap(optionText(def), '      ')]);
}

/** The command's help page: usage, its own options, the provider options it shares, notes. */
export function commandHelp(spec: CommandSpec): string {
  const entries = Object.entries(spec.options);
  const own = entries.filter(([, d]) => d.group !== 'provider');
  const provider = entries.filter(([, d]) => d.group === 'provider');
  const out = [...spec.synopsis.map((s, i) => `${i === 0 ? 'Usage:' : '      '} npx metattl ${spec.name} ${s}`), '', ...wrap(spec.description ?? spec.summary, ''), '', 'Options:', ...optionLines(own)];
  if (provider.length) out.push('', 'Provider and model options:', ...optionLines(provider));
  for (const note of spec.notes ?? []) out.push('', ...wrap(note, ''));
  return out.join('\n') + '\n';
}

/** `metattl --help`: one line per command, then the general paragraphs. */
export function indexHelp(specs: readonly CommandSpec[], paragraphs: readonly string[]): string {
  const width = Math.max(...specs.map((s) => s.name.length)) + 2;
  const out = ['Usage: npx metattl <command> [options]        (npx metattl --version)', '', 'Commands:'];
  for (const spec of specs) out.push(`  ${spec.name.padEnd(width)}${spec.summary}`);
  out.push('', 'Run "npx metattl <command> --help" for a command\'s options (e.g. npx metattl evolve --help).');
  for (const p of paragraphs) out.push('', ...wrap(p, ''));
  return out.join('\n') + '\n';
}
