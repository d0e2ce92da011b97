/**
 * `npx metattl evolve` as a real process against the mock: the JSON contract, and a run killed
 * (SIGKILL) after its third metric call then re-run with --resume ending exactly like an
 * uninterrupted run.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';

const run = promisify(execFile);
const BIN = resolve(REPO_ROOT, 'bin/metattl.js');
const EXPLORE = ['take paper', 'west', 'take gun', 'east', 'north', 'look', 'inventory', 'south'];
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE });
});
afterAll(() => mock.close());

const args = (store: string) => [
  'evolve', '--train', 'detective:0', '--val', 'detective:0,temple:0', '--repeats', '1', '--episodes', '4', '--steps', '10', '--budget', '10',
  '--store', store, '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--proposer-model', 'mock-model',
  '--rng-seed', '11', '--concurrency', '2', '--guide', 'Explore systematically.', '--id', 'run-a',
];
const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };

describe('metattl evolve', () => {
  it('prints the contract JSON, and a killed run resumed with --resume ends the same', async () => {
    const full = JSON.parse((await run(process.execPath, [BIN, ...args(mkdtempSync(join(tmpdir(), 'evo-full-'))), '--json'], { cwd: REPO_ROOT, env })).stdout);
    expect(full.metricCallsUsed).toBeLessThanOrEqual(10);
    expect(full.candidates[0]).toMatchObject({ id: 'c0', parentId: null, status: 'seed', strategy: '' });
    expect(Object.keys(full.candidates[0].valScores).sort()).toEqual(['detective:0', 'temple:0']);
    expect(Object.keys(full.fronts).sort()).toEqual(['detective:0', 'temple:0']);
    expect(full.bestCandidateId).toBe('c1');
    expect(full.candidates.find((c: { id: string }) => c.id === 'c1').status).toBe('accepted');

    const dir = mkdtempSync(join(tmpdir(), 'evo-killed-'));
    const child = spawn(process.execPath, [BIN, ...args(dir)], { cwd: REPO_ROOT, env });
    await new Promise<void>((done) => {
      let seen = '';
      child.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('[3/10]') && child.exitCode === null) child.kill('SIGKILL');
      });
      child.on('exit', () => done());
    });
    expect(child.signalCode).toBe('SIGKILL');
    const resumed = JSON.parse((await run(process.execPath, [BIN, ...args(dir), '--resume', '--json'], { cwd: REPO_ROOT, env })).stdout);
    expect(resumed).toEqual(full);

    // A stop file (GEPA's FileStopper) stops the run before its first iteration, resumable; removed, --resume ends the same.
    expect(full.outerLoop).toEqual({ optimizer: 'gepa', candidateSelection: 'pareto', epsilon: null, topK: null, acceptance: 'strict_improvement', stopConditions: {} });
    const stopDir = mkdtempSync(join(tmpdir(), 'evo-stopfile-'));
    writeFileSync(join(stopDir, 'STOP'), '');
    const stopped = await run(process.execPath, [BIN, ...args(stopDir), '--json'], { cwd: REPO_ROOT, env });
    expect(JSON.parse(stopped.stdout)).toMatchObject({ status: 'stopped', stopReason: 'stop_file', proposals: 0, metricCallsUsed: 2 });
    rmSync(join(stopDir, 'STOP'));
    expect(JSON.parse((await run(process.execPath, [BIN, ...args(stopDir), '--resume', '--json'], { cwd: REPO_ROOT, env })).stdout)).toEqual(full);
  }, 60_000);

  it('records GEPA\'s newer options and stops on a score threshold before spending the budget; refuses bad values', async () => {
    const store = mkdtempSync(join(tmpdir(), 'evo-options-'));
    const out = JSON.parse((await run(process.execPath, [BIN, ...args(store), '--selection', 'epsilon_greedy', '--epsilon', '0.25', '--accept', 'improvement_or_equal', '--stop-score', '0', '--stop-no-improvement', '3', '--stop-minutes', '30', '--json'], { cwd: REPO_ROOT, env })).stdout);
    expect(out).toMatchObject({ status: 'complete', stopReason: 'score_threshold', proposals: 0, metricCallsUsed: 2 });
    expect(out.outerLoop).toEqual({ optimizer: 'gepa', candidateSelection: 'epsilon_greedy', epsilon: 0.25, topK: null, acceptance: 'improvement_or_equal', stopConditions: { noImprovementIterations: 3, scoreThreshold: 0, timeLimitMinutes: 30 } });
    const bad = [
      ['--selection', 'best'], ['--accept', 'always'], ['--selection', 'epsilon_greedy', '--epsilon', '2'], ['--epsilon', '0.1'], ['--top-k', '0', '--selection', 'top_k_pareto'],
      ['--stop-score', '1.5'], ['--stop-minutes', '0'], ['--stop-no-improvement', 'x'], ['--max-proposer-usd', '1'],
      // The matched control's and the no-trace proposer's flags.
      ['--proposer', 'random-neutral', '--edit-sizes', '3,0'], ['--edit-sizes', '3'], ['--proposer-input', 'blind'], ['--proposer-input', 'no-trace', '--proposer', 'random'],
      ['--proposer-input', 'no-trace', '--optimizer', 'opro'], ['--proposer', 'neutral'],
    ];
    for (const extra of bad) {
      const result = await run(process.execPath, [BIN, ...args(mkdtempSync(join(tmpdir(), 'evo-bad-'))), ...extra], { cwd: REPO_ROOT, env }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
      expect(result.code, extra.join(' ')).toBe(2);
      expect(result.stderr, extra.join(' ')).toMatch(/^metattl: --(selection|accept|epsilon|top-k|stop-score|stop-minutes|stop-no-improvement|max-proposer-usd|edit-sizes|proposer-input|proposer)/);
    }
  }, 60_000);

  it('--proposals N and --merge [--max-merges N] are recorded, make N children an iteration, and a killed run resumes the same; bad values refused', async () => {
    const flags = ['--proposals', '2', '--merge', '--max-merges', '2', '--id', 'run-p'];
    const full = JSON.parse((await run(process.execPath, [BIN, ...args(mkdtempSync(join(tmpdir(), 'evo-pxn-'))), ...flags, '--json'], { cwd: REPO_ROOT, env })).stdout);
    expect(full.outerLoop).toMatchObject({ proposals: { parents: 1, mutations: 2 }, merge: { maxMerges: 2 } });
    // Budget 10: the seed's validation (2) and one iteration of worst case 2 · (2 · 1 + 2) = 8.
    expect(full.proposals).toBe(2);
    expect(full.candidates.slice(1).map((c: { id: string; parentId: string }) => [c.id, c.parentId])).toEqual([['c1', 'c0'], ['c2', 'c0']]);
    expect(full.metricCallsUsed).toBeLessThanOrEqual(10);
    expect(full.merges).toEqual([]);

    const dir = mkdtempSync(join(tmpdir(), 'evo-pxn-killed-'));
    const child = spawn(process.execPath, [BIN, ...args(dir), ...flags], { cwd: REPO_ROOT, env });
    await new Promise<void>((done) => {
      let seen = '';
      child.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('[4/10]') && child.exitCode === null) child.kill('SIGKILL');
      });
      child.on('exit', () => done());
    });
    expect(child.signalCode).toBe('SIGKILL');
    // The resume takes the options from the stored run, whatever its command line says.
    const resumed = JSON.parse((await run(process.execPath, [BIN, ...args(dir), '--id', 'run-p', '--resume', '--json'], { cwd: REPO_ROOT, env })).stdout);
    expect(resumed).toEqual(full);

    for (const extra of [['--proposals', '0x2'], ['--proposals', 'many'], ['--proposals', '9x9'], ['--max-merges', '3'], ['--merge', '--max-merges', '0']]) {
      const result = await run(process.execPath, [BIN, ...args(mkdtempSync(join(tmpdir(), 'evo-bad-'))), ...extra], { cwd: REPO_ROOT, env }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
      expect(result.code, extra.join(' ')).toBe(2);
      expect(result.stderr, extra.join(' ')).toMatch(/^metattl: --(proposals|max-merges)/);
    }
  }, 60_000);
});
