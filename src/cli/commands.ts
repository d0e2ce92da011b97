/**
 * Every `metattl` command's options and help page, one `CommandSpec` each (option-defs.ts): each
 * command parses with its spec (`parseCommand`) and `metattl <command> --help` prints
 * `commandHelp(spec)`, so the two cannot differ. Imports only the built-in experiments; the
 * strategy and optimizer names are spelled here (typed against the core's unions, and
 * test/cli-help.test.ts checks they equal its lists) because the modules that hold them would add
 * about 50 ms to `metattl --help`.
 */
import type { Acceptance } from '../evolve/rules/acceptance.ts';
import type { CandidateSelection } from '../evolve/rules/candidate-selection.ts';
import type { Optimizer } from '../evolve/rules/opro-proposer.ts';
import { EVALUATION_DEFAULTS } from '../eval/run-defaults.ts';
import { EVOLUTION_DEFAULTS } from '../evolve/run-defaults.ts';
import { BUILTIN_EXPERIMENTS } from '../experiment/builtins.ts';
import { SESSION_DEFAULTS, WEB_SESSION_DEFAULTS } from '../ttl/run-defaults.ts';
import { LLM_FLAGS } from './llm-flags.ts';
import type { CommandSpec, OptionDef } from './option-defs.ts';

const json = { type: 'boolean', default: false, description: 'Print the result as one JSON object on stdout.' } as const satisfies OptionDef;
const seed = { type: 'string', value: 'N|random', defaultText: 'the catalog\'s seed for known stories, else 0', description: 'The frotz seed (0 to 4294967295), or random (one is drawn and recorded).' } as const satisfies OptionDef;
const guide = { type: 'string', value: 'TEXT', description: 'The actor\'s first guiding prompt (default: the built-in one).' } as const satisfies OptionDef;
const episodes = { type: 'string', value: 'K', defaultText: `${SESSION_DEFAULTS.episodes}; web tasks ${WEB_SESSION_DEFAULTS.episodes}`, description: 'Episodes per session.' } as const satisfies OptionDef;
const steps = { type: 'string', value: 'S', defaultText: `${SESSION_DEFAULTS.maxSteps}; web tasks ${WEB_SESSION_DEFAULTS.maxSteps}`, description: 'Steps per episode at most.' } as const satisfies OptionDef;
const stepDelay = { type: 'string', value: 'MS', defaultText: '0', description: 'Wait MS before each step but the first (a presenter\'s pace; results unchanged).' } as const satisfies OptionDef;
const allowChanged = { type: 'boolean', default: false, description: 'With a resume: accept changed models or settings (the change is recorded) instead of refusing.' } as const satisfies OptionDef;
const choices = (list: readonly string[]): string => list.join('|');

/** The core's lists, as the help shows them (equal to ACCEPTANCES, CANDIDATE_SELECTIONS, OPTIMIZERS and DEFAULT_MAX_MERGES: checked by test). */
export const HELP_NAMES = {
  acceptances: ['strict_improvement', 'improvement_or_equal'] satisfies Acceptance[],
  selections: ['pareto', 'current_best', 'epsilon_greedy', 'top_k_pareto'] satisfies CandidateSelection[],
  optimizers: ['gepa', 'opro'] satisfies Optimizer[],
  maxMerges: EVOLUTION_DEFAULTS.maxMerges,
};

const STORY_NOTE = 'Stories: a path, a file name or a catalog id, looked up in STORIES_DIR, public/stories, ~/.cache/metattl-stories (or $METATTL_STORIES_DIR) and ../shared/stories. Web tasks go wherever a story or task does: web:<site>/<template>:<seed> (e.g. web:shop/t12:3; its seed is in the id); their score is the episode\'s reward (max 1).';
const TASKS_NOTE = 'Tasks T: story:seed,... or the sets ID (detective, zork1, temple) and OOD (balances, library, zork3), web task ids and the sets WEB-ID-train, WEB-ID-val, WEB-ID-test, WEB-OOD; for web tasks K defaults to ' + `${WEB_SESSION_DEFAULTS.episodes} and S to ${WEB_SESSION_DEFAULTS.maxSteps}.`;

