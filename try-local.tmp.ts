import { loadLocalModel, createLocalChatModels } from '/work/wt-g/src/llm/local-chat-model.ts';
import { defaultLlmSettings } from '/work/wt-g/src/llm/defaults.ts';
import { UsageMeter } from '/work/wt-g/src/llm/usage-meter.ts';
const host = await loadLocalModel(process.env.HOME + '/.cache/metattl-models/SmolLM2-135M-Instruct.Q4_1.gguf', { maxContext: 4096 });
console.log('load', host.loadMs, host.contextSize);
const s = defaultLlmSettings();
s.requestTimeoutMs = 120000;
const m = new UsageMeter(s.caps, s.prices);
const msgs = [{ role: 'system' as const, content: 'You play a text adventure. Reply in exactly two lines:\nREASONING: <one or two sentences>\nACTION: <a short parser command>' }, { role: 'user' as const, content: 'You are in a room with a red lever. Exits: north.' }];
for (const g of [false, true]) {
  const models = createLocalChatModels(host, s, m, { grammar: g });
  const t = performance.now();
  const r = await models.actor.complete(msgs);
  console.log(g, JSON.stringify(r), performance.now() - t);
}
await host.dispose();
