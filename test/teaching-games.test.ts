/**
 * The teaching games (games/README.md; public/stories/lever-room.z5 and vault.z5, built by
 * scripts/build-games.sh) keep their promise under the catalog's rules, for seeds 0..9: a failed
 * attempt ends in a death that names the next step as `Next time, try: <COMMAND>.`; the
 * walkthrough rebuilt from those hints wins with the max score in at most 10 moves; a first attempt
 * without the secret dies; the secret depends on the seed, and only on it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCatalog, rulesFor, type CatalogEntry } from '../src/engine/catalog.ts';
import type { Engine, StepResult } from '../src/engine/interface.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { REPO_ROOT } from './support/shared.ts';

const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
const SEEDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const MAX_MOVES = 10;
const COLOURS = ['RED', 'GREEN', 'BLUE', 'YELLOW'];

/** The catalog entry of a teaching game; its shipped file must match the entry's md5. */
function teachingEntry(id: string): { entry: CatalogEntry; bytes: Uint8Array } {
  const entry = catalog.stories.find((s) => s.id === id);
  if (!entry?.file) throw new Error(`catalog.json has no shipped story "${id}"`);
  const bytes = new Uint8Array(readFileSync(resolve(REPO_ROOT, 'public/stories', entry.file)));
  expect(md5Hex(bytes)).toBe(entry.md5);
  return { entry, bytes };
}

function start(id: string, seed: number): Engine {
  const { entry, bytes } = teachingEntry(id);
  return loadStory(bytes, { seed, rules: rulesFor(entry) });
}

/** The command in the death text's `Next time, try: <COMMAND>.` line, or null. */
function hintIn(text: string): string | null {
  return /^Next time, try: ([A-Z0-9 ]+)\.$/m.exec(text)?.[1] ?? null;
}

/** Play `commands` from the start (after `reset()`); stops early when the game ends. */
function play(engine: Engine, commands: string[]): { last: StepResult; scores: number[]; moves: number } {
  let last = engine.reset();
  const scores: number[] = [];
  for (const command of commands) {
    if (last.done) break;
    last = engine.step(command);
    scores.push(last.score!);
  }
  return { last, scores, moves: scores.length };
}

/** A death at the given step, with its hint. @throws when the step did not end in a hinted death */
function expectHintedDeath(result: StepResult, maxScore: number): string {
  expect(result.done).toBe(true);
  expect(result.endReason).toBe('death');
  expect(result.score).toBeLessThan(maxScore);
  const hint = hintIn(result.text);
  expect(hint).not.toBeNull();
  return hint!;
}

/**
 * Learn the lever order by failing: each attempt replays the known prefix, then pulls the untried
 * levers in the listed order; a click extends the prefix, a fall names the lever that was due.
 */
function learnLeverOrder(engine: Engine): { order: string[]; attempts: number } {
  const order: string[] = [];
  let attempts = 0;
  while (order.length < COLOURS.length) {
    if (++attempts > COLOURS.length) throw new Error(`no full order after ${COLOURS.length} attempts: ${order.join(', ')}`);
    engine.reset();
    for (const command of order) expect(engine.step(command).done).toBe(false);
    for (const colour of COLOURS.filter((c) => !order.includes(`PULL ${c} LEVER`))) {
      const result = engine.step(`PULL ${colour} LEVER`);
      if (!result.done) {
        order.push(`PULL ${colour} LEVER`);
        continue;
      }
      const hint = expectHintedDeath(result, 5);
      expect(hint).toMatch(/^PULL (RED|GREEN|BLUE|YELLOW) LEVER$/);
      order.push(hint);
      break;
    }
  }
  return { order, attempts };
}

/** Learn the vault code by failing once: take the card, go east, enter 000. */
function learnVaultCode(engine: Engine): string {
  const { last } = play(engine, ['take card', 'east', 'enter 000']);
  const hint = expectHintedDeath(last, 5);
  expect(hint).toMatch(/^ENTER [1-9]\d\d$/);
  return hint;
}

