/**
 * Provider faults at small scale: `metattl eval` and `metattl evolve` through a fault proxy
 * (test/support/fault-proxy.ts: a seeded 20 % of chat requests cut by 429 + Retry-After, 500, a
 * hang past --timeout-ms, malformed JSON or a body cut mid-way) with the default retries. A fault
 * costs at most its own episode: the other sessions go on, finished episodes are kept in the
 * store, further attempts in the same invocation continue the faulted sessions while the run progresses,
 * and a resume continues any still unfinished from its last finished episode — so the
 * run completes in ≤ 3 invocations with ≤ 1.6× the requests of the fault-free run, and ends with
 * exactly the fault-free run's results.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from './mock-llm/server.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { runCli } from './support/cli.ts';
import { REPO_ROOT } from './support/shared.ts';

const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
const EXPLORE = ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'];

let mock: MockLlm;
let proxy: FaultProxy;
beforeAll(async () => {
  mock = await startMockLlm({ exploreCommands: EXPLORE, metaAgentReply: 'build' });
  // FAULT_SEED picks another draw of faults (the goal must hold for any; 24 by default).
  proxy = await startFaultProxy(mock.baseUrl, { rate: 0, seed: Number(process.env.FAULT_SEED ?? 24) });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

const MODELS = ['--actor-model', 'mock-model', '--meta-model', 'mock-model', '--proposer-model', 'mock-model', '--timeout-ms', '400'];

/** What must be equal between a faulted and a clean evaluation: every session's play and scores. */
function sessionsOf(out: string) {
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
    status: string; sessions: { key: string; wAuc: number; scores: number[]; session: { episodes: { guidingPrompt: string; steps: { action: string }[] }[] } }[];
    report: { policies: unknown };
  };
  return {
    status: results.status,
    report: results.report.policies,
    sessions: results.sessions.map((s) => ({ key: s.key, wAuc: s.wAuc, scores: s.scores, episodes: s.session.episodes.map((e) => [e.guidingPrompt, e.steps.map((x) => x.action)]) })),
  };
}

/** Run `args` (then `--resume` ones) until it exits 0 or `max` invocations were made. */
async function untilDone(first: string[], resume: (firstStdout: string, invocation: number) => string[], max: number): Promise<{ invocations: number; code: number; stdout: string }> {
  let r = await runCli(first, env);
  const firstStdout = r.stdout;
  let invocations = 1;
  while (r.code !== 0 && invocations < max) {
    expect(r.code).toBe(1);
    invocations++;
    r = await runCli(resume(firstStdout, invocations), env);
  }
  return { invocations, code: r.code, stdout: r.stdout };
}

describe('under 20% mixed provider faults', () => {
  it('eval (2 policies × 2 tasks × 2 repeats, concurrency 4) completes in ≤ 3 invocations, ≤ 1.6× the requests, equal to the clean run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-fault-eval-'));
    const base = ['eval', '--policies', 'static,naive', '--tasks', 'lever-room:1,lever-room:2', '--repeats', '2', '--episodes', '3', '--steps', '8', '--concurrency', '4', '--json', '--base-url', proxy.baseUrl, ...MODELS];
    proxy.setRate(0);
    const before = proxy.requests;
    const clean = await runCli([...base, '--out', join(dir, 'clean')], env);
    expect(clean.code).toBe(0);
    const cleanRequests = proxy.requests - before;
    proxy.setRate(0.2);
    const from = proxy.requests;
    const store = join(dir, 'store');
    const run = await untilDone([...base, '--store', store, '--out', join(dir, 'f1')], (stdout, invocation) => {
      const id = (JSON.parse(stdout) as { id: string }).id;
      return [...base, '--store', store, '--resume', id, '--out', join(dir, `f${invocation}`)];
    }, 3);
    const requests = proxy.requests - from;
    proxy.setRate(0);
    const ratio = requests / cleanRequests;
    process.stdout.write(`fault eval (seed ${process.env.FAULT_SEED ?? 24}): invocations ${run.invocations}, requests ÷ clean ${ratio.toFixed(2)} (${requests}/${cleanRequests}), faults ${JSON.stringify(proxy.faults)}\n`);
    expect(run.code).toBe(0);
    expect(run.invocations).toBeLessThanOrEqual(3);
    expect(ratio).toBeLessThanOrEqual(1.6);
    const done = JSON.parse(run.stdout) as { status: string; completedSessions: number; faultedEpisodes: number };
    expect([done.status, done.completedSessions]).toEqual(['complete', 8]);
    expect(sessionsOf(join(dir, `f${run.invocations}`))).toEqual(sessionsOf(join(dir, 'clean')));
    // Faults did hit (this is not a clean run in disguise).
    expect(Object.values(proxy.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
  }, 240_000);

  it('evolve (random proposer) completes in ≤ 3 invocations, ≤ 1.6× the requests, with the clean run\'s candidates and fronts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metattl-fault-evolve-'));
    const base = ['evolve', '--train', 'lever-room:1,lever-room:2', '--val', 'lever-room:3,lever-room:4', '--repeats', '2', '--episodes', '3', '--steps', '8', '--budget', '8', '--proposer', 'random', '--rng-seed', '5', '--concurrency', '4', '--json', '--base-url', proxy.baseUrl, ...MODELS];
    proxy.setRate(0);
    const before = proxy.requests;
    const clean = await runCli([...base, '--store', join(dir, 'clean')], env);
    expect(clean.code).toBe(0);
    const cleanRequests = proxy.requests - before;
    proxy.setRate(0.2);
    const from = proxy.requests;
    const faultsFrom = Object.values(proxy.faults).reduce((a, b) => a + b, 0);
    const store = join(dir, 'store');
    // A sweep's faulted metric calls get further attempts inside the invocation (ttl/session-passes.ts),
    // so a fault that outlives the retries no longer ends the invocation.
    const run = await untilDone([...base, '--store', store, '--id', 'evo'], () => [...base, '--store', store, '--resume', '--id', 'evo'], 4);
    const requests = proxy.requests - from;
    proxy.setRate(0);
    const ratio = requests / cleanRequests;
    process.stdout.write(`fault evolve (seed ${process.env.FAULT_SEED ?? 24}): invocations ${run.invocations}, requests ÷ clean ${ratio.toFixed(2)} (${requests}/${cleanRequests})\n`);
    expect(run.code).toBe(0);
    expect(run.invocations).toBeLessThanOrEqual(3);
    expect(ratio).toBeLessThanOrEqual(1.6);
    const pick = (stdout: string) => {
      const o = JSON.parse(stdout) as Record<string, unknown>;
      return { status: o.status, bestCandidateId: o.bestCandidateId, metricCallsUsed: o.metricCallsUsed, sessionsPlayed: o.sessionsPlayed, candidates: o.candidates, fronts: o.fronts };
    };
    expect(pick(run.stdout)).toEqual(pick(clean.stdout));
    // Faults did hit (this is not a clean run in disguise).
    expect(Object.values(proxy.faults).reduce((a, b) => a + b, 0) - faultsFrom).toBeGreaterThan(5);
  }, 240_000);
});
