/**
 * The walkthrough-recall probe as a step of an experiment, through the CLI with the simulated
 * provider (no key): `plan` lists the step after the runs with its calls (the spec gives the
 * walkthrough, so exactly 2 × positions), `run` asks it and the report carries it in every format
 * (report.json `recall`, report.md's section, recall.csv); its counts equal `metattl probe recall`'s
 * on the same walkthrough (one core probe behind both). A spec naming a game without a walkthrough
 * is refused before any call, naming it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.ts';

const env = { ...process.env, SHARED_DIR: mkdtempSync(join(tmpdir(), 'no-shared-')) };
/** With k = 2 and 3 positions the asked commands are at 2, 4, 6: north, south, inventory. */
const WALKTHROUGH = ['look', 'pull lever', 'north', 'pull lever', 'south', 'pull lever', 'inventory', 'pull lever'];

function specFile(recallProbe: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'recall-exp-'));
  const file = join(dir, 'recall-check.json');
  writeFileSync(file, JSON.stringify({
    name: 'recall-check', episodes: 1, steps: 3, repeats: 1, taskSets: { T: ['lever-room'] }, arms: [{ id: 'naive', policy: 'naive' }], baseline: 'naive', evaluateOn: ['T'], recallProbe,
  }));
  return file;
}

describe('experiment with a recall-probe step', () => {
  it('plans, runs and reports the probe; its counts are probe recall\'s', async () => {
    const file = specFile({ taskSets: ['T'], k: 2, probes: 3, walkthroughs: { 'lever-room': WALKTHROUGH } });
    const plan = await runCli(['experiment', 'plan', file, '--provider', 'simulated', '--json'], env);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout);
    expect(planned.steps.map((s: { id: string; kind: string }) => [s.id, s.kind])).toEqual([['eval-T', 'evaluation'], ['recall-probe', 'recall-probe']]);
    expect(planned.steps[1]).toMatchObject({ games: ['lever-room'], options: { k: 2, probes: 3, seed: 0 } });
    expect(planned.estimate.steps[1]).toMatchObject({ kind: 'recall-probe', metricCalls: 0, llmCalls: { low: 6, high: 6 } });

    const store = mkdtempSync(join(tmpdir(), 'recall-store-'));
    const run = await runCli(['experiment', 'run', file, '--provider', 'simulated', '--store', store], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/recall-probe lever-room: recall \d\/3 .* vs control \d\/3 .*, best constant guess 0\/3 0\.0 % \[0\.0, 56\.1\]/);
    expect(run.stdout).toContain('recall.csv');
    const reportDir = join(store, 'experiments', 'recall-check', 'report');
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'));
    expect(report.pendingSteps).toEqual([]);
    expect(report.recall).toHaveLength(1);
    const step = report.recall[0];
    expect(step).toMatchObject({ step: 'recall-probe', modelSet: 0, model: 'simulated', options: { k: 2, probes: 3, seed: 0 }, walkthroughSource: 'the experiment\'s recallProbe.walkthroughs (lever-room)', pooled: null });
    // "pull lever" is the most frequent command, and none of the asked ones (north, south, inventory).
    expect(step.games[0]).toMatchObject({ game: 'lever-room', walkthroughLines: 8, probes: 3, failed: 0, frequencyBaseline: { command: 'pull lever', rate: { count: 0, n: 3 } } });
    const md = readFileSync(join(reportDir, 'report.md'), 'utf8');
    expect(md).toContain('## Walkthrough-recall probe');
    expect(md).toContain('- recall-probe: Model: simulated; k = 2 commands shown, at most 3 positions per game, control seed 0. Walkthroughs: the experiment\'s recallProbe.walkthroughs (lever-room).');
    expect(md).toContain('does not show the model never saw the game');
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain('<section id="recall"><h2>Walkthrough-recall probe</h2>');
    const csv = readFileSync(join(reportDir, 'recall.csv'), 'utf8').trim().split('\n').map((l) => l.split(','));
    expect(csv[0]!.slice(0, 6)).toEqual(['step', 'model_set', 'model', 'game', 'walkthrough_lines', 'probes']);
    expect(csv[1]!.slice(0, 6)).toEqual(['recall-probe', '0', 'simulated', 'lever-room', '8', '3']);
    expect(csv[0]!.slice(-2)).toEqual(['model', 'model_caveat']);

    // The same probe as a command on the same walkthrough: the same counts.
    const walk = join(store, 'lever-room.json');
    writeFileSync(walk, JSON.stringify([{ name: 'lever-room', walkthrough: WALKTHROUGH }]));
    const alone = await runCli(['probe', 'recall', '--tasks', 'lever-room', '--k', '2', '--probes', '3', '--walkthroughs', walk, '--provider', 'simulated', '--json'], env);
    expect(alone.code, alone.stderr).toBe(0);
    expect(JSON.parse(alone.stdout).games).toEqual(step.games);
  });

  it('refuses a recall probe without a walkthrough for its game, and bad recallProbe fields', async () => {
    const store = mkdtempSync(join(tmpdir(), 'recall-store-'));
    const missing = await runCli(['experiment', 'run', specFile({ taskSets: ['T'], k: 2 }), '--provider', 'simulated', '--store', store], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('recall-probe: no walkthrough for lever-room: give it in the experiment\'s recallProbe.walkthroughs (game → commands), or name a Jericho game');
    const bad = await runCli(['experiment', 'plan', specFile({ taskSets: ['NOPE'], k: 0, walkthroughs: { 'lever-room': [] } }), '--json'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('recallProbe.taskSets must be a non-empty list of task set names among T, got ["NOPE"]');
    expect(bad.stderr).toContain('recallProbe.k must be a whole number from 1 to 100, got 0');
    expect(bad.stderr).toContain('recallProbe.walkthroughs must be an object of game → a non-empty list of commands');
  });
});
