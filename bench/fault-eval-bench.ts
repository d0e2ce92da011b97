/**
 * Evaluation and evolution under provider faults (`npm run bench`; not a test; at full size). `metattl eval` of 4 policies × 4 tasks × 3 repeats (48 sessions) at
 * `--concurrency 16`, then `metattl evolve` (3 train + 2 validation tasks × 2 repeats, budget 14,
 * random proposer, `--concurrency 8`), each run once through the mock LLM with no faults, then
 * through a fault proxy (test/support/fault-proxy.ts, every reply after LATENCY_MS:
 * a seeded 20 % of chat requests cut by 429 + Retry-After, 500, a hang past `--timeout-ms`,
 * malformed JSON or a body cut mid-way) with the default retries, resumed until it completes (at
 * most MAX_INVOCATIONS). Prints `invocations`, `requests ÷ clean` (chat requests that reached the
 * proxy, faulted or not), `wall ÷ clean` (the faulted run's wall time, every invocation, over the
 * clean run's; each run's seconds with no chat request in flight are printed beside it: recovery
 * that overlaps other work adds little of that) and `equal to clean: yes/no` (every session's
 * key, scores, W-AUC and actions; for the evolution its budget, candidates and fronts). Goal: ≤ 3
 * invocations, ≤ 1.6× the requests, ≤ 3× the wall time, equal. The evolution runs twice: with
 * `--timeout-ms 1000` (scaled to the replies, as the evaluation) and, at full size, with the CLI's
 * default request timeout (60 s), as a user runs it: there a hang lasts until the hung attempt is
 * copied (src/llm/hedge.ts), not the request timeout. `FAULT_BENCH_SEED` sets the seed,
 * `FAULT_BENCH_CASES` (evaluation, evolution, evolution-default-timeout; comma-separated) the cases.
 * Wall times are of a quiet machine: on a loaded one both runs slow down unevenly and the ratio
 * moves with the load.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { startFaultProxy, type FaultProxy } from '../test/support/fault-proxy.ts';
import { runCli } from '../test/support/cli.ts';
import { REPO_ROOT } from '../test/support/shared.ts';
import { benchTiny, sized } from './bench-size.ts';

const MAX_INVOCATIONS = 10;
/**
 * Every chat request is answered (or cut) after this many ms, clean or faulted: a provider's own
 * latency, in the ratio the defaults have to a typical reply (a 60 s request timeout against replies
 * of about 3 s, here `--timeout-ms 1000` against 50 ms). Without it the mock answers in about a
 * millisecond and the clean run's wall time is the CLI's CPU alone, so any fault's real-time wait
 * (a hang lasts the whole request timeout) is many times it whatever the scheduling does.
 */
const LATENCY_MS = 50;
const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };

/** Every session of a results.json: what a faulted evaluation must reproduce. */
function played(out: string): string {
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
    sessions: { key: string; wAuc: number; scores: number[]; session: { episodes: { steps: { action: string }[] }[] } }[];
  };
  return JSON.stringify(results.sessions.map((s) => [s.key, s.wAuc, s.scores, s.session.episodes.map((e) => e.steps.map((x) => x.action))]));
}

/** What a faulted evolution must reproduce: its budget, candidates (lineage, scores) and fronts. */
function evolved(stdout: string): string {
  const o = JSON.parse(stdout) as Record<string, unknown>;
  return JSON.stringify([o.status, o.bestCandidateId, o.metricCallsUsed, o.sessionsPlayed, o.candidates, o.fronts]);
}

/** One run kind under faults: how its first and resumed invocations are made and compared. */
interface FaultCase {
  title: string;
  /** Its `--concurrency`: the most requests it can have served at once. */
  concurrency: number;
  /** The clean run's args (`dir`: a fresh directory of this case). */
  clean(dir: string): string[];
  /** The faulted run's first (`invocation` 1) and resumed invocations; `firstStdout` is the first one's. */
  faulted(dir: string, invocation: number, firstStdout: string): string[];
  /** Whether the last faulted invocation (its stdout) equals the clean one. */
  equal(dir: string, clean: string, last: string, invocation: number): boolean;
}

