/**
 * `metattl tasks --kind web` and `metattl oracle <task>`: list every web task instance, and play a
 * task's oracle script (or its wrong script) on the site in Node (jsdom). Output contracts (--json):
 * tasks → `[{ id, site, template, intent, check, split }]` (check ∈ string_match, url_match, state;
 * split ∈ train, val, test, ood); oracle → `{ task, reward, steps: [{ action, observation }] }`.
 */
import { ORACLE, TASKS } from './commands.ts';
import { parseCommand } from './option-defs.ts';
import { webRng } from '../ttl/web-engine.ts';
import { inlineStyleOf } from '../web/dom/axtree.ts';
import { runScript } from '../web/dom/oracle.ts';
import { WebEnvironment } from '../web/dom/web-environment.ts';
import type { WebTaskSetName } from '../web/interface.ts';
import { createJsdomDocument } from '../web/node/jsdom-document.ts';
import { listWebTasks, parseWebTaskId, WEB_TASK_SETS, webTaskSet } from '../web/tasks/catalog.ts';
import { UsageError } from './usage-error.ts';

export { webRng };

/** A web environment for a task id, on jsdom. @throws UsageError for a bad task id */
export function nodeWebEnvironment(taskId: string): WebEnvironment {
  try {
    return new WebEnvironment(taskId, { createDocument: createJsdomDocument, styleOf: inlineStyleOf, rng: webRng });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export async function tasksCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(TASKS, argv);
  if (positionals.length) throw new UsageError(`tasks takes no positional arguments, got: ${positionals.join(' ')}`);
  if (values.kind !== 'web') throw new UsageError(`tasks --kind: only "web" is listed here (Z-machine tasks are story:seed, see --help), got "${values.kind}"`);
  let tasks = listWebTasks(webRng);
  if (values.set !== undefined) {
    if (!WEB_TASK_SETS.includes(values.set as WebTaskSetName)) throw new UsageError(`tasks --set: unknown set "${values.set}" (sets: ${WEB_TASK_SETS.join(', ')})`);
    const ids = new Set(webTaskSet(values.set as WebTaskSetName));
    tasks = tasks.filter((t) => ids.has(t.id));
  }
  if (values.json) process.stdout.write(JSON.stringify(tasks) + '\n');
  else for (const t of tasks) process.stdout.write(`${t.id.padEnd(24)} ${t.split.padEnd(5)} ${t.check.padEnd(12)} ${t.intent}\n`);
  return 0;
}

export async function oracleCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(ORACLE, argv);
  const [taskId, ...extra] = positionals;
  if (!taskId) throw new UsageError('oracle needs a web task id, e.g. web:shop/t1:3');
  if (extra.length) throw new UsageError(`oracle takes one task, got also: ${extra.join(' ')}`);
  try {
    parseWebTaskId(taskId);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const env = nodeWebEnvironment(taskId);
  await env.reset(env.task.seed);
  const run = await runScript(env, values.wrong ? env.current.wrong : env.current.oracle);
  if (values.json) {
    process.stdout.write(JSON.stringify({ task: run.task, reward: run.reward, steps: run.steps }) + '\n');
  } else {
    process.stdout.write(`${run.task}: ${env.current.intent}\n`);
    for (const step of run.steps) process.stdout.write(`  ${step.action}\n`);
    process.stdout.write(`reward ${run.reward}\n`);
  }
  return 0;
}
