/**
 * `metattl replay`: play a list of commands on a story at a seed and report the score after each
 * step. Runs the engine in a worker_thread with the watchdog, so a runaway story ends the replay
 * with `interpreter_hang` instead of hanging the CLI; the commands go as one batch (the worker
 * streams each step's result, the watchdog re-armed per step), so a step costs no round trip. Output contract (--json):
 * `{ story, seed, md5, start: { observation, statusLine, score, moves }, steps: [{ command,
 * score, moves, done, observation, statusLine }], final: { score, moves, done, endReason,
 * termination, steps } }` — termination uses method.md's vocabulary; `observation` is the game's
 * text after the command (echo excluded), so a replay can be read and diffed against another
 * interpreter; every step also carries `observationBefore` (the text before the command) and
 * `observationAfter` (= `observation`), as `play --json` does, and `location` (start too): `{ id,
 * name }`, the player object's parent after the step, or null for a story not in the catalog. Exit code 0 when the
 * commands ran (step_limit or game_over), 1 when the interpreter failed (interpreter_error or
 * interpreter_hang; the JSON is still printed and the fault goes to stderr).
 */
import { REPLAY } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { EngineProxy } from '../engine/engine-proxy.ts';
import type { PlayerLocation, StepResult } from '../engine/interface.ts';
import { createNodeWorker } from '../engine/node/worker-factory.ts';
import { intOption } from './numbers.ts';
import { readInputText } from './output-paths.ts';
import { seedFromOption } from './seed-option.ts';
import { UsageError } from './usage-error.ts';
import { resolveStory } from './stories.ts';

/** Split a commands file: one command per line; the final newline does not add an empty step. */
export function parseCommandsFile(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export async function replayCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(REPLAY, argv);
  const [storySpec, ...extra] = positionals;
  if (!storySpec) throw new UsageError('replay needs a story file');
  if (extra.length) throw new UsageError(`replay takes one story, got also: ${extra.join(' ')}`);
  if (!values.commands) throw new UsageError('replay needs --commands FILE');
  const story = await resolveStory(storySpec);
  const seed = seedFromOption(values.seed, story.entry?.defaultSeed ?? 0);
  const commands = parseCommandsFile(await readInputText(values.commands, 'commands file'));

  const engine = await EngineProxy.load(createNodeWorker, story.bytes, { seed, rules: story.rules }, { stepTimeoutMs: intOption(values['step-timeout-ms'], 'step-timeout-ms', 5000, 100, 600_000) });
  const steps: { command: string; score: number | null; moves: number | null; done: boolean; observation: string; observationBefore: string; observationAfter: string; statusLine: string; location: PlayerLocation | null }[] = [];
  const start = { observation: engine.start.text, statusLine: engine.start.statusLine, score: engine.start.score, moves: engine.start.moves, location: engine.start.location ?? null };
  let last: StepResult = engine.start;
  try {
    // One batch request: the worker streams the results, no round trip per step (engine-proxy.ts).
    if (!last.done) await engine.stepBatch(commands, (result) => {
      const before = last.text;
      last = result;
      steps.push({ command: last.command, score: last.score, moves: last.moves, done: last.done, observation: last.text, observationBefore: before, observationAfter: last.text, statusLine: last.statusLine, location: last.location ?? null });
      if (!values.json) process.stdout.write(`${String(steps.length).padStart(4)}  ${String(last.score ?? '-').padStart(5)}  ${last.command}\n`);
    });
  } finally {
    engine.dispose();
  }
  const termination = last.fault ? last.fault.kind : last.done ? 'game_over' : 'step_limit';
  const final = { score: last.score, moves: last.moves, done: last.done, endReason: last.endReason, termination, steps: steps.length, ...(last.fault ? { error: last.fault.message } : {}) };
  if (values.json) {
    process.stdout.write(JSON.stringify({ story: story.path, seed, md5: engine.info.md5, start, steps, final }) + '\n');
  } else {
    process.stdout.write(`final (seed ${seed}): score ${final.score ?? 'n/a'}${story.entry?.maxScore ? ` of ${story.entry.maxScore}` : ''}, moves ${final.moves ?? 'n/a'}, ${termination}${final.endReason ? ` (${final.endReason})` : ''}\n`);
  }
  if (last.fault) {
    process.stderr.write(`metattl: the story stopped with ${last.fault.kind} at step ${steps.length}: ${last.fault.message}\n`);
    return 1;
  }
  return 0;
}
