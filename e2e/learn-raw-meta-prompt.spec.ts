/**
 * The Learn setup's "use the text as the whole system prompt (raw)" against the mock LLM: with the
 * box ticked on a meta-prompt, the meta-agent's system message is that meta-prompt's text exactly
 * (no header, no footer); the session is recorded as raw (export), and shown as raw in the view and
 * the past-sessions list. Also the form's screenshot at 1280×800.
 */
import { expect, test } from '@playwright/test';
import { BUILT_IN_META_PROMPTS } from '../src/agents/meta-prompt-library.ts';
import { META_PROMPT_HEADER } from '../src/agents/meta-prompt.ts';
import { importSession } from '../src/ttl/session-io.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

test('a raw meta-prompt is the whole system message, recorded and shown as raw', async ({ page }) => {
  mock = await startMockLlm({ script: ['east', 'get all', 'west'] });
  await page.setViewportSize({ width: 1280, height: 800 });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  const fact = BUILT_IN_META_PROMPTS.find((m) => m.id === 'fact-bank')!;

  // The box is offered for a meta-prompt only.
  await page.getByTestId('learn-policy').selectOption('static');
  await expect(page.getByTestId('learn-raw')).toHaveCount(0);
  await page.getByTestId('learn-policy').selectOption('meta:fact-bank');
  await page.getByTestId('learn-raw-input').check();
  await expect(page.getByTestId('learn-setup')).toContainText('Sent exactly as written');
  await page.screenshot({ path: test.info().outputPath('learn-raw-setup.png') });

  await startSession(page, { episodes: 2, maxSteps: 3, policy: 'meta:fact-bank' });
  await waitComplete(page);
  const systems = mock.requests
    .filter((r) => r.role !== 'actor' && r.body !== null && typeof r.body === 'object')
    .map((r) => (r.body as { messages: { role: string; content: string }[] }).messages[0]!)
    .filter((m) => m.role === 'system');
  expect(systems).toHaveLength(1);
  expect(systems[0]!.content).toBe(fact.strategy);
  expect(systems[0]!.content).not.toContain(META_PROMPT_HEADER.slice(0, 40));

  await expect(page.getByTestId('learn-raw-shown')).toContainText('Raw meta-prompt');
  await expect(page.getByTestId('learn-run').first()).toContainText('Fact bank (raw)');
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.config.policy).toEqual({ kind: 'meta', name: 'Fact bank', strategy: fact.strategy, raw: true });
  expect(record.config.metaPrompt?.text).toBe(fact.strategy);
});
