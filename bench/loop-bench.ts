/**
 * Loop overhead of an evaluation (`npm run bench`; not a test): N sessions (K=2 episodes × S=3
 * steps, the naive meta-agent) on detective.z5 with C in flight, against the mock provider in its
 * own process at a fixed latency (as a real provider would be), through the CLI's chat models
 * (its keep-alive node:http fetch, src/cli/http-fetch.ts). Wall time ÷ ideal, ideal =
 * max(latency × longest chain of dependent calls, latency × calls ÷ C); one
 * `loop overhead C=<C> latency=<ms>ms: <ratio>` line per setting. Each setting is timed in three
 * runs (after its warm-up) and the run with the median wall time is shown, with the range. The
 * timed code runs as the CLI ships it, an esbuild bundle (built-run.ts), and so does the mock.
 *
 * In the same run, per setting: the **mock-only baseline** (loop-baseline.ts: the same request
 * bodies in the same chains, sent by a bare client that does nothing between calls), so that the
 * machine's load and the mock's own time are measured beside ours (ratio ours ÷ baseline); and
 * **where the rest goes**: per session chain, the time beyond the latency inside the calls, in
 * engine steps and between calls; and this thread's CPU profile during the timed run by
 * category (cpu-split.ts). Engines in this thread, sharing compiled code: the loop's own overhead
 * (the `loop overhead C=…` lines); then the same settings with one worker_thread engine per
 * session, as `metattl eval` runs them (its `loop overhead with an engine worker_thread …` lines;
 * `LOOP_BENCH_ENGINES=thread|worker` times one of the two). Sessions are persisted as they run, in a memory store as `metattl eval`
 * without `--store` does (`LOOP_BENCH_STORE=DIR`: files in a new directory under DIR, as `--store`;
 * `none`: not at all). `LOOP_BENCH=C:latency:sessions,…` runs other settings; `LOOP_BENCH_FETCH=builtin`
 * uses Node's built-in fetch (undici) instead.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pLimit from 'p-limit';
import { createHttpFetch } from '../src/cli/http-fetch.ts';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { EngineProxy } from '../src/engine/engine-proxy.ts';
import { createNodeWorker } from '../src/engine/node/worker-factory.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import type { ChatModel, Role } from '../src/llm/interface.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { MemoryStore } from '../src/store/memory-store.ts';
import { openNodeStore } from '../src/store/node-store.ts';
import { EnginePool, type PooledEngine } from '../src/ttl/engine-pool.ts';
import { evaluateSession } from '../src/ttl/session-evaluator.ts';
import { benchTiny } from './bench-size.ts';
import { runBuilt, runningBuilt, startMockLlmProcess } from './built-run.ts';
import { startCpuProfile, type CpuCategory } from './cpu-split.ts';
import { replayChains } from './loop-baseline.ts';

const EPISODES = 2;
const STEPS = 3;
/** Calls one session makes one after another: K·S actor calls + (K − 1) meta-agent calls. */
const CHAIN = EPISODES * STEPS + (EPISODES - 1);
/** Warm-up sessions before the timing, C at a time: enough that V8 has optimised the engine's and the HTTP client's code, as it has long since in an evaluation at the paper's scale. */
const WARM_SESSIONS = (concurrency: number) => benchTiny() ? concurrency : Math.max(2 * concurrency, 16);
const repoRoot = resolve(import.meta.dirname, '..');
const sharedDir = process.env.SHARED_DIR ?? resolve(repoRoot, '../shared');
type EngineMode = 'thread' | 'worker';
/** The engine setups timed, in order: in this thread (the loop's own overhead: the contract lines),
 * then one worker_thread per session as `metattl eval` runs them (src/cli/tasks.ts workerPool). */
