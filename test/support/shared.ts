/**
 * Access to ../shared (Jericho story files and reference data), beside the repo or at SHARED_DIR.
 * Tests that need it fail — never skip — when it is missing, with a message saying where it was
 * looked for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** The shared directory. @throws Error when it does not exist. */
export function sharedDir(): string {
  const dir = resolve(process.env.SHARED_DIR ?? resolve(REPO_ROOT, '../shared'));
  if (!existsSync(resolve(dir, 'jericho/games.json'))) {
    throw new Error(`shared data not found at ${dir}: put ../shared beside the repo or set SHARED_DIR`);
  }
  return dir;
}

export function readShared(path: string): Buffer {
  return readFileSync(resolve(sharedDir(), path));
}

export function readSharedJson<T>(path: string): T {
  return JSON.parse(readShared(path).toString('utf8')) as T;
}

export interface JerichoGame {
  name: string;
  rom: string;
  seed: number;
  max_score: number;
  walkthrough: string[];
  intro_actions: string[];
}

export function jerichoGame(name: string): JerichoGame {
  const game = readSharedJson<JerichoGame[]>('jericho/games.json').find((g) => g.name === name);
  if (!game) throw new Error(`no Jericho game "${name}" in games.json`);
  return game;
}
