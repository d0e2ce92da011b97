/** Workshop mode at 1280×720: body text ≥ 20 px, fewer nav entries, and the Learn presets (a
 * teaching game, K = 3, S = 15) with a cost estimate visible before starting; the nav toggle is
 * remembered across a reload; `?workshop=1` turns it on. */
import { expect, test, type Page } from '@playwright/test';

test.use({ viewport: { width: 1280, height: 720 } });

const bodyFontPx = (page: Page): Promise<number> => page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));

async function expectLearnPresets(page: Page): Promise<void> {
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('story-picker')).toHaveValue('lever-room');
  await expect(page.getByTestId('learn-episodes')).toHaveValue('3');
  await expect(page.getByTestId('learn-steps')).toHaveValue('15');
  await expect(page.getByTestId('learn-seed')).toHaveValue('1');
  const estimate = page.getByTestId('learn-estimate');
  await expect(estimate).toBeVisible();
  await expect(estimate).toBeInViewport();
  await expect(page.getByTestId('learn-estimate-usd')).toHaveText(/^\$\d+\.\d+ – \$\d+\.\d+$/);
  await expect(estimate).toContainText('45 actor calls');
}

test('?workshop=1: big text, fewer panels, and cheap Learn presets with a cost estimate', async ({ page }) => {
  await page.goto('./?view=learn&workshop=1');
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'true');
  expect(await bodyFontPx(page)).toBeGreaterThanOrEqual(20);
  await expectLearnPresets(page);
  await expect(page.getByTestId('nav-evolve')).toHaveCount(0);
  await expect(page.getByTestId('nav-replay')).toBeVisible();
  await expect(page.getByTestId('learn-window')).toHaveCount(0);
  await expect(page.getByTestId('learn-past')).toBeVisible();
});

test('the nav toggle is remembered across a reload and can be turned off', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  expect(await bodyFontPx(page)).toBeLessThan(20);
  await page.getByTestId('workshop-toggle').click();
  await expect(page.getByTestId('workshop-toggle')).toHaveAttribute('aria-pressed', 'true');
  expect(await bodyFontPx(page)).toBeGreaterThanOrEqual(20);
  await page.reload();
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'true');
  expect(await bodyFontPx(page)).toBeGreaterThanOrEqual(20);
  await page.getByTestId('nav-learn').click();
  await expectLearnPresets(page);
  await page.getByTestId('workshop-toggle').click();
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'false');
  expect(await bodyFontPx(page)).toBeLessThan(20);
  await page.reload();
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'false');
});
