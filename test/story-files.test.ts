/**
 * Story files the user brings: a header checksum that does not match warns and
 * the story still runs (engine and CLI); an empty Blorb Z-code chunk and a Blorb whose chunk is not
 * Z-code say so in plain words; interpreter internals ("Offset is outside the bounds of the
 * DataView", "Maximum call stack size exceeded", "Unknown opcode") reach the user as what happened,
 * with the original kept as a detail — on a real damaged copy of advent.z5 too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EngineError, explainInterpreterError, StoryFileError } from '../src/engine/errors.ts';
import { HeadlessGlkOte } from '../src/engine/glkote.ts';
import { headerChecksum, identifyStory } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { adventBytes } from './support/store-contract.ts';
import { makeBlorb } from './support/blorb.ts';
import { REPO_ROOT } from './support/shared.ts';

const advent = adventBytes();
const run = promisify(execFile);

describe('header checksum', () => {
  it('matches for a good file; a mismatch is a warning and the story still runs', () => {
    expect(identifyStory(advent).warnings).toEqual([]);
    const sum = headerChecksum(advent, 5)!;
    expect(sum.actual).toBe(sum.expected);
    const patched = advent.slice();
    patched[0x1d] = patched[0x1d]! ^ 0x01;
    const story = identifyStory(patched);
    expect(story.warnings).toEqual([`The story file's header checksum (0x${(sum.expected ^ 1).toString(16).padStart(4, '0')}) does not match its contents (0x${sum.actual.toString(16).padStart(4, '0')}): the file may be damaged or modified. It may still run; if it misbehaves, get a fresh copy.`]);
    expect(loadStory(patched, { seed: 0 }).step('east').statusLine).toContain('Inside Building');
  });

  it('the CLI warns on stderr and replays anyway', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-checksum-'));
    const patched = advent.slice();
    patched[0x1c] = patched[0x1c]! ^ 0x10;
    writeFileSync(join(dir, 'patched.z5'), patched);
    writeFileSync(join(dir, 'cmds.txt'), 'east\n');
    const { stdout, stderr } = await run(process.execPath, [resolve(REPO_ROOT, 'bin/metattl.js'), 'replay', join(dir, 'patched.z5'), '--commands', join(dir, 'cmds.txt'), '--json'], { cwd: REPO_ROOT });
    expect(stderr).toMatch(/^metattl: warning: .*patched\.z5: The story file's header checksum \(0x[0-9a-f]{4}\) does not match its contents/);
    expect(JSON.parse(stdout).steps).toHaveLength(1);
  });
});

describe('Blorb Z-code chunks', () => {
  it('an empty ZCOD chunk says there is no game in it', () => {
    expect(() => identifyStory(makeBlorb(new Uint8Array(0)))).toThrow(new StoryFileError('blorb_without_zcode', 'The Blorb file\'s Z-code chunk ("ZCOD") is empty: there is no game in it.'));
  });

  it('a ZCOD chunk that is not Z-code says so, not "header byte 0 is 0"', () => {
    expect(() => identifyStory(makeBlorb(new Uint8Array(100)))).toThrow('The Blorb file\'s Z-code chunk ("ZCOD") is not a Z-machine game (its first byte, the version, is 0; expected 1–8).');
  });
});

describe('interpreter internals in the user\'s terms', () => {
  it('a damaged advent.z5 reading outside its memory', () => {
    const damaged = advent.slice();
    damaged[55808] = 0;
    const result = loadStory(damaged, { seed: 0 }).step('look');
    expect(result.fault).toEqual({
      kind: 'interpreter_error',
      message: 'The story tried to read or write outside its memory: the story file is damaged, or the story has a bug. (details: Offset is outside the bounds of the DataView)',
    });
  });

  it('a damaged advent.z5 that cannot start', () => {
    const damaged = advent.slice();
    damaged[76352] = 0;
    expect(() => loadStory(damaged, { seed: 0 })).toThrow(new EngineError('worker_failed', 'The story failed to start: The story ran an instruction the interpreter cannot carry out: the story file is damaged, or it uses a feature this interpreter lacks. (details: Unknown opcode #0 at pc=76352)'));
  });

  it('runaway recursion and other internals; our own messages stay as they are', () => {
    expect(explainInterpreterError(new RangeError('Maximum call stack size exceeded'))).toBe('The story called routines within routines without end (a runaway recursion): the story file is damaged, or the story has a bug. (details: Maximum call stack size exceeded)');
    expect(explainInterpreterError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toMatch(/^The story ran an instruction the interpreter cannot carry out/);
    expect(explainInterpreterError(new StoryFileError('empty', 'The story file is empty (0 bytes).'))).toBe('The story file is empty (0 bytes).');
    expect(explainInterpreterError(new Error('Could not download x: HTTP 404'))).toBe('Could not download x: HTTP 404');
    const glkote = new HeadlessGlkOte();
    glkote.error(new RangeError('Maximum call stack size exceeded'));
    expect(glkote.errorMessage).toMatch(/^The story called routines within routines without end/);
  });
});
