/**
 * Task picks of the Evolve and Evaluate views: a task is a shelf story (its picker id) and a
 * seed; its game is the catalog id when the story is known (so "local:detective.z5" and a user
 * copy of detective are one game), else the story shelf id. Game-level split checks (a game in both
 * train and validation is a selection leak) and the parsing of "seed, seed" lists. Pure.
 */
import type { CsvTable } from '../../../eval/csv.ts';
import type { ShelfEntry } from '../state/shelf.ts';
import { taskIdOf } from '../state/run-services.ts';

export interface TaskPick {
  /** Story shelf (story picker) id. */
  storyId: string;
  seed: number;
}

/** The game of a story shelf entry: its catalog id when known, else its shelf id. */
export const gameIdOf = (entry: Pick<ShelfEntry, 'id' | 'catalog'>): string => entry.catalog?.id ?? entry.id;

export const pickId = (pick: TaskPick): string => taskIdOf(pick.storyId, pick.seed);

/** Picks without duplicates (same story and seed), first kept. */
export function uniquePicks(picks: readonly TaskPick[]): TaskPick[] {
  const seen = new Set<string>();
  return picks.filter((p) => !seen.has(pickId(p)) && !!seen.add(pickId(p)));
}

/** Games that appear in both lists, in `a`'s order. */
export function sharedGames(a: readonly TaskPick[], b: readonly TaskPick[], gameOf: (storyId: string) => string): string[] {
  const inB = new Set(b.map((p) => gameOf(p.storyId)));
  return [...new Set(a.map((p) => gameOf(p.storyId)))].filter((g) => inB.has(g));
}

/** The warning for a train/validation split that shares games, or null for a clean split. */
export function splitWarning(train: readonly TaskPick[], val: readonly TaskPick[], gameOf: (storyId: string) => string): string | null {
  const games = sharedGames(train, val, gameOf);
  if (games.length === 0) return null;
  return `${games.join(', ')} ${games.length === 1 ? 'is' : 'are'} in both train and validation: validation scores on ${games.length === 1 ? 'it' : 'them'} measure fit to the training games, not generalisation. Use a game-level split for a clean result.`;
}

/** Parse a seed list such as "0, 1, 5" (whole numbers 0 … 2^32−1). @returns the seeds or a message */
export function parseSeeds(text: string): { seeds: number[] } | { error: string } {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return { error: 'Enter at least one seed.' };
  const seeds: number[] = [];
  for (const part of parts) {
    const n = Number(part);
    if (!/^\d+$/.test(part) || !Number.isInteger(n) || n >= 2 ** 32) return { error: `“${part}” is not a seed (a whole number from 0 to 4294967295).` };
    if (!seeds.includes(n)) seeds.push(n);
  }
  return { seeds };
}

/** The story/task table of the Evolve and Evaluate setups as CSV: each story with its game, max
 * score (empty: unknown), role (`roleLabelOf`, as the picker words it) and seeds as typed. */
export function storyTaskTable(stories: readonly { id: string; title: string; game: string; maxScore: number | null }[], roleLabelOf: (id: string) => string, seedsOf: (id: string) => string): CsvTable {
  return { header: ['story', 'game', 'max score', 'role', 'seeds'], rows: stories.map((s) => [s.title, s.game, s.maxScore, roleLabelOf(s.id), seedsOf(s.id)]) };
}
