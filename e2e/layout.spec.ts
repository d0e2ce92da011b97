/** Responsive layout: no horizontal scrolling on a 375×667 phone screen, in every view. */
import { expect, test } from '@playwright/test';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { openPlayer, pickStory, send, statusLine, upload } from './helpers.ts';
import { configureProvider, goTo, openView, startRun } from './llm-helpers.ts';

test.use({ viewport: { width: 375, height: 667 } });

test('no horizontal scrolling at 375×667', async ({ page }) => {
  const scrollWidth = (): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth);
  await openPlayer(page);
  expect(await scrollWidth()).toBeLessThanOrEqual(375);
  await pickStory(page, 'advent');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  await send(page, 'score');
  await page.getByTestId('slot-name').fill('a rather long save slot name that goes on and on without stopping');
  await page.getByTestId('save-slot').click();
  await expect(page.getByTestId('slot')).toHaveCount(1);
  await upload(page, 'empty.z5', new Uint8Array(0));
  await expect(page.getByTestId('error')).toBeVisible();
  expect(await scrollWidth()).toBeLessThanOrEqual(375);
});

test('the Settings and Agent views fit 375 px, also with a long error and a finished run', async ({ page }) => {
  const scrollWidth = (): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth);
  const mock = await startMockLlm({ script: ['east', 'get all', 'a-rather-long-command-that-goes-on-and-on-without-any-space-at-all'] });
  try {
    await openView(page, 'settings');
    expect(await scrollWidth()).toBeLessThanOrEqual(375);
    await page.getByTestId('provider-preset').selectOption('custom');
    await page.getByTestId('base-url').fill('http://127.0.0.1:9/v1');
    await page.getByTestId('max-retries').fill('0');
    await page.getByTestId('test-connection').click();
    await expect(page.getByTestId('connection-error')).toBeVisible({ timeout: 20_000 });
    expect(await scrollWidth()).toBeLessThanOrEqual(375);
    await configureProvider(page, { baseUrl: mock.baseUrl });
    await goTo(page, 'agent');
    expect(await scrollWidth()).toBeLessThanOrEqual(375);
    await startRun(page, { maxSteps: 3 });
    await expect(page.getByTestId('agent-termination')).toContainText('step_limit', { timeout: 30_000 });
    await page.getByTestId('agent-step').last().locator('summary').click();
    expect(await scrollWidth()).toBeLessThanOrEqual(375);
  } finally {
    await mock.close();
  }
});
