/**
 * Evolution concurrency benchmark (`npm run bench`; not a test). With the mock provider at a
 * fixed latency, one fixed evolution runs at concurrency C ∈ {1, 4, 16}; its wall time is divided
 * by its ideal time, max(latency × the longest chain of dependent calls, latency × total calls ÷ C).
 * The goal is a ratio ≤ 1.10. The mock runs in its own process (as a real provider would); engines
 * run in this thread (their CPU time counts as overhead). Starting a worker_thread engine, as the
 * CLI does, is measured separately: it is paid once per concurrent session slot.
 */
import { EngineProxy } from '../src/engine/engine-proxy.ts';
import { createNodeWorker } from '../src/engine/node/worker-factory.ts';
import type { MockLlm } from '../test/mock-llm/server.ts';
import { config, evolve, task } from '../test/support/evolution-harness.ts';
import { runBuilt, runningBuilt, startMockLlmProcess } from './built-run.ts';
import { sized } from './bench-size.ts';

const LATENCY_MS = 50;
const EPISODES = 2;
const STEPS = 3;
/** Calls one session makes one after another: K·S actor calls + (K − 1) meta-agent calls. */
const CHAIN_PER_SESSION = EPISODES * STEPS + (EPISODES - 1);

const strip = (name: string, seed: number) => {
  const { bytes: _b, ...t } = task(name, seed);
  return { ...t, id: `${name}:${seed}` };
};

/** Count requests through /v1/models is not possible remotely, so LLM calls are counted from the state. */
function llmCalls(metricCalls: number, proposals: number): number {
  return metricCalls * CHAIN_PER_SESSION + proposals;
}

async function main(): Promise<void> {
  const server = await startMockLlmProcess(LATENCY_MS);
  const mock = { baseUrl: server.baseUrl } as MockLlm;
  const rows: string[] = [];
  // Warm-up (module loading, tokenizer, first JIT compiles of the stories) outside the timings:
  // the smallest budget the budget rule lets start (seed validation 1 + one iteration 2·1 + 1).
  await evolve(mock, config({ train: [strip('detective', 0)], val: [strip('temple', 0)], repeats: 1, episodes: 1, maxSteps: 2, budgetMetricCalls: 4 }));
  for (const concurrency of sized([1, 4, 16], [4])) {
    const cfg = config({
      train: [strip('detective', 0)], val: [strip('detective', 0), strip('detective', 1), strip('temple', 0), strip('temple', 1)],
      repeats: sized(4, 1), episodes: EPISODES, maxSteps: STEPS, budgetMetricCalls: sized(16 + (2 * 4 + 16), 10), concurrency,
    });
    const started = performance.now();
    const { state } = await evolve(mock, cfg);
    const wallMs = performance.now() - started;
    const sweeps = new Set(state.metricCalls.map((c) => `${c.iteration}:${c.purpose}`)).size;
    const proposals = state.candidates.filter((c) => c.proposerReply !== null).length;
    const calls = llmCalls(state.metricCalls.length, proposals);
    const chain = sweeps * CHAIN_PER_SESSION + proposals;
    const idealMs = Math.max(LATENCY_MS * chain, (LATENCY_MS * calls) / concurrency);
    rows.push(`| ${concurrency} | ${state.metricCallsUsed} | ${calls} | ${chain} | ${idealMs.toFixed(0)} | ${wallMs.toFixed(0)} | ${(wallMs / idealMs).toFixed(3)} |`);
  }
  server.stop();
  const startMs: number[] = [];
  const { bytes } = task('detective', 0);
  const starts = sized(5, 1);
  for (let i = 0; i < starts; i++) {
    const began = performance.now();
    const engine = await EngineProxy.load(createNodeWorker, bytes, { seed: 0 });
    startMs.push(performance.now() - began);
    engine.dispose();
  }
  startMs.sort((a, b) => a - b);
  console.log(`\nEvolution wall time vs ideal (mock latency ${LATENCY_MS} ms; K=${EPISODES}, S=${STEPS}; 4 validation tasks × ${sized(4, 1)} repeats)\n`);
  console.log('| C | metric calls | LLM calls | longest chain | ideal ms | wall ms | wall / ideal |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log('\nideal = max(latency × longest chain of dependent calls, latency × total calls ÷ C); goal ≤ 1.10.');
  console.log(`Starting one worker_thread engine (detective.z5, the built worker entry, as the CLI starts it): median ${startMs[Math.floor(starts / 2)]!.toFixed(0)} ms of ${starts}.`);
}

// The timed part runs as the CLI ships (built-run.ts), not through tsx.
if (runningBuilt()) await main();
else process.exitCode = await runBuilt(import.meta.filename);