export const REPLAY = {
  name: 'replay', positionals: true, synopsis: ['<story> --commands FILE [options]'],
  summary: 'Replays commands on a story and prints the score after each step.',
  options: {
    commands: { type: 'string', value: 'FILE', description: 'The commands, one per line; an empty line answers a keypress (required).' },
    seed, json,
    'step-timeout-ms': { type: 'string', default: '5000', value: 'MS', description: 'A step that runs longer ends the replay with interpreter_hang (100 to 600000).' },
  },
  notes: [STORY_NOTE, 'Exit 1 when the replay ends in interpreter_error or interpreter_hang (the JSON is still printed).'],
} as const satisfies CommandSpec;

export const PLAY = {
  name: 'play', positionals: true, synopsis: ['<story> --base-url URL --actor-model M [options]'],
  summary: 'The actor LLM plays one episode of a story or web task.',
  options: {
    seed, steps: { ...steps, description: 'Steps of the episode at most.' }, guide, json,
    out: { type: 'string', value: 'FILE', description: 'Write the trajectory export (JSON) to FILE.' },
    stream: { type: 'boolean', default: false, description: 'Ask the provider to stream the actor\'s replies.' },
    'step-delay-ms': stepDelay,
    ...LLM_FLAGS,
  },
  notes: [STORY_NOTE],
} as const satisfies CommandSpec;

export const SESSION = {
  name: 'session', positionals: true, synopsis: ['<story> --base-url URL --actor-model M --meta-model M [options]'],
  summary: 'A test-time-learning session: K episodes with a policy between them.',
  options: {
    seed,
    policy: { type: 'string', value: 'P', defaultText: 'naive', description: 'static | reflexion | memory | textgrad | naive | fact-bank | credit-assignment | route-script | FILE (plain text = the strategy section, or JSON with a "strategy" field and optional "name" and "selectedOn"); human is page-only.' },
    'raw-meta-prompt': { type: 'string', value: 'FILE', description: 'Instead of --policy: the file\'s text, byte for byte, is the meta-agent\'s whole system message (no header, no footer); recorded as raw, kept on resume.' },
    episodes, steps, guide,
    store: { type: 'string', value: 'DIR', description: 'Persist the session in DIR as it runs (resumable).' },
    resume: { type: 'string', value: 'RUN_ID', description: 'Continue a stored session (needs --store), after checking what it replays: a damaged one stops, naming the file and first bad record.' },
    'from-last-good-episode': { type: 'boolean', default: false, description: 'With --resume: keep the intact episodes of a damaged session and run the rest again.' },
    'allow-changed-settings': allowChanged,
    json,
    out: { type: 'string', value: 'FILE', description: 'Write the whole session record (the export the page\'s replay view opens).' },
    'step-delay-ms': stepDelay,
    ...LLM_FLAGS,
  },
  notes: [STORY_NOTE],
} as const satisfies CommandSpec;

