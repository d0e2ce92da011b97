/**
 * `npx metattl evolve` as a real process against the mock: the JSON contract, and a run killed
 * (SIGKILL) after its third metric call then re-run with --resume ending exactly like an
 * uninterrupted run.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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
  });
});
