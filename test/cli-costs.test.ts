/**
 * No invented costs, as real CLI processes against the mock: with a custom base
 * URL the built-in (OpenAI) prices do not apply, so `costUsd` is null and the text says "—"; a
 * `--price` for the model called gives the real figure; a role with no model given is called
 * with the actor's model (never gpt-4o-mini), and that is said once.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';

const run = promisify(execFile);
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['pull blue lever', 'pull yellow lever'] });
});
afterAll(() => mock.close());

const cli = (args: string[]) => run(process.execPath, [resolve(REPO_ROOT, 'bin/metattl.js'), ...args], { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: 'k' } });

describe('costs only where the called model’s price is known', () => {
  it('session with no --meta-model: the meta-agent is called with the actor’s model, said once; costUsd null without a price', async () => {
    mock.requests.length = 0;
    const { stdout, stderr } = await cli(['session', 'lever-room', '--seed', '1', '--policy', 'naive', '--episodes', '2', '--steps', '3', '--base-url', mock.baseUrl, '--actor-model', 'gpt-4o-mini', '--json']);
    const out = JSON.parse(stdout);
    // gpt-4o-mini is in the built-in (OpenAI) table, but this provider is not OpenAI.
    expect(out.costUsd).toBeNull();
    expect(out.rolesOnActorModel).toEqual(['metaAgent']);
    expect(out.actorModel).toBe('gpt-4o-mini');
    const metaCalls = mock.requests.filter((r) => r.role === 'metaAgent');
    expect(metaCalls.length).toBeGreaterThan(0);
    expect(metaCalls.every((r) => (r.body as { model: string }).model === 'gpt-4o-mini')).toBe(true);
    expect(stderr).not.toContain('no model given');
    const text = await cli(['session', 'lever-room', '--seed', '1', '--policy', 'naive', '--episodes', '2', '--steps', '3', '--base-url', mock.baseUrl, '--actor-model', 'gpt-4o-mini']);
    expect((text.stdout + text.stderr).match(/no model given for the meta-agent: it uses the actor's model \(gpt-4o-mini\)/g)).toHaveLength(1);
  });

  it('play: null and "—" without a price, the real figure with --price for the model called', async () => {
    const bare = JSON.parse((await cli(['play', 'lever-room', '--seed', '1', '--steps', '2', '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--json'])).stdout);
    expect(bare.usage.totalUsd).toBeNull();
    expect(bare.usage.costUsd).toBeNull();
    const text = (await cli(['play', 'lever-room', '--seed', '1', '--steps', '2', '--base-url', mock.baseUrl, '--actor-model', 'mock-model'])).stdout;
    expect(text).toMatch(/, —\n?$/m);
    expect(text).not.toContain('$');
    const priced = JSON.parse((await cli(['play', 'lever-room', '--seed', '1', '--steps', '2', '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--price', 'mock-model=1000/2000', '--json'])).stdout);
    const { promptTokens, completionTokens } = priced.usage;
    expect(priced.usage.totalUsd).toBeCloseTo((promptTokens * 1000 + completionTokens * 2000) / 1e6, 10);
  });

  it('eval: results.json, --json, summary.csv and report.md give no dollars without a price; --price gives them', async () => {
    const evalArgs = (out: string) => ['eval', '--policies', 'static,naive', '--tasks', 'lever-room:1', '--repeats', '1', '--episodes', '2', '--steps', '3',
      '--base-url', mock.baseUrl, '--actor-model', 'gpt-4o-mini', '--out', out];
    const bare = join(mkdtempSync(join(tmpdir(), 'metattl-costs-')), 'out');
    const text = await cli(evalArgs(bare));
    // Progress lines and the closing line say "—", never "$0.0000" from OpenAI's price for a model never called there.
    expect(text.stdout + text.stderr).not.toContain('$');
    // The two sessions run at once, so either may finish first: both lines say "—".
    expect(text.stderr).toMatch(/\[[12]\/2\] naive on lever-room:1 #0: W-AUC \d\.\d{3} {2}\(—\)/);
    expect(text.stderr).toMatch(/\[[12]\/2\] static on lever-room:1 #0: W-AUC \d\.\d{3} {2}\(—\)/);
    expect(text.stdout).toMatch(/2\/2 sessions; 0 faulted episodes; —; wrote/);
    expect(text.stderr.match(/no model given for the meta-agent: it uses the actor's model \(gpt-4o-mini\)/g)).toHaveLength(1);
    const results = JSON.parse(readFileSync(join(bare, 'results.json'), 'utf8'));
    expect(results.costUsd).toBeNull();
    expect(results.sessions.map((s: { costUsd: number | null }) => s.costUsd)).toEqual([null, null]);
    expect(results.report.policies.map((p: { costUsd: number | null }) => p.costUsd)).toEqual([null, null]);
    const csv = readFileSync(join(bare, 'summary.csv'), 'utf8').trim().split('\n');
    // cost_usd, then identical_repeats and who played (the columns after it): empty without a price.
    const header = csv[0]!.split(',');
    const costAt = header.indexOf('cost_usd');
    expect([costAt > 0, header.slice(costAt + 1)]).toEqual([true, ['identical_repeats', 'model', 'model_caveat']]);
    expect(csv.slice(1).every((line) => line.endsWith(',gpt-4o-mini,'))).toBe(true);
    expect(csv.slice(1).every((line) => line.split(',')[costAt] === '')).toBe(true);
    expect(readFileSync(join(bare, 'report.md'), 'utf8')).toMatch(/^\| static \| .* \| — \|$/m);

    const priced = join(mkdtempSync(join(tmpdir(), 'metattl-costs-')), 'out');
    const json = JSON.parse((await cli([...evalArgs(priced), '--meta-model', 'gpt-4o-mini', '--price', 'gpt-4o-mini=1000/2000', '--json'])).stdout);
    expect(json.costUsd).toBeGreaterThan(0);
    expect(json.rolesOnActorModel).toBeUndefined();
    const pricedResults = JSON.parse(readFileSync(join(priced, 'results.json'), 'utf8'));
    const sum = pricedResults.sessions.reduce((n: number, s: { costUsd: number }) => n + s.costUsd, 0);
    expect(sum).toBeCloseTo(json.costUsd, 10);
    const pricedCsv = readFileSync(join(priced, 'summary.csv'), 'utf8').trim().split('\n');
    expect(pricedCsv[1]!.split(',')[pricedCsv[0]!.split(',').indexOf('cost_usd')]).toMatch(/^\d+\.\d+$/);
  });

  it('evolve: costUsd null and "—" without a price, the proposer on the actor’s model said once', async () => {
    mock.requests.length = 0;
    const store = mkdtempSync(join(tmpdir(), 'metattl-costs-store-'));
    const args = ['evolve', '--train', 'lever-room:1', '--val', 'lever-room:1', '--repeats', '1', '--episodes', '2', '--steps', '3', '--budget', '4',
      '--store', store, '--base-url', mock.baseUrl, '--actor-model', 'gpt-4o-mini', '--rng-seed', '1'];
    const text = await cli([...args, '--id', 'costs-a']);
    expect(text.stdout + text.stderr).not.toContain('$');
    expect(text.stdout).toMatch(/; —; best /);
    // Counted nouns agree with their number ("1 proposal", not "1–1 proposals").
    expect(text.stderr).toContain('→ 1 proposal, 2–4 sessions');
    expect(text.stdout).toMatch(/\d\/4 metric calls, \d+ sessions, 1 proposal, 0 faulted episodes; —/);
    expect(text.stderr.match(/no model given for the meta-agent and proposer: they use the actor's model \(gpt-4o-mini\)/g)).toHaveLength(1);
    const proposerCalls = mock.requests.filter((r) => r.role === 'proposer');
    expect(proposerCalls.length).toBeGreaterThan(0);
    expect(proposerCalls.every((r) => (r.body as { model: string }).model === 'gpt-4o-mini')).toBe(true);
    const json = JSON.parse((await cli([...args, '--id', 'costs-b', '--json'])).stdout);
    expect(json.costUsd).toBeNull();
    expect(json.rolesOnActorModel).toEqual(['metaAgent', 'proposer']);
    const priced = JSON.parse((await cli([...args, '--id', 'costs-c', '--json', '--price', 'gpt-4o-mini=1000/2000'])).stdout);
    expect(priced.costUsd).toBeGreaterThan(0);
  });
});
