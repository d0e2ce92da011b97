/**
 * What a presenter meets in Learn, Replay and Evolve, at 1280 × 800 and 1920 × 1080 (normal mode):
 * Learn opens on The Lever Room with a short session (3 × 15) that finishes in a demo; after it,
 * the learning curve and the map are in sight side by side; the side-by-side "Score by step" chart
 * exports (PNG, CSV); a wide screen is used to its width, with larger type; Replay's curve is beside
 * the stage; Evolve's seed-strategy list offers the user's own meta-prompts.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectBeside, expectInSight } from './in-sight.ts';

/** The first-visit tour closed, once it has opened (it sits above the view). */
async function closeTour(page: Page): Promise<void> {
  await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
  if ((await page.locator('.app').getAttribute('data-tour-open')) === 'true') await page.getByTestId('tour-close').click();
  await expect(page.locator('.app')).toHaveAttribute('data-tour-open', 'false');
}

/** Settings → the simulated model (no key, in the page). */
async function useSimulatedModel(page: Page): Promise<void> {
  await page.goto('./?view=settings');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
  await closeTour(page);
  await page.getByTestId('provider-preset').selectOption('simulated');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
}

for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
  test(`${width}×${height}: Learn opens on The Lever Room, 3 × 15; after the session the curve and the map are in sight side by side; side by side exports its chart`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await useSimulatedModel(page);
    await page.getByTestId('nav-learn').click();
    await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('story-picker')).toHaveValue('lever-room');
    await expect(page.getByTestId('learn-episodes')).toHaveValue('3');
    await expect(page.getByTestId('learn-steps')).toHaveValue('15');
    await page.getByTestId('learn-start').click();
    await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectInSight(page, 'learn-curve');
    await expectInSight(page, 'learn-map');
    await expectBeside(page, 'learn-curve', 'learn-map');
    const ticks = await page.getByTestId('learn-curve').locator('[data-y-ticks]').getAttribute('data-y-ticks');
    expect(ticks).toBe('0,1,2,3,4,5');

    const app = (await page.locator('.app').boundingBox())!;
    const rootPx = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    if (width === 1920) expect([app.width >= 1800, rootPx]).toEqual([true, 18]);
    else expect(rootPx).toBe(16);

    await page.getByTestId('learn-side-by-side').click();
    const chart = page.getByTestId('compare-chart');
    await expect(chart).toBeVisible();
    expect((await chart.boundingBox())!.width).toBeGreaterThan(width === 1920 ? 800 : 700);
    const png = page.waitForEvent('download');
    await page.getByTestId('compare-chart-export-png').click();
    expect((await png).suggestedFilename()).toMatch(/^learn-compare-.+-episodes-1-vs-3-[\dZ-]+\.png$/);
    const csv = page.waitForEvent('download');
    await page.getByTestId('compare-chart-export-csv').click();
    expect((await csv).suggestedFilename()).toMatch(/^learn-compare-.+-episodes-1-vs-3-[\dZ-]+\.csv$/);
  });

  test(`${width}×${height}: Replay's learning curve is beside the stage and in sight, also at the last episode's long guide`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('./?view=replay&replay=lever-room-naive');
    await expect(page.getByTestId('replay-stage')).toBeVisible();
    await closeTour(page);
    await page.locator('[data-testid="replay-episode-jump"][data-episode="5"]').click();
    await expect(page.getByTestId('replay-stage')).toHaveAttribute('data-episode', '5');
    await expectBeside(page, 'replay-stage', 'replay-curve');
    await expectInSight(page, 'replay-curve');
    await page.getByTestId('replay-end').click();
    await expect(page.getByTestId('replay-curve').locator('[data-y-ticks]')).toHaveAttribute('data-y-ticks', '0,1,2,3,4,5');
  });
}

test('Evolve offers the user\'s own meta-prompts as seed strategies, beside the built-ins', async ({ page }) => {
  await page.goto('./?view=library');
  await expect(page.getByTestId('meta-library')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('meta-new').click();
  await page.getByTestId('meta-edit-name').fill('Levers in order');
  await page.getByTestId('meta-edit-strategy').fill('Keep the lever order that scored, then try one new lever.');
  await page.getByTestId('meta-save').click();
  await expect(page.getByTestId('meta-message')).toContainText('Saved “Levers in order”');
  await page.getByTestId('nav-evolve').click();
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-ready', 'true');
  const list = page.getByTestId('evolve-seed-strategy');
  await expect(list.locator('optgroup[label="Your meta-prompts"] option')).toHaveText(['Levers in order']);
  await expect(list.locator('optgroup[label="Built-in"] option')).toHaveText(['Naive', 'Fact bank', 'Credit assignment', 'Route script']);
  await list.selectOption({ label: 'Levers in order' });
  await expect(list).toHaveValue('Keep the lever order that scored, then try one new lever.');
});