export const EVOLVE = {
  name: 'evolve', positionals: false,
  synopsis: ['--train T --val T --store DIR --base-url URL --actor-model M --meta-model M --proposer-model M [options]', 'add-candidate --store DIR --run ID --parent CID (--strategy-file F | --feedback-file F) [options]'],
  summary: 'Evolves the meta-agent\'s strategy section (GEPA-style), resumable.',
  options: {
    train: { type: 'string', value: 'T', description: 'The training tasks (minibatches).' },
    val: { type: 'string', value: 'T', description: 'The validation tasks (the Pareto front).' },
    store: { type: 'string', value: 'DIR', description: 'Where the run is persisted (required); a file DIR/STOP stops it before its next iteration (resumable).' },
    id: { type: 'string', value: 'RUN_ID', defaultText: 'a new id; with --resume the latest run', description: 'The run\'s id.' },
    resume: { type: 'boolean', default: false, description: 'Continue the run (--id, else the latest), after checking its store; settings recorded in the run are replayed.' },
    'from-last-good': { type: 'boolean', default: false, description: 'With --resume: drop a damaged store\'s records after the last intact one and go on from there.' },
    'allow-changed-settings': allowChanged,
    repeats: { type: 'string', value: 'R', defaultText: String(EVOLUTION_DEFAULTS.repeats), description: 'Repeats of each session, for minibatches and validation.' },
    'train-repeats': { type: 'string', value: 'R', defaultText: '--repeats', description: 'Repeats of each minibatch session.' },
    'val-repeats': { type: 'string', value: 'R', defaultText: '--repeats', description: 'Repeats of each validation session.' },
    episodes, steps,
    budget: { type: 'string', value: 'N', defaultText: String(EVOLUTION_DEFAULTS.budgetMetricCalls), description: 'Metric calls: one candidate evaluated on one task, whatever its repeats (as in GEPA). A budget that cannot pay for the seed\'s validation plus one full iteration is refused (exit 2).' },
    minibatch: { type: 'string', value: 'B', defaultText: String(EVOLUTION_DEFAULTS.minibatchSize), description: 'Training tasks per minibatch.' },
    proposer: { type: 'string', default: EVOLUTION_DEFAULTS.proposer, value: 'llm|random|random-neutral', description: 'Who writes new strategies: the proposer model; random mutation (one sentence from the built-in strategies, a control); or random-neutral, the matched control (random edits from a neutral corpus, sized like the LLM arm\'s edits).' },
    'edit-sizes': { type: 'string', value: 'N,N,…', defaultText: 'a documented spread, 10–340 words', description: 'With --proposer random-neutral: the word edit distances edits are drawn from (the LLM arm\'s).' },
    'edit-sizes-source': { type: 'string', value: 'TEXT', defaultText: 'given', description: 'With --edit-sizes: where the sizes came from (recorded in the run).' },
    'proposer-input': { type: 'string', default: EVOLUTION_DEFAULTS.proposerInput, value: 'full|no-trace', description: 'What the LLM proposer sees besides the parent: the reflective dataset: its worst run\'s episode logs and feedback (full), or nothing (no-trace; GEPA optimizer only).' },
    'proposer-instruction': { type: 'string', default: EVOLUTION_DEFAULTS.proposerInstruction, value: 'gepa|general-rules', description: 'The proposer\'s instruction.' },
    optimizer: { type: 'string', default: EVOLUTION_DEFAULTS.optimizer, value: choices(HELP_NAMES.optimizers), description: 'How proposals are written: GEPA\'s reflective mutation, or the OPRO way (scored past strategies in the prompt; needs --proposer llm).' },
    merge: { type: 'boolean', default: false, description: 'Also propose merges of two candidates (GEPA\'s merge), between reflective proposals.' },
    'max-merges': { type: 'string', value: 'N', defaultText: String(HELP_NAMES.maxMerges), description: 'With --merge: merge proposals at most (GEPA\'s max_merge_invocations).' },
    proposals: { type: 'string', value: 'PxN|N', defaultText: '1x1', description: 'Proposals per iteration: P parents × N mutations each (N alone = 1×N; at most 64).' },
    'rng-seed': { type: 'string', value: 'N', defaultText: String(EVOLUTION_DEFAULTS.rngSeed), description: 'The loop\'s random seed (minibatches, parent choice).' },
    'max-failures': { type: 'string', value: 'N', defaultText: String(EVOLUTION_DEFAULTS.maxConsecutiveFailures), description: 'Consecutive failed proposals that stop the run.' },
    'seed-strategy': { type: 'string', value: 'TEXT', defaultText: 'empty', description: 'The seed candidate\'s strategy section.' },
    guide,
    selection: { type: 'string', default: EVOLUTION_DEFAULTS.candidateSelection, value: choices(HELP_NAMES.selections), description: 'How the parent is chosen (GEPA\'s names).' },
    epsilon: { type: 'string', value: 'E', description: 'With --selection epsilon_greedy: the chance of a random parent (0 to 1).' },
    'top-k': { type: 'string', value: 'K', defaultText: String(EVOLUTION_DEFAULTS.topK), description: 'With --selection top_k_pareto: the Pareto draw among the K best by mean score.' },
    accept: { type: 'string', default: EVOLUTION_DEFAULTS.acceptance, value: choices(HELP_NAMES.acceptances), description: 'When a proposal joins the pool (GEPA\'s names).' },
    'stop-no-improvement': { type: 'string', value: 'N', description: 'Stop after N iterations without a better candidate.' },
    'stop-score': { type: 'string', value: 'X', description: 'Stop once a candidate\'s validation W-AUC reaches X (0 to 1).' },
    'stop-minutes': { type: 'string', value: 'M', description: 'Stop after M minutes of this invocation (checked between iterations).' },
    'max-proposer-usd': { type: 'string', value: 'X', description: 'Stop once the proposer has cost X USD.' },
    'pause-after': { type: 'string', value: 'N', description: 'Pause the run after iteration N (continue with --resume).' },
    branch: { type: 'string', value: 'RUN_ID', description: 'Start a new run from RUN_ID\'s state after --from-iteration N (pool, scores, budget spent, RNG state) with the settings given (budget, strategies, proposer, stop conditions; tasks, K, S, repeats, minibatch and seeds stay the source\'s).' },
    'from-iteration': { type: 'string', value: 'N', description: 'With --branch: the source run\'s iteration to start from.' },
    json,
    ...LLM_FLAGS,
  },
  notes: [TASKS_NOTE, 'Strategies and stop conditions are recorded in the run and replayed on --resume. "evolve add-candidate --help" shows a person\'s candidate for a run.'],
} as const satisfies CommandSpec;

