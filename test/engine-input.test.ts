/**
 * Input and state: @aread's result, characters the story's Unicode table
 * holds, v3 time games, in-game saves across reset(), stories that never ask for input. Compiled
 * test stories in test/fixtures/ (scripts/build-test-stories.sh); text compared with dfrotz.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { EngineProxy } from '../src/engine/engine-proxy.ts';
import { createNodeWorker } from '../src/engine/node/worker-factory.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { runDfrotz, textLines } from './support/dfrotz.ts';
import { readShared, REPO_ROOT } from './support/shared.ts';

const fixturePath = (name: string, ext = 'z5'): string => resolve(REPO_ROOT, `test/fixtures/${name}/${name}.${ext}`);
const fixture = (name: string, ext = 'z5'): Uint8Array => new Uint8Array(readFileSync(fixturePath(name, ext)));

describe('input', () => {
  it('a word with a letter of the story\'s Unicode table (café) reaches the dictionary, like dfrotz', () => {
    const engine = loadStory(fixture('input'), { seed: 0 });
    const cafe = engine.step('caf\u00E9');
    expect(cafe.command).toBe('caf\u00E9');
    expect(cafe.text).toContain('result 13; chars 99 97 102 170; word caf\u00E9');
    const naive = engine.step('Na\u00EFve');
    const ours = [engine.start.text, cafe.text, naive.text, engine.step('end').text].join('\n');
    expect(textLines(ours)).toEqual(textLines(runDfrotz(fixturePath('input'), 'caf\u00E9\nNa\u00EFve\nend\n').stdout));
  });
});

describe('v3 time games (Flags 1 bit 1)', () => {
  it('report no score and no moves: hours and minutes are not a score', () => {
    const engine = loadStory(fixture('timegame', 'z3'), { seed: 0 });
    expect(engine.start).toMatchObject({ statusLine: 'Clock Room  Time: 9:00 AM', score: null, moves: null });
    let last = engine.start;
    for (let i = 0; i < 5; i++) last = engine.step('wait');
    expect(last).toMatchObject({ statusLine: 'Clock Room  Time: 10:15 AM', score: null, moves: null });
  });

  it('use the catalog\'s score read when there is one', () => {
    const engine = loadStory(fixture('timegame', 'z3'), { seed: 0, rules: { scoreRead: { addr: 0x0, bytes: 1 }, movesRead: null } });
    expect(engine.step('wait').score).toBe(3); // header byte 0: the version
  });
});

describe('in-game saves do not survive reset()', () => {
  const catalog = parseCatalog(JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/stories/catalog.json'), 'utf8')));
  const bytes = new Uint8Array(readShared('stories/detective.z5'));
  const rules = rulesFor(findByMd5(catalog, md5Hex(bytes))!);

  it('detective: north, west, save; reset; restore finds no save and the score stays 10', () => {
    const engine = loadStory(bytes, { seed: 0, rules });
    engine.step('north');
    expect(engine.step('west').score).toBe(20);
    expect(engine.step('save').text).toMatch(/ok/i);
    expect(engine.reset().score).toBe(10);
    const restore = engine.step('restore');
    expect(restore.score).toBe(10);
    expect(restore.text).toMatch(/fail/i);
  });

  it('within an episode, save and restore still work', () => {
    const engine = loadStory(bytes, { seed: 0, rules });
    engine.step('north');
    engine.step('west');
    engine.step('save');
    engine.step('east');
    expect(engine.step('restore').score).toBe(20);
  });
});

describe('the end of a game', () => {
  it('a victory banner followed by a wait for a key (no restart question) ends the game as a victory', () => {
    const engine = loadStory(fixture('endkey'), { seed: 0 });
    expect(engine.start.done).toBe(false);
    const won = engine.step('win');
    expect(won).toMatchObject({ done: true, endReason: 'victory', inputKind: 'char' });
    expect(won.text).toContain('*** You have won ***');
  });
});

describe('a story that never asks for input', () => {
  it('ends at once: done, end reason quit, with its text; reset() gives the same', () => {
    const engine = loadStory(fixture('noinput'), { seed: 0 });
    expect(engine.start).toMatchObject({ text: 'Hello.\n', done: true, endReason: 'quit', inputKind: null, fault: null });
    expect(engine.reset()).toMatchObject({ text: 'Hello.\n', done: true, endReason: 'quit' });
    expect(() => engine.step('look')).toThrow(/game is over/);
  });

  it('also through the worker proxy', async () => {
    const proxy = await EngineProxy.load(createNodeWorker, fixture('noinput'), { seed: 0 });
    try {
      expect(proxy.start).toMatchObject({ text: 'Hello.\n', done: true, endReason: 'quit' });
      expect(await proxy.reset()).toMatchObject({ text: 'Hello.\n', done: true, endReason: 'quit' });
    } finally {
      proxy.dispose();
    }
  });
});
