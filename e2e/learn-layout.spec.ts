/** The Learn and Library views fit a 375×667 phone screen without horizontal scrolling, also with
 * a finished session (curve, transcript, feedback, runs list) and with the entry editor open. */
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

test.use({ viewport: { width: 375, height: 667 } });

const scrollWidth = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth);

test('the Learn view fits 375 px, before and after a session', async ({ page }) => {
  const mock = await startMockLlm({ script: ['east', 'a-rather-long-command-that-goes-on-and-on-without-any-space-at-all', 'west'] });
  try {
    await configureForLearn(page, mock.baseUrl);
    await goToLearn(page);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await startSession(page, { episodes: 2, maxSteps: 3, policy: 'meta:naive' });
    await waitComplete(page);
    await page.getByTestId('learn-run-compare').first().check();
    await page.getByTestId('learn-share').click();
    await expect(page.getByTestId('learn-share-link')).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  } finally {
    await mock.close();
  }
});

test('the Library view fits 375 px, with an entry and with the editor', async ({ page }) => {
  await page.goto('./?view=library');
  await expect(page.getByTestId('meta-library')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('meta-entry').filter({ hasText: 'Fact bank' }).click();
  await page.getByTestId('meta-share').click();
  await expect(page.getByTestId('meta-share-link')).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  await page.getByTestId('meta-duplicate').click();
  await page.getByTestId('meta-edit-strategy').fill('x'.repeat(300));
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
});
