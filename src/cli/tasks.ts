/**
 * Task lists on the command line: `story:seed,story:seed` (a story is a catalog id, a file name in
 * a stories directory, or a path; `:seed` defaults to the catalog's seed), or a named set (ID, OOD)
 * from the catalog tags; or web tasks `web:<site>/<template>:<seed>` and the named web sets
 * WEB-ID-train, WEB-ID-val, WEB-ID-test, WEB-OOD. Each story task is resolved to its bytes, catalog entry and max score.
 */
import { EngineProxy } from '../engine/engine-proxy.ts';
import { createNodeWorker } from '../engine/node/worker-factory.ts';
import { EnginePool, type PooledEngine } from '../ttl/engine-pool.ts';
import { loadCatalog, resolveStory, type ResolvedStory } from './stories.ts';
import { UsageError } from './usage-error.ts';
import type { EvolutionTask } from '../evolve/interface.ts';
import type { TaskDescriptor } from '../agents/kind-texts.ts';
import { taskHash, webEpisodeEngine, type WebEpisodeEngine } from '../ttl/web-engine.ts';
import { parseWebTaskId, WEB_TASK_SETS, webTaskSet } from '../web/tasks/catalog.ts';

/** A task as the loops see it, plus the resolved story file it is played on (null for a web
 * task, whose `task` says `{ kind: 'web', id }`). */
export interface CliTask extends EvolutionTask {
  story: ResolvedStory | null;
  task?: TaskDescriptor;
}

/** True when every task is a web task (their defaults are 3 episodes × 10 steps). */
export function allWeb(tasks: readonly { task?: TaskDescriptor }[]): boolean {
  return tasks.length > 0 && tasks.every((t) => t.task?.kind === 'web');
}

/** A web task id (`web:<site>/<template>:<seed>`) as a loop task: max score 1; its "story" (the
 * bootstrap's top level) is the template, so seeds of one template group like seeds of one game.
 * @throws UsageError for a malformed id */
export function webCliTask(id: string, flag: string): CliTask {
  let ref;
  try {
    ref = parseWebTaskId(id);
  } catch (error) {
    throw new UsageError(`${flag}: ${(error as Error).message}`);
  }
  return { id: ref.id, storyId: `web:${ref.template.site}/${ref.template.id}`, title: ref.id, md5: taskHash(ref.id), seed: ref.seed, maxScore: 1, story: null, task: { kind: 'web', id: ref.id } };
}

/** Named task sets (method.md / the paper's split): ID = in-distribution, OOD = held-out. */
export async function expandTaskSets(spec: string): Promise<string> {
  const catalog = await loadCatalog();
  return spec
    .split(',')
    .map((part) => part.trim())
    .flatMap((part) => {
      const tag = part.toLowerCase();
      if (tag === 'id' || tag === 'ood') return catalog.stories.filter((s) => s.tags.includes(tag)).map((s) => `${s.id}:${s.defaultSeed}`);
      const web = WEB_TASK_SETS.find((name) => name.toLowerCase() === tag);
      if (web) return webTaskSet(web);
      return [part];
    })
    .join(',');
}

/** @throws UsageError for an unknown story, a bad seed, or a story without a max score */
export async function parseTasks(spec: string, flag: string): Promise<CliTask[]> {
  const parts = (await expandTaskSets(spec)).split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new UsageError(`${flag} needs at least one story:seed`);
  if (new Set(parts).size !== parts.length) throw new UsageError(`${flag} lists a task twice: ${spec}`);
  const tasks: CliTask[] = [];
  for (const part of parts) {
    if (part.startsWith('web:')) {
      tasks.push(webCliTask(part, flag));
      continue;
    }
    const at = part.lastIndexOf(':');
    const seedText = at > 0 ? part.slice(at + 1) : null;
    if (seedText !== null && !/^\d+$/.test(seedText)) throw new UsageError(`${flag}: "${part}" has a bad seed (a whole number is expected after the colon)`);
    const name = seedText !== null ? part.slice(0, at) : part;
    let story: ResolvedStory;
    try {
      story = await resolveStory(name);
    } catch (error) {
      throw new UsageError(`${flag}: ${(error as Error).message}`);
    }
    const seed = name === part ? (story.entry?.defaultSeed ?? 0) : Number(part.slice(at + 1));
    const maxScore = story.entry?.maxScore;
    if (!maxScore) throw new UsageError(`${flag}: ${name} has no known max score, so W-AUC is undefined for it`);
    const storyId = story.entry?.id ?? name;
    tasks.push({ id: `${storyId}:${seed}`, storyId, title: story.entry?.title ?? name, md5: story.entry!.md5, seed, maxScore, story });
  }
  return tasks;
}

/** A pool of worker engines for the tasks (one worker per concurrent session); a web task gets
 * its site on jsdom (loaded only then). */
export function workerPool(tasks: readonly CliTask[], stepTimeoutMs = 5000): EnginePool {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return new EnginePool(async (key): Promise<PooledEngine> => {
    const t = byId.get(key);
    if (!t) throw new Error(`unknown task ${key}`);
    if (!t.story) return webEngine(t.id);
    return EngineProxy.load(createNodeWorker, t.story.bytes, { seed: t.seed, rules: t.story.rules }, { stepTimeoutMs });
  });
}

/** A web task's environment on jsdom as an episode engine (jsdom is imported on first use). */
export async function webEngine(taskId: string): Promise<WebEpisodeEngine> {
  const { nodeWebEnvironment } = await import('./web-tasks.ts');
  const env = nodeWebEnvironment(taskId);
  return webEpisodeEngine(env, env.task.id, env.task.seed);
}