const proxyOf = (upstream: string) => startFaultProxy(upstream, { rate: 0, seed: Number(process.env.FAULT_BENCH_SEED ?? 24), latencyMs: LATENCY_MS });

async function measure(proxy: FaultProxy, c: FaultCase): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'metattl-fault-bench-'));
  proxy.setRate(0);
  let from = proxy.requests;
  let started = performance.now();
  proxy.idleFrom();
  const clean = await runCli(c.clean(dir), env);
  if (clean.code !== 0) throw new Error(`the clean run failed (exit ${clean.code}): ${clean.stderr}`);
  const cleanRequests = proxy.requests - from;
  const cleanMs = performance.now() - started;
  const cleanIdleMs = proxy.idleMs();
  const cleanServing = proxy.servingMs();

  proxy.setRate(0.2);
  const faultsFrom = { ...proxy.faults };
  from = proxy.requests;
  started = performance.now();
  proxy.idleFrom();
  let invocations = 1;
  let r = await runCli(c.faulted(dir, 1, ''), env);
  const firstStdout = r.stdout;
  while (r.code !== 0 && invocations < MAX_INVOCATIONS) {
    // Exit 1 with its JSON is a run stopped by faults (resumable); anything else is a failure.
    if (r.code !== 1 || !r.stdout.trim()) throw new Error(`invocation ${invocations} exited ${r.code}: ${r.stderr}`);
    invocations++;
    r = await runCli(c.faulted(dir, invocations, firstStdout), env);
  }
  const requests = proxy.requests - from;
  const faultedMs = performance.now() - started;
  const faultedIdleMs = proxy.idleMs();
  const faultedServing = proxy.servingMs();
  proxy.setRate(0);
  const injected = Object.fromEntries(Object.entries(proxy.faults).map(([k, v]) => [k, v - faultsFrom[k as keyof typeof faultsFrom]]));
  const done = JSON.parse(r.stdout) as { status: string; faultedEpisodes: number };
  const equal = r.code === 0 && c.equal(dir, clean.stdout, r.stdout, invocations);
  console.log(c.title);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  console.log(`clean run: ${cleanRequests} requests, ${s(cleanMs)} s (${s(cleanIdleMs)} s with no request in flight; ${servingProfile(cleanServing, cleanMs, c.concurrency)})`);
  console.log(`faulted run: ${done.status}, ${done.faultedEpisodes} faulted episodes, ${requests} requests, ${s(faultedMs)} s (${s(faultedIdleMs)} s with no request in flight; ${servingProfile(faultedServing, faultedMs, c.concurrency)}); faults injected ${JSON.stringify(injected)}`);
  console.log(`invocations: ${invocations} (goal ≤ 3)`);
  console.log(`requests ÷ clean: ${(requests / cleanRequests).toFixed(2)} (goal ≤ 1.6)`);
  console.log(`wall ÷ clean: ${(faultedMs / cleanMs).toFixed(2)} (goal ≤ 3)`);
  console.log(`equal to clean: ${equal ? 'yes' : 'no'}`);
}

/**
 * Where a run's wall time went, from the proxy's serving levels (`FaultProxy.servingMs`: ms at each
 * number of requests in flight and not hanging): the mean number served over `wallMs`, and seconds
 * with fewer than half of `concurrency` served (slots idle: sessions waiting on a backoff, a hang,
 * a paused window, or for the rest of a pass).
 */
function servingProfile(levels: Map<number, number>, wallMs: number, concurrency: number): string {
  let busy = 0;
  let low = 0;
  for (const [n, ms] of levels) {
    busy += Math.max(0, n) * ms;
    if (n < concurrency / 2) low += ms;
  }
  return `${(busy / wallMs).toFixed(1)} of ${concurrency} slots served on average, ${(low / 1000).toFixed(1)} s with fewer than ${Math.ceil(concurrency / 2)}`;
}

const MODELS = ['--actor-model', 'mock-model', '--meta-model', 'mock-model'];