const ENGINE_MODES: EngineMode[] = process.env.LOOP_BENCH_ENGINES === 'worker' ? ['worker'] : process.env.LOOP_BENCH_ENGINES === 'thread' ? ['thread'] : ['thread', 'worker'];
const FETCH = process.env.LOOP_BENCH_FETCH === 'builtin' ? 'builtin' : 'http';
/** Where sessions are persisted as they run: `memory` (default, as `metattl eval` without --store), `none`, or a directory (as `--store DIR`). */
const STORE = process.env.LOOP_BENCH_STORE ?? 'memory';
interface Setting { concurrency: number; latencyMs: number; sessions: number; goal: number }
/** The goals: 50 ms at C = 1, 4, 16 (goal ≤ 1.10) and an evaluation of 256 sessions at 500 ms, C = 64 (goal ≤ 1.03). */
const SETTINGS: Setting[] = process.env.LOOP_BENCH
  ? process.env.LOOP_BENCH.split(',').map((t) => {
    const parts = t.trim().split(':');
    const [concurrency, latencyMs, sessions] = parts.map(Number) as [number, number, number];
    if (parts.length !== 3 || ![concurrency, latencyMs, sessions].every((n) => Number.isInteger(n)) || concurrency < 1 || latencyMs < 0 || sessions < 1) {
      throw new Error(`LOOP_BENCH: "${t}" is not C:latency:sessions (whole numbers, C ≥ 1, latency ms ≥ 0, sessions ≥ 1), e.g. LOOP_BENCH=16:50:64,64:500:256`);
    }
    return { concurrency, latencyMs, sessions, goal: latencyMs >= 500 ? 1.03 : 1.1 };
  })
  : benchTiny()
    ? [{ concurrency: 4, latencyMs: 50, sessions: 4, goal: 1.1 }]
    : [
      { concurrency: 1, latencyMs: 50, sessions: 4, goal: 1.1 }, { concurrency: 4, latencyMs: 50, sessions: 16, goal: 1.1 },
      { concurrency: 16, latencyMs: 50, sessions: 64, goal: 1.1 }, { concurrency: 64, latencyMs: 500, sessions: 256, goal: 1.03 },
    ];
/** This thread's CPU by what it ran (first match from the sampled frame towards the root). */
const CATEGORIES: CpuCategory[] = [
  // The profiler's own start (its first sample), left out of the table.
  { name: 'profiler', match: ['cpu-split.ts'] },
  { name: 'tokenizer', match: ['gpt-tokenizer', 'token-count.ts'] },
  { name: 'engine messages', match: ['engine-proxy.ts', 'node:internal/worker', 'worker_threads'] },
  { name: 'engine', match: ['ifvms', '/src/engine/'] },
  { name: 'HTTP client', match: ['node_modules/openai', 'undici', 'http-fetch.ts', 'node:_http', 'node:http', 'node:net', 'node:internal/webstreams', 'node:internal/streams', 'node:stream'] },
  { name: 'chat model', match: ['/src/llm/'] },
  { name: 'session loop', match: ['/src/ttl/', '/src/agents/'] },
  { name: 'bench', match: ['/bench/'] },
];

const SHOWN = CATEGORIES.filter((c) => c.name !== 'profiler');

/** Timed runs per setting (the median is shown, with the range): one run of a setting swings by ±5 % here. */
const REPEATS = benchTiny() ? 1 : 3;

/** One timed run of a setting and its baseline. */
interface TimedRun {
  results: Awaited<ReturnType<typeof evaluateSession>>[];
  wallMs: number; cpuUs: NodeJS.CpuUsage; cpu: Record<string, number>; baselineMs: number; baseCpuUs: NodeJS.CpuUsage; times: ChainTimes;
}

/** Sums over the timed run's sessions (ms): sessions' wall time, calls' wall time and count, engine calls' wall time. */
interface ChainTimes { sessionsMs: number; callsMs: number; calls: number; engineMs: number }
const totals: ChainTimes = { sessionsMs: 0, callsMs: 0, calls: 0, engineMs: 0 };

/** Wall time of `f` added to `totals[key]`. */
async function timed<T>(key: 'callsMs' | 'engineMs' | 'sessionsMs', f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await f();
  } finally {
    totals[key] += performance.now() - t0;
    if (key === 'callsMs') totals.calls++;
  }
}

/** Models whose calls add their wall time to `totals`. */
function timedModels(models: Record<Role, ChatModel>): Record<Role, ChatModel> {
  const wrap = (m: ChatModel): ChatModel => ({ ...m, complete: (messages, options) => timed('callsMs', () => m.complete(messages, options)) });
  return { actor: wrap(models.actor), metaAgent: wrap(models.metaAgent), proposer: wrap(models.proposer) };
}

