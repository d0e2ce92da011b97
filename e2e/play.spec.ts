/** Hand play of the shipped advent.z5: a move, undo, save slots across a reload, command history. */
import { expect, test } from '@playwright/test';
import { openPlayer, pickStory, send, statusLine, transcript } from './helpers.ts';

test('advent: east leads Inside Building with 36 points', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  await expect(statusLine(page)).toContainText('At End Of Road');
  await expect(page.getByTestId('max-score')).toHaveText('Max score: 350');
  await send(page, 'east');
  await expect(transcript(page)).toContainText('Inside Building');
  await expect(statusLine(page)).toContainText('Score: 36');
  await expect(statusLine(page)).toContainText('Inside Building');
  // The status line shows score and moves, so the bar does not repeat them.
  await expect(page.getByTestId('score')).toHaveCount(0);
  await expect(page.getByTestId('status-bar')).toHaveAttribute('data-score', '36');
  await expect(page.getByTestId('status-bar')).toHaveAttribute('data-moves', '1');
  await expect(transcript(page)).toHaveAttribute('aria-live', 'polite');
});

test('undo restores the previous status line', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  const undo = page.getByTestId('undo');
  await expect(undo).toBeDisabled();
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  await expect(undo).toBeEnabled();
  await undo.click();
  await expect(statusLine(page)).toContainText('At End Of Road');
  await expect(page.getByTestId('status-bar')).toHaveAttribute('data-moves', '0');
  await expect(undo).toBeDisabled();
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
});

test('a named save slot restores the status line and survives a reload', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  const savedStatus = (await statusLine(page).textContent()) ?? '';
  await page.getByTestId('slot-name').fill('in the building');
  await page.getByTestId('save-slot').click();
  const slot = page.locator('[data-testid="slot"][data-name="in the building"]');
  await expect(slot).toBeVisible();

  await send(page, 'west');
  await expect(statusLine(page)).toContainText('At End Of Road');
  await slot.getByTestId('restore-slot').click();
  await expect(statusLine(page)).toHaveText(savedStatus);
  await send(page, 'look');
  await expect(transcript(page).locator('.output').last()).toContainText('Inside Building');

  await page.reload();
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  await pickStory(page, 'advent');
  await expect(page.locator('[data-testid="slot"][data-name="in the building"]')).toBeVisible();
  await page.locator('[data-testid="slot"][data-name="in the building"]').getByTestId('restore-slot').click();
  await expect(statusLine(page)).toHaveText(savedStatus);
});

test('↑ and ↓ walk the command history', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  await send(page, 'take lamp');
  await expect(transcript(page)).toContainText('Taken.');
  const input = page.getByTestId('command-input');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('take lamp');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('east');
  await input.press('ArrowDown');
  await input.press('ArrowDown');
  await expect(input).toHaveValue('');
});

test('a restart with another seed starts over', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  await expect(page.getByTestId('seed-input')).toHaveValue('5');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  await page.getByTestId('seed-input').fill('7');
  await page.getByTestId('seed-input').blur();
  await page.getByTestId('restart').click();
  await expect(statusLine(page)).toContainText('At End Of Road');
  await expect(page.getByTestId('restart')).toHaveText('Restart');
  await expect(page.getByTestId('undo')).toBeDisabled();
});

test('?story=advent&seed=3 opens advent with seed 3', async ({ page }) => {
  await page.goto('./?story=advent&seed=3');
  await expect(page.getByTestId('player')).toHaveAttribute('data-story', 'advent');
  await expect(page.getByTestId('seed-input')).toHaveValue('3');
  await expect(statusLine(page)).toContainText('At End Of Road');
});
