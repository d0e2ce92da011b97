/**
 * A failed call never becomes a played episode, in the page: a Learn session on The Lever Room
 * (seed 1, naive, K = 3, S = 15) started with a wrong base URL stops with one plain sentence ("the
 * provider could not be reached", the advice "Could not reach …" folded under details), nothing scored and one faulted episode; with the URL fixed, Resume completes it with the clean
 * run's W-AUC, and the old error is gone from the panel.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, goToLearn, goToSettings, startSession, waitComplete } from './learn-helpers.ts';
import { settingsSaved } from './llm-helpers.ts';

const EXPLORE = ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'];
/** Nothing listens on port 9 of the loopback. */
const UNREACHABLE = 'http://127.0.0.1:9/v1';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

test('a wrong base URL stops the session with nothing scored; Resume after fixing it ends like the clean run', async ({ page }) => {
  test.setTimeout(120_000);
  mock = await startMockLlm({ exploreCommands: EXPLORE, metaAgentReply: 'build' });
  const setup = { story: 'lever-room', seed: 1, policy: 'meta:naive', episodes: 3, maxSteps: 15 };

  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, setup);
  await waitComplete(page);
  const cleanWAuc = await page.getByTestId('learn-wauc').textContent();
  expect(cleanWAuc).toMatch(/^0\.\d{3}$/);

  await goToSettings(page);
  await page.getByTestId('base-url').fill(UNREACHABLE);
  await settingsSaved(page);
  await goToLearn(page);
  await startSession(page, setup);
  // One plain sentence in the card's headline; the advice (where to fix it) folded under details, once.
  await expect(page.getByTestId('learn-state')).toHaveText('Stopped: the provider could not be reached.', { timeout: 60_000 });
  const details = page.getByTestId('learn-stop-details');
  await expect(details).not.toHaveAttribute('open');
  await expect(details.locator('summary')).toHaveText('Details and how to fix it');
  const advice = page.getByTestId('learn-stop-advice');
  await expect(advice).toContainText(`Could not reach ${UNREACHABLE}`);
  await expect(advice).toBeHidden();
  await expect(page.getByTestId('learn-progress')).not.toContainText(/Could not reach[\s\S]*Could not reach/);
  await details.locator('summary').click();
  await expect(advice).toBeVisible();
  if (process.env.SHOTS_DIR) await page.getByTestId('learn-progress').screenshot({ path: `${process.env.SHOTS_DIR}/learn-provider-stop.png` });
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('0 / 3');
  await expect(page.getByTestId('learn-wauc')).toHaveText('n/a');
  await expect(page.getByTestId('learn-faulted')).toHaveText('1 (not scored)');

  await goToSettings(page);
  await page.getByTestId('base-url').fill(mock.baseUrl);
  await settingsSaved(page);
  await goToLearn(page);
  await page.getByTestId('learn-resume').click();
  await waitComplete(page);
  await expect(page.getByTestId('learn-state')).toHaveText('Complete');
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('3 / 3');
  await expect(page.getByTestId('learn-wauc')).toHaveText(cleanWAuc!);
  await expect(page.getByTestId('learn-progress')).not.toContainText('Could not reach');
});
