/**
 * The engine scores real games exactly and knows where the player is: each Jericho walkthrough
 * (../shared/stories and ../shared/stories-more), replayed once at its Jericho seed after its
 * intro actions (which the catalog applies), equals Jericho's own per-step traces:
 * - score-traces.json, score-traces-more.json: the score after every step, the moves after every
 *   step but the last (Jericho's counter runs one ahead on some final steps), done exactly at the
 *   trace's end step, with the right end reason;
 * - locations.json (Jericho 3.3.1 `get_player_location()` after the reset and after every step):
 *   the location's object number at every step, and its name as Jericho decodes it, while the
 *   step's own name is the one the game prints.
 */
import { describe, expect, it } from 'vitest';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { bytesMemory, objectShortName } from '../src/engine/object-tree.ts';
import type { EndReason, PlayerLocation, StepResult } from '../src/engine/interface.ts';
import { jerichoGame, readShared, readSharedJson, REPO_ROOT } from './support/shared.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));

/** Final scores from ground-truth.md ("Results with the Jericho seed") and score-traces-more.json. */
const GROUND_TRUTH: Record<string, number> = { detective: 360, zork1: 350, temple: 35, balances: 50, library: 30, zork3: 7, advent: 350 };

interface Trace {
  scores: number[];
  moves: number[];
  initial_score?: number;
  victory_step: number | null;
  game_over_step: number | null;
  final_score: number;
}

/** Every Jericho game we have a story file and a trace for, with the end reason it must give. */
const GAMES: { name: string; dir: 'stories' | 'stories-more'; traces: string; endReason: EndReason }[] = [
  ...Object.keys(GROUND_TRUTH).map((name) => ({ name, dir: 'stories' as const, traces: 'score-traces.json', endReason: 'victory' as const })),
  ...['afflicted', 'inhumane', 'lurking', 'murdac', 'seastalker', 'trinity', 'zork2'].map((name) => ({
    name, dir: 'stories-more' as const, traces: 'score-traces-more.json', endReason: 'victory' as const,
  })),
  // Jericho calls the end of anchor a game over (its victory text is a different banner); the game
  // prints "*** You have won... for now ***", which the engine reads as a victory.
  { name: 'anchor', dir: 'stories-more', traces: 'score-traces-more.json', endReason: 'victory' },
];

interface Replay {
  bytes: Uint8Array;
  start: StepResult;
  steps: StepResult[];
}

const replays = new Map<string, Replay>();

/** The walkthrough played once per game at its Jericho seed (every step, even past an end). */
function replay(name: string, dir: string): Replay {
  const cached = replays.get(name);
  if (cached) return cached;
  const game = jerichoGame(name);
  const bytes = new Uint8Array(readShared(`${dir}/${game.rom}`));
  const entry = findByMd5(catalog, md5Hex(bytes));
  expect(entry?.id).toBe(name);
  const engine = loadStory(bytes, { seed: game.seed, rules: rulesFor(entry!) });
  const steps: StepResult[] = [];
  for (const command of game.walkthrough) {
    if (steps.at(-1)?.done) break;
    steps.push(engine.step(command));
  }
  const played = { bytes, start: engine.start, steps };
  replays.set(name, played);
  return played;
}

describe('Jericho walkthroughs at their Jericho seed equal Jericho step by step', () => {
  for (const { name, dir, traces, endReason } of GAMES) {
    it(`${name}: score at every step, done at the trace's end step as ${endReason}`, () => {
      const game = jerichoGame(name);
      const trace = readSharedJson<Record<string, Trace>>(`jericho/${traces}`)[name]!;
      const endStep = trace.victory_step ?? trace.game_over_step;
      expect(endStep).toBe(game.walkthrough.length);
      const { start, steps } = replay(name, dir);
      if (trace.initial_score !== undefined) expect(start.score).toBe(trace.initial_score);
      expect(steps.map((s) => s.fault)).toEqual(steps.map(() => null));
      const moves = steps.map((s) => s.moves);
      expect(steps.map((s) => s.score)).toEqual(trace.scores);
      expect(moves.slice(0, -1)).toEqual(trace.moves.slice(0, -1));
      expect(Math.abs(moves.at(-1)! - trace.moves.at(-1)!)).toBeLessThanOrEqual(1);
      expect(steps.flatMap((s, i) => (s.done ? [i + 1] : []))).toEqual([endStep]);
      const last = steps.at(-1)!;
      expect(last.score).toBe(GROUND_TRUTH[name] ?? trace.final_score);
      expect(last.endReason).toBe(endReason);
    });
  }
});

