/**
 * An interpreter hang (test/fixtures/hang/hang.z5 loops forever after one command) shows a clear
 * fault message, and the page keeps working: restart brings the story back.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPlayer, send, transcript, upload } from './helpers.ts';

test('a hang becomes a fault message and restart works', async ({ page }) => {
  test.setTimeout(60_000);
  const hang = readFileSync(new URL('../test/fixtures/hang/hang.z5', import.meta.url));
  await openPlayer(page);
  await upload(page, 'hang.z5', hang);
  await expect(transcript(page)).toContainText('Hang test story.');
  await expect(page.getByTestId('max-score')).toHaveText('Max score: n/a');
  await expect(page.getByTestId('w-auc')).toHaveText('W-AUC: n/a');
  await send(page, 'look');
  const fault = page.getByTestId('fault');
  await expect(fault).toContainText('The interpreter hung', { timeout: 20_000 });
  await expect(page.getByTestId('command-input')).toBeDisabled();
  await page.getByTestId('restart').click();
  await expect(fault).toHaveCount(0);
  await expect(page.getByTestId('command-input')).toBeEnabled();
  await expect(transcript(page)).toContainText('Hang test story.');
});
