/**
 * Speed work must not change behaviour: engines of one story share compiled routines and parsed
 * dictionaries (story-cache.ts) yet stay independent, reset() equals a fresh load, and the ifvms
 * speed patch (patches/ifvms+1.1.6+002+speed.patch) is applied: the VM object and its JIT cache
 * stay in V8's fast modes.
 */
import { setFlagsFromString } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../src/engine/interface.ts';
import { clearStoryWork, sharedRoutineCount } from '../src/engine/story-cache.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { jerichoGame, readShared } from './support/shared.ts';

const detective = () => new Uint8Array(readShared('stories/detective.z5'));
const zork1 = () => new Uint8Array(readShared('stories/zork1.z5'));

const transcript = (engine: Engine, commands: readonly string[]): string[] =>
  commands.map((c) => {
    const r = engine.step(c);
    return `${r.command}|${r.text}|${r.statusLine}|${r.score}|${r.moves}|${r.done}`;
  });

/** Detective's walkthrough without the winning last command. */
const DETECTIVE = () => jerichoGame('detective').walkthrough.slice(0, -1);
const ZORK = ['n', 'n', 'u', 'get egg', 'd', 's', 'e', 'open window', 'w', 'w', 'get lamp', 'move rug', 'open trap door', 'd'];

beforeEach(() => clearStoryWork());
afterEach(() => vi.restoreAllMocks());

/** The prototype of ifvms' VM behind an engine (ifvms is only imported by zvm-engine.ts). */
const vmPrototype = (engine: Engine): { parse_dict(addr: number): unknown; compile(): void } =>
  Object.getPrototypeOf((engine as unknown as { vm: object }).vm) as { parse_dict(addr: number): unknown; compile(): void };

describe('engines of one story share compiled code', () => {
  it('a second engine compiles nothing new for the same commands and gives the same transcript', () => {
    const bytes = detective();
    const cold = loadStory(bytes, { seed: 0 });
    const coldTranscript = transcript(cold, DETECTIVE());
    const compiled = sharedRoutineCount(cold.info.md5);
    expect(compiled).toBeGreaterThan(300);
    const warm = loadStory(bytes, { seed: 0 });
    expect(transcript(warm, DETECTIVE())).toEqual(coldTranscript);
    expect(sharedRoutineCount(cold.info.md5)).toBe(compiled);
    expect(coldTranscript.at(-1)).toContain('|360|');
  });

  it('interleaved engines with shared code match engines that ran alone on a cold cache', () => {
    const bytes = zork1();
    const other = ['s', 'e', 'open window', 'w', 'w', 'get lamp', 'get sword', 'e', 'look', 'inventory', 'u', 'd', 'score', 'wait'];
    const aloneA = transcript(loadStory(bytes, { seed: 7 }), ZORK);
    clearStoryWork();
    const aloneB = transcript(loadStory(bytes, { seed: 11 }), other);
    clearStoryWork();
    const a = loadStory(bytes, { seed: 7 });
    const b = loadStory(bytes, { seed: 11 });
    const mixedA: string[] = [];
    const mixedB: string[] = [];
    ZORK.forEach((command, i) => {
      mixedA.push(...transcript(a, [command]));
      mixedB.push(...transcript(b, [other[i]!]));
    });
    expect(sharedRoutineCount(a.info.md5)).toBeGreaterThan(0);
    expect(mixedA).toEqual(aloneA);
    expect(mixedB).toEqual(aloneB);
    expect(aloneA.join('\n')).toContain('Up a Tree');
    expect(aloneB.join('\n')).toContain('Living Room');
  });

  it('a snapshot restored into another engine of the story continues like the original', () => {
    const bytes = zork1();
    const a = loadStory(bytes, { seed: 3 });
    transcript(a, ZORK.slice(0, 4));
    const snap = a.snapshot();
    const rest = ZORK.slice(4);
    const expected = transcript(a, rest);
    const b = loadStory(bytes, { seed: 3 });
    b.restore(structuredClone(snap));
    expect(transcript(b, rest)).toEqual(expected);
  });
});

describe('reset with a memoised dictionary', () => {
  it('every reset replays the walkthrough like a fresh load, cold or warm', () => {
    const bytes = detective();
    const fresh = loadStory(bytes, { seed: 0 });
    const expected = transcript(fresh, DETECTIVE());
    for (let episode = 0; episode < 3; episode++) {
      expect(fresh.reset()).toEqual(fresh.start);
      expect(transcript(fresh, DETECTIVE())).toEqual(expected);
    }
    const warm = loadStory(bytes, { seed: 0 });
    expect(warm.start).toEqual(fresh.start);
    expect(transcript(warm, DETECTIVE())).toEqual(expected);
    expect(expected.some((line) => line.includes("That's not a verb I recognise"))).toBe(false);
  });

  it('parses the dictionary and compiles each routine once per story, not per reset or engine', () => {
    const bytes = detective();
    const prototype = vmPrototype(loadStory(bytes, { seed: 0 }));
    clearStoryWork();
    const parseDict = vi.spyOn(prototype, 'parse_dict');
    const compile = vi.spyOn(prototype, 'compile');
    const first = loadStory(bytes, { seed: 0 });
    transcript(first, DETECTIVE().slice(0, 20));
    expect(parseDict).toHaveBeenCalledTimes(1);
    const compiled = compile.mock.calls.length;
    expect(compiled).toBeGreaterThan(100);
    for (let episode = 0; episode < 3; episode++) {
      first.reset();
      transcript(first, DETECTIVE().slice(0, 20));
    }
    const second = loadStory(bytes, { seed: 0 });
    transcript(second, DETECTIVE().slice(0, 20));
    second.reset();
    expect(parseDict).toHaveBeenCalledTimes(1);
    expect(compile).toHaveBeenCalledTimes(compiled);
  });

  it('words typed after reset are still looked up (parser errors match a fresh load)', () => {
    const bytes = detective();
    const probe = ['xyzzy', 'examine pistol', 'frobnicate the widget', 'inventory'];
    const expected = transcript(loadStory(bytes, { seed: 0 }), probe);
    const engine = loadStory(bytes, { seed: 0 });
    engine.step('look');
    engine.reset();
    expect(transcript(engine, probe)).toEqual(expected);
    expect(expected[2]).toMatch(/not a verb|don't know|didn't understand/i);
  });
});

describe('the ifvms speed patch is applied', () => {
  it('keeps the VM object in fast properties, its JIT cache and stack views in fast elements', () => {
    setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: unknown) => boolean;
    const hasDictionaryElements = new Function('o', 'return %HasDictionaryElements(o)') as (o: unknown) => boolean;
    const engine = loadStory(detective(), { seed: 0 });
    transcript(engine, DETECTIVE().slice(0, 10));
    engine.reset();
    engine.step('look');
    const vm = (engine as unknown as { vm: { jit: unknown; stack_views: { l: unknown; s: unknown } } }).vm;
    expect(hasFastProperties(vm)).toBe(true);
    expect(hasDictionaryElements(vm.jit)).toBe(false);
    expect(hasDictionaryElements(vm.stack_views.l)).toBe(false);
    expect(hasDictionaryElements(vm.stack_views.s)).toBe(false);
  });
});
