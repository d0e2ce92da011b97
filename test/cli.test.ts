/**
 * The `npx metattl replay` contract, run as a real process: JSON shape and values on a Jericho
 * walkthrough, keypress lines, and clear errors with exit codes for bad input.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jerichoGame, REPO_ROOT, sharedDir } from './support/shared.ts';
import { type CliResult, runCli } from './support/cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'metattl-cli-'));

const metattl = (args: string[]): Promise<CliResult> => runCli(args);

describe('metattl replay', () => {
  it('replays the detective walkthrough to 360 points with one entry per command', async () => {
    const game = jerichoGame('detective');
    const commands = join(tmp, 'detective.txt');
    writeFileSync(commands, game.walkthrough.join('\n') + '\n');
    const { code, stdout } = await metattl(['replay', join(sharedDir(), 'stories/detective.z5'), '--seed', '0', '--commands', commands, '--json']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.seed).toBe(0);
    expect(out.story).toMatch(/detective\.z5$/);
    expect(out.steps).toHaveLength(51);
    expect(out.steps[0]).toEqual({
      command: 'TAKE PAPER', score: 20, moves: 2, done: false, location: { id: 34, name: "Chief's office" },
      observation: 'Taken.\n\n[Your score has just gone up by ten points.]\n\n>', statusLine: "<< Chief's office >>  Score: 20  Moves: 2",
      observationBefore: out.start.observation, observationAfter: 'Taken.\n\n[Your score has just gone up by ten points.]\n\n>',
    });
    expect(out.steps[1].observationBefore).toBe(out.steps[0].observation);
    expect(out.start.observation).toContain("You are standing in the Chief's office.");
    expect(out.start).toMatchObject({ statusLine: "<< Chief's office >>  Score: 10  Moves: 1", score: 10 });
    expect(out.steps.at(-1).observation).toContain('*** You have won ***');
    expect(out.final).toMatchObject({ score: 360, done: true, endReason: 'victory', termination: 'game_over' });
  });

  it('an empty line answers a keypress (library title page) and the replay stops at the step limit', async () => {
    const commands = join(tmp, 'library.txt');
    writeFileSync(commands, '\nX security gates\n');
    const { code, stdout } = await metattl(['replay', join(sharedDir(), 'stories/library.z5'), '--seed', '0', '--commands', commands, '--json']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    // library's catalog entry already sends its intro keypress, so the empty line is a blank command.
    expect(out.steps.map((s: { command: string }) => s.command)).toEqual(['', 'X security gates']);
    expect(out.final).toMatchObject({ score: 0, done: false, termination: 'step_limit', endReason: null });
  });

  it('a bad story file is a one-line error with exit code 1', async () => {
    const bad = join(tmp, 'bad.z5');
    writeFileSync(bad, 'not a story');
    const commands = join(tmp, 'none.txt');
    writeFileSync(commands, 'look\n');
    const { code, stderr } = await metattl(['replay', bad, '--commands', commands, '--json']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^metattl: StoryFileError: This is not a Z-machine story file/);
  });

  it('usage errors exit with code 2', async () => {
    const { code, stderr } = await metattl(['replay']);
    expect(code).toBe(2);
    expect(stderr).toContain('replay needs a story file');
  });

  it('exits 1 when the story hangs (interpreter_hang), still printing the JSON, and says why on stderr', async () => {
    const commands = join(tmp, 'hang.txt');
    writeFileSync(commands, 'look\nlook\n');
    const { code, stdout, stderr } = await metattl(['replay', resolve(REPO_ROOT, 'test/fixtures/hang/hang.z5'), '--commands', commands, '--step-timeout-ms', '500', '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).final).toMatchObject({ termination: 'interpreter_hang', done: true, steps: 1 });
    expect(stderr).toMatch(/^metattl: the story stopped with interpreter_hang at step 1: .*500 ms/);
  });

  it('a story that hangs in the middle of the list ends the replay with interpreter_hang at that step', async () => {
    const commands = join(tmp, 'hang-later.txt');
    writeFileSync(commands, 'one\ntwo\nthree\nfour\n');
    const { code, stdout, stderr } = await metattl(['replay', resolve(REPO_ROOT, 'test/fixtures/hang/hang-later.z5'), '--commands', commands, '--step-timeout-ms', '500', '--json']);
    expect(code).toBe(1);
    const out = JSON.parse(stdout) as { steps: { command: string; observation: string; done: boolean }[]; final: unknown };
    expect(out.steps.map((s) => [s.command, s.observation, s.done])).toEqual([['one', 'Turn 1.\n\n>', false], ['two', 'Turn 2.\n\n>', false], ['three', '', true]]);
    expect(out.final).toMatchObject({ termination: 'interpreter_hang', done: true, steps: 3 });
    expect(stderr).toMatch(/^metattl: the story stopped with interpreter_hang at step 3: .*500 ms/);
  });
});
