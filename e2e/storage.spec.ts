/** Without IndexedDB the page runs on the memory store and says so; play and save slots still work. */
import { expect, test } from '@playwright/test';
import { openPlayer, pickStory, send, statusLine } from './helpers.ts';

test('memory-only banner when IndexedDB is unavailable; slots still work for the session', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true });
  });
  await openPlayer(page);
  await expect(page.getByTestId('memory-only')).toContainText('Memory-only: nothing is saved.');
  await pickStory(page, 'advent');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  await page.getByTestId('slot-name').fill('here');
  await page.getByTestId('save-slot').click();
  await send(page, 'west');
  await expect(statusLine(page)).toContainText('At End Of Road');
  await page.locator('[data-testid="slot"][data-name="here"]').getByTestId('restore-slot').click();
  await expect(statusLine(page)).toContainText('Inside Building');
});

test('no memory-only banner with IndexedDB', async ({ page }) => {
  await openPlayer(page);
  await expect(page.getByTestId('memory-only')).toHaveCount(0);
});
