/**
 * An experiment's task lists as the page plays them: named sets expanded (ID / OOD from the
 * catalog's tags at each game's default seed, the web sets WEB-ID-train … from the web catalog),
 * every story task written `<game>:<seed>` with the game's catalog id (the id the evaluation's
 * per-game rows and leak check use), and the games no shelf story plays named; and the games'
 * vocabularies read from the story shelf's story files.
 */
import type { GameVocabulary } from '../../eval/vocabulary-overlap.ts';
import { gameOf } from '../../experiment/plan.ts';
import type { ExperimentPlan, ExperimentSpec } from '../../experiment/interface.ts';
import { shelfGameVocabularies } from '../shared/evaluation/shelf-vocabulary.ts';

/** What expansion needs: the shelf's stories, the catalog and the named web sets. */
export interface TaskShelf {
  entries: readonly { id: string; catalog: { id: string } | null }[];
  catalog: readonly { id: string; tags: readonly string[]; defaultSeed: number }[];
  /** The task ids of a named web set (case-insensitive), or null when `name` is none. */
  webSet(name: string): string[] | null;
}

/** The story shelf entry that plays `game` (its catalog id, else its shelf id). */
export function entryFor<E extends { id: string; catalog: { id: string } | null }>(entries: readonly E[], game: string): E | undefined {
  return entries.find((e) => (e.catalog?.id ?? e.id) === game) ?? entries.find((e) => e.id === game);
}

/** `tasks` expanded and written `<game>:<seed>` (web tasks unchanged); `missing` = games no shelf story plays. */
export function canonicalTasks(tasks: readonly string[], lib: TaskShelf): { tasks: string[]; missing: string[] } {
  const out: string[] = [];
  const missing: string[] = [];
  for (const raw of tasks) {
    const part = raw.trim();
    const tag = part.toLowerCase();
    if (tag === 'id' || tag === 'ood') {
      for (const s of lib.catalog.filter((c) => c.tags.includes(tag))) out.push(...canonicalTasks([`${s.id}:${s.defaultSeed}`], lib).tasks);
      for (const s of lib.catalog.filter((c) => c.tags.includes(tag) && !entryFor(lib.entries, c.id))) missing.push(s.id);
      continue;
    }
    const web = lib.webSet(part);
    if (web) {
      out.push(...web);
      continue;
    }
    if (part.startsWith('web:')) {
      out.push(part);
      continue;
    }
    const seeded = /^(.*):(\d+)$/.exec(part);
    const game = seeded ? seeded[1]! : part;
    const seed = seeded ? Number(seeded[2]) : (lib.catalog.find((c) => c.id === game)?.defaultSeed ?? 0);
    const entry = entryFor(lib.entries, game);
    if (!entry) missing.push(game);
    out.push(`${entry ? (entry.catalog?.id ?? entry.id) : game}:${seed}`);
  }
  return { tasks: [...new Set(out)], missing: [...new Set(missing)] };
}

/** `spec` with every task set canonical, and the games it needs that the story shelf lacks. */
export function canonicalSpec(spec: ExperimentSpec, lib: TaskShelf): { spec: ExperimentSpec; missing: string[] } {
  const taskSets: Record<string, string[]> = {};
  const missing = new Set<string>();
  for (const [name, tasks] of Object.entries(spec.taskSets)) {
    const c = canonicalTasks(tasks, lib);
    taskSets[name] = c.tasks;
    c.missing.forEach((g) => missing.add(g));
  }
  return { spec: { ...spec, taskSets }, missing: [...missing] };
}

/** The story shelf story id and seed of canonical task `taskId` (web tasks: their own id). @throws Error naming a game the story shelf lacks */
export function shelfTask(taskId: string, entries: TaskShelf['entries']): { storyId: string; seed: number } {
  const at = taskId.lastIndexOf(':');
  const seed = Number(taskId.slice(at + 1));
  if (taskId.startsWith('web:')) return { storyId: taskId.slice(0, at), seed };
  const entry = entryFor(entries, gameOf(taskId));
  if (!entry) throw new Error(`No story on your story shelf plays “${gameOf(taskId)}”: get it with “Get the Jericho games…” or add its file.`);
  return { storyId: entry.id, seed };
}

/**
 * The vocabularies of `plan`'s story games (its evolutions' train and validation games and its
 * evaluations' games) read from the story shelf (shared/evaluation/shelf-vocabulary.ts): a game no
 * shelf story plays, a file that is not a readable story, and web tasks are left out; the report
 * lists them as missing (src/experiment/report.ts `vocabularyOverlapOf`). A game's walkthrough is
 * the experiment file's (`recallProbe.walkthroughs`), when it gives one.
 */
export function shelfVocabularies<E extends { id: string; catalog: { id: string } | null }>(plan: ExperimentPlan, entries: readonly E[], readBytes: (entry: E) => Promise<Uint8Array>): Promise<Record<string, GameVocabulary>> {
  return shelfGameVocabularies(plan.steps.flatMap((s) => (s.kind === 'evolution' ? [...s.train, ...s.val] : s.tasks)).map(gameOf), entries, readBytes, plan.spec.recallProbe?.walkthroughs ?? {});
}
