/** Responsive layout: no horizontal scrolling on a 375×667 phone screen. */
import { expect, test } from '@playwright/test';
import { openPlayer, pickStory, send, statusLine, upload } from './helpers.ts';

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