interface JerichoLocations {
  rom_md5: string;
  seed: number;
  player_obj: number;
  /** After the reset, then after each step: [object number, name], or null (Jericho's None). */
  locations: ([number, string] | null)[];
}

/**
 * Jericho's per-game caps on object numbers (frotz/src/games/<game>.c, `<game>_get_num_world_objs`
 * at microsoft/jericho b6b48b5): its `get_object()` answers None for a larger number, so a room
 * numbered above the cap (advent's repository, objects 269 and 273) has no location in Jericho.
 */
const JERICHO_OBJECT_CAP: Record<string, number> = {
  advent: 255, balances: 124, detective: 101, library: 76, temple: 158, zork1: 250, zork3: 219, afflicted: 237,
  anchor: 764, inhumane: 108, lurking: 252, murdac: 126, seastalker: 249, trinity: 593, zork2: 250,
};

/** What Jericho's `get_player_location()` answers for our location: null above its object cap or
 * for a name it refuses, else [id, the name as its get_text decodes it (abbreviations dropped)]. */
function asJericho(location: PlayerLocation | null, bytes: Uint8Array, cap: number): [number, string] | null {
  if (!location || location.id > cap) return null;
  const name = objectShortName(bytesMemory(bytes), bytes[0]!, location.id, { jericho: true });
  return name === null ? null : [location.id, name];
}

describe('the player\'s location at every walkthrough step equals Jericho\'s get_player_location()', () => {
  const reference = readSharedJson<{ games: Record<string, JerichoLocations> }>('jericho/locations.json').games;
  it('covers the 15 games we have story files for, and the catalog holds Jericho\'s player object for each', () => {
    expect(Object.keys(reference).sort()).toEqual(GAMES.map((g) => g.name).sort());
    for (const { name } of GAMES) expect(catalog.stories.find((s) => s.id === name)?.playerObject).toBe(reference[name]!.player_obj);
  });
  for (const { name, dir } of GAMES) {
    it(`${name}: location id and name after the reset and after every step`, () => {
      const ref = reference[name]!;
      const game = jerichoGame(name);
      expect(ref.seed).toBe(game.seed);
      const { bytes, start, steps } = replay(name, dir);
      expect(md5Hex(bytes)).toBe(ref.rom_md5);
      const results = [start, ...steps];
      expect(results).toHaveLength(ref.locations.length);
      expect(results.map((r) => asJericho(r.location, bytes, JERICHO_OBJECT_CAP[name]!))).toEqual(ref.locations);
      // Every step has a location (Jericho's Nones are its object cap), and its name is the one the
      // game prints: it appears in the game's text or status line at some step spent there
      // (internal names in parentheses, such as advent's mazes and all of murdac's rooms, excepted:
      // a routine prints those rooms' names).
      expect(results.filter((r) => r.location === null)).toEqual([]);
      const printed = new Map<number, { name: string; shown: boolean }>();
      for (const r of results) {
        const { id, name: room } = r.location!;
        const seen = printed.get(id) ?? { name: room, shown: false };
        if (`${r.statusLine}\n${r.text}`.toLowerCase().includes(room.toLowerCase())) seen.shown = true;
        printed.set(id, seen);
      }
      const unprinted = [...printed.values()].filter((p) => !p.shown && !/^\(.*\)$/.test(p.name)).map((p) => p.name);
      expect(unprinted).toEqual([]);
    });
  }
});

describe('seeds reach the interpreter', () => {
  it('zork1 with seed 0 instead of 12 does not win (ground-truth.md: only 4/53 seeds win)', () => {
    const game = jerichoGame('zork1');
    const bytes = new Uint8Array(readShared(`stories/${game.rom}`));
    const engine = loadStory(bytes, { seed: 0, rules: rulesFor(findByMd5(catalog, md5Hex(bytes))!) });
    let last = engine.start;
    for (const command of game.walkthrough) {
      if (last.done) break;
      last = engine.step(command);
    }
    expect(last.score).toBeLessThan(350);
  });
});
