/**
 * The page side of the local model's Chromium benchmark (bench/local-model-page.ts bundles it with
 * esbuild and serves it cross-origin isolated): loads the model file with our wllama provider
 * (src/llm/wllama-chat-model.ts) on the threads asked for and measures, in one page, the load,
 * prompt and generation speed (llama.cpp's own timings), the actor's call per step under the
 * reply grammar, and the longest main-thread task (PerformanceObserver 'longtask': Chromium's
 * tasks over 50 ms) while the model generates. Exposes `window.localModelBench(config)`.
 */
import { buildActorMessages, DEFAULT_GUIDING_PROMPT } from '../src/agents/actor-prompt.ts';
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { createWllamaChatModels, loadWllamaModel } from '../src/llm/wllama-chat-model.ts';

/** What the bench asks for. */
export interface PageBenchConfig {
  modelUrl: string;
  wasmUrl: string;
  threads: number;
  /** Tokens generated for the generation speed. */
  genTokens: number;
  /** Actor steps timed (each a new observation, with the earlier turns in its prompt). */
  actorSteps: number;
  /** Times the room's text is repeated in the prompt-speed prompt (16 ≈ 600 tokens). */
  promptRepeats: number;
}

/** What the page measured, ms and tokens per second. */
export interface PageBenchResult {
  isolated: boolean;
  threads: number;
  multiThread: boolean;
  loadMs: number;
  promptTps: number;
  genTps: number;
  stepMs: number;
  /** The longest main-thread task while the model generated (0 when none was over 50 ms), and how many were over 50 ms. */
  longestTaskMs: number;
  longTasks: number;
}

const tasks: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: 'longtask', buffered: true });

const ROOM = 'Lever Room\nA bare stone chamber lit by a high, narrow window. Four levers, red, green, blue and yellow, stand in a row along the north wall. A heavy door to the north is shut.';

async function run(config: PageBenchConfig): Promise<PageBenchResult> {
  const blob = await (await fetch(config.modelUrl)).blob();
  const host = await loadWllamaModel([blob], { name: 'model.gguf', wasmUrl: config.wasmUrl, threads: config.threads, maxContext: 4096 });
  const settings = { ...defaultLlmSettings(), requestTimeoutMs: 600_000 };
  const meter = new UsageMeter(settings.caps, {});
  const generating: { from: number; to: number }[] = [];
  const timed = async <T>(call: () => Promise<T>): Promise<T> => {
    const from = performance.now();
    try {
      return await call();
    } finally {
      generating.push({ from, to: performance.now() });
    }
  };
  const prompt = `You are playing a text adventure. ${`${ROOM} `.repeat(config.promptRepeats)}What do you see?`;
  let n = 0;
  const plain = (maxTokens: number) => {
    const roles = { ...settings.roles, proposer: { ...settings.roles.proposer, maxTokens, temperature: 0 } };
    // A fresh prompt each time (a number at its start) so no evaluated prefix is reused.
    return timed(() => createWllamaChatModels(host, { ...settings, roles }, meter, { grammar: false }).proposer.complete([{ role: 'user', content: `${++n}. ${prompt}` }]));
  };
  await plain(1); // warm-up
  await plain(1);
  const promptTps = host.lastSpeed?.promptTokensPerSecond ?? 0;
  await plain(config.genTokens);
  const genTps = host.lastSpeed?.generationTokensPerSecond ?? 0;
  const actor = createWllamaChatModels(host, settings, meter).actor;
  const history: { observation: string; reply: string }[] = [];
  let stepTotal = 0;
  for (let step = 1; step <= config.actorSteps; step++) {
    const observation = step === 1 ? ROOM : `You pull the lever (${step}). Nothing happens.\n\n${ROOM}`;
    const messages = buildActorMessages({ guidingPrompt: DEFAULT_GUIDING_PROMPT, history, observation });
    const reply = await timed(() => actor.complete(messages));
    stepTotal += reply.usage.latencyMs;
    history.push({ observation, reply: reply.content });
  }
  const during = tasks.filter((t) => generating.some((g) => t.start + t.duration > g.from && t.start < g.to));
  const result: PageBenchResult = {
    isolated: crossOriginIsolated, threads: host.threads, multiThread: host.multiThread, loadMs: host.loadMs, promptTps, genTps,
    stepMs: stepTotal / config.actorSteps, longestTaskMs: Math.max(0, ...during.map((t) => t.duration)), longTasks: during.length,
  };
  await host.dispose();
  return result;
}

(window as unknown as { localModelBench: typeof run }).localModelBench = run;
