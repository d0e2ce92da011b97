/**
 * Our ifvms patches (patches/ifvms+1.1.6+001+correctness.patch, applied by patch-package at
 * install) against dfrotz on compiled test stories (test/fixtures/): @ret_popped on an empty
 * stack, @remove_obj and the removed object's sibling, operations on object 0, @aread's result,
 * plus the header fields the engine writes (interpreter number/version, no style flags).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTERPRETER_NUMBER, INTERPRETER_VERSION } from '../src/engine/interpreter-header.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { runDfrotz, textLines } from './support/dfrotz.ts';
import { REPO_ROOT } from './support/shared.ts';

const fixture = (name: string): string => resolve(REPO_ROOT, `test/fixtures/${name}/${name}.z5`);
const load = (name: string) => loadStory(new Uint8Array(readFileSync(fixture(name))), { seed: 0 });

describe('ifvms patches, compared with dfrotz', () => {
  it('@ret_popped on an empty stack returns the last local; without locals it stops with "Stack underflow"', () => {
    const engine = load('patches');
    const ours = textLines(engine.start.text).filter((l) => !l.startsWith('interpreter number'));
    const dfrotz = runDfrotz(fixture('patches'), '\n');
    const theirs = textLines(dfrotz.stdout).filter((l) => !l.startsWith('interpreter number'));
    expect(ours).toEqual(theirs);
    expect(ours).toContain('ret_popped with locals: 7');
    const step = engine.step('');
    expect(dfrotz.stderr).toContain('Stack underflow');
    expect(step.fault?.kind).toBe('interpreter_error');
    expect(step.fault?.message).toContain('Stack underflow');
    expect(step.done).toBe(true);
  });

  it('@remove_obj clears the sibling of the removed object (first child and later child)', () => {
    const lines = textLines(load('patches').start.text);
    expect(lines).toContain('removed first child first; its sibling: 0');
    expect(lines).toContain('removed later child third; its sibling: 0');
  });

  it('object 0: @set_attr writes nothing, @test_attr is false, @insert_obj 0 0 returns', () => {
    const lines = textLines(load('patches').start.text);
    expect(lines).not.toContain('object 0 has attribute 3');
    expect(lines).toContain('object 0: child 0');
  });

  it('@aread stores 13 for a line ended by Enter, like dfrotz', () => {
    const engine = load('input');
    const ours = [engine.start.text, engine.step('look').text, engine.step('end').text].join('\n');
    expect(textLines(ours)).toEqual(textLines(runDfrotz(fixture('input'), 'look\nend\n').stdout));
    expect(ours).toContain('result 13; chars 108 111 111 107');
  });

  it('the header reports our interpreter number and version and no text styles (v4+)', () => {
    const line = textLines(load('patches').start.text).find((l) => l.startsWith('interpreter number'));
    expect(line).toBe(`interpreter number ${INTERPRETER_NUMBER}`);
    expect(String.fromCharCode(INTERPRETER_VERSION)).toBe('I');
  });
});
