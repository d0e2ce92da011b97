/**
 * `metattl --help` and `metattl <command> --help`: each command's page is written from the same
 * option definitions its parser uses (src/cli/commands.ts), so every option the parser accepts is
 * on the page and every option on the page is accepted — checked on the definitions in-process and
 * on the text the built CLI prints. Also the facts the hand-written help had wrong: evolve's
 * merge, proposals and optimizer options, every built-in experiment, and an unpriced model's cost
 * (null / "—", never 0).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandOf, EVOLVE, EXPERIMENT, HELP_NAMES } from '../src/cli/commands.ts';
import { LLM_FLAGS } from '../src/cli/llm-flags.ts';
import { commandHelp, optionLabel, parseCommand, parseConfig } from '../src/cli/option-defs.ts';
import { ACCEPTANCES } from '../src/evolve/rules/acceptance.ts';
import { CANDIDATE_SELECTIONS } from '../src/evolve/rules/candidate-selection.ts';
import { DEFAULT_MAX_MERGES } from '../src/evolve/rules/merge.ts';
import { OPTIMIZERS } from '../src/evolve/rules/opro-proposer.ts';
import { BUILTIN_EXPERIMENTS } from '../src/experiment/builtins.ts';
import { runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';

/** The options a help page lists: lines `  --name [VALUE]`. */
const listedOptions = (page: string): string[] => [...page.matchAll(/^ {2}--([a-z][a-z0-9-]*)(?: \S.*)?$/gm)].map((m) => m[1]!);
const sorted = (xs: Iterable<string>): string[] => [...xs].sort();
/** Flatten the wrapping so a description can be found whole. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

/** Command files that call the model (they build settings from the provider options). */
const MODEL_COMMANDS = ['play', 'session', 'evolve', 'evolve add-candidate', 'eval', 'probe recall', 'experiment', 'room'];

describe('each command parses with the definitions its help page is written from', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))('%s: the page lists exactly the options parseArgs accepts, with description and default', (_name, spec) => {
    const page = commandHelp(spec);
    expect(sorted(listedOptions(page))).toEqual(sorted(Object.keys(parseConfig(spec.options))));
    for (const [name, def] of Object.entries(spec.options)) {
      expect(page).toContain(`  ${optionLabel(name, def)}\n`);
      expect(flat(page)).toContain(flat(def.description));
      const dflt = def.defaultText ?? (typeof def.default === 'string' ? def.default : undefined);
      if (dflt !== undefined) expect(flat(page)).toContain(`default: ${dflt}`);
      // parseArgs accepts the option as the page writes it, and an unknown one is refused.
      const args = def.type === 'boolean' ? [`--${name}`] : [`--${name}`, 'x'];
      const { values } = parseCommand(spec, args);
      expect((values as Record<string, unknown>)[name]).toEqual(def.type === 'boolean' ? true : def.multiple ? ['x'] : 'x');
    }
    expect(() => parseCommand(spec, ['--no-such-option'])).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }));
  });

  it('no CLI module calls parseArgs but option-defs.ts, and every command spec is parsed by some module', () => {
    const dir = join(REPO_ROOT, 'src/cli');
    const sources = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
    expect(Object.entries(sources).filter(([f, text]) => f !== 'option-defs.ts' && /\bparseArgs\s*[(<]|import \{[^}]*\bparseArgs\b/.test(text)).map(([f]) => f)).toEqual([]);
    const parsed = new Set(Object.values(sources).flatMap((text) => [...text.matchAll(/parseCommand(?:<typeof )?\(?([A-Z_]+)\b/g)].map((m) => m[1]!)));
    const exported = /export const COMMANDS: readonly CommandSpec\[\] = \[([^\]]*)\]/.exec(sources['commands.ts']!)![1]!.split(',').map((n) => n.trim());
    expect(exported.length).toBe(COMMANDS.length);
    expect(exported.filter((name) => !parsed.has(name))).toEqual([]);
  });

  it('every command that calls a model takes every provider option, and those that do not take none', () => {
    for (const spec of COMMANDS) {
      const provider = Object.entries(spec.options).filter(([, d]) => d.group === 'provider').map(([k]) => k);
      expect(sorted(provider), spec.name).toEqual(MODEL_COMMANDS.includes(spec.name) ? sorted(Object.keys(LLM_FLAGS)) : []);
    }
  });

  it('the strategy and optimizer names on the evolve page are the core\'s', () => {
    expect(HELP_NAMES.acceptances).toEqual([...ACCEPTANCES]);
    expect(HELP_NAMES.selections).toEqual([...CANDIDATE_SELECTIONS]);
    expect(HELP_NAMES.optimizers).toEqual([...OPTIMIZERS]);
    expect(HELP_NAMES.maxMerges).toBe(DEFAULT_MAX_MERGES);
  });

  it('commandOf finds two-word commands first and nothing for an unknown one', () => {
    expect(commandOf(['evolve', 'add-candidate', '--help'])?.name).toBe('evolve add-candidate');
    expect(commandOf(['evolve', '--train', 'ID'])?.name).toBe('evolve');
    expect(commandOf(['stories', 'overlap'])?.name).toBe('stories overlap');
    expect(commandOf(['stories'])).toBeUndefined();
    expect(commandOf(['nope'])).toBeUndefined();
  });
});

