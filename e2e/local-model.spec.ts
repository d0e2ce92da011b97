/**
 * The provider "Local model (in this browser)" with the real small model
 * (SmolLM2-135M-Instruct, served by e2e/serve-dist.ts from METATTL_MODELS_DIR under
 * local-models/): Settings downloads it by URL into browser storage (listed with its size), a
 * Lever Room Learn session runs to complete with a real <learn> guide and actions parsed under
 * the grammar, without any key. (Stop ending a call at once is tested on a wllama stand-in in
 * test/wllama-chat-model.test.ts; Stop and a reload with the real model in e2e/local-model-stop.spec.ts.)
 */
import { expect, test } from '@playwright/test';
import { goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { openView, settingsSaved } from './llm-helpers.ts';
import { loadLocalModel, requireModelFile } from './local-model-helpers.ts';
import { importSession } from '../src/ttl/session-io.ts';
import { parseLearn } from '../src/agents/meta-prompt.ts';
import { replyGrammar } from '../src/llm/reply-grammars.ts';
import { gbnfRegex, parseGbnf } from '../test/support/gbnf.ts';
import { downloadText } from './learn-helpers.ts';

// The real model in Chromium's WebAssembly ran 2–6 tokens/s on a slow 2-core machine (bench/local-model-bench.ts),
// so a 2×2 session with a meta-agent update can take over 8 minutes there.
test.describe.configure({ mode: 'serial', timeout: 1_200_000 });

test.beforeAll(requireModelFile);

/** The roles' budgets in Settings (the grammars shrink to fit them). */
const ACTOR_MAX_TOKENS = 100;
const META_MAX_TOKENS = 300;

test('a Lever Room session runs to complete on the in-page model with no key: real <learn> guide, actions under the grammar', async ({ page }) => {
  await loadLocalModel(page);
  await page.getByTestId('local-measure').click();
  await expect(page.getByTestId('local-speed')).toContainText(/\d+ prompt tokens\/s, \d+(\.\d)? generated tokens\/s/, { timeout: 120_000 });
  await expect(page.getByTestId('local-loaded')).toContainText('context 8,192 tokens');
  await expect(page.getByTestId('local-threads')).toContainText('multi-threading is available; the model runs on 1 thread');
  await page.screenshot({ path: '/tmp/w16/shots/G-settings-local.png' });

  // Each reply is held to its contract by the grammar of its budget, whose longest reply fits it, so
  // every reply ends by itself on any CPU: small budgets keep the session short whatever the model
  // writes (actor 100 tokens: reasoning ≤ 64 characters, a command ≤ 15; meta-agent 300: <think>
  // ≤ 54, a guide ≤ 214). What the model writes (its words, commands, score, whether a wrong lever
  // ends an episode early) differs between CPUs (llama.cpp's AVX2/AVX-512/wasm kernels round
  // differently): only what the product guarantees is asserted.
  await openView(page, 'settings');
  await page.getByTestId('max-tokens-actor').fill(String(ACTOR_MAX_TOKENS));
  await page.getByTestId('max-tokens-meta-agent').fill(String(META_MAX_TOKENS));
  await settingsSaved(page);
  await goToLearn(page);
  await startSession(page, { story: 'lever-room', seed: 1, policy: 'meta:naive', episodes: 2, maxSteps: 2 });
  await waitComplete(page, 900_000);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('2 / 2');
  const steps = page.getByTestId('learn-transcript').getByTestId('agent-step');
  expect(await steps.count()).toBeGreaterThan(0);
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.config.replyGrammar).toBe(true);
  // Every actor reply is admitted by the actor grammar of its budget and parsed into the command played.
  const actorReply = gbnfRegex(parseGbnf(replyGrammar('actor', ACTOR_MAX_TOKENS)));
  const played = record.episodes.flatMap((e) => e.steps);
  expect(played.length).toBeGreaterThan(0);
  for (const step of played) {
    expect(actorReply.test(step.reply), step.reply).toBe(true);
    expect([step.finishReason, step.parseStatus, step.costUsd]).toEqual(['stop', 'ok', 0]);
  }
  for (const action of await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-action') ?? ''))) expect(actorReply.test(`REASONING: r\nACTION: ${action}`), action).toBe(true);
  // The meta-agent's reply is admitted by the learn grammar of its budget, ended by itself, and its <learn> text is the second episode's guide.
  const exchange = record.exchanges[0]!;
  expect(exchange.reply).toMatch(gbnfRegex(parseGbnf(replyGrammar('learn', META_MAX_TOKENS))));
  const learned = parseLearn(exchange.reply, 'stop');
  expect([exchange.finishReason, exchange.learnStatus, exchange.error]).toEqual(['stop', 'updated', null]);
  expect(record.episodes[1]!.guidingPrompt).toBe(learned.guidingPrompt);
  expect(exchange.usage?.completionTokens).toBeLessThanOrEqual(META_MAX_TOKENS);
  const guide = page.getByTestId('learn-feedback').getByTestId('learn-guide').first();
  await expect(guide).not.toBeEmpty();
  expect((await guide.innerText()).trim().length).toBeGreaterThan(0);
  await page.screenshot({ path: '/tmp/w16/shots/G-learn-local.png' });
});