export const EVOLVE_ADD_CANDIDATE = {
  name: 'evolve add-candidate', positionals: false, synopsis: ['--store DIR --run ID --parent CID (--strategy-file F | --feedback-file F) [options]'],
  summary: 'A person\'s candidate for a stored evolution between iterations.',
  description: 'A person\'s candidate for a stored run between iterations, evaluated like a proposal (minibatch, acceptance, validation) and charged to its budget; the run pauses there (evolve --resume goes on).',
  options: {
    store: { type: 'string', value: 'DIR', description: 'The run\'s store (required).' },
    run: { type: 'string', value: 'ID', description: 'The evolution run (required).' },
    parent: { type: 'string', value: 'CID', description: 'The candidate it is proposed from (required).' },
    'strategy-file': { type: 'string', value: 'F', description: 'The candidate\'s strategy section.' },
    'feedback-file': { type: 'string', value: 'F', description: 'Instead: feedback from which the proposer writes the strategy.' },
    json,
    ...LLM_FLAGS,
  },
} as const satisfies CommandSpec;

export const EVAL = {
  name: 'eval', positionals: false, synopsis: ['--policies P,P,... --tasks T --out DIR --base-url URL --actor-model M --meta-model M [options]'],
  summary: 'Compares policies on task sets with repeats and confidence intervals.',
  description: 'Compares policies with 95 % hierarchical-bootstrap intervals, per-game Δ and the game-level test (t-interval, exact sign-flip p, Holm over each policy vs the baseline and every --contrast a − b); writes results.json, summary.csv, comparisons.csv and report.md to --out DIR.',
  options: {
    policies: { type: 'string', default: EVALUATION_DEFAULTS.policies.join(','), value: 'P,P,...', description: 'The policies compared (see session --policy).' },
    tasks: { type: 'string', value: 'T', description: 'The tasks (each named set is a task set of its own).' },
    out: { type: 'string', value: 'DIR', description: 'Where the results go (required).' },
    repeats: { type: 'string', value: 'R', defaultText: String(EVALUATION_DEFAULTS.repeats), description: 'Sessions per policy and task.' },
    episodes, steps,
    baseline: { type: 'string', value: 'P', defaultText: `${EVALUATION_DEFAULTS.baseline} if compared, else the first policy`, description: 'The policy every other is compared with.' },
    contrast: { type: 'string', multiple: true, value: 'A:B', description: 'A declared contrast a − b beside each policy against the baseline (Holm-adjusted with them).' },
    'power-delta': { type: 'string', value: 'X', defaultText: String(EVALUATION_DEFAULTS.powerDelta), description: 'The W-AUC difference the repeats-needed estimate is for.' },
    'raw-meta-prompt': { type: 'string', multiple: true, value: 'FILE', description: 'Add a policy (id = the file\'s name without extension) whose meta-agent system message is the file\'s text byte for byte (recorded as raw).' },
    'bootstrap-seed': { type: 'string', value: 'N', defaultText: String(EVALUATION_DEFAULTS.bootstrapSeed), description: 'The bootstrap\'s random seed.' },
    guide,
    store: { type: 'string', value: 'DIR', description: 'Persist the evaluation (resumable).' },
    id: { type: 'string', value: 'RUN_ID', description: 'With --store: the new run\'s id.' },
    resume: { type: 'string', value: 'RUN_ID', description: 'With --store: continue a stored evaluation, after checking its store.' },
    'from-last-good': { type: 'boolean', default: false, description: 'With --resume: drop a damaged store\'s records after the last intact one.' },
    'allow-changed-settings': allowChanged,
    json,
    ...LLM_FLAGS,
  },
  notes: [TASKS_NOTE, 'The game-level test: t-interval, exact sign-flip p, Holm over each policy vs the baseline and every --contrast.'],
} as const satisfies CommandSpec;

