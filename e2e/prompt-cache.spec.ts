/**
 * Cached prompt tokens in the Learn view: against the mock with its prompt cache on (OpenAI's rule:
 * prompts ≥ 1,024 tokens, 128-token blocks), the meter shows the cached prompt tokens of the
 * session, equal to the sum over the exported session's steps and exchanges.
 */
import { expect, test } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { usageOf } from '../src/ttl/session-record.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

test('the Learn meter shows the prompt tokens the provider served from its cache', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  mock = await startMockLlm({ script: ['east', 'get all', 'west', 'south', 'north', 'look', 'inventory', 'east'], promptCache: true });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { episodes: 3, maxSteps: 12, policy: 'meta:naive' });
  await waitComplete(page);
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  const usage = usageOf(record);
  const cached = (usage.actor.cachedPromptTokens ?? 0) + (usage.metaAgent.cachedPromptTokens ?? 0);
  expect(cached).toBeGreaterThan(0);
  expect(cached % 128).toBe(0);
  await expect(page.getByTestId('learn-tokens-cached')).toHaveText(`${cached.toLocaleString('en')} prompt tokens cached`);
  await page.getByTestId('learn-tokens').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/prompt-cache-learn.png' });
});
