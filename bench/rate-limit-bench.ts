/**
 * Rate limits (`npm run bench`; not a test): calls through the product's
 * OpenAI-compatible chat model (src/llm/openai-chat-model.ts, its rate scheduler, default retries)
 * against a server that answers at most N requests per one-second window and 429 above it
 * (test/support/rate-limit-server.ts), with many more calls in flight than N allows. Prints, per
 * case, completed calls per second as a share of N (goal ≥ 0.8) and retries per call (requests
 * that reached the server ÷ calls − 1). Cases: 429 + Retry-After only; with OpenAI's
 * x-ratelimit-* headers; two runs at once sharing the (base URL, model).
 */
import { defaultLlmSettings } from '../src/llm/defaults.ts';
import type { LlmSettings } from '../src/llm/interface.ts';
import { createChatModels } from '../src/llm/openai-chat-model.ts';
import { RateSchedulers } from '../src/llm/rate-scheduler.ts';
import { UsageMeter } from '../src/llm/usage-meter.ts';
import { startRateLimitServer } from '../test/support/rate-limit-server.ts';
import { sized } from './bench-size.ts';

const RPS = sized(20, 10);
const LATENCY_MS = sized(200, 20);
const CONCURRENCY = sized(32, 16);
/** Calls per case: about 15 one-second windows' worth at full size. */
const CALLS = sized(300, 15);

interface CaseResult {
  share: number;
  retriesPerCall: number;
  failed: number;
  wallMs: number;
}

function settingsFor(baseUrl: string): LlmSettings {
  const settings = defaultLlmSettings();
  settings.provider = { presetId: 'custom', baseUrl, apiKey: 'k' };
  for (const role of ['actor', 'metaAgent', 'proposer'] as const) settings.roles[role] = { ...settings.roles[role], model: 'rl-model' };
  settings.maxConcurrent = CONCURRENCY;
  settings.prices = {};
  return settings;
}

/** `runs` runs at once, each making `CALLS / runs` actor calls, sharing one set of schedulers. */
async function runCase(headers: boolean, runs: number): Promise<CaseResult> {
  const server = await startRateLimitServer({ rps: RPS, latencyMs: LATENCY_MS, headers });
  const schedulers = new RateSchedulers();
  const messages = [{ role: 'user' as const, content: 'You are in a room. What do you do? Answer REASONING: … / ACTION: …' }];
  let failed = 0;
  try {
    const started = performance.now();
    await Promise.all(Array.from({ length: runs }, async () => {
      const settings = settingsFor(server.baseUrl);
      const models = createChatModels(settings, new UsageMeter(settings.caps, {}), { rateSchedulers: schedulers });
      await Promise.all(Array.from({ length: Math.round(CALLS / runs) }, () => models.actor.complete(messages).catch(() => void failed++)));
    }));
    const wallMs = performance.now() - started;
    const done = CALLS - failed;
    return { share: done / (wallMs / 1000) / RPS, retriesPerCall: server.requests / CALLS - 1, failed, wallMs };
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  console.log(`Rate limits: ${CALLS} calls, up to ${CONCURRENCY} in flight per run, against a server allowing N = ${RPS} requests per second (429 above), ${LATENCY_MS} ms per reply.`);
  console.log('| case | completed calls/s ÷ N | retries per call | failed calls | wall s |');
  console.log('|---|---|---|---|---|');
  const cases: [string, boolean, number][] = [['429 + Retry-After only', false, 1], ['with x-ratelimit-* headers', true, 1], ['two runs sharing the key, 429 only', false, 2]];
  const lines: string[] = [];
  for (const [name, headers, runs] of cases) {
    const r = await runCase(headers, runs);
    console.log(`| ${name} | ${r.share.toFixed(2)} | ${r.retriesPerCall.toFixed(2)} | ${r.failed} | ${(r.wallMs / 1000).toFixed(1)} |`);
    lines.push(`rate limit (${name}): ${r.share.toFixed(2)} of N completed per second (goal ≥ 0.8), ${r.retriesPerCall.toFixed(2)} retries per call, ${r.failed} failed`);
  }
  for (const line of lines) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
