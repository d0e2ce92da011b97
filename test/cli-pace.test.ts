/**
 * `--step-delay-ms` of `metattl session` and `play`: a paced run prints the same
 * results as an unpaced one; the delay is asked for as a whole number of ms.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { runCli } from './support/cli.ts';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'] });
});
afterAll(() => mock.close());

const env = { ...process.env, OPENAI_API_KEY: 'k' };
const sessionArgs = () => ['session', 'lever-room', '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--episodes', '2', '--steps', '6', '--json'];

/** What a run's JSON says about play: scores, W-AUC and every step's action and score. */
const playOf = (stdout: string) => {
  const out = JSON.parse(stdout) as { wAuc: number | null; episodes: { finalScore: number; steps: { action: string; score: number }[] }[] };
  return { wAuc: out.wAuc, episodes: out.episodes.map((e) => ({ finalScore: e.finalScore, steps: e.steps.map((s) => [s.action, s.score]) })) };
};

it('session --step-delay-ms plays and prints exactly what an unpaced session does', async () => {
  const plain = await runCli(sessionArgs(), env);
  const paced = await runCli([...sessionArgs(), '--step-delay-ms', '5'], env);
  expect(plain.code).toBe(0);
  expect(paced.code).toBe(0);
  expect(playOf(paced.stdout)).toEqual(playOf(plain.stdout));
  expect(playOf(plain.stdout).episodes[0]!.steps.length).toBeGreaterThan(1);
}, 30_000);

it('play and session refuse a delay that is not a whole number of ms', async () => {
  for (const command of ['session', 'play']) {
    const result = await runCli([command, 'lever-room', '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--step-delay-ms', '0.5'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--step-delay-ms must be a whole number from 0 to 600000, got "0.5"');
  }
});
