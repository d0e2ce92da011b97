/**
 * `npx metattl <command> …`: headless entry points in Node over the same core as the page.
 * Commands: replay, play, session, evolve, eval, tasks, oracle, stories get, stories overlap, experiment. Exit codes: 0 done (also a run stopped at a USD or
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

const USAGE = `Usage: npx metattl <command> [options]        (npx metattl --version)

Commands:
  replay <story> --commands FILE [--seed N|random] [--json] [--step-timeout-ms MS]
      Replays commands (one per line; an empty line answers a keypress) and prints the
      score after each step. --seed defaults to the catalog's seed for known stories.
  play <story> --base-url URL --actor-model M [--seed N|random] [--steps S] [--guide TEXT]
       [--stream] [--json] [--out trajectory.json] [--step-delay-ms MS]
      The actor LLM plays one episode (at most S steps, default 50).
      --step-delay-ms waits MS before each step but the first (a presenter's pace; results unchanged).
  session <story> --base-url URL --actor-model M --meta-model M [--seed N|random]
       [--policy P | --raw-meta-prompt FILE] [--episodes K] [--steps S] [--guide TEXT]
       [--context-window TOKENS] [--store DIR [--resume RUN_ID [--from-last-good-episode]]]
       [--json] [--out session.json] [--step-delay-ms MS]
      A test-time-learning session: K episodes (default 6) of S steps (default 50).
      --resume checks the stored session first; if it is damaged it stops and names the
      file and first bad record; --from-last-good-episode keeps the intact episodes.
      P: static | reflexion | memory | naive (default) | fact-bank | credit-assignment |
      route-script | human is page-only | FILE (plain text = the strategy section, or JSON
      with a "strategy" field and optional "name" and "selectedOn").
      --raw-meta-prompt FILE: the file's text, byte for byte, is the meta-agent's whole system
      message (no header, no footer; e.g. a published prompt); recorded as raw, kept on resume.
  evolve --train T --val T --store DIR --base-url URL --actor-model M --meta-model M
       --proposer-model M [--repeats R | --train-repeats R --val-repeats R] [--episodes K]
       [--steps S] [--budget N] [--minibatch B] [--proposer llm|random|random-neutral]
       [--edit-sizes N,N,... [--edit-sizes-source TEXT]] [--proposer-input full|no-trace]
       [--proposer-instruction gepa|general-rules] [--rng-seed N] [--max-failures N]
       [--seed-strategy TEXT] [--guide TEXT] [--id RUN_ID] [--resume [--from-last-good] [--allow-changed-settings]] [--json]
       [--selection pareto|current_best|epsilon_greedy|top_k_pareto [--epsilon E] [--top-k K]]
       [--accept strict_improvement|improvement_or_equal] [--stop-no-improvement N]
       [--stop-score X] [--stop-minutes M] [--max-proposer-usd X]
      Evolves the meta-agent's strategy section (GEPA-style). --proposer random-neutral: the
      matched control, random edits from a neutral corpus whose word edit distances are drawn
      from --edit-sizes (the LLM arm's; default: a documented spread). --proposer-input no-trace:
      the LLM proposer sees the parent strategy but no trajectory. N = metric calls: one candidate
      evaluated on one task, whatever its repeats (as in GEPA). A budget that cannot pay for the
      seed's validation plus one full iteration is refused (exit 2).
      Outer-loop strategies by GEPA's names (defaults: pareto, strict_improvement); stop
      conditions besides the budget; a file <store>/STOP stops the run before its next
      iteration (resumable). All are recorded in the run and replayed on --resume.
      --pause-after N pauses the run after iteration N (resumable with --resume).
      --branch RUN_ID --from-iteration N starts a new run from RUN_ID's state after iteration
      N (pool, scores, budget spent, RNG state) with the settings given (budget, strategies,
      proposer, stop conditions; tasks, K, S, repeats, b and seeds stay the source's).
  evolve add-candidate --store DIR --run ID --parent CID (--strategy-file F | --feedback-file F)
       [--json] + the provider flags of evolve
      A person's candidate for a run between iterations, evaluated like a proposal (minibatch,
      acceptance, validation) and charged to its budget; the run pauses there (--resume goes on).
      --feedback-file: the proposer writes the strategy from your feedback.
  eval --policies P,P,... --tasks T --out DIR --base-url URL --actor-model M --meta-model M
       [--repeats R] [--episodes K] [--steps S] [--baseline P] [--bootstrap-seed N]
       [--guide TEXT] [--store DIR [--id RUN_ID | --resume RUN_ID [--from-last-good] [--allow-changed-settings]]] [--json]
       [--contrast A:B ...] [--power-delta X] [--raw-meta-prompt FILE ...]
      Compares policies with 95% hierarchical-bootstrap intervals, per-game Δ and the game-level
      test (t-interval, exact sign-flip p, Holm over each policy vs the baseline and --contrast
      a − b); writes results.json, summary.csv, comparisons.csv and report.md to DIR.
      --raw-meta-prompt FILE adds a policy (id = the file's name without extension) whose
      meta-agent system message is the file's text byte for byte (recorded as raw).
  tasks --kind web [--set WEB-ID-train|WEB-ID-val|WEB-ID-test|WEB-OOD] [--json]
      Lists every web task instance (id web:<site>/<template>:<seed>, site, template, intent,
      check, split).
  oracle <web task> [--wrong] [--json]
      Plays the task's oracle script (or its wrong script) in Node and prints the reward.
  stories get <game…|--suite jericho|--suite paper> [--mirror BASE] [--dir DIR] [--json]
       [--timeout-ms MS]
      Downloads Jericho's story files from their public addresses (or BASE/<file name>),
      keeps each only if its md5 is Jericho's, into DIR (default $METATTL_STORIES_DIR, else
      ~/.cache/metattl-stories, where the CLI finds stories); one line per game; exit 1 if any failed.
  stories overlap --train GAME,… <game|file|dir…> [--walkthroughs GAMES.json] [--json]
      Each game's vocabulary overlap with the training games: the share of its Z-machine
      dictionary words (and of its walkthrough words, from Jericho's games.json) that the
      training games also have; least overlap first.

  experiment list|plan|register|run|resume|report <name|FILE> [--store DIR] [--episodes K] [--steps S]
       [--repeats R] [--budget B] [--minibatch B] [--train-repeats R] [--val-repeats R]
       [--rng-seed N] [--replicates N] [--task-set NAME=task,…] [--out DIR] [--json]
       [--power-delta X] [plan: --pilot FILE | --session-sd SD --tau T]
       [register: --primary A:B [--primary-task-set SET] [--alpha A]] [run: --registration FILE]
       [resume: --allow-changed-settings]
      (report also takes an experiment directory: experiment report DIR.)
      register writes registration.json (spec, its sha-256, code version, primary contrast, α) to
      --out DIR or the experiment's directory under --store, before any call; run checks its spec
      against it; report says whether the run matches it (else every comparison is exploratory).
      A resume that would change models or settings is refused unless --allow-changed-settings
      (the change is then recorded in experiment.json).
      Experiments as runs: built-ins paper-jericho, skeptic-holdout, random-control, web-lite,
      vocab-ood (ID, OOD and the least-overlapping games, see stories overlap), or
      a JSON file. plan prints every evolution and evaluation, the folds, metric calls, LLM calls,
      tokens and cost and the repeats needed for 80 % power at Δ = X before any call; run stores it in DIR/experiments/<name>/ (resume continues
      it); report writes report.md, .html, .csv, .json. A missing game names "stories get" (exit 1).

Stories: a path, a file name or a catalog id, looked up in STORIES_DIR, public/stories,
~/.cache/metattl-stories (or $METATTL_STORIES_DIR) and ../shared/stories. Tasks T: story:seed,... or the sets ID (detective, zork1, temple) and OOD
(balances, library, zork3). Web tasks go wherever a story or task does: web:<site>/<template>:<seed>
(e.g. web:shop/t12:3; its seed is in the id) and the sets WEB-ID-train, WEB-ID-val, WEB-ID-test,
WEB-OOD; for web tasks K defaults to 3 and S to 10, and the score is the episode's reward (max 1).

Every command that calls a model also takes: --provider openai|openrouter|groq|together|
ollama|lmstudio|llamacpp (or --base-url) or --provider local --model-file FILE.gguf (a model run
in this process by node-llama-cpp, installed apart: npm install --no-save node-llama-cpp@3.21.1;
--reply-grammar on|off enforces the reply contracts, default on; --local-threads N, default 1), --api-key K (else OPENAI_API_KEY), --actor-temperature,
--actor-max-tokens, --meta-max-tokens, --proposer-max-tokens, --context-window TOKENS (the
meta-agent's; default: what the provider reports, else a built-in table, else 32,000 with a
note), --timeout-ms (bounds each attempt, body and stream included),
--stream-idle-ms (longest silence between stream chunks), --max-retries, --concurrency, --drop-sdk-headers,
--max-usd X and --max-total-tokens N (hard caps, checked before each call, so the last call can
pass a cap), --price MODEL=IN/OUT[/CACHED] (USD per million tokens; CACHED: prompt tokens the
provider served from its cache, default IN; repeatable; models without a price cost 0).

Exit codes: 0 done (also stopped at a cap), 1 failure (also a replay that ends in
interpreter_error or interpreter_hang, and a run stopped by a provider fault: with --json its
stopMessage is in the JSON and on stderr), 2 usage error, 130 interrupted (resume with --resume).
`;

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
