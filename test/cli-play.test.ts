/**
 * The `npx metattl play` contract as a real process against the mock provider: the JSON fields
 * the issue names, real scores, the key taken from the environment and never printed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { REPO_ROOT } from './support/shared.ts';

const run = promisify(execFile);
const SCRIPT = ['east', 'get all', 'west', 'south', 'score'];
const KEY = 'env-key-0123456789abcdef';
let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ script: SCRIPT });
});
afterAll(() => mock.close());

describe('metattl play', () => {
  it('prints the trajectory JSON with real scores and no key', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'metattl-play-')), 'trajectory.json');
    const { stdout, stderr } = await run(
      process.execPath,
      [resolve(REPO_ROOT, 'bin/metattl.js'), 'play', 'advent', '--seed', '0', '--steps', '5', '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--json', '--out', out],
      { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: KEY } },
    );
    const result = JSON.parse(stdout);
    // The catalog's advent entry gives its player object (Jericho's 20): steps say where it is.
    const replay = loadStory(new Uint8Array(readFileSync(resolve(REPO_ROOT, 'node_modules/glkote-term/tests/advent.z5'))), { seed: 0, rules: { playerObject: 20 } });
    const startLocation = replay.start.location;
    const results = SCRIPT.map((c) => replay.step(c));
    const scores = results.map((r) => r.score);
    expect(result).toMatchObject({ seed: 0, termination: 'step_limit', finalScore: scores.at(-1), maxScore: 350 });
    expect(result.story).toMatch(/advent\.z5$/);
    expect(result.steps).toHaveLength(5);
    expect(result.steps.map((s: { action: string }) => s.action)).toEqual(SCRIPT);
    expect(result.steps.map((s: { score: number }) => s.score)).toEqual(scores);
    for (const step of result.steps) {
      expect(Object.keys(step)).toEqual(expect.arrayContaining(['observation', 'reply', 'action', 'parseStatus', 'score', 'promptTokens', 'completionTokens', 'latencyMs']));
      expect(step.parseStatus).toBe('ok');
    }
    expect(result.steps[0].observation).toContain('At End Of Road');
    // Where the player is after each step: `location` { id, name }, equal to the engine's, and in
    // the --out export too.
    expect(startLocation).toEqual({ id: 29, name: 'At End Of Road' });
    expect(results[0]!.location).toEqual({ id: 37, name: 'Inside Building' });
    expect(result.startLocation).toEqual(startLocation);
    expect(result.steps.map((s: { location: unknown }) => s.location)).toEqual(results.map((r) => r.location));
    const exported = JSON.parse(readFileSync(out, 'utf8'));
    expect(exported.startLocation).toEqual(startLocation);
    expect(exported.steps.map((s: { location: unknown }) => s.location)).toEqual(results.map((r) => r.location));
    expect(mock.requests.filter((r) => r.role === 'actor').every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(stdout + stderr).not.toContain(KEY);
    expect(readFileSync(out, 'utf8')).not.toContain(KEY);
  });

  it('a USD cap below the need stops at the cap with "budget", keeping the steps', async () => {
    const { stdout } = await run(
      process.execPath,
      [resolve(REPO_ROOT, 'bin/metattl.js'), 'play', 'advent', '--seed', '0', '--steps', '5', '--base-url', mock.baseUrl, '--actor-model', 'mock-model',
        '--price', 'mock-model=1000/1000', '--max-usd', '0.0005', '--json'],
      { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: KEY } },
    );
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ termination: 'aborted', stopReason: 'budget' });
    expect(result.stopMessage).toMatch(/^Budget reached/);
    const played = result.steps.filter((s: { parseStatus: string }) => s.parseStatus === 'ok');
    expect(played.length).toBeGreaterThan(0);
    expect(played.length).toBeLessThan(5);
    expect(result.usage.totalUsd).toBeGreaterThanOrEqual(0.0005);
  });

  it('a provider fault: exit 1, termination "error", stopReason "provider" with the fault as stopMessage (as a session says it)', async () => {
    // Nothing listens on port 9 of the loopback: the first call fails to connect.
    const error = await run(
      process.execPath,
      [resolve(REPO_ROOT, 'bin/metattl.js'), 'play', 'advent', '--seed', '0', '--steps', '3', '--base-url', 'http://127.0.0.1:9/v1', '--actor-model', 'mock-model', '--max-retries', '0', '--json'],
      { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: KEY } },
    ).catch((e: unknown) => e as { code: number; stdout: string; stderr: string });
    expect(error).toMatchObject({ code: 1 });
    const result = JSON.parse((error as { stdout: string }).stdout);
    expect(result).toMatchObject({ termination: 'error', stopReason: 'provider' });
    expect(result.stopMessage).toBe(result.steps.at(-1).error.message);
    expect(result.stopMessage.length).toBeGreaterThan(0);
    expect((error as { stderr: string }).stderr).toContain(result.stopMessage);
  });

  it('a missing base URL is a usage error (exit code 2)', async () => {
    const error = await run(process.execPath, [resolve(REPO_ROOT, 'bin/metattl.js'), 'play', 'advent'], { cwd: REPO_ROOT }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 2 });
    expect((error as { stderr: string }).stderr).toContain('--base-url (or --provider) is required');
  });

  it('carries the text before and after each command, equal to `replay --json` on the same commands', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-play-replay-'));
    const commands = join(dir, 'commands.txt');
    writeFileSync(commands, SCRIPT.join('\n') + '\n');
    const cli = async (args: string[]) => JSON.parse((await run(process.execPath, [resolve(REPO_ROOT, 'bin/metattl.js'), ...args], { cwd: REPO_ROOT, env: { ...process.env, OPENAI_API_KEY: KEY } })).stdout);
    const played = await cli(['play', 'advent', '--seed', '0', '--steps', '5', '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--json']);
    const replayed = await cli(['replay', 'advent', '--seed', '0', '--commands', commands, '--json']);
    type Step = { observation: string; observationBefore: string; observationAfter: string | null };
    const before = (steps: Step[]) => steps.map((s) => s.observationBefore);
    const after = (steps: Step[]) => steps.map((s) => s.observationAfter);
    expect(before(played.steps)).toEqual(before(replayed.steps));
    expect(after(played.steps)).toEqual(after(replayed.steps));
    // Each command's own meaning of `observation` is kept: before in play, after in replay.
    expect(played.steps.map((s: Step) => s.observation)).toEqual(before(played.steps));
    expect(replayed.steps.map((s: Step) => s.observation)).toEqual(after(replayed.steps));
    expect(before(replayed.steps)[0]).toBe(replayed.start.observation);
    expect(after(played.steps)[0]).toContain('Inside Building');
    expect(played.finalObservation).toBe(after(played.steps).at(-1));
    // The same locations step by step, and at the start.
    const where = (steps: { location: unknown }[]) => steps.map((s) => s.location);
    expect(where(played.steps)).toEqual(where(replayed.steps));
    expect(played.startLocation).toEqual(replayed.start.location);
    expect(where(played.steps)).toContainEqual({ id: 37, name: 'Inside Building' });
  });
});
