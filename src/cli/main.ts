/**
 * `npx metattl <command> …`: headless entry points in Node over the same core as the page.
 * Commands: replay, play, session, evolve, eval, tasks, oracle, stories get, stories overlap, probe recall, experiment, room. Exit codes: 0 done (also a run stopped at a USD or
 * token cap, which says so), 1 failure (bad story file, unreadable input, provider fault that stops a
 * run, a replay ending in interpreter_error / interpreter_hang), 2 usage error, 130 interrupted (Ctrl-C; resume with --resume). Errors go to stderr as one
 * clear line.
 */
import { runExitHooks } from './exit-hooks.ts';
import { explainInterpreterError } from '../engine/errors.ts';
import { scrubText } from '../common/secrets.ts';
// Each command's module (and the engine, LLM client, jsdom… it pulls in) loads only when that
// command runs, so `--help`, `--version` and usage errors start fast.
import { UsageError } from './usage-error.ts';
import { VERSION } from './version.ts';

/**
 * The help `argv` asks for, or null when it asks for none: `metattl --help` / `help` / no command
 * → the command list; `metattl <command> … --help` or `metattl help <command>` → that command's
 * page (commands.ts, built from the option definitions its parser uses); `stories --help` → the
 * list of the stories commands.
 * @throws UsageError for help on an unknown command
 */
async function helpText(argv: string[]): Promise<string | null> {
  const [command, ...rest] = argv;
  const wantsHelp = command === undefined || command === '--help' || command === '-h' || command === 'help' || rest.includes('--help') || rest.includes('-h');
  if (!wantsHelp) return null;
  const { COMMANDS, GENERAL_NOTES, commandOf } = await import('./commands.ts');
  const { commandHelp, indexHelp } = await import('./option-defs.ts');
  const target = command === 'help' ? rest : command === '--help' || command === '-h' ? [] : argv;
  if (target.length === 0) return indexHelp(COMMANDS, GENERAL_NOTES);
  const spec = commandOf(target);
  if (spec) return commandHelp(spec);
  const family = COMMANDS.filter((c) => c.name.startsWith(`${target[0]} `));
  if (family.length) return indexHelp(family, []);
  throw new UsageError(`unknown command "${target[0]}"`);
}


/** Make `stream` scrub every registered API key from what is written to it (common/secrets.ts). */
function scrubWrites(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? scrubText(chunk) : chunk, ...rest)) as typeof stream.write;
}

/** Run the CLI; returns the process exit code. Nothing it prints holds the API key. */
export async function run(argv: string[]): Promise<number> {
  scrubWrites(process.stdout);
  scrubWrites(process.stderr);
  const [command, ...rest] = argv;
  try {
    const help = await helpText(argv);
    if (help !== null) {
      process.stdout.write(help);
      return command === undefined ? 2 : 0;
    }
    switch (command) {
      case '--version':
      case 'version':
        process.stdout.write(`metattl ${VERSION}\n`);
        return 0;
      case 'replay':
        return await (await import('./replay.ts')).replayCommand(rest);
      case 'play':
        return await (await import('./play.ts')).playCommand(rest);
      case 'session':
        return await (await import('./session.ts')).sessionCommand(rest);
      case 'evolve':
        return await (await import('./evolve.ts')).evolveCommand(rest);
      case 'eval':
        return await (await import('./eval.ts')).evalCommand(rest);
      case 'tasks':
        return await (await import('./web-tasks.ts')).tasksCommand(rest);
      case 'oracle':
        return await (await import('./web-tasks.ts')).oracleCommand(rest);
      case 'stories':
        return await (await import('./stories-get.ts')).storiesCommand(rest);
      case 'experiment':
        return await (await import('./experiment.ts')).experimentCommand(rest);
      case 'room':
        return await (await import('./room.ts')).roomCommand(rest);
      case 'probe':
        if (rest[0] !== 'recall') throw new UsageError(`probe: unknown probe "${rest[0] ?? ''}" (recall)`);
        return await (await import('./probe-recall.ts')).probeRecallCommand(rest.slice(1));
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS')) {
      const spec = (await import('./commands.ts')).commandOf(argv);
      process.stderr.write(`metattl: ${(error as Error).message.split('\n')[0]}\nRun "npx metattl${spec ? ` ${spec.name}` : ''} --help" for the options.\n`);
      return 2;
    }
    const explained = explainInterpreterError(error);
    const name = (error as Error).name;
    // Interpreter internals (RangeError, …) are said in the user's terms, without the JS name.
    process.stderr.write(explained !== (error as Error).message || name === 'LocalModelMissingError' ? `metattl: ${explained}\n` : `metattl: ${name}: ${explained}\n`);
    return 1;
  } finally {
    // A local model holds native memory and threads; free it so the process can exit.
    await runExitHooks();
  }
}