describe('The Lever Room', () => {
  let learned: { seed: number; order: string[]; attempts: number }[] = [];
  beforeAll(() => {
    learned = SEEDS.map((seed) => ({ seed, ...learnLeverOrder(start('lever-room', seed)) }));
  });

  it('steps report the Lever Room (object 27 in the compiler\'s debug file) as the player\'s location', () => {
    expect(teachingEntry('lever-room').entry.playerObject).toBe(21);
    const engine = start('lever-room', 1);
    expect(engine.start.location).toEqual({ id: 27, name: 'Lever Room' });
    expect(engine.step('pull yellow lever').location).toEqual({ id: 27, name: 'Lever Room' });
  });

  it('is in the catalog as a shipped teaching game with max score 5', () => {
    const { entry } = teachingEntry('lever-room');
    expect(entry).toMatchObject({
      maxScore: 5, licence: 'CC0-1.0', author: 'Meta-TTL Playground', defaultSeed: 1,
      victoryText: ['*** You have won ***'], gameOverText: ['*** You have died ***'], victoryScore: null, introActions: [],
    });
    expect(entry.tags).toEqual(['teaching', 'demo']);
  });

  it.each(SEEDS)('seed %i: the remembered order wins with 5/5 in 5 moves', (seed) => {
    const { order } = learned[seed]!;
    expect(new Set(order).size).toBe(4);
    const { last, scores, moves } = play(start('lever-room', seed), [...order, 'north']);
    expect(scores).toEqual([1, 2, 3, 4, 5]);
    expect(moves).toBeLessThanOrEqual(MAX_MOVES);
    expect(last).toMatchObject({ done: true, endReason: 'victory', score: 5, moves: 5 });
    expect(last.text).toContain('*** You have won ***');
  });

  it.each(SEEDS)('seed %i: pulling the levers in the listed order dies below the max score', (seed) => {
    const { last } = play(start('lever-room', seed), COLOURS.map((c) => `pull ${c.toLowerCase()} lever`));
    const hint = expectHintedDeath(last, 5);
    expect(last.text).toContain('*** You have died ***');
    expect(learned[seed]!.order).toContain(hint);
  });

  it('the order depends on the seed: at least 3 distinct orders over seeds 0..9', () => {
    const orders = new Set(learned.map((l) => l.order.join(' > ')));
    expect(orders.size).toBeGreaterThanOrEqual(3);
  });

  it('the same seed gives the same order twice (fresh engine, and after reset)', () => {
    for (const { seed, order } of learned) {
      const engine = start('lever-room', seed);
      expect(learnLeverOrder(engine).order).toEqual(order);
      expect(learnLeverOrder(engine).order).toEqual(order);
    }
  });
});

describe('The Vault', () => {
  let codes: string[] = [];
  beforeAll(() => {
    codes = SEEDS.map((seed) => learnVaultCode(start('vault', seed)));
  });

  it('is in the catalog as a shipped teaching game with max score 5', () => {
    const { entry } = teachingEntry('vault');
    expect(entry).toMatchObject({
      maxScore: 5, licence: 'CC0-1.0', author: 'Meta-TTL Playground', defaultSeed: 1,
      victoryText: ['*** You have won ***'], gameOverText: ['*** You have been caught ***'], victoryScore: null, introActions: [],
    });
    expect(entry.tags).toEqual(['teaching', 'demo']);
  });

  it.each(SEEDS)('seed %i: the remembered code wins with 5/5 in 5 moves', (seed) => {
    const walkthrough = ['take card', 'east', codes[seed]!, 'east', 'take gem'];
    const { last, scores, moves } = play(start('vault', seed), walkthrough);
    expect(scores).toEqual([1, 1, 3, 3, 5]);
    expect(moves).toBeLessThanOrEqual(MAX_MOVES);
    expect(last).toMatchObject({ done: true, endReason: 'victory', score: 5, moves: 5 });
    expect(last.text).toContain('*** You have won ***');
  });

  it('steps report the room the player is in (the catalog\'s player object, selfobj, whose parent is the room)', () => {
    expect(teachingEntry('vault').entry.playerObject).toBe(21);
    const engine = start('vault', 1);
    const lobby = engine.start.location;
    expect(lobby).toMatchObject({ name: 'Lobby' });
    const rooms = ['take card', 'east', codes[1]!, 'east', 'take gem'].map((c) => engine.step(c).location);
    expect(rooms.map((r) => r?.name)).toEqual(['Lobby', 'Vault Door', 'Vault Door', 'Vault', 'Vault']);
    expect(new Set(rooms.map((r) => r!.id)).size).toBe(3);
    // reset() and restore() report the location too.
    expect(engine.reset().location).toEqual(lobby);
    engine.step('take card');
    engine.step('east');
    const snap = engine.snapshot();
    engine.reset();
    expect(engine.restore(snap).location).toEqual(rooms[1]);
  });

  it.each(SEEDS)('seed %i: a first attempt without the code is caught below the max score', (seed) => {
    const engine = start('vault', seed);
    const guessed = play(engine, ['take card', 'east', 'enter 000']).last;
    expect(guessed.text).toContain('*** You have been caught ***');
    expect(guessed.score).toBe(1);
    const forced = play(engine, ['east', 'open door']).last;
    expect(hintIn(forced.text)).toBe(codes[seed]);
    expect(forced).toMatchObject({ done: true, endReason: 'death', score: 0 });
  });

  it('the code depends on the seed: at least 3 distinct codes over seeds 0..9', () => {
    expect(new Set(codes).size).toBeGreaterThanOrEqual(3);
  });

  it('the same seed gives the same code twice (fresh engine, and after reset)', () => {
    for (const seed of SEEDS) {
      const engine = start('vault', seed);
      expect(learnVaultCode(engine)).toBe(codes[seed]);
      expect(learnVaultCode(engine)).toBe(codes[seed]);
    }
  });
});
