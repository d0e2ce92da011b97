/** The guided tour: it opens on the first visit (an accessible dialog that takes the focus and
 * closes with Escape), not on the second; the nav's Tour button re-opens it; its last step opens
 * the recorded Lever Room session in the Replay view. */
import { expect, test } from '@playwright/test';

test('opens on the first visit, not after a reload, and re-opens from the nav', async ({ page }) => {
  await page.goto('./');
  const tour = page.getByRole('dialog', { name: 'Agents that learn across attempts' });
  await expect(tour).toBeVisible();
  await expect(page.locator('#tour-title')).toBeFocused();
  await expect(page.getByTestId('tour-count')).toHaveText('Tour · step 1 of 7');
  await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect(page.getByTestId('nav-tour')).toBeFocused();

  await page.reload();
  await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('tour')).toHaveCount(0);

  await page.getByTestId('nav-tour').click();
  await expect(page.getByRole('dialog', { name: 'Agents that learn across attempts' })).toBeVisible();
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour')).toHaveAttribute('data-step', 'actor');
  await expect(page.getByRole('dialog', { name: 'The actor' })).toContainText('types one command');
  await page.getByTestId('tour-back').click();
  await expect(page.getByTestId('tour')).toHaveAttribute('data-step', 'welcome');
  for (const step of ['actor', 'episode', 'meta-agent', 'meta-prompt', 'w-auc', 'try']) {
    await page.getByTestId('tour-next').click();
    await expect(page.getByTestId('tour')).toHaveAttribute('data-step', step);
  }
  await expect(page.getByTestId('tour-next')).toHaveText('Done');
  await page.getByTestId('tour-replay').click();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect(page).toHaveURL(/view=replay&replay=lever-room-naive/);
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('replay-models')).toContainText('actor simulated');

  await page.getByTestId('nav-tour').click();
  await page.getByTestId('tour-close').click();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
  await expect(page.getByTestId('tour')).toHaveCount(0);
});
