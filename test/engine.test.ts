/**
 * Engine behaviour on real stories: determinism (same seed ⇒ identical transcript), snapshot /
 * restore and reset reproduce the same output, several engines in one thread stay independent,
 * intro actions, input hygiene, in-game save/restore prompts, signed scores, bad story files.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { StoryFileError } from '../src/engine/errors.ts';
import type { Engine, StepResult } from '../src/engine/interface.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { makeBlorb } from './support/blorb.ts';
import { jerichoGame, readShared } from './support/shared.ts';

const require = createRequire(import.meta.url);
const advent = new Uint8Array(readFileSync(require.resolve('glkote-term/tests/advent.z5')));
const minizork = new Uint8Array(readFileSync(require.resolve('glkote-term/tests/minizork.z3')));

const transcript = (engine: Engine, commands: string[]): string[] =>
  commands.map((c) => {
    const r = engine.step(c);
    return `${r.command}|${r.text}|${r.statusLine}|${r.score}|${r.moves}`;
  });

/** Ten commands through randomised events (Zork I's thief and troll use the generator). */
const ZORK_TEN = ['n', 'n', 'u', 'get egg', 'd', 's', 'e', 'open window', 'w', 'w'];

describe('determinism', () => {
  it('the same seed and commands give a byte-identical transcript', () => {
    const game = jerichoGame('advent');
    const commands = game.walkthrough.slice(0, 60);
    const a = transcript(loadStory(advent, { seed: 5 }), commands);
    const b = transcript(loadStory(advent, { seed: 5 }), commands);
    expect(a).toEqual(b);
    expect(a.join('\n')).toContain('Inside Building');
  });

  it('snapshot → 10 commands → restore → the same 10 commands gives identical output', () => {
    const bytes = new Uint8Array(readShared('stories/zork1.z5'));
    const engine = loadStory(bytes, { seed: 12 });
    engine.step('look');
    const snap = engine.snapshot();
    const first = transcript(engine, ZORK_TEN);
    engine.restore(structuredClone(snap));
    const second = transcript(engine, ZORK_TEN);
    expect(second).toEqual(first);
    expect(first[2]).toContain('Up a Tree');
  });

  it('reset() replays like a fresh load, generator state included', () => {
    const bytes = new Uint8Array(readShared('stories/zork1.z5'));
    const engine = loadStory(bytes, { seed: 3 });
    const fresh = transcript(engine, ZORK_TEN);
    const start = engine.reset();
    expect(start).toEqual(engine.start);
    expect(transcript(engine, ZORK_TEN)).toEqual(fresh);
    expect(transcript(loadStory(bytes, { seed: 3 }), ZORK_TEN)).toEqual(fresh);
  });

  it('several engines interleaved in one thread match engines run alone', () => {
    const commands = ['east', 'get all', 'west', 'south', 'score'];
    const alone = transcript(loadStory(advent, { seed: 1 }), commands);
    const zAlone = transcript(loadStory(minizork, { seed: 1 }), ['n', 'e', 'open window', 'w']);
    const a = loadStory(advent, { seed: 1 });
    const z = loadStory(minizork, { seed: 1 });
    const mixedA: string[] = [];
    const mixedZ: string[] = [];
    ['n', 'e', 'open window', 'w'].forEach((c, i) => {
      mixedA.push(...transcript(a, [commands[i]!]));
      mixedZ.push(...transcript(z, [c]));
    });
    mixedA.push(...transcript(a, [commands[4]!]));
    expect(mixedA).toEqual(alone);
    expect(mixedZ).toEqual(zAlone);
  });
});

describe('stepping', () => {
  it('reports score and moves from the status line globals and the status line text', () => {
    const engine = loadStory(advent, { seed: 0 });
    expect(engine.start.statusLine).toMatch(/At End Of Road\s+Score: 36\s+Moves: 0/);
    const r = engine.step('east');
    expect(r).toMatchObject({ command: 'east', score: 36, moves: 1, done: false, inputKind: 'line', fault: null });
    expect(r.text.startsWith('Inside Building')).toBe(true);
  });

  it('normalises input and records what was sent', () => {
    const engine = loadStory(advent, { seed: 0 });
    // é is in the story's (default) Unicode table, so it is kept; ĉ is not, so it loses its accent.
    const r = engine.step('  \u201Cget\u201D   k\u00E9ys\u2026 \u0109 ');
    expect(r.command).toBe('"get" k\u00E9ys... c');
  });

  it('answers save/restore file prompts from an in-memory slot without blocking', () => {
    const engine = loadStory(advent, { seed: 0 });
    engine.step('east');
    expect(engine.step('save').text).toContain('Ok.');
    expect(engine.step('west').statusLine).toContain('At End Of Road');
    const restored = engine.step('restore');
    expect(restored.text).toContain('Ok.');
    expect(restored.statusLine).toContain('Inside Building');
  });

  it('answers a keypress from the next command (library: intro "press SPACE")', () => {
    const game = jerichoGame('library');
    const bytes = new Uint8Array(readShared('stories/library.z5'));
    const raw = loadStory(bytes, { seed: 0 });
    expect(raw.start.inputKind).toBe('char');
    const after = raw.step('');
    expect(after.command).toBe('');
    expect(after.inputKind).toBe('line');
    const withIntro = loadStory(bytes, { seed: 0, rules: { introActions: game.intro_actions } });
    expect(withIntro.start.inputKind).toBe('line');
    expect(withIntro.step(game.walkthrough[0]!).text).toEqual(after.inputKind === 'line' ? raw.step(game.walkthrough[0]!).text : '');
  });

  it('refuses to step after the game is over, until reset', () => {
    const engine = loadStory(advent, { seed: 0 });
    let last: StepResult = engine.start;
    for (const c of ['quit', 'y']) last = engine.step(c);
    expect(last.done).toBe(true);
    expect(last.endReason).toBe('quit');
    expect(() => engine.step('look')).toThrow(/game is over/);
    expect(engine.reset().done).toBe(false);
    expect(engine.step('east').score).toBe(36);
  });
});

describe('bad story files', () => {
  const cases: [string, Uint8Array, string][] = [
    ['empty', new Uint8Array(0), 'empty'],
    ['truncated to 64 bytes', advent.slice(0, 64), 'truncated'],
    ['random bytes', Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251), 'not_zcode'],
    ['Glulx', Uint8Array.from([...'Glul'].map((c) => c.charCodeAt(0)).concat(Array(252).fill(0))), 'glulx'],
    ['version 6', Uint8Array.from(advent, (b, i) => (i === 0 ? 6 : b)), 'unsupported_version'],
  ];
  for (const [label, bytes, code] of cases) {
    it(`${label} → StoryFileError(${code})`, () => {
      let error: unknown;
      try {
        loadStory(bytes, { seed: 0 });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(StoryFileError);
      expect((error as StoryFileError).code).toBe(code);
      expect((error as Error).message.length).toBeGreaterThan(20);
    });
  }

  it('a Blorb holding Glulx → StoryFileError(glulx)', () => {
    expect(() => loadStory(makeBlorb(advent, 'GLUL'), { seed: 0 })).toThrow(/Glulx/);
  });

  it('a .zblorb runs its Z-code chunk', () => {
    const blorb = makeBlorb(advent);
    const engine = loadStory(blorb, { seed: 0 });
    expect(engine.info.fromBlorb).toBe(true);
    expect(engine.step('east').text).toContain('Inside Building');
  });
});
