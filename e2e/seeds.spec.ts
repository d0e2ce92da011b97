/** Seed fields accept "random": the Play view draws a seed at each (re)start and shows it; the
 * Learn view's field keeps "random" and says a seed is drawn at start. */
import { expect, test } from '@playwright/test';
import { openPlayer, pickStory } from './helpers.ts';

test('"random" in the Play view draws a new seed at each restart and shows it', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'lever-room');
  await page.getByTestId('seed-input').fill('random');
  await page.getByTestId('seed-input').blur();
  await expect(page.getByTestId('restart')).toHaveText('Restart with a new random seed');
  await page.getByTestId('restart').click();
  const drawn = page.getByTestId('seed-drawn');
  await expect(drawn).toHaveText(/^Playing seed \d+ \(drawn at random\)$/);
  const first = await drawn.textContent();
  await page.getByTestId('restart').click();
  await expect(drawn).not.toHaveText(first!);
  await expect(page.getByTestId('seed-input')).toHaveValue('random');
  await page.getByTestId('seed-input').fill('4');
  await page.getByTestId('seed-input').blur();
  await expect(page.getByTestId('restart')).toHaveText('Restart with seed 4');
});

test('"random" in the Learn view is accepted and explained', async ({ page }) => {
  await page.goto('./?view=learn');
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('learn-seed').fill('random');
  await expect(page.getByTestId('learn-seed-drawn')).toHaveText('drawn at start');
  await page.getByTestId('learn-seed').fill('nope');
  await expect(page.getByRole('alert')).toContainText('or “random”');
});
