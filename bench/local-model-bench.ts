/**
 * Local-model benchmark (`npm run bench`; not a test): SmolLM2-135M-Instruct Q4_1
 * (test/support/local-model.ts; .ci/run fetches it) run by node-llama-cpp in Node, with one and
 * with two llama.cpp threads. For each it prints the load time (binding, weights, context), prompt
 * tokens/s (a ~600-token prompt answered with 1 token), generation tokens/s (64 tokens, no
 * grammar, prompt time subtracted), the time per actor step (`metattl play lever-room` for 3 steps
 * under the reply grammar, mean of the steps' latencyMs) and the process's peak resident memory
 * (maxRSS). Then the same model in Debian's Chromium through the page's provider (wllama, in a
 * cross-origin isolated page: bench/local-model-page.ts), one and two threads: load time, prompt
 * and generation tokens/s (llama.cpp's own timings), time per actor call under the reply grammar
 * (a Lever Room observation, the earlier turns in the prompt; 3 steps, mean) and the longest
 * main-thread task while the model generates (PerformanceObserver 'longtask'; goal none > 50 ms).
 * Wall-clock ms from performance.now(). BENCH_SIZE=tiny: one thread, 8 tokens, 1 step, and in
 * Chromium a ~90-token prompt for the prompt speed.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { createLocalChatModels, loadLocalModel } from '../src/llm/local-chat-model.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { requireSmolLm2 } from '../test/support/local-model.ts';
import { benchInChromium } from './local-model-page.ts';

import { sized } from './bench-size.ts';

const repoRoot = resolve(import.meta.dirname, '..');
const file = requireSmolLm2();
const PROMPT = `You are playing a text adventure. ${'A bare stone chamber lit by a high, narrow window. Four levers, red, green, blue and yellow, stand in a row along the north wall. '.repeat(22)}What do you see?`;

interface Row { threads: number; loadMs: number; promptTps: number; genTps: number; stepMs: number; peakMb: number }

async function measure(threads: number): Promise<Omit<Row, 'stepMs' | 'peakMb'>> {
  const host = await loadLocalModel(file, { threads, maxContext: 4096 });
  const settings = defaultLlmSettings();
  settings.requestTimeoutMs = 600_000;
  const meter = new UsageMeter(settings.caps, {});
  // A fresh prompt each time (a number at its end) so no evaluated prefix is reused.
  let n = 0;
  const once = async (maxTokens: number) => {
    const roles = { ...settings.roles, proposer: { ...settings.roles.proposer, maxTokens, temperature: 0 } };
    const local = createLocalChatModels(host, { ...settings, roles }, meter, { grammar: false });
    return local.proposer.complete([{ role: 'user', content: `${++n}. ${PROMPT}` }]);
  };
  await once(1); // warm-up
  const p = await once(1);
  const g = await once(sized(64, 8));
  const promptSec = p.usage.latencyMs / 1000;
  const genTokens = Math.max(1, g.usage.completionTokens - 1);
  const genSec = Math.max(0.001, g.usage.latencyMs / 1000 - promptSec);
  await host.dispose();
  return { threads, loadMs: host.loadMs, promptTps: p.usage.promptTokens / promptSec, genTps: genTokens / genSec };
}

const rows: Row[] = [];
for (const threads of sized([1, 2], [1])) {
  const m = await measure(threads);
  const out = execFileSync(process.execPath, [resolve(repoRoot, 'bin/metattl.js'), 'play', 'lever-room', '--seed', '1', '--steps', sized('3', '1'), '--json', '--provider', 'local', '--model-file', file, '--local-threads', String(threads)], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 });
  const steps = (JSON.parse(out) as { steps: { latencyMs: number }[] }).steps;
  rows.push({ ...m, stepMs: steps.reduce((s, x) => s + x.latencyMs, 0) / steps.length, peakMb: process.resourceUsage().maxRSS / 1024 });
}

console.log('\nLocal model (Node, node-llama-cpp 3.21.1): SmolLM2-135M-Instruct Q4_1');
console.log('threads  load ms  prompt tok/s  gen tok/s  ms/actor step  peak RSS MB (bench process)');
for (const r of rows) console.log(`${String(r.threads).padStart(7)}  ${String(r.loadMs).padStart(7)}  ${r.promptTps.toFixed(0).padStart(12)}  ${r.genTps.toFixed(1).padStart(9)}  ${r.stepMs.toFixed(0).padStart(13)}  ${r.peakMb.toFixed(0).padStart(11)}`);
console.log('Prompt: ~600 tokens answered with 1 token; generation: 64 tokens minus the prompt time; actor step: metattl play, 3 steps under the reply grammar.');

const page = await benchInChromium(file, sized([1, 2], [1]), { genTokens: sized(64, 8), actorSteps: sized(3, 1), promptRepeats: sized(16, 2) });
console.log(`\nLocal model (Chromium, the page's provider: wllama 3.13.0; cross-origin isolated: ${page.every((r) => r.isolated) ? 'yes' : 'no'}): SmolLM2-135M-Instruct Q4_1`);
console.log('threads  load ms  prompt tok/s  gen tok/s  ms/actor step  longest main-thread task while generating');
for (const r of page) console.log(`${String(r.threads).padStart(7)}  ${String(r.loadMs).padStart(7)}  ${r.promptTps.toFixed(0).padStart(12)}  ${r.genTps.toFixed(1).padStart(9)}  ${r.stepMs.toFixed(0).padStart(13)}  ${r.longestTaskMs > 0 ? `${r.longestTaskMs.toFixed(0)} ms (${r.longTasks} tasks > 50 ms)` : 'none > 50 ms'} (goal: none > 50 ms)`);
console.log('Chromium: load = worker, wasm, weights, context (after the file was fetched); speeds from llama.cpp\'s timings; actor step: the actor\'s call under the reply grammar.');
console.log(`Machine: ${(await import('node:os')).cpus().length} cores, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')} — other jobs share the cores.`);
