/**
 * Task lists on the command line: `story:seed,story:seed` (a story is a catalog id, a file name in
 * a stories directory, or a path; `:seed` defaults to the catalog's seed), or a named set (ID, OOD)
 * from the catalog tags. Each task is resolved to its bytes, catalog entry and max score.
 */
import { EngineProxy } from '../engine/engine-proxy.ts';
import { createNodeWorker } from '../engine/node/worker-factory.ts';
import { EnginePool, type PooledEngine } from '../ttl/engine-pool.ts';
import { loadCatalog, resolveStory, type ResolvedStory } from './stories.ts';
import { UsageError } from './usage-error.ts';
import type { EvolutionTask } from '../evolve/interface.ts';

/** A task as the loops see it, plus the resolved story file it is played on. */
export interface CliTask extends EvolutionTask {
  story: ResolvedStory;
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

/** A pool of worker engines for the tasks (one worker per concurrent session). */
export function workerPool(tasks: readonly CliTask[], stepTimeoutMs = 5000): EnginePool {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return new EnginePool(async (key): Promise<PooledEngine> => {
    const t = byId.get(key);
    if (!t) throw new Error(`unknown task ${key}`);
    return EngineProxy.load(createNodeWorker, t.story.bytes, { seed: t.seed, rules: t.story.rules }, { stepTimeoutMs });
  });
}
