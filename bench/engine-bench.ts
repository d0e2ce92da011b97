/**
 * Engine speed benchmark (`npm run bench`; not a test). On detective.z5 (../shared/stories) with
 * one fixed list of 500 commands it measures our engine's ms per step, dfrotz's ms per step on the
 * same list through a pipe, their ratio, `engine.reset()` against a fresh `loadStory` (cold: no
 * other engine of the story in this thread; warm: compiled routines shared, story-cache.ts), and
 * the first pass of the list on a new engine, cold and warm. On the light games (zork1, minizork)
 * it also gives ours against dfrotz and `metattl replay`, where their per-step fixed cost goes (a
 * CPU profile by module) and replay's cost taken apart (engine-step-split.ts). All in one run.
 * Method notes are printed under the table; figures are wall-clock ms (performance.now()). Our
 * code runs as the CLI ships it, an esbuild bundle (built-run.ts), as `metattl replay` does.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import type { StoryRules } from '../src/engine/interface.ts';
import { clearStoryWork } from '../src/engine/story-cache.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { sized } from './bench-size.ts';
import { runBuilt, runningBuilt } from './built-run.ts';
import { printStepCostTables, stepCpuSplit, workerBatchMs, type LightGameCost } from './engine-step-split.ts';

const repoRoot = resolve(import.meta.dirname, '..');
const sharedDir = process.env.SHARED_DIR ?? resolve(repoRoot, '../shared');
const STEP_COUNT = sized(500, 30);
/** Timed repetitions of the whole command list (engine and dfrotz alike). */
const REPETITIONS = sized(7, 1);
/** Timed calls each of reset() and loadStory(). */
const RESET_REPETITIONS = sized(30, 1);
/** Timed first passes of the list on a new engine, each of cold and warm. */
const FIRST_PASS_REPETITIONS = sized(3, 1);
/** Timed `metattl replay` runs, each of the whole list and of its first command. */
const REPLAY_REPETITIONS = sized(3, 1);
/**
 * Commands after the walkthrough prefix, cycled: none moves the player or ends the game, so every
 * one of the 500 steps is a normal turn in both interpreters (checked below: no step is `done`).
 */
const PADDING = ['look', 'inventory', 'wait', 'examine me', 'score', 'take all', 'drop all', 'listen', 'jump', 'examine pistol'];

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * The fixed list: Jericho's detective walkthrough without its last command (the winning "up",
 * which would end the game), then PADDING cycled up to STEP_COUNT commands.
 */
function buildCommands(walkthrough: readonly string[]): string[] {
  const prefix = walkthrough.slice(0, Math.min(walkthrough.length - 1, STEP_COUNT));
  const commands = [...prefix];
  for (let i = 0; commands.length < STEP_COUNT; i++) commands.push(PADDING[i % PADDING.length]!);
  return commands.slice(0, STEP_COUNT);
}

/** Our engine: REPETITIONS runs of the list from reset(), after one untimed warm-up run; `between`
 * runs after each timed run (dfrotz's repetitions, so both see the same machine load).
 * @returns per-run mean wall ms and CPU ms (all threads of this process) per step, and every
 * single step's wall ms. */
async function benchEngine(bytes: Uint8Array, rules: StoryRules | undefined, commands: readonly string[], between: () => Promise<void>) {
  const engine = loadStory(bytes, { seed: 0, rules });
  const runMeansMs: number[] = [];
  const runCpuMs: number[] = [];
  const stepMs: number[] = [];
  let finalStatus = '';
  for (let rep = -1; rep < REPETITIONS; rep++) {
    engine.reset();
    const cpu = process.cpuUsage();
    const began = performance.now();
    for (const command of commands) {
      const t0 = performance.now();
      const result = engine.step(command);
      if (rep >= 0) stepMs.push(performance.now() - t0);
      if (result.done || result.fault) throw new Error(`the game ended at "${command}": ${result.fault?.message ?? result.endReason}`);
      finalStatus = `score ${result.score}, moves ${result.moves}`;
    }
    if (rep >= 0) {
      runMeansMs.push((performance.now() - began) / commands.length);
      const used = process.cpuUsage(cpu);
      runCpuMs.push((used.user + used.system) / 1000 / commands.length);
      await between();
    }
  }
  return { runMeansMs, runCpuMs, stepMs, finalStatus };
}

