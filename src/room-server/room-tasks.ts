/**
 * A round's tasks as the scorer plays them: each `story:seed` (`lever-room:1`; `:seed` absent = the
 * catalog's seed) resolved to the catalog's entry, its max score and its file, searched where the
 * CLI searches (`STORIES_DIR`, the package's public/stories, the downloaded stories
 * `METATTL_STORIES_DIR` or ~/.cache/metattl-stories, `SHARED_DIR`/stories), and played in a worker
 * engine (engine/node) as `metattl eval` plays it. Web tasks are not played by the room.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { MetattlError } from '../common/errors.ts';
import { parseCatalog, rulesFor, type Catalog } from '../engine/catalog.ts';
import { EngineProxy } from '../engine/engine-proxy.ts';
import { createNodeWorker } from '../engine/node/worker-factory.ts';
import { md5Hex } from '../engine/story-file.ts';
import type { EvolutionTask } from '../evolve/interface.ts';
import type { RoomTask } from '../room/protocol.ts';
import type { PooledEngine } from '../ttl/engine-pool.ts';

/** A task ready to play: the loops' task and how to start an engine on it. */
export interface PlayableTask extends EvolutionTask {
  open(): Promise<PooledEngine>;
}

/** Resolves a round's task ids (`RoomTask`) to playable tasks. @throws RoomTaskError naming the task */
export type RoomTaskResolver = (ids: readonly RoomTask[]) => Promise<PlayableTask[]>;

/** A round names a task the room cannot play (unknown story, missing file, no max score, web task). */
export class RoomTaskError extends MetattlError {
  override readonly name = 'RoomTaskError';
  constructor(message: string) {
    super('room_task', message);
  }
}

const ROOT = resolve(import.meta.dirname, '../..');
/** Milliseconds a game step may take before the worker is called hung (as `metattl eval`). */
const STEP_TIMEOUT_MS = 5000;

function storyDirs(): string[] {
  const downloaded = process.env.METATTL_STORIES_DIR ?? resolve(homedir(), '.cache/metattl-stories');
  const dirs = [process.env.STORIES_DIR, resolve(ROOT, 'public/stories'), downloaded, resolve(process.env.SHARED_DIR ?? resolve(ROOT, '../shared'), 'stories')];
  return dirs.filter((d): d is string => !!d && existsSync(d));
}

let catalogLoaded: Promise<Catalog> | null = null;
const catalog = () => (catalogLoaded ??= readFile(resolve(ROOT, 'public/stories/catalog.json'), 'utf8').then((text) => parseCatalog(JSON.parse(text))));

/** One `story:seed` as a playable task. @throws RoomTaskError */
async function resolveOne(id: RoomTask): Promise<PlayableTask> {
  if (id.startsWith('web:')) throw new RoomTaskError(`The room does not score web tasks (${id}); use story tasks such as lever-room:1.`);
  const match = /^([A-Za-z0-9_.-]+)(?::(\d+))?$/.exec(id.trim());
  if (!match) throw new RoomTaskError(`"${id}" is not a task: write story:seed, e.g. lever-room:1.`);
  const entry = (await catalog()).stories.find((s) => s.id === match[1]);
  if (!entry) throw new RoomTaskError(`No story "${match[1]}" in the catalog (task ${id}).`);
  if (!entry.maxScore) throw new RoomTaskError(`${entry.title} has no known max score, so its W-AUC is undefined (task ${id}).`);
  const names = [...new Set([entry.file, entry.localName].filter((n): n is string => !!n))];
  const path = storyDirs().flatMap((d) => names.map((n) => resolve(d, n))).find((p) => existsSync(p));
  if (!path) throw new RoomTaskError(`The story file of ${entry.title} is not on this machine (task ${id}); get it with \`npx metattl stories get\`.`);
  const bytes = new Uint8Array(await readFile(path));
  if (md5Hex(bytes) !== entry.md5) throw new RoomTaskError(`${path} is not the catalog's ${entry.title} (its md5 differs; task ${id}).`);
  const seed = match[2] === undefined ? entry.defaultSeed : Number(match[2]);
  const rules = rulesFor(entry);
  return {
    id: `${entry.id}:${seed}`, storyId: entry.id, title: entry.title, md5: entry.md5, seed, maxScore: entry.maxScore,
    open: () => EngineProxy.load(createNodeWorker, bytes, { seed, rules }, { stepTimeoutMs: STEP_TIMEOUT_MS }),
  };
}

/** The default resolver: catalog stories in worker engines. @throws RoomTaskError for the first task it cannot play */
export const resolveRoomTasks: RoomTaskResolver = (ids) => Promise.all(ids.map(resolveOne));

/** A task without its engine opener (what a run's config stores). */
export function plainTask({ open: _open, ...task }: PlayableTask): EvolutionTask {
  return task;
}