const evaluation = (baseUrl: string): FaultCase => {
  const concurrency = sized(16, 2);
  const base = [
    'eval', '--policies', sized('static,naive,fact-bank,credit-assignment', 'static,naive'),
    '--tasks', sized('lever-room:1,lever-room:2,lever-room:3,lever-room:4', 'lever-room:1'), '--repeats', sized('3', '1'),
    '--episodes', sized('4', '2'), '--steps', sized('12', '4'), '--concurrency', String(concurrency), '--timeout-ms', '1000', '--json', '--base-url', baseUrl, ...MODELS,
  ];
  return {
    concurrency,
    title: `Evaluation under 20% mixed provider faults (${sized('4 policies × 4 tasks × 3 repeats, --concurrency 16', 'tiny size')}, default retries, replies after ${LATENCY_MS} ms)`,
    clean: (dir) => [...base, '--out', join(dir, 'clean')],
    faulted: (dir, invocation, firstStdout) => [
      ...base, '--store', join(dir, 'store'), '--out', join(dir, `f${invocation}`),
      ...(invocation > 1 ? ['--resume', (JSON.parse(firstStdout) as { id: string }).id] : []),
    ],
    equal: (dir, _clean, _last, invocation) => played(join(dir, `f${invocation}`)) === played(join(dir, 'clean')),
  };
};

/** The evolution case; `timeoutMs` null: the CLI's default request timeout (60 s). */
const evolution = (baseUrl: string, timeoutMs: string | null = '1000'): FaultCase => {
  const concurrency = sized(8, 2);
  const base = [
    'evolve', '--train', sized('lever-room:1,lever-room:2,lever-room:3', 'lever-room:1'), '--val', sized('lever-room:4,lever-room:5', 'lever-room:2'),
    '--repeats', sized('2', '1'), '--episodes', sized('3', '2'), '--steps', sized('10', '4'), '--budget', sized('14', '4'), '--minibatch', sized('2', '1'),
    '--proposer', 'random', '--rng-seed', '5', '--concurrency', String(concurrency), ...(timeoutMs === null ? [] : ['--timeout-ms', timeoutMs]), '--json', '--base-url', baseUrl, ...MODELS, '--proposer-model', 'mock-model',
  ];
  return {
    concurrency,
    title: `Evolution under 20% mixed provider faults (${sized('3 train + 2 val tasks × 2 repeats, budget 14, --concurrency 8', 'tiny size')}, random proposer, default retries, ${timeoutMs === null ? 'the default request timeout (60 s)' : `--timeout-ms ${timeoutMs}`}, replies after ${LATENCY_MS} ms)`,
    clean: (dir) => [...base, '--store', join(dir, 'clean')],
    faulted: (dir, invocation) => [...base, '--store', join(dir, 'store'), '--id', 'evo', ...(invocation > 1 ? ['--resume'] : [])],
    equal: (_dir, clean, last) => evolved(last) === evolved(clean),
  };
};

async function main(): Promise<void> {
  const mock = await startMockLlm({ exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'], metaAgentReply: 'build' });
  const cases: [string, (baseUrl: string) => FaultCase][] = [
    ['evaluation', evaluation],
    ['evolution', (baseUrl) => evolution(baseUrl)],
    // At tiny size no reply may have been timed before a hang, which then lasts the whole 60 s.
    ...(benchTiny() ? [] : [['evolution-default-timeout', (baseUrl: string) => evolution(baseUrl, null)] as [string, (baseUrl: string) => FaultCase]]),
  ];
  const only = process.env.FAULT_BENCH_CASES?.split(',') ?? cases.map(([name]) => name);
  try {
    for (const [name, make] of cases) {
      if (!only.includes(name)) continue;
      // A proxy of its own per case: its faults are drawn the same whichever cases ran before.
      const proxy = await proxyOf(mock.baseUrl);
      try {
        await measure(proxy, make(proxy.baseUrl));
      } finally {
        await proxy.close();
      }
    }
  } finally {
    await mock.close();
  }
}

await main();