export const TASKS = {
  name: 'tasks', positionals: false, synopsis: ['--kind web [options]'],
  summary: 'Lists every web task instance.',
  description: 'Lists every web task instance: id web:<site>/<template>:<seed>, site, template, intent, check, split.',
  options: {
    kind: { type: 'string', default: 'web', value: 'web', description: 'The kind of task listed (only web; Z-machine tasks are story:seed).' },
    set: { type: 'string', value: 'SET', description: 'Only the tasks of WEB-ID-train, WEB-ID-val, WEB-ID-test or WEB-OOD.' },
    json,
  },
} as const satisfies CommandSpec;

export const ORACLE = {
  name: 'oracle', positionals: true, synopsis: ['<web task> [options]'],
  summary: 'Plays a web task\'s oracle (or wrong) script and prints the reward.',
  options: { wrong: { type: 'boolean', default: false, description: 'Play the wrong script instead (reward 0).' }, json },
} as const satisfies CommandSpec;

export const STORIES_GET = {
  name: 'stories get', positionals: true, synopsis: ['<game…> [options]', '--suite jericho|paper [options]'],
  summary: 'Downloads Jericho\'s story files, each checked against its md5.',
  description: 'Downloads Jericho\'s story files from their public addresses (or BASE/<file name>), keeping each only if its md5 is Jericho\'s; one line per game; exit 1 if any failed. Offline, a failed download names the local copies the CLI already finds (../shared/stories among them) and the --mirror file:// line that copies them.',
  options: {
    suite: { type: 'string', value: 'jericho|paper', description: 'Every game of the suite instead of named games.' },
    mirror: { type: 'string', value: 'BASE', description: 'Download from BASE/<file name> instead: an http(s) address, or file:///a/directory of local copies (such as ../shared/stories).' },
    dir: { type: 'string', value: 'DIR', defaultText: '$METATTL_STORIES_DIR, else ~/.cache/metattl-stories (where the CLI finds stories)', description: 'Where the files go.' },
    'timeout-ms': { type: 'string', value: 'MS', defaultText: '60000', description: 'Bounds each download.' },
    json,
  },
} as const satisfies CommandSpec;

export const STORIES_OVERLAP = {
  name: 'stories overlap', positionals: true, synopsis: ['--train GAME,… <game|file|dir…> [options]'],
  summary: 'Each game\'s vocabulary overlap with the training games.',
  description: 'Each game\'s vocabulary overlap with the training games: the share of its Z-machine dictionary words (and of its walkthrough words, from Jericho\'s games.json) that the training games also have; least overlap first.',
  options: {
    train: { type: 'string', multiple: true, value: 'GAME,…', description: 'The training games (required).' },
    walkthroughs: { type: 'string', value: 'GAMES.json', description: 'Jericho\'s games.json, for the walkthrough words.' },
    json,
  },
} as const satisfies CommandSpec;

export const PROBE_RECALL = {
  name: 'probe recall', positionals: false, synopsis: ['--tasks GAME,… [--k N] [--probes N] [--out DIR] --base-url URL --actor-model M [options]'],
  summary: 'Does the actor complete walkthrough lines it never saw?',
  description: 'The walkthrough-recall probe (a pre-training check): per game, the actor model is shown the game\'s title and k consecutive commands of its Jericho walkthrough and asked for the next; its answer is scored exactly and normalised against the true command, beside a shuffled-context control (k commands from elsewhere in the walkthrough) and the best constant guess; counts, 95 % Wilson intervals and an exact sign test per game and pooled. Writes recall.json, recall.md and recall.csv to --out DIR when given.',
  options: {
    tasks: { type: 'string', value: 'GAME,…', description: 'The games (Jericho names, e.g. zork1, or the sets ID, OOD, VOCAB-OOD); a game:seed form is read as its game (required).' },
    k: { type: 'string', value: 'N', defaultText: '5', description: 'Commands shown before the asked one.' },
    probes: { type: 'string', value: 'N', defaultText: '20', description: 'Positions asked per game at most (each also asked once with the shuffled control), evenly spread over the walkthrough.' },
    seed: { type: 'string', value: 'N', defaultText: '0', description: 'The seed of the control\'s random draws.' },
    walkthroughs: { type: 'string', value: 'GAMES.json', defaultText: '../shared/jericho/games.json', description: 'Jericho\'s games.json (the walkthroughs).' },
    out: { type: 'string', value: 'DIR', description: 'Write recall.json (every question and reply), recall.md and recall.csv here.' },
    json,
    ...LLM_FLAGS,
  },
  notes: ['Only the actor model is called (--actor-model); the meta-agent and proposer options are accepted and unused. What the probe can and cannot show is printed under its table.'],
} as const satisfies CommandSpec;

