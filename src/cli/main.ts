/**
 * `npx metattl <command> …`: headless entry points in Node over the same core as the page.
 * Commands: replay, play, session, evolve, eval. Exit codes: 0 done (also a run stopped at a USD or
 * token cap, which says so), 1 failure (bad story file, unreadable input, provider fault that stops a
 * run), 2 usage error, 130 interrupted (Ctrl-C; resume with --resume). Errors go to stderr as one
 * clear line.
 */
import { evalCommand } from './eval.ts';
import { evolveCommand } from './evolve.ts';
import { playCommand } from './play.ts';
import { replayCommand } from './replay.ts';
import { sessionCommand } from './session.ts';
import { UsageError } from './usage-error.ts';
import { VERSION } from './version.ts';

const USAGE = `Usage: npx metattl <command> [options]

Commands:
  replay <story-file|story-id> --seed N --commands FILE [--json] [--step-timeout-ms MS]
      Replays commands (one per line; an empty line answers a keypress) and prints the
      score after each step. A story id (e.g. zork1) is looked up in STORIES_DIR.
      --seed random draws a seed and reports it (every command that takes --seed).
  play <story-file|story-id> --base-url URL --actor-model M [--seed N] [--steps S]
       [--api-key K | env OPENAI_API_KEY] [--guide TEXT] [--max-usd X] [--stream]
       [--json] [--out trajectory.json]
      The actor LLM plays one episode (at most S steps, default 50).
  session <story> --base-url URL --actor-model M --meta-model M [--seed N]
       [--policy static|reflexion|memory|naive|fact-bank|credit-assignment|route-script|FILE]
       [--episodes K] [--steps S] [--guide TEXT] [--context-window TOKENS]
       [--store DIR [--resume RUN_ID]] [--max-usd X] [--json] [--out session.json]
      A test-time-learning session: K episodes (default 6) with the policy between them.
  Every command that calls a model also takes --provider NAME, --api-key K, --timeout-ms,
  --max-retries, --concurrency, --max-usd X, --max-total-tokens N, --drop-sdk-headers and
  --price MODEL=IN/OUT (USD per million tokens; repeatable).
  evolve --train story:seed,... --val story:seed,... --store DIR --base-url URL
       --actor-model M --meta-model M --proposer-model M [--repeats R] [--episodes K]
       [--steps S] [--budget N] [--proposer llm|random] [--rng-seed N] [--max-usd X]
       [--resume [--id RUN_ID]] [--json]
      Evolves the meta-agent's strategy section (GEPA-style); N = metric calls (sessions).
      Task sets: ID (detective, zork1, temple) and OOD (balances, library, zork3).
  eval --policies static,reflexion,memory,naive,fact-bank,FILE,... --tasks ID,OOD|story:seed,...
       --out DIR --base-url URL --actor-model M --meta-model M [--repeats R] [--episodes K]
       [--steps S] [--baseline POLICY] [--store DIR [--resume RUN_ID]] [--max-usd X]
      Compares policies with 95% hierarchical-bootstrap intervals; writes results.json,
      summary.csv and report.md.
`;

/** Run the CLI; returns the process exit code. */
export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  try {
    switch (command) {
      case '--version':
      case 'version':
        process.stdout.write(`metattl ${VERSION}\n`);
        return 0;
      case 'replay':
        return await replayCommand(rest);
      case 'play':
        return await playCommand(rest);
      case 'session':
        return await sessionCommand(rest);
      case 'evolve':
        return await evolveCommand(rest);
      case 'eval':
        return await evalCommand(rest);
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`metattl: ${(error as Error).message.split('\n')[0]}\nRun "npx metattl --help" for the options.\n`);
      return 2;
    }
    process.stderr.write(`metattl: ${(error as Error).name}: ${(error as Error).message}\n`);
    return 1;
  }
}
