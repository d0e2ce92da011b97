/**
 * A run where calls failed must not look like a result: against a provider that cannot be
 * reached, `eval`, `session` and `evolve` stop (exit 1) instead of reporting "complete", count the
 * faulted episodes in their output, JSON and report; and `evolve` refuses a budget that cannot pay
 * for the seed's validation plus one full iteration (exit 2, with the numbers, before any call).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { type CliResult, runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';

/** Nothing listens on port 9 of the loopback. */
const UNREACHABLE = 'http://127.0.0.1:9/v1';
const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
const MODELS = ['--base-url', UNREACHABLE, '--actor-model', 'm', '--meta-model', 'm', '--proposer-model', 'm', '--max-retries', '0'];

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'], metaAgentReply: 'build' });
});
afterAll(() => mock.close());

const cli = (args: string[]): Promise<CliResult> => runCli(args, env);

describe('a failing provider never yields a "complete" result', () => {
  it('eval --policies static,naive: stopped, exit 1, faulted episodes in the JSON, results.json and report.md', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'metattl-eval-fault-')), 'out');
    const r = await cli(['eval', '--policies', 'static,naive', '--tasks', 'detective:0,temple:0', '--repeats', '1', '--episodes', '2', '--steps', '3', '--concurrency', '1', '--out', out, ...MODELS]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/: complete/);
    expect(r.stdout).toMatch(/stopped \(provider_error: Could not reach/);
    // Each session meets the fault in its own first episode: one fault no longer stops the others.
    expect(r.stdout).toMatch(/0\/4 sessions; 4 faulted episodes;/);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect([results.status, results.stopReason, results.completedSessions, results.plannedSessions, results.faultedEpisodes]).toEqual(['stopped', 'provider_error', 0, 4, 4]);
    expect(results.report.policies).toEqual([]);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('Not complete: the evaluation stopped (provider_error');
    expect(md).toContain('after 0 of 4 sessions');
    expect(md).toContain('4 episodes were cut short by provider faults');
  });

  it('eval --resume after fixing the URL plays the faulted session again and completes, still counting the faulted episode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-eval-resume-'));
    const base = ['eval', '--policies', 'static,naive', '--tasks', 'lever-room:1', '--repeats', '1', '--episodes', '2', '--steps', '5', '--concurrency', '1', '--store', join(dir, 'store'), '--max-retries', '0', '--actor-model', 'mock-model', '--meta-model', 'mock-model'];
    const failed = await cli([...base, '--out', join(dir, 'a'), '--base-url', UNREACHABLE]);
    expect(failed.code).toBe(1);
    const stopped = JSON.parse(readFileSync(join(dir, 'a', 'results.json'), 'utf8'));
    // Both sessions were tried (one fault no longer stops the other) and each faulted once.
    expect([stopped.status, stopped.completedSessions, stopped.faultedEpisodes]).toEqual(['stopped', 0, 2]);
    // A fixed URL is a changed setting: refused (exit 2, naming it) unless allowed, then recorded.
    const refused = await cli([...base, '--out', join(dir, 'b'), '--base-url', mock.baseUrl, '--resume', stopped.id]);
    expect([refused.code, /base URL/i.test(refused.stderr)]).toEqual([2, true]);
    const resumed = await cli([...base, '--out', join(dir, 'b'), '--base-url', mock.baseUrl, '--resume', stopped.id, '--allow-changed-settings']);
    expect(resumed.code).toBe(0);
    const done = JSON.parse(readFileSync(join(dir, 'b', 'results.json'), 'utf8'));
    expect([done.status, done.completedSessions, done.plannedSessions, done.faultedEpisodes]).toEqual(['complete', 2, 2, 2]);
    // Each session was continued (not restarted): its record keeps the faulted attempt aside.
    expect(done.sessions.every((s: { session: { faultedEpisodes: number; episodes: unknown[] } }) => s.session.faultedEpisodes === 1 && s.session.episodes.length === 2)).toBe(true);
    const md = readFileSync(join(dir, 'b', 'report.md'), 'utf8');
    expect(md).not.toContain('Not complete');
    expect(md).toContain('2 episodes were cut short by provider faults');
  });

  it('session: stopped, exit 1, no score, one faulted episode', async () => {
    const r = await cli(['session', 'detective', '--episodes', '2', '--steps', '3', '--json', ...MODELS]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect([out.status, out.stopReason, out.scores, out.wAuc, out.faultedEpisodes]).toEqual(['stopped', 'provider', [], null, 1]);
  });

  it('session --resume after fixing the URL plays the faulted episode again and ends like a clean run', async () => {
    const store = mkdtempSync(join(tmpdir(), 'metattl-session-fault-'));
    const base = ['session', 'lever-room', '--seed', '1', '--policy', 'naive', '--episodes', '3', '--steps', '15', '--guide', 'Explore.', '--json', '--max-retries', '0', '--actor-model', 'mock-model', '--meta-model', 'mock-model'];
    const clean = JSON.parse((await cli([...base, '--base-url', mock.baseUrl])).stdout);
    expect(clean.status).toBe('complete');
    const failed = await cli([...base, '--base-url', UNREACHABLE, '--store', store]);
    expect(failed.code).toBe(1);
    const stopped = JSON.parse(failed.stdout);
    expect([stopped.status, stopped.scores, stopped.faultedEpisodes]).toEqual(['stopped', [], 1]);
    const resumed = await cli([...base, '--base-url', mock.baseUrl, '--store', store, '--resume', stopped.id, '--allow-changed-settings']);
    expect(resumed.code).toBe(0);
    const out = JSON.parse(resumed.stdout);
    expect([out.status, out.scores, out.wAuc, out.faultedEpisodes]).toEqual(['complete', clean.scores, clean.wAuc, 1]);
  });

  it('evolve: stopped on the seed validation, exit 1, faulted episodes counted; --resume with the URL fixed completes', async () => {
    const store = mkdtempSync(join(tmpdir(), 'metattl-evolve-fault-'));
    const args = ['evolve', '--train', 'lever-room:1', '--val', 'lever-room:2', '--episodes', '2', '--steps', '5', '--budget', '6', '--store', store, '--concurrency', '1', '--json', '--id', 'evo-f', '--max-retries', '0', '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--proposer-model', 'mock-model'];
    const r = await cli([...args, '--base-url', UNREACHABLE]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect([out.status, out.stopReason, out.metricCallsUsed, out.faultedEpisodes]).toEqual(['stopped', 'provider_error', 0, 1]);
    const resumed = await cli([...args, '--base-url', mock.baseUrl, '--resume', '--allow-changed-settings']);
    expect(resumed.code).toBe(0);
    const done = JSON.parse(resumed.stdout);
    expect([done.status, done.stopReason, done.faultedEpisodes]).toEqual(['complete', 'budget', 1]);
    expect(done.metricCallsUsed).toBeLessThanOrEqual(6);
    expect(done.candidates[0].valScores['lever-room:2']).toBeGreaterThanOrEqual(0);
  });

  for (const [budget, val, minibatch, needed] of [[2, 'detective:0,temple:0,zork1:0', 1, 8], [4, 'detective:0,detective:1,detective:2,temple:0,temple:1,temple:2', 1, 14], [10, 'detective:0,detective:1,detective:2,temple:0,temple:1,temple:2', 3, 18]] as const) {
    it(`evolve --budget ${budget} with ${val.split(',').length} validation tasks and minibatch ${minibatch} is refused with exit 2 before any call`, async () => {
      const store = mkdtempSync(join(tmpdir(), 'metattl-evolve-budget-'));
      const r = await cli(['evolve', '--train', 'zork1:1,zork1:2,zork1:3', '--val', val, '--minibatch', String(minibatch), '--budget', String(budget), '--store', store, ...MODELS]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`The budget of ${budget} metric calls cannot pay for the seed's validation`);
      expect(r.stderr).toContain(`at least ${needed} are needed`);
    });
  }
});
