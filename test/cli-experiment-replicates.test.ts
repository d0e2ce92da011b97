/**
 * `npx metattl experiment` with a replicated evolution against the mock, at a tiny scale: plan
 * --json lists each replicate with its own seed and cost; a run evaluates each chosen prompt as
 * `<arm>#r<r>` and reports the arm across replicates; killed between replicates and resumed, the
 * report equals the uninterrupted run's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { BIN, runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['north', 'take all', 'look', 'inventory', 'south'] });
});
afterAll(() => mock.close());

const env = { ...process.env, OPENAI_API_KEY: 'k', METATTL_STORIES_DIR: mkdtempSync(join(tmpdir(), 'rep-stories-')), STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
const provider = (concurrency: number) => ['--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--proposer-model', 'mock-model', '--concurrency', String(concurrency)];
const store = () => mkdtempSync(join(tmpdir(), 'rep-store-'));
const SPEC = {
  name: 'replicated', episodes: 2, steps: 3, repeats: 1, taskSets: { train: ['detective'], val: ['zork1'], ID: ['detective', 'zork1', 'temple'] },
  evolutions: [{ id: 'e', train: 'train', val: 'val', budget: 4, rngSeed: 5 }], arms: [{ id: 'naive', policy: 'naive' }, { id: 'evolved', evolution: 'e', replicates: 2 }],
  baseline: 'naive', evaluateOn: ['ID'],
};

describe('metattl experiment with replicates', () => {
  it('plans, runs and reports each replicate; killed between replicates and resumed, the same report', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rep-spec-')), 'replicated.json');
    writeFileSync(file, JSON.stringify(SPEC));
    const plan = JSON.parse((await runCli(['experiment', 'plan', file, '--json'], env)).stdout);
    expect(plan.steps.map((s: { id: string; evolution?: { rngSeed: number }; replicate?: number }) => [s.id, s.evolution?.rngSeed ?? null, s.replicate ?? null])).toEqual([['evolve-e.r1', 5, 1], ['evolve-e.r2', 6, 2], ['eval-ID', null, null]]);
    // The estimate counts every replicate: each costs what the one unreplicated evolution does.
    const single = JSON.parse((await runCli(['experiment', 'plan', file, '--json', '--replicates', '1'], env)).stdout);
    expect(plan.estimate.steps[0].tokens).toEqual(single.estimate.steps[0].tokens);
    expect(plan.estimate.steps[1].tokens).toEqual(single.estimate.steps[0].tokens);
    expect(plan.estimate.total.metricCalls - single.estimate.total.metricCalls).toBe(4 + 3);
    const text = await runCli(['experiment', 'plan', file], env);
    expect(text.stdout).toContain('evolve-e.r2: evolve (llm, replicate 2 of 2, rng seed 6)');

    const full = store();
    const done = await runCli(['experiment', 'run', file, ...provider(2), '--store', full, '--json'], env);
    expect(done.code, done.stderr).toBe(0);
    const report = JSON.parse(done.stdout).report;
    // Side by side: the second replicate starts before the first is done.
    expect(done.stderr.indexOf('evolve-e.r2: start')).toBeGreaterThan(-1);
    expect(done.stderr.indexOf('evolve-e.r2: start')).toBeLessThan(done.stderr.indexOf('evolve-e.r1: done'));
    expect(report.evolutions.map((e: { step: string; replicate: number; rngSeed: number }) => [e.step, e.replicate, e.rngSeed])).toEqual([['evolve-e.r1', 1, 5], ['evolve-e.r2', 2, 6]]);
    expect(report.rows.map((r: { arm: string }) => r.arm)).toEqual(['naive', 'evolved#r1', 'evolved#r2']);
    const [arm] = report.replicated;
    expect(arm).toMatchObject({ step: 'eval-ID', arm: 'evolved', replicates: 2, baseline: 'naive' });
    expect(arm.perReplicate.map((r: { policyId: string; rngSeed: number; sessions: number }) => [r.policyId, r.rngSeed, r.sessions])).toEqual([['evolved#r1', 5, 3], ['evolved#r2', 6, 3]]);
    for (const [i, r] of arm.perReplicate.entries()) {
      const evolution = report.evolutions[i];
      expect(r.prompt).toBe(evolution.bestStrategy);
      expect(r.wAuc).toBeCloseTo(report.rows[i + 1].wAuc.estimate, 12);
    }
    expect(arm.dissimilarity.pairs).toHaveLength(1);
    const declared = report.comparisons.find((c: { a: string; b: string }) => c.a === 'evolved' && c.b === 'naive');
    expect(declared.delta).toEqual({ mean: arm.delta.estimate, low: arm.delta.low, high: arm.delta.high });
    expect(typeof declared.holmP).toBe('number');
    const md = readFileSync(join(full, 'experiments', 'replicated', 'report', 'report.md'), 'utf8');
    expect(md).toContain('## Replicated evolutions');

    // Replicates one after another (--concurrency 1), killed as the second starts, then resumed.
    const killed = store();
    const child = spawn(process.execPath, [BIN, 'experiment', 'run', file, ...provider(1), '--store', killed], { cwd: REPO_ROOT, env });
    await new Promise<void>((finish) => {
      let seen = '';
      child.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('evolve-e.r2: start') && child.exitCode === null) child.kill('SIGKILL');
      });
      child.on('exit', () => finish());
    });
    expect(child.signalCode).toBe('SIGKILL');
    const state = JSON.parse(readFileSync(join(killed, 'experiments', 'replicated', 'experiment.json'), 'utf8'));
    expect([state.steps['evolve-e.r1'].status, state.steps['evolve-e.r2'].status]).toEqual(['complete', 'pending']);
    const resumed = await runCli(['experiment', 'resume', file, ...provider(1), '--store', killed], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('evolved on ID: 2 replicates (eval-ID): W-AUC ');
    expect(resumed.stdout).toMatch(/ {2}r2 evolved#r2: rng seed 6, chosen \S+/);
    expect(resumed.stdout).toMatch(/ {2}r1–r2: word edit distance \d\.\d{3}, Jaccard distance \d\.\d{3}/);
    const again = JSON.parse(readFileSync(join(killed, 'experiments', 'replicated', 'report', 'report.json'), 'utf8'));
    expect(again.replicated).toEqual(report.replicated);
    expect(again.rows).toEqual(report.rows);
  }, 60_000);
});
