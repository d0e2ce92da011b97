/**
 * Episodes as the session map reads them (the start location and every step's command, reward and
 * location): the shipped teaching games played in-process (no worker, no model), and Jericho's own
 * locations along a game's walkthrough (../shared/jericho/locations.json, Jericho 3.3.1).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MapEpisode } from '../../src/agents/room-map.ts';
import { parseCatalog, rulesFor } from '../../src/engine/catalog.ts';
import type { Engine } from '../../src/engine/interface.ts';
import { loadStory } from '../../src/engine/zvm-engine.ts';
import { jerichoGame, readSharedJson, REPO_ROOT } from './shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));

function startGame(id: string, seed: number): Engine {
  const entry = catalog.stories.find((s) => s.id === id);
  if (!entry?.file) throw new Error(`catalog.json has no shipped story "${id}"`);
  return loadStory(new Uint8Array(readFileSync(resolve(REPO_ROOT, 'public/stories', entry.file))), { seed, rules: rulesFor(entry) });
}

/** Plays `commands` on the shipped teaching game `id` (stops at the game's end). */
export function playEpisode(id: string, seed: number, commands: string[]): MapEpisode {
  const engine = startGame(id, seed);
  const steps: MapEpisode['steps'][number][] = [];
  let score = engine.start.score ?? 0;
  for (const [i, action] of commands.entries()) {
    const r = engine.step(action);
    steps.push({ index: i + 1, action, reward: (r.score ?? 0) - score, location: r.location });
    score = r.score ?? 0;
    if (r.done) break;
  }
  return { startLocation: engine.start.location, steps };
}

/** The Vault's seed-dependent code ("enter NNN"), read from the death hint of a first attempt. */
export function vaultCode(seed: number): string {
  const engine = startGame('vault', seed);
  engine.step('take card');
  engine.step('east');
  const hint = /Next time, try: (ENTER [1-9]\d\d)\./.exec(engine.step('enter 000').text)?.[1];
  if (!hint) throw new Error('The Vault gave no code hint');
  return hint.toLowerCase();
}

interface JerichoLocations {
  games: Record<string, { player_obj: number; locations: [number, string][] }>;
}

/**
 * Jericho's walkthrough of `name` cut into episodes that each replay it from the start a little
 * further (`lengths[k]` steps in episode k): a map that grows as exploration goes deeper. Locations
 * are Jericho's `get_player_location()` after reset and after every step; no rewards.
 */
export function jerichoEpisodes(name: string, lengths: number[]): MapEpisode[] {
  const game = jerichoGame(name);
  const { locations } = readSharedJson<JerichoLocations>('jericho/locations.json').games[name]!;
  if (game.intro_actions.length > 0) throw new Error(`${name} has intro actions: its locations do not line up with the walkthrough`);
  const at = (i: number) => ({ id: locations[i]![0], name: locations[i]![1] });
  return lengths.map((n) => ({
    startLocation: at(0),
    steps: game.walkthrough.slice(0, Math.min(n, locations.length - 1)).map((action, i) => ({ index: i + 1, action, reward: 0, location: at(i + 1) })),
  }));
}
