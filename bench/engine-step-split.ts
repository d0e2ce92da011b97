/**
 * Where a light step's fixed cost goes (engine-bench helper, not a test): a V8 CPU profile of
 * warm in-process steps split by module (ifvms VM, Glk, our capture and step code, scoring and
 * end detection, GC, other; bench/cpu-split.ts), and `metattl replay`'s per-step cost taken apart
 * into messages (a warm worker batch), JIT warm-up (a fresh worker's first batch) and the CLI
 * process.
 */
import { EngineProxy } from '../src/engine/engine-proxy.ts';
import type { StoryRules } from '../src/engine/interface.ts';
import { createNodeWorker } from '../src/engine/node/worker-factory.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { startCpuProfile, type CpuCategory, type CpuSplit } from './cpu-split.ts';

/**
 * Checked from the sampled frame towards the root, first match wins (cpu-split.ts), so a Glk call
 * made by Z-code counts as Glk and our GlkOte called by Glk as ours. Compiled Z-code routines are
 * ifvms's `new Function` code: frames named "anonymous" with no script URL.
 */
export const STEP_CATEGORIES: readonly CpuCategory[] = [
  { name: 'profiler', match: ['node:inspector', 'cpu-split.ts'] },
  { name: 'ifvms VM', match: ['/ifvms/'], noUrlNames: ['anonymous'] },
  { name: 'Glk', match: ['glkapi-factory.js', '/glkote-term/'] },
  { name: 'scoring / end detection', match: ['/src/engine/scoring.ts', '/src/engine/end-detection.ts'] },
  { name: 'ours: capture + step', match: ['/src/engine/'] },
];
/** The table's columns after the categories: the profile's own ones (cpu-split.ts); the
 * profiler's own samples and `idle` (none: steps are synchronous) are left out. */
const EXTRA_COLUMNS: readonly (readonly [key: string, label: string])[] = [['gc', 'GC'], ['other', 'other']];
/** Profiler sampling interval, µs: a light step lasts ~70 µs, so 1 ms would see few samples. */
const SAMPLE_INTERVAL_US = 100;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * Profile `repetitions` runs of `commands` on one warm engine (one untimed run first), one after
 * another with no reset() between (standing-still commands: the game goes on), so only steps are
 * profiled. @returns ms per step by category (CpuSplit keys)
 * @throws Error when a step ends the game
 */
export async function stepCpuSplit(bytes: Uint8Array, rules: StoryRules | undefined, commands: readonly string[], repetitions: number): Promise<CpuSplit> {
  const engine = loadStory(bytes, { seed: 0, rules });
  for (const command of commands) engine.step(command);
  const profiler = await startCpuProfile(STEP_CATEGORIES, SAMPLE_INTERVAL_US);
  let ended: string | null = null;
  for (let rep = 0; rep < repetitions; rep++) {
    for (const command of commands) if (engine.step(command).done) ended ??= command;
  }
  const split = await profiler.stop();
  if (ended !== null) throw new Error(`the game ended at "${ended}" while profiled`);
  const steps = repetitions * commands.length;
  return Object.fromEntries(Object.entries(split).map(([name, ms]) => [name, ms / steps]));
}

/**
 * `commands` as one batch (EngineProxy.stepBatch, as `metattl replay` sends them) on fresh
 * worker_threads: the first batch of each (the thread's JIT warm-up in it, as in a replay), then
 * `warmRuns` more from reset() on the same worker, as the in-process figure is taken.
 * @returns ms per step: median over `workers` of the first batch, and median of all warm runs
 */
export async function workerBatchMs(bytes: Uint8Array, rules: StoryRules | undefined, commands: readonly string[], workers: number, warmRuns: number): Promise<{ firstMs: number; warmMs: number }> {
  const first: number[] = [];
  const warm: number[] = [];
  for (let w = 0; w < workers; w++) {
    const proxy = await EngineProxy.load(createNodeWorker, bytes, { seed: 0, rules });
    try {
      for (let run = 0; run <= warmRuns; run++) {
        await proxy.reset();
        const began = performance.now();
        const results = await proxy.stepBatch(commands);
        if (results.length !== commands.length || results.some((r) => r.fault)) throw new Error('a worker batch ended early');
        (run === 0 ? first : warm).push((performance.now() - began) / commands.length);
      }
    } finally {
      proxy.dispose();
    }
  }
  return { firstMs: median(first), warmMs: median(warm) };
}

/** One light game's figures for the two tables below (ms per step). */
export interface LightGameCost { name: string; oursMs: number; replayMs: number; worker: { firstMs: number; warmMs: number }; split: CpuSplit }

/** Print the CPU-split table and the replay breakdown table (markdown); `runs` = timed runs of
 * `stepCount` steps per figure, `workers` = fresh worker_threads per story. */
export function printStepCostTables(games: readonly LightGameCost[], runs: number, stepCount: number, workers: number): void {
  const columns: readonly (readonly [key: string, label: string])[] = [...STEP_CATEGORIES.filter((c) => c.name !== 'profiler').map((c) => [c.name, c.name] as const), ...EXTRA_COLUMNS];
  console.log(`\nWhere the per-step fixed cost goes: in-process warm steps, V8 CPU profile (${SAMPLE_INTERVAL_US} µs samples, ${runs} × ${stepCount} steps), ms per step\n`);
  console.log(`| story | ${columns.map(([, label]) => label).join(' | ')} | total (profiled) | ours ms/step (unprofiled) |`);
  console.log(`|---|${columns.map(() => '---|').join('')}---|---|`);
  for (const g of games) {
    const total = columns.reduce((sum, [key]) => sum + (g.split[key] ?? 0), 0);
    console.log(`| ${g.name} | ${columns.map(([key]) => (g.split[key] ?? 0).toFixed(4)).join(' | ')} | ${total.toFixed(4)} | ${g.oursMs.toFixed(3)} |`);
  }
  console.log(`\nWhere metattl replay's per-step cost goes, ms per step (worker: EngineProxy.stepBatch on ${workers} fresh worker_threads;`);
  console.log(`its first batch, and ${runs} more runs each from reset(), as ours is timed)\n`);
  console.log('| story | ours, in-process warm | worker batch, warm | worker batch, first (fresh thread) | metattl replay | messages (warm − ours) | JIT warm-up (first − warm) | CLI process (replay − first) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const g of games) {
    const w = g.worker;
    const cells = [g.oursMs, w.warmMs, w.firstMs, g.replayMs, w.warmMs - g.oursMs, w.firstMs - w.warmMs, g.replayMs - w.firstMs];
    console.log(`| ${g.name} | ${cells.map((ms) => ms.toFixed(3)).join(' | ')} |`);
  }
}