export const ROOM = {
  name: 'room', positionals: false, synopsis: ['[--port P] [--host H] [--data DIR] [--participant-max-calls N] [--participant-max-tokens N] [--participant-max-usd X] [--calls-from T] [--calls-until T] --base-url URL --api-key K [options]'],
  summary: 'A workshop room: a class joins by a code and plays on the room\'s model.',
  description: 'Starts a workshop room on this machine: it serves the built page (dist/), prints the join address on the LAN, the room code, a QR code and the teacher\'s and projector\'s links, and forwards the students\' model calls to the provider given (the key never leaves this process), within the per-participant caps. Runs until Ctrl-C or SIGTERM, then saves (with --data) and exits 0.',
  options: {
    port: { type: 'string', value: 'P', default: '8080', description: 'The TCP port (0: a free one).' },
    host: { type: 'string', value: 'H', defaultText: 'the first non-internal IPv4 address', description: 'The host name or address the printed links use (the server listens on every interface), or an origin such as https://room.example.org when a reverse proxy serves the room.' },
    data: { type: 'string', value: 'DIR', description: 'Keep the room in DIR/room.sqlite, so a restart finds it as it was (without it, the room lives in memory only).' },
    title: { type: 'string', value: 'T', defaultText: 'Workshop room', description: 'The room\'s title (shown to students and on the projector).' },
    'participant-max-calls': { type: 'string', value: 'N', description: 'Model calls per participant at most.' },
    'participant-max-tokens': { type: 'string', value: 'N', description: 'Model tokens per participant at most.' },
    'participant-max-usd': { type: 'string', value: 'X', description: 'Model cost per participant at most, USD (needs the model\'s price).' },
    'calls-from': { type: 'string', value: 'T', description: 'Students\' model calls are served from T on: HH:MM (today, this machine\'s local time) or an ISO date-time (2026-12-07T14:05).' },
    'calls-until': { type: 'string', value: 'T', description: 'Students\' model calls are served until T: HH:MM (today; tomorrow when earlier than --calls-from) or an ISO date-time. The teacher\'s page changes the window later.' },
    redis: { type: 'string', value: 'URL', description: 'redis://host:port: several room servers on one Redis serve one room.' },
    'page-dir': { type: 'string', value: 'DIR', defaultText: 'dist/', description: 'The built page to serve.' },
    json,
    ...LLM_FLAGS,
  },
  notes: ['Without --base-url or --provider the room has no model: students can join and submit, and their model calls answer 503 "this room has no model".', 'With --json the first line on stdout is { joinUrl, teacherUrl, projectorUrl, code, port }.'],
} as const satisfies CommandSpec;

