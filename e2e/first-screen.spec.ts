/**
 * The first screen: a first-time visitor (no stored settings, no runs) reads
 * what this is and gets three ways in beside the first-visit tour — watch the recorded run (no
 * key: Replay with the shipped Lever Room session), connect a model (Settings), play a story
 * (The Lever Room). A returning visitor lands on the story they had open, not on the first screen.
 * At 1280×800 and 1920×1080, the three ways in above the fold, no serious or critical axe-core
 * violation; screenshots saved.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/w16/shots';

/** The first visit: close the tour that opens by itself, so the first screen is used as a visitor would after it. */
async function firstVisit(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByRole('dialog', { name: 'Agents that learn across attempts' })).toBeVisible();
}

for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('a first visit says what this is and offers three ways in, each working', async ({ page }) => {
      await firstVisit(page);
      const first = page.getByTestId('first-screen');
      await expect(first).toBeVisible();
      await expect(first.getByRole('heading', { level: 2 })).toHaveText('Watch a language model learn a text adventure across attempts');
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/E-first-screen-tour-${size.width}.png` });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('tour')).toHaveCount(0);
      await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
      for (const id of ['first-watch', 'first-settings']) await expect(page.getByTestId(id)).toBeInViewport();
      await expect(page.locator('[data-testid="first-play"][data-id="lever-room"]')).toBeInViewport();
      await expect(page.locator('[data-testid="first-play"][data-id="advent"]')).toBeEnabled();
      await page.screenshot({ path: `${SHOTS}/E-first-screen-${size.width}.png` });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);

      await page.getByTestId('first-watch').click();
      await expect(page).toHaveURL(/view=replay&replay=lever-room-naive/);
      await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
      await page.goBack();
      await expect(page.getByTestId('first-screen')).toBeVisible();

      await page.getByTestId('first-settings').click();
      await expect(page).toHaveURL(/view=settings/);
      await page.goBack();

      await page.locator('[data-testid="first-play"][data-id="lever-room"]').click();
      await expect(page.getByTestId('player')).toHaveAttribute('data-story', 'lever-room');
      await expect(page.getByTestId('first-screen')).toHaveCount(0);
      await expect(page.getByTestId('transcript')).toContainText('Lever Room');

      // Returning: the story they had open, no tour, no first screen.
      await page.reload();
      await expect(page.getByTestId('player')).toHaveAttribute('data-story', 'lever-room');
      await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
      await expect(page.getByTestId('tour')).toHaveCount(0);
      await expect(page.getByTestId('first-screen')).toHaveCount(0);
    });
  });
}
