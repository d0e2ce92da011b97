/**
 * Evaluation under provider faults (`npm run bench`; not a test; issue 24, item 1 at full size).
 * `metattl eval` of 4 policies × 4 tasks × 3 repeats (48 sessions) at `--concurrency 16` runs
 * once through the mock LLM with no faults, then through a fault proxy (test/support/fault-proxy.ts:
 * a seeded 20 % of chat requests cut by 429 + Retry-After, 500, a hang past `--timeout-ms`,
 * malformed JSON or a body cut mid-way) with the default retries, resumed until it completes (at
 * most MAX_INVOCATIONS). Prints `invocations`, `requests ÷ clean` (chat requests that reached the
 * proxy, faulted or not) and `equal to clean: yes/no` (every session's key, scores, W-AUC and
 * actions). Goal: ≤ 3 invocations, ≤ 1.6× the requests, equal. `FAULT_BENCH_SEED` sets the seed.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { startFaultProxy } from '../test/support/fault-proxy.ts';
import { runCli } from '../test/support/cli.ts';
import { REPO_ROOT } from '../test/support/shared.ts';
import { sized } from './bench-size.ts';

const MAX_INVOCATIONS = 10;
const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };

/** Every session of a results.json: what a faulted run must reproduce. */
function played(out: string): string {
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
    sessions: { key: string; wAuc: number; scores: number[]; session: { episodes: { steps: { action: string }[] }[] } }[];
  };
  return JSON.stringify(results.sessions.map((s) => [s.key, s.wAuc, s.scores, s.session.episodes.map((e) => e.steps.map((x) => x.action))]));
}

async function main(): Promise<void> {
  const mock = await startMockLlm({ exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'], metaAgentReply: 'build' });
  const proxy = await startFaultProxy(mock.baseUrl, { rate: 0, seed: Number(process.env.FAULT_BENCH_SEED ?? 24) });
  const dir = mkdtempSync(join(tmpdir(), 'metattl-fault-bench-'));
  const base = [
    'eval', '--policies', sized('static,naive,fact-bank,credit-assignment', 'static,naive'),
    '--tasks', sized('lever-room:1,lever-room:2,lever-room:3,lever-room:4', 'lever-room:1'), '--repeats', sized('3', '1'),
    '--episodes', sized('4', '2'), '--steps', sized('12', '4'), '--concurrency', sized('16', '2'), '--timeout-ms', '1000', '--json', '--base-url', proxy.baseUrl,
    '--actor-model', 'mock-model', '--meta-model', 'mock-model',
  ];
  try {
    let from = proxy.requests;
    let started = performance.now();
    const clean = await runCli([...base, '--out', join(dir, 'clean')], env);
    if (clean.code !== 0) throw new Error(`the clean run failed (exit ${clean.code}): ${clean.stderr}`);
    const cleanRequests = proxy.requests - from;
    const cleanMs = performance.now() - started;

    proxy.setRate(0.2);
    from = proxy.requests;
    started = performance.now();
    const store = join(dir, 'store');
    let invocations = 1;
    let out = join(dir, 'f1');
    let r = await runCli([...base, '--store', store, '--out', out], env);
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    while (r.code !== 0 && invocations < MAX_INVOCATIONS) {
      if (r.code !== 1) throw new Error(`eval exited ${r.code}: ${r.stderr}`);
      invocations++;
      out = join(dir, `f${invocations}`);
      r = await runCli([...base, '--store', store, '--resume', id, '--out', out], env);
    }
    const requests = proxy.requests - from;
    const faultedMs = performance.now() - started;
    const done = JSON.parse(r.stdout) as { status: string; completedSessions: number; plannedSessions: number; faultedEpisodes: number };
    const equal = r.code === 0 && played(out) === played(join(dir, 'clean'));
    console.log('Evaluation under 20% mixed provider faults (4 policies × 4 tasks × 3 repeats, --concurrency 16, default retries)');
    console.log(`clean run: ${cleanRequests} requests, ${(cleanMs / 1000).toFixed(1)} s`);
    console.log(`faulted run: ${done.status}, ${done.completedSessions}/${done.plannedSessions} sessions, ${done.faultedEpisodes} faulted episodes, ${requests} requests, ${(faultedMs / 1000).toFixed(1)} s; faults injected ${JSON.stringify(proxy.faults)}`);
    console.log(`invocations: ${invocations} (goal ≤ 3)`);
    console.log(`requests ÷ clean: ${(requests / cleanRequests).toFixed(2)} (goal ≤ 1.6)`);
    console.log(`equal to clean: ${equal ? 'yes' : 'no'}`);
  } finally {
    await proxy.close();
    await mock.close();
  }
}

await main();
