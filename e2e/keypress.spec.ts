/**
 * Keypress input and game over: e2e/fixtures/keypress.z5 waits for two single keys (@read_char),
 * then a line, then quits. Any key or Enter is sent at once; the quit shows the game-over banner.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openPlayer, transcript, upload } from './helpers.ts';

test('any key or Enter is sent at once; quitting shows the game-over banner', async ({ page }) => {
  await openPlayer(page);
  await upload(page, 'keypress.z5', readFileSync(new URL('./fixtures/keypress.z5', import.meta.url)));
  await expect(transcript(page)).toContainText('Press any key.');
  const input = page.getByTestId('command-input');
  await expect(input).toHaveAttribute('placeholder', 'Press any key…');
  await input.press('x');
  await expect(transcript(page)).toContainText('You pressed key code 120.');
  await input.press('Enter');
  await expect(transcript(page)).toContainText('You pressed key code 13.');
  await expect(input).toHaveAttribute('placeholder', 'Type a command');
  await input.fill('hello');
  await input.press('Enter');
  await expect(transcript(page)).toContainText('Line received. The end.');
  await expect(page.getByTestId('game-over')).toHaveAttribute('data-end-reason', 'quit');
  await expect(page.getByTestId('game-over')).toContainText('You quit the game.');
  await expect(input).toBeDisabled();
  await page.getByTestId('restart').click();
  await expect(page.getByTestId('game-over')).toHaveCount(0);
  await expect(input).toHaveAttribute('placeholder', 'Press any key…');
});