export const EXPERIMENT = {
  name: 'experiment', positionals: true,
  synopsis: ['list [--json]', 'plan|register|run|resume|report <name|FILE> [options]', 'report DIR [options]'],
  summary: 'Experiments as runs: list, plan, register, run, resume, report.',
  description: 'Experiments as runs, a built-in or a JSON file: plan prints every evolution, evaluation and walkthrough-recall probe (the spec\'s recallProbe step), the folds, metric calls, LLM calls, tokens and cost and the repeats needed for 80 % power at Δ = --power-delta before any call; run stores it in DIR/experiments/<name>/ (resume continues it); report writes the report files listed below (report also takes an experiment directory).',
  options: {
    store: { type: 'string', value: 'DIR', description: 'run / resume / report: the experiment lives in DIR/experiments/<name>/.' },
    out: { type: 'string', value: 'DIR', description: 'register: where registration.json goes; report: where the report goes.' },
    episodes: { type: 'string', value: 'K', description: 'Override the experiment\'s episodes per session.' },
    steps: { type: 'string', value: 'S', description: 'Override its steps per episode.' },
    repeats: { type: 'string', value: 'R', description: 'Override its evaluation repeats.' },
    budget: { type: 'string', value: 'B', description: 'Override its evolutions\' budget (metric calls).' },
    minibatch: { type: 'string', value: 'B', description: 'Override its evolutions\' minibatch size.' },
    'train-repeats': { type: 'string', value: 'R', description: 'Override its evolutions\' minibatch repeats.' },
    'val-repeats': { type: 'string', value: 'R', description: 'Override its evolutions\' validation repeats.' },
    'rng-seed': { type: 'string', value: 'N', description: 'Override its evolutions\' random seed.' },
    replicates: { type: 'string', value: 'N', description: 'Run every evolution N times (rng seeds base, base + 1, …) and aggregate each arm across its replicates (1 to 20).' },
    'task-set': { type: 'string', multiple: true, value: 'NAME=task,…', description: 'Replace (or add) a task set.' },
    'power-delta': { type: 'string', value: 'X', defaultText: String(EVALUATION_DEFAULTS.powerDelta), description: 'The W-AUC difference the plan\'s repeats for 80 % power (and the report) are for.' },
    pilot: { type: 'string', value: 'FILE', description: 'plan: the variances come from a pilot\'s results.' },
    'session-sd': { type: 'string', value: 'SD', defaultText: '0.10', description: 'plan: the session-level standard deviation assumed.' },
    tau: { type: 'string', value: 'T', defaultText: '0', description: 'plan: the game-level standard deviation assumed.' },
    primary: { type: 'string', value: 'A:B', description: 'register: the primary contrast.' },
    'primary-task-set': { type: 'string', value: 'SET', description: 'register: the task set the primary contrast is tested on.' },
    alpha: { type: 'string', value: 'A', defaultText: '0.05', description: 'register: the primary test\'s level.' },
    registration: { type: 'string', value: 'FILE', description: 'run: check the spec against this registration.json.' },
    'allow-changed-settings': { ...allowChanged, description: 'resume: accept changed models or settings (the change is recorded in experiment.json) instead of refusing.' },
    json,
    ...LLM_FLAGS,
  },
  notes: [
    `Built-in experiments: ${Object.keys(BUILTIN_EXPERIMENTS).join(', ')} (experiment list describes them), or a JSON file.`,
    'register writes registration.json (spec, its sha-256, code version, primary contrast, α) before any call; run checks its spec against it; report says whether the run matches it (else every comparison is exploratory). A spec\'s steps: evolutions, evaluations and, with recallProbe { taskSets, k?, probes?, seed?, walkthroughs? }, one walkthrough-recall probe per model set (as probe recall: does the actor complete walkthrough lines it never saw?). report writes report.md, .html, .csv, .json, comparisons.csv, folds.csv (leave-one-game-out folds), evolutions.csv (each evolution\'s chosen candidate) and recall.csv (the recall probe, per game and pooled); the last three only when the experiment has them. A missing game names "stories get" (exit 1).',
  ],
} as const satisfies CommandSpec;

/** Every command, in the order `metattl --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [REPLAY, PLAY, SESSION, EVOLVE, EVOLVE_ADD_CANDIDATE, EVAL, TASKS, ORACLE, STORIES_GET, STORIES_OVERLAP, PROBE_RECALL, EXPERIMENT, ROOM];

/** The paragraphs after the command list of `metattl --help`. */
export const GENERAL_NOTES: readonly string[] = [
  STORY_NOTE,
  TASKS_NOTE,
  'Every command that calls a model also takes the provider and model options (--provider or --base-url, --api-key, the models, caps, --price …; see its --help). A model called without a known price has no cost: costUsd is null in JSON and "—" in text, never 0.',
  'Exit codes: 0 done (also stopped at a cap), 1 failure (also a replay that ends in interpreter_error or interpreter_hang, and a run stopped by a provider fault: with --json its stopMessage is in the JSON and on stderr), 2 usage error, 130 interrupted (resume with --resume).',
];

/** The spec of `metattl <argv…>`: two-word commands (`evolve add-candidate`, `stories get`) first; undefined for an unknown command. */
export function commandOf(argv: readonly string[]): CommandSpec | undefined {
  const two = `${argv[0] ?? ''} ${argv[1] ?? ''}`;
  return COMMANDS.find((c) => c.name === two) ?? COMMANDS.find((c) => c.name === argv[0]);
}
