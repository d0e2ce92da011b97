/**
 * Loop overhead of an evaluation (`npm run bench`; not a test): N sessions (K=2 episodes × S=3
 * steps, the naive meta-agent) on detective.z5 with C in flight, against the mock provider in its
 * own process at a fixed latency (as a real provider would be). Wall time ÷ ideal, ideal =
 * max(latency × longest chain of dependent calls, latency × calls ÷ C) (issue 23); one
 * `loop overhead C=<C> latency=<ms>ms: <ratio>` line per setting. The split: this thread's time in
 * engine steps and in token counting (timed around each call), the rest of the overhead being
 * request round trips, scheduling and the event loop. In-thread engines; no store (an evaluation's
 * store writes are not in this figure).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import pLimit from 'p-limit';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { md5Hex } from '../src/engine/story-file.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { loadTokenCounter } from '../src/llm/token-count.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { EnginePool } from '../src/ttl/engine-pool.ts';
import { evaluateSession } from '../src/ttl/session-evaluator.ts';
import { benchTiny } from './bench-size.ts';

const EPISODES = 2;
const STEPS = 3;
/** Calls one session makes one after another: K·S actor calls + (K − 1) meta-agent calls. */
const CHAIN = EPISODES * STEPS + (EPISODES - 1);
const repoRoot = resolve(import.meta.dirname, '..');
const sharedDir = process.env.SHARED_DIR ?? resolve(repoRoot, '../shared');
/** (C, latency ms, sessions, goal); the issue's: 50 ms at C = 1, 4, 16 (goal ≤ 1.10) and an evaluation of 256 sessions at 500 ms, C = 64 (goal ≤ 1.03). */
const SETTINGS: Array<{ concurrency: number; latencyMs: number; sessions: number; goal: number }> = benchTiny()
  ? [{ concurrency: 4, latencyMs: 50, sessions: 4, goal: 1.1 }]
  : [
    { concurrency: 1, latencyMs: 50, sessions: 4, goal: 1.1 }, { concurrency: 4, latencyMs: 50, sessions: 16, goal: 1.1 },
    { concurrency: 16, latencyMs: 50, sessions: 64, goal: 1.1 }, { concurrency: 64, latencyMs: 500, sessions: 256, goal: 1.03 },
  ];

async function startMock(latencyMs: number): Promise<{ baseUrl: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(repoRoot, 'test/mock-llm/cli.ts'), '--faults', JSON.stringify([{ kind: 'slow', delayMs: latencyMs }])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((done) => createInterface({ input: child.stdout! }).once('line', done));
  return { baseUrl: line.trim(), stop: () => child.kill() };
}

async function main(): Promise<void> {
  const bytes = new Uint8Array(readFileSync(join(sharedDir, 'stories/detective.z5')));
  const catalog = parseCatalog(JSON.parse(readFileSync(join(repoRoot, 'public/stories/catalog.json'), 'utf8')));
  const entry = findByMd5(catalog, md5Hex(bytes))!;
  const rules = rulesFor(entry);
  const counter = await loadTokenCounter();
  const lines: string[] = [];
  const rows: string[] = [];
  for (const { concurrency, latencyMs, sessions, goal } of SETTINGS) {
    const mock = await startMock(latencyMs);
    const s = defaultLlmSettings();
    s.provider = { presetId: 'custom', baseUrl: mock.baseUrl, apiKey: 'bench-key' };
    for (const role of ['actor', 'metaAgent', 'proposer'] as const) s.roles[role].model = 'mock-model';
    s.maxConcurrent = concurrency;
    const models = createChatModels(s, new UsageMeter(s.caps, s.prices));
    let engineMs = 0;
    let countMs = 0;
    const countTokens = (text: string): number => {
      const t0 = performance.now();
      const n = counter(text);
      countMs += performance.now() - t0;
      return n;
    };
    const pool = new EnginePool(async () => {
      const engine = loadStory(bytes, { seed: 0, rules });
      const timed = <T>(f: () => T): T => {
        const t0 = performance.now();
        const out = f();
        engineMs += performance.now() - t0;
        return out;
      };
      return { info: engine.info, seed: engine.seed, reset: async () => timed(() => engine.reset()), step: async (c: string) => timed(() => engine.step(c)), dispose: () => undefined };
    });
    const options = { settings: s, models, countTokens, pool, episodes: EPISODES, maxSteps: STEPS, initialGuidingPrompt: 'Explore systematically.', contextWindow: 8000 };
    const task = { id: 'detective:0', storyId: entry.id, title: entry.title, md5: entry.md5, seed: 0, maxScore: entry.maxScore! };
    const policy = { kind: 'meta' as const, name: 'naive', strategy: '' };
    // Warm-up: engines compiled and the connection pool open, outside the timing.
    await Promise.all(Array.from({ length: Math.min(concurrency, 8) }, (_, i) => evaluateSession(options, policy, task, `warm-${i}`)));
    [engineMs, countMs] = [0, 0];
    const limit = pLimit(concurrency);
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: sessions }, (_, i) => limit(() => evaluateSession(options, policy, task, `s-${i}`))));
    const wallMs = performance.now() - started;
    mock.stop();
    pool.disposeAll();
    const calls = results.reduce((n, r) => n + r.session.episodes.reduce((m, e) => m + e.steps.length, 0) + r.session.exchanges.length, 0);
    const chain = Math.max(...results.map((r) => r.session.episodes.reduce((m, e) => m + e.steps.length, 0) + r.session.exchanges.length));
    const idealMs = Math.max(latencyMs * chain, (latencyMs * calls) / concurrency);
    const ratio = wallMs / idealMs;
    const overMs = wallMs - idealMs;
    lines.push(`loop overhead C=${concurrency} latency=${latencyMs}ms: ${ratio.toFixed(3)} (goal ≤ ${goal.toFixed(2)}; ${sessions} sessions, ${calls} calls)`);
    rows.push(`| ${concurrency} | ${latencyMs} | ${sessions} | ${calls} | ${idealMs.toFixed(0)} | ${wallMs.toFixed(0)} | ${ratio.toFixed(3)} | ${engineMs.toFixed(0)} | ${countMs.toFixed(0)} | ${Math.max(0, overMs - engineMs - countMs).toFixed(0)} |`);
  }
  console.log(`\nEvaluation loop overhead (mock in its own process; K=${EPISODES}, S=${STEPS}, naive meta-agent, detective.z5; chain ${CHAIN} calls per session)\n`);
  console.log('| C | latency ms | sessions | LLM calls | ideal ms | wall ms | wall / ideal | engine ms | token counting ms | rest of overhead ms |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log('\nengine and token counting: this thread\'s time inside them during the timed run (they overlap the calls in flight, so they add to the wall time only where no call was waiting).');
  for (const line of lines) console.log(line);
}

await main();
