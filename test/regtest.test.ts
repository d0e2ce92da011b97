/**
 * Golden transcripts against the engine in Node: every case of glkote-term's advent.z5.regtest
 * (RegTest format, test/support/regtest.ts) from a fresh engine with seed 0, plus the format's
 * parsing and checking rules on small inline files. The same parser drives the page in e2e/.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { checkOutput, parseRegtest, runRegtestCase, type RegtestOutput, type RegtestPlayer } from './support/regtest.ts';

const testsDir = join(dirname(createRequire(import.meta.url).resolve('glkote-term/package.json')), 'tests');
const advent = parseRegtest(readFileSync(join(testsDir, 'advent.z5.regtest'), 'utf8'));
const adventBytes = new Uint8Array(readFileSync(join(testsDir, 'advent.z5')));

describe('advent.z5.regtest on the Node engine', () => {
  it('has the two shipped cases, with {include} expanded', () => {
    expect(advent.gameFile).toBe('advent.z5');
    expect(advent.remFormat).toBe(true);
    expect(advent.cases.map((c) => [c.name, c.commands.length])).toEqual([['prologue', 13], ['save/restore', 20]]);
  });

  for (const testCase of advent.cases) {
    it(`case "${testCase.name}" passes`, async () => {
      const engine = loadStory(adventBytes, { seed: 0 });
      expect(await runRegtestCase(engine, testCase)).toEqual([]);
    });
  }

  it('reports a failing check with the input it follows', async () => {
    const [prologue] = parseRegtest('* t\n> east\nAt End Of Road\n!Inside Building\n{status}/Score: 36 +Moves: 1$\n').cases;
    const failures = await runRegtestCase(loadStory(adventBytes, { seed: 0 }), prologue!);
    expect(failures).toEqual(['> east: At End Of Road: not found', '> east: !Inside Building: inverse test should fail']);
  });
});

describe('parseRegtest', () => {
  const file = [
    '# comment',
    '** game: demo.z5',
    '** pre: verbose',
    '* _setup',
    '> north',
    '{count=2} door',
    '* main',
    'Welcome',
    '>{include} _setup',
    '>{char}',
    '>{char} space',
    '>{char} 0x41',
    '>{char} left',
    '> save',
    '>{fileref_prompt} slot1',
    '{vital}{status}!/^Dead/',
  ].join('\n');
  const parsed = parseRegtest(file);

  it('reads headers, sections, inputs and check modifiers', () => {
    expect(parsed.gameFile).toBe('demo.z5');
    expect(parsed.cases.map((c) => [c.name, c.hidden])).toEqual([['_setup', true], ['main', false]]);
    const main = parsed.cases[1]!;
    expect(main.initChecks.map((c) => [c.kind, c.pattern])).toEqual([['literal', 'Welcome']]);
    expect(main.commands.map((c) => c.input)).toEqual([
      { type: 'line', value: 'verbose' },
      { type: 'line', value: 'north' },
      { type: 'char', value: '\n' },
      { type: 'char', value: ' ' },
      { type: 'char', value: 'A' },
      { type: 'char', value: 'left' },
      { type: 'line', value: 'save' },
      { type: 'fileref_prompt', value: 'slot1' },
    ]);
    expect(main.commands[1]!.checks[0]).toMatchObject({ kind: 'count', pattern: 'door', count: 2 });
    expect(main.commands[7]!.checks[0]).toMatchObject({ kind: 'regex', pattern: '^Dead/', inverse: true, inStatus: true, vital: true });
  });

  it('rejects what regtest.py rejects and checks that need raw Glk data', () => {
    expect(() => parseRegtest('* a\n* a\n')).toThrow('line 2: test name used twice: a');
    expect(() => parseRegtest('* a\n>{include} b\n')).toThrow('included test not found: b');
    expect(() => parseRegtest('* a\n>{include} a\n')).toThrow('included test includes itself: a');
    expect(() => parseRegtest('* a\n>{teleport} x\n')).toThrow('line 2: unknown command type {teleport}');
    expect(() => parseRegtest('* a\n>{char} nosuchkey\n')).toThrow('line 2: unable to interpret char "nosuchkey"');
    expect(() => parseRegtest('* a\n{graphics}x\n')).toThrow('line 2: unsupported check modifier {graphics}');
    expect(() => parseRegtest('* a\n{image=3}\n')).toThrow('line 2: unsupported check (needs raw Glk data)');
    expect(() => parseRegtest('hello\n')).toThrow('line 1: "hello" comes before the first "* test"');
  });
});

describe('checkOutput', () => {
  const [checks] = [parseRegtest('* c\nfoo bar\n!baz\n/^\\d+ coins$\n{count=3}ab\n{status}Score: 5\n').cases[0]!.initChecks];

  it('passes when every check holds line by line', () => {
    expect(checkOutput(checks, 'a foo bar b\n12 coins\nabab ab', 'Hall  Score: 5')).toEqual([]);
  });

  it('explains each failure; literals do not match across lines', () => {
    expect(checkOutput(checks, 'foo\nbar baz\nx 12 coins\nabab', ['Hall', 'Score: 4'])).toEqual([
      'foo bar: not found',
      '!baz: inverse test should fail',
      '/^\\d+ coins$: not found',
      '{count=3}ab: only found 2 times',
      '{status}Score: 5: not found',
    ]);
  });
});

describe('runRegtestCase', () => {
  /** A scripted player: replies from a table, records what it was sent. */
  function scripted(replies: Record<string, RegtestOutput>, start: RegtestOutput): RegtestPlayer & { sent: string[] } {
    const sent: string[] = [];
    return {
      sent, start,
      step(command: string) {
        sent.push(command);
        const reply = replies[command];
        if (!reply) throw new Error(`unexpected command ${command}`);
        return reply;
      },
    };
  }
  const line = (text: string): RegtestOutput => ({ text, statusLine: '', inputKind: 'line' });

  it('sends nothing for {fileref_prompt} and checks the previous output', async () => {
    const player = scripted({ save: line('Ok.\n>') }, line('Hi'));
    const [testCase] = parseRegtest('* s\nHi\n> save\n>{fileref_prompt} slot\nOk.\n').cases;
    expect(await runRegtestCase(player, testCase!)).toEqual([]);
    expect(player.sent).toEqual(['save']);
  });

  it('stops at an input of the wrong kind, a fault, a thrown error or a vital failure', async () => {
    const cases = parseRegtest('* a\n>{char} y\n* b\n> x\n> y\n* c\n> z\n* d\n{vital}Nope\n> x\n').cases;
    const player = () => scripted({ x: { text: '', statusLine: '', fault: { kind: 'interpreter_hang', message: 'over 1500 ms' } } }, line('Hi'));
    expect(await runRegtestCase(player(), cases[0]!)).toEqual(['> {char} y: the game is not expecting char input (waits for line)']);
    expect(await runRegtestCase(player(), cases[1]!)).toEqual(['> x: interpreter_hang: over 1500 ms']);
    expect(await runRegtestCase(player(), cases[2]!)).toEqual(['> z: threw Error: unexpected command z']);
    expect(await runRegtestCase(player(), cases[3]!)).toEqual(['(start): {vital}Nope: not found']);
  });
});