describe('the built CLI prints each command\'s page', () => {
  it('metattl <command> --help and metattl help <command> print the page, listing exactly the parser\'s options (exit 0)', async () => {
    const runs = await Promise.all(COMMANDS.map(async (spec) => ({ spec, page: await runCli([...spec.name.split(' '), '--help']) })));
    for (const { spec, page } of runs) {
      expect(page.code, spec.name).toBe(0);
      expect(page.stdout).toBe(commandHelp(spec));
      expect(page.stdout.startsWith(`Usage: npx metattl ${spec.name} `)).toBe(true);
      expect(sorted(listedOptions(page.stdout))).toEqual(sorted(Object.keys(spec.options)));
    }
    expect(await runCli(['help', 'evolve', 'add-candidate'])).toEqual(runs.find((r) => r.spec.name === 'evolve add-candidate')!.page);
  });

  it('metattl --help lists every command on one line and points to the pages', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    for (const spec of COMMANDS) {
      expect(lines.filter((l) => l.startsWith(`  ${spec.name} `) && l.trimEnd().endsWith(spec.summary))).toHaveLength(1);
      expect(spec.summary.length).toBeLessThanOrEqual(72);
    }
    expect(stdout).toContain('npx metattl <command> --help');
    // No command on the list has its options there: they are on its page.
    expect(listedOptions(stdout)).toEqual([]);
    expect((await runCli([])).code).toBe(2);
    expect((await runCli(['help'])).stdout).toBe(stdout);
  });

  it('the facts the hand-written help had wrong: evolve\'s merge, proposals and optimizer; every built-in experiment; an unpriced model costs null / "—"', async () => {
    const evolve = (await runCli(['evolve', '--help'])).stdout;
    for (const flag of ['--merge', '--max-merges N', '--proposals PxN|N', `--optimizer ${OPTIMIZERS.join('|')}`]) expect(evolve).toContain(`  ${flag}\n`);
    expect(Object.keys(EVOLVE.options)).toEqual(expect.arrayContaining(['merge', 'max-merges', 'proposals', 'optimizer']));
    const experiment = flat((await runCli(['experiment', '--help'])).stdout);
    expect(Object.keys(BUILTIN_EXPERIMENTS)).toEqual(expect.arrayContaining(['optimizer-baselines', 'vocab-ood']));
    for (const name of Object.keys(BUILTIN_EXPERIMENTS)) expect(experiment).toContain(name);
    expect(flat(commandHelp(EXPERIMENT))).toBe(experiment);
    for (const args of [['--help'], ['session', '--help'], ['eval', '--help']]) {
      const text = flat((await runCli(args)).stdout);
      expect(text).toContain('costUsd is null in JSON and "—" in text, never 0');
      expect(text).not.toMatch(/cost 0\b/);
    }
  });

  it('usage errors exit 2 and name the command\'s page', async () => {
    const unknownOption = await runCli(['evolve', 'add-candidate', '--no-such-option']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain("Unknown option '--no-such-option'");
    expect(unknownOption.stderr).toContain('Run "npx metattl evolve add-candidate --help" for the options.');
    const unknownCommand = await runCli(['nope', '--help']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command "nope"');
    expect(unknownCommand.stdout).toBe('');
    const family = await runCli(['stories', '--help']);
    expect(family.code).toBe(0);
    expect(family.stdout).toMatch(/^ {2}stories get /m);
    expect(family.stdout).toMatch(/^ {2}stories overlap /m);
  });
});