/** Time every setting with engines set up as `ENGINES` says; prints its tables. @returns its summary lines */
async function benchEngines(ENGINES: EngineMode): Promise<string[]> {
  const bytes = new Uint8Array(readFileSync(join(sharedDir, 'stories/detective.z5')));
  const catalog = parseCatalog(JSON.parse(readFileSync(join(repoRoot, 'public/stories/catalog.json'), 'utf8')));
  const entry = findByMd5(catalog, md5Hex(bytes))!;
  const rules = rulesFor(entry);
  const counter = await loadTokenCounter();
  const lines: string[] = [];
  const rows: string[] = [];
  const splitRows: string[] = [];
  const cpuRows: string[] = [];
  for (const { concurrency, latencyMs, sessions, goal } of SETTINGS) {
    const mock = await startMockLlmProcess(latencyMs);
    const s = defaultLlmSettings();
    s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'bench-key' };
    for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role].model = 'mock-model';
    s.maxConcurrent = concurrency;
    const inner = FETCH === 'http' ? createHttpFetch() : globalThis.fetch.bind(globalThis);
    let recorded: string[] | null = null;
    const fetch: typeof globalThis.fetch = (input, init) => {
      if (recorded && typeof init?.body === 'string') recorded.push(init.body);
      return inner(input, init);
    };
    const models = timedModels(createChatModels(s, new UsageMeter(s.caps, s.prices), { fetch }));
    const timedEngine = (engine: PooledEngine): PooledEngine => ({
      info: engine.info, seed: engine.seed, reset: () => timed('engineMs', () => engine.reset()), step: (c) => timed('engineMs', () => engine.step(c)), dispose: () => engine.dispose(),
    });
    const pool = new EnginePool(async () => timedEngine(ENGINES === 'worker'
      ? await EngineProxy.load(createNodeWorker, bytes, { seed: 0, rules })
      : (() => {
        const e = loadStory(bytes, { seed: 0, rules });
        return { info: e.info, seed: e.seed, reset: async () => e.reset(), step: async (c: string) => e.step(c), dispose: () => undefined };
      })()));
    const store = STORE === 'none' ? undefined : STORE === 'memory' ? new MemoryStore() : await openNodeStore(mkdtempSync(join(STORE, 'loop-bench-')));
    const options = { settings: s, models, countTokens: counter, pool, episodes: EPISODES, maxSteps: STEPS, initialGuidingPrompt: 'Explore systematically.', contextWindow: 8000, ...(store ? { store } : {}) };
    const task = { id: 'detective:0', storyId: entry.id, title: entry.title, md5: entry.md5, seed: 0, maxScore: entry.maxScore! };
    const policy = { kind: 'meta' as const, name: 'naive', strategy: '' };
    const run = (id: string) => timed('sessionsMs', () => evaluateSession(options, policy, task, id));
    // One session's request bodies for the baseline, then a warm-up with C sessions at once
    // (C engines started, the sockets open, the code compiled), both outside the timing.
    recorded = [];
    await run('record');
    const chainBodies = recorded;
    recorded = null;
    const warm = pLimit(concurrency);
    await Promise.all(Array.from({ length: WARM_SESSIONS(concurrency) }, (_, i) => warm(() => run(`warm-${i}`))));
    // REPEATS timed runs, each followed by its baseline; the run with the median ratio is shown.
    const runs: TimedRun[] = [];
    for (let rep = 0; rep < REPEATS; rep++) {
      Object.assign(totals, { sessionsMs: 0, callsMs: 0, calls: 0, engineMs: 0 });
      const limit = pLimit(concurrency);
      const profiler = await startCpuProfile(CATEGORIES);
      const cpu0 = process.cpuUsage();
      const started = performance.now();
      const results = await Promise.all(Array.from({ length: sessions }, (_, i) => limit(() => run(`s-${rep}-${i}`))));
      const wallMs = performance.now() - started;
      const cpuUs = process.cpuUsage(cpu0);
      const cpu = await profiler.stop();
      const baseCpu0 = process.cpuUsage();
      const baselineMs = await replayChains(mock.baseUrl, chainBodies, sessions, concurrency);
      runs.push({ results, wallMs, cpuUs, cpu, baselineMs, baseCpuUs: process.cpuUsage(baseCpu0), times: { ...totals } });
    }
    const byWall = [...runs].sort((a, b) => a.wallMs - b.wallMs);
    const { results, wallMs, cpuUs, cpu, baselineMs, baseCpuUs, times } = byWall[Math.floor(REPEATS / 2)]!;
    Object.assign(totals, times);
    const perCall = (u: NodeJS.CpuUsage, n: number) => ((u.user + u.system) / 1000 / n).toFixed(2);
    mock.stop();
    pool.disposeAll();
    store?.close();
    const calls = results.reduce((n, r) => n + r.session.episodes.reduce((m, e) => m + e.steps.length, 0) + r.session.exchanges.length, 0);
    const chain = Math.max(...results.map((r) => r.session.episodes.reduce((m, e) => m + e.steps.length, 0) + r.session.exchanges.length));
    const idealMs = Math.max(latencyMs * chain, (latencyMs * calls) / concurrency);
    const baselineIdealMs = Math.max(latencyMs * chainBodies.length, (latencyMs * chainBodies.length * sessions) / concurrency);
    const ratio = wallMs / idealMs;
    const range = REPEATS > 1 ? `; ${REPEATS} runs ${(byWall[0]!.wallMs / idealMs).toFixed(3)}–${(byWall.at(-1)!.wallMs / idealMs).toFixed(3)}, median shown` : '';
    const baseline = baselineMs / baselineIdealMs;
    lines.push(`${ENGINES === 'thread' ? 'loop overhead' : 'loop overhead with an engine worker_thread per session, as metattl eval runs them,'} C=${concurrency} latency=${latencyMs}ms: ${ratio.toFixed(3)} (goal ≤ ${goal.toFixed(2)}; ${sessions} sessions, ${calls} calls; mock-only baseline ${baseline.toFixed(3)}, ours ÷ baseline ${(ratio / baseline).toFixed(3)}${range})`);
    rows.push(`| ${concurrency} | ${latencyMs} | ${sessions} | ${calls} | ${idealMs.toFixed(0)} | ${wallMs.toFixed(0)} | ${ratio.toFixed(3)} | ${baseline.toFixed(3)} | ${(ratio / baseline).toFixed(3)} | ${perCall(cpuUs, calls)} | ${perCall(baseCpuUs, chainBodies.length * sessions)} |`);
    const sessionWall = totals.sessionsMs / sessions;
    const beyond = (totals.callsMs - latencyMs * totals.calls) / sessions;
    const engine = totals.engineMs / sessions;
    splitRows.push(`| ${concurrency} | ${latencyMs} | ${(latencyMs * CHAIN).toFixed(0)} | ${sessionWall.toFixed(1)} | ${beyond.toFixed(1)} | ${engine.toFixed(1)} | ${(sessionWall - totals.callsMs / sessions - engine).toFixed(1)} |`);
    const names = [...SHOWN.map((c) => c.name), 'gc', 'other'];
    const busy = names.reduce((n, k) => n + (cpu[k] ?? 0), 0);
    cpuRows.push(`| ${concurrency} | ${latencyMs} | ${names.map((k) => (cpu[k] ?? 0).toFixed(0)).join(' | ')} | ${busy.toFixed(0)} (${((100 * busy) / wallMs).toFixed(0)} %) | ${(cpu.idle ?? 0).toFixed(0)} |`);
  }
  console.log(`\nEvaluation loop overhead (mock in its own process; K=${EPISODES}, S=${STEPS}, naive meta-agent, detective.z5; chain ${CHAIN} calls per session; engines: ${ENGINES === 'worker' ? 'worker_threads' : 'this thread'}; store: ${STORE === 'none' || STORE === 'memory' ? STORE : 'files'}; fetch: ${FETCH === 'http' ? 'node:http keep-alive' : 'built-in (undici)'})\n`);
  console.log('| C | latency ms | sessions | LLM calls | ideal ms | wall ms | wall / ideal | mock-only baseline | ours ÷ baseline | CPU ms per call, this process | CPU ms per call, bare client |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log('\nWhere a session chain\'s time goes (mean per session, ms): latency × chain; its wall; inside the calls beyond the latency (HTTP, the mock, waiting for this thread); in engine resets and steps (worker round trips included); between calls (our loop, waiting for this thread)\n');
  console.log('| C | latency ms | latency × chain | session wall | calls beyond latency | engine | between calls |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of splitRows) console.log(row);
  console.log(`\nThis thread's time during the timed run by what it ran, ms (V8 profile, 1 ms samples; wall-clock samples, so on a loaded machine a category also holds the time the thread waited for a core right after it; "bench": the harness's wrappers)\n`);
  console.log(`| C | latency ms | ${[...SHOWN.map((c) => c.name), 'GC', 'other'].join(' | ')} | busy (share of wall) | idle |`);
  console.log(`|---|---|${[...SHOWN, 0, 0].map(() => '---').join('|')}|---|---|`);
  for (const row of cpuRows) console.log(row);
  return lines;
}

async function main(): Promise<void> {
  const lines: string[] = [];
  for (const mode of ENGINE_MODES) lines.push(...await benchEngines(mode));
  console.log('');
  for (const line of lines) console.log(line);
}

// The timed part runs as the CLI ships (built-run.ts), not through tsx.
if (runningBuilt()) await main();
else process.exitCode = await runBuilt(import.meta.filename);