/**
 * Run dfrotz once with `input` on stdin until it exits, under bash's `time` (getrusage of the
 * child: CPU ms at 1 ms resolution). @returns wall ms, CPU ms (user + system) and stdout.
 */
function runDfrotz(binary: string, storyPath: string, input: string): Promise<{ ms: number; cpuMs: number; stdout: string }> {
  return new Promise((resolvePromise, reject) => {
    const began = performance.now();
    const script = 'TIMEFORMAT="%3U %3S"; time "$0" "$@" 2>/dev/null';
    const child = spawn('bash', ['-c', script, binary, '-m', '-p', '-q', '-s', '0', storyPath], { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    child.on('error', reject);
    child.on('close', () => {
      const ms = performance.now() - began;
      const times = /(\d+\.\d+) (\d+\.\d+)\s*$/.exec(Buffer.concat(errors).toString('utf8'));
      if (!times) return reject(new Error('dfrotz: bash did not report its CPU time'));
      resolvePromise({ ms, cpuMs: (Number(times[1]) + Number(times[2])) * 1000, stdout: Buffer.concat(chunks).toString('utf8') });
    });
    child.stdin.end(input);
  });
}

/**
 * dfrotz: wall time of a whole run with the list on stdin, minus the median run with empty stdin
 * (process start, story load, exit at end of input), divided by the number of commands. `rep()`
 * times one whole run and one empty run; `result()` gives the medians.
 */
function dfrotzBench(binary: string, storyPath: string, commands: readonly string[]) {
  const input = commands.map((c) => `${c}\n`).join('');
  const fullMs: number[] = [];
  const emptyMs: number[] = [];
  const fullCpuMs: number[] = [];
  const emptyCpuMs: number[] = [];
  let prompts = 0;
  return {
    warmUp: async (): Promise<void> => void (await runDfrotz(binary, storyPath, input)), // page cache
    async rep(): Promise<void> {
      const full = await runDfrotz(binary, storyPath, input);
      fullMs.push(full.ms);
      fullCpuMs.push(full.cpuMs);
      const empty = await runDfrotz(binary, storyPath, '');
      emptyMs.push(empty.ms);
      emptyCpuMs.push(empty.cpuMs);
      prompts = full.stdout.split('\n>').length - 1;
      if (/\*\*\* You have (?:won|died) \*\*\*/.test(full.stdout)) throw new Error('dfrotz: the game ended during the list');
    },
    result() {
      const stepMs = (median(fullMs) - median(emptyMs)) / commands.length;
      const stepCpuMs = (median(fullCpuMs) - median(emptyCpuMs)) / commands.length;
      const fastestStepMs = (Math.min(...fullMs) - Math.min(...emptyMs)) / commands.length;
      return { fullMs: median(fullMs), emptyMs: median(emptyMs), stepMs, stepCpuMs, fastestStepMs, prompts };
    },
  };
}

/**
 * reset() against a fresh loadStory(), RESET_REPETITIONS timed calls each after warm-up. A warm
 * load reuses the compiled routines of the engines before it; a cold load first drops them
 * (clearStoryWork), as for the first engine of a story in a thread.
 */
function benchReset(bytes: Uint8Array, rules: StoryRules | undefined) {
  const engine = loadStory(bytes, { seed: 0, rules });
  const resetMs: number[] = [];
  const loadMs: number[] = [];
  const coldLoadMs: number[] = [];
  for (let rep = -3; rep < RESET_REPETITIONS; rep++) {
    engine.step('look');
    let t0 = performance.now();
    engine.reset();
    if (rep >= 0) resetMs.push(performance.now() - t0);
    t0 = performance.now();
    loadStory(bytes, { seed: 0, rules });
    if (rep >= 0) loadMs.push(performance.now() - t0);
    clearStoryWork();
    t0 = performance.now();
    loadStory(bytes, { seed: 0, rules });
    if (rep >= 0) coldLoadMs.push(performance.now() - t0);
  }
  return { resetMs: median(resetMs), loadMs: median(loadMs), coldLoadMs: median(coldLoadMs) };
}

/**
 * The whole list once on a new engine: cold (story cache dropped first, so every routine is
 * compiled and warmed up again) and warm (another engine of the story ran the list before).
 * @returns median ms per step of each.
 */
function benchFirstPass(bytes: Uint8Array, rules: StoryRules | undefined, commands: readonly string[]) {
  const pass = (cold: boolean): number => {
    if (cold) clearStoryWork();
    const engine = loadStory(bytes, { seed: 0, rules });
    const began = performance.now();
    for (const command of commands) engine.step(command);
    return (performance.now() - began) / commands.length;
  };
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  for (let rep = 0; rep < FIRST_PASS_REPETITIONS; rep++) {
    coldMs.push(pass(true));
    warmMs.push(pass(false));
  }
  return { coldMs: median(coldMs), warmMs: median(warmMs) };
}

/** Commands that neither move the player nor end the game at the start of zork1 and minizork
 * (West of House: outdoors, lit), cycled: the light-game list of the per-game ratios. */
const STANDING_STILL = ['look', 'inventory', 'wait', 'examine me', 'listen', 'jump', 'examine house', 'score'];

/**
 * Our engine against dfrotz on one more story with STANDING_STILL cycled to STEP_COUNT commands
 * (light steps: the per-step fixed cost dominates). @returns ms per step of each and their ratio.
 */
async function gameRatio(storyPath: string, binary: string): Promise<LightGameCost & { dfrotzMs: number }> {
  const bytes = new Uint8Array(readFileSync(storyPath));
  const rules = storyRules(loadStory(bytes, { seed: 0 }).info.md5);
  const commands = Array.from({ length: STEP_COUNT }, (_, i) => STANDING_STILL[i % STANDING_STILL.length]!);
  const frotz = dfrotzBench(binary, storyPath, commands);
  await frotz.warmUp();
  const ours = await benchEngine(bytes, rules, commands, () => frotz.rep());
  const split = await stepCpuSplit(bytes, rules, commands, REPETITIONS);
  const worker = await workerBatchMs(bytes, rules, commands, REPLAY_REPETITIONS, REPETITIONS);
  return { name: basename(storyPath), oursMs: median(ours.runMeansMs), dfrotzMs: frotz.result().stepMs, replayMs: replayStepMs(storyPath, commands), worker, split };
}

/**
 * `metattl replay` per step on a story: (wall ms of a run with `commands` − wall ms of a run with
 * the first command only) ÷ (commands − 1), medians of REPLAY_REPETITIONS each, alternating; the
 * process start and story load cancel out. Runs bin/metattl.js (it rebuilds build/cli/ when stale).
 */
function replayStepMs(storyPath: string, commands: readonly string[]): number {
  const dir = mkdtempSync(join(tmpdir(), 'metattl-bench-'));
  const full = join(dir, 'full.txt');
  const one = join(dir, 'one.txt');
  writeFileSync(full, `${commands.join('\n')}\n`);
  writeFileSync(one, `${commands[0]}\n`);
  const time = (file: string): number => {
    const began = performance.now();
    const run = spawnSync(process.execPath, [join(repoRoot, 'bin/metattl.js'), 'replay', storyPath, '--seed', '0', '--commands', file, '--json'], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (run.status !== 0) throw new Error(`metattl replay exited with ${run.status}: ${run.stderr.toString('utf8').slice(0, 300)}`);
    return performance.now() - began;
  };
  time(full);
  const fullMs: number[] = [];
  const oneMs: number[] = [];
  for (let i = 0; i < REPLAY_REPETITIONS; i++) {
    fullMs.push(time(full));
    oneMs.push(time(one));
  }
  rmSync(dir, { recursive: true, force: true });
  return (median(fullMs) - median(oneMs)) / (commands.length - 1);
}

function findDfrotz(): string | null {
  const candidates = [process.env.DFROTZ, '/usr/games/dfrotz', '/usr/bin/dfrotz', '/usr/local/bin/dfrotz'];
  return candidates.find((c): c is string => !!c && existsSync(c)) ?? null;
}

function storyRules(md5: string): StoryRules | undefined {
  const catalogPath = join(repoRoot, 'public/stories/catalog.json');
  if (!existsSync(catalogPath)) return undefined;
  const entry = findByMd5(parseCatalog(JSON.parse(readFileSync(catalogPath, 'utf8'))), md5);
  return entry ? rulesFor(entry) : undefined;
}

async function main(): Promise<void> {
  const storyPath = join(sharedDir, 'stories/detective.z5');
  const gamesPath = join(sharedDir, 'jericho/games.json');
  if (!existsSync(storyPath) || !existsSync(gamesPath)) {
    console.error(`engine-bench: needs ${storyPath} and ${gamesPath} (set SHARED_DIR)`);
    process.exit(1);
  }
  const games = JSON.parse(readFileSync(gamesPath, 'utf8')) as { name: string; walkthrough: string[] }[];
  const walkthrough = games.find((g) => g.name === 'detective')?.walkthrough;
  if (!walkthrough) throw new Error('games.json has no detective walkthrough');
  const commands = buildCommands(walkthrough);
  const bytes = new Uint8Array(readFileSync(storyPath));
  const rules = storyRules(loadStory(bytes, { seed: 0 }).info.md5);

  const binary = findDfrotz();
  const dfrotz = binary ? dfrotzBench(binary, storyPath, commands) : null;
  await dfrotz?.warmUp();
  const ours = await benchEngine(bytes, rules, commands, async () => dfrotz?.rep());
  const frotz = dfrotz?.result() ?? null;
  const reset = benchReset(bytes, rules);
  const firstPass = benchFirstPass(bytes, rules, commands);

  const oursMs = median(ours.runMeansMs);
  const oursCpuMs = median(ours.runCpuMs);
  const row = (name: string, value: string) => console.log(`| ${name.padEnd(44)} | ${value.padStart(22)} |`);
  console.log(`\nEngine benchmark: detective.z5, ${commands.length} commands (${walkthrough.length - 1} walkthrough + padding), Node ${process.version}\n`);
  row('measure', 'value');
  console.log(`|${'-'.repeat(46)}|${'-'.repeat(24)}|`);
  row(`ours: ms/step, median of ${REPETITIONS} run means`, `${oursMs.toFixed(3)} ms`);
  row('ours: run means min / max', `${Math.min(...ours.runMeansMs).toFixed(3)} / ${Math.max(...ours.runMeansMs).toFixed(3)} ms`);
  row(`ours: median single step (${ours.stepMs.length} steps)`, `${median(ours.stepMs).toFixed(3)} ms`);
  row('ours: steps per second', `${(1000 / oursMs).toFixed(0)} /s`);
  if (frotz) {
    row(`dfrotz: whole run, median of ${REPETITIONS}`, `${frotz.fullMs.toFixed(1)} ms`);
    row('dfrotz: empty-input run (startup), median', `${frotz.emptyMs.toFixed(1)} ms`);
    row(`dfrotz: ms/step ((whole - empty) / ${commands.length})`, `${frotz.stepMs.toFixed(3)} ms`);
    row('ratio ours / dfrotz (per step)', `${(oursMs / frotz.stepMs).toFixed(1)} x`);
    row('ours: CPU ms/step, median of run means', `${oursCpuMs.toFixed(3)} ms`);
    row(`dfrotz: CPU ms/step ((whole - empty) / ${commands.length})`, `${frotz.stepCpuMs.toFixed(3)} ms`);
    row('ratio ours / dfrotz, CPU time (per step)', `${(oursCpuMs / frotz.stepCpuMs).toFixed(1)} x`);
    row('ratio ours / dfrotz, fastest runs (wall)', `${(Math.min(...ours.runMeansMs) / frotz.fastestStepMs).toFixed(1)} x`);
  } else {
    row('dfrotz', 'not found (set DFROTZ)');
  }
  row(`engine.reset(), median of ${RESET_REPETITIONS}`, `${reset.resetMs.toFixed(3)} ms`);
  row(`loadStory() cold, median of ${RESET_REPETITIONS}`, `${reset.coldLoadMs.toFixed(3)} ms`);
  row(`loadStory() warm (shared code), median of ${RESET_REPETITIONS}`, `${reset.loadMs.toFixed(3)} ms`);
  row('ratio warm loadStory / reset', `${(reset.loadMs / reset.resetMs).toFixed(1)} x`);
  row(`first pass on a new engine, cold: ms/step`, `${firstPass.coldMs.toFixed(3)} ms`);
  row(`first pass on a new engine, warm: ms/step`, `${firstPass.warmMs.toFixed(3)} ms`);
  if (binary) {
    console.log(`\nPer-step ratio by game (in-process ours / dfrotz, wall clock, median of ${REPETITIONS}; goal ≤ 4×)\n`);
    console.log('| story | ours ms/step | dfrotz ms/step | ratio | metattl replay ms/step | replay / in-process (goal ≤ 1.5×) |');
    console.log('|---|---|---|---|---|---|');
    if (frotz) console.log(`| detective.z5 (the list above) | ${oursMs.toFixed(3)} | ${frotz.stepMs.toFixed(3)} | ${(oursMs / frotz.stepMs).toFixed(1)}× | | |`);
    const light: LightGameCost[] = [];
    for (const name of ['zork1.z5', 'minizork.z3']) {
      const path = join(sharedDir, 'stories', name);
      if (!existsSync(path)) {
        console.log(`| ${name} | not in ${join(sharedDir, 'stories')} | | |`);
        continue;
      }
      const r = await gameRatio(path, binary);
      light.push(r);
      console.log(`| ${name} (${STANDING_STILL.length} standing-still commands cycled) | ${r.oursMs.toFixed(3)} | ${r.dfrotzMs.toFixed(3)} | ${(r.oursMs / r.dfrotzMs).toFixed(1)}× | ${r.replayMs.toFixed(3)} | ${(r.replayMs / r.oursMs).toFixed(2)}× |`);
    }
    printStepCostTables(light, REPETITIONS, STEP_COUNT, REPLAY_REPETITIONS);
  }
  console.log(`\nOurs: in-process engine.step() calls, catalog rules ${rules ? 'on' : 'off'}, seed 0; one untimed warm-up run;`);
  console.log(`every run starts from reset() and no step ends the game (final ${ours.finalStatus}).`);
  console.log(`loadStory cold: the story's shared compiled routines and dictionaries dropped first (clearStoryWork);`);
  console.log(`warm: other engines of the story ran before in this thread. First pass: the whole list once on a new`);
  console.log(`engine, median of ${FIRST_PASS_REPETITIONS} each (cold compiles and warms up every routine again).`);
  if (frotz) {
    console.log(`dfrotz: ${binary} -m -p -q -s 0, all commands on stdin at once, output read from a pipe, stderr ignored;`);
    console.log(`its repetitions alternate with ours, so both see the same machine load; CPU time from bash's \`time\`.`);
    console.log(`When other processes compete for the cores, wall-clock times swing and our CPU time grows too (caches`);
    console.log(`are shared); the fastest-runs ratio (our fastest run mean / dfrotz's fastest whole minus fastest empty`);
    console.log(`run) is the least disturbed one.`);
    console.log(`it exits at end of input; ${frotz.prompts} prompts seen in the last run (the game did not end).`);
  }
}

// Timed as the CLI ships our engine code (built-run.ts), not through tsx.
if (runningBuilt()) await main();
else process.exitCode = await runBuilt(import.meta.filename);
