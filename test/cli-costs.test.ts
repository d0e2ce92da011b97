/**
 * No invented costs (issue 19, item 3), as real CLI processes against the mock: with a custom base
 * URL the built-in (OpenAI) prices do not apply, so `costUsd` is null and the text says "—"; a
 * `--price` for the model called gives the real figure; a role with no model given is called
 * with the actor's model (never gpt-4o-mini), and that is said once.
 */
import { execFile } from 'node:child_process';
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
});
