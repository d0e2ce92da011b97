/**
 * The Experiments view's tables keep long text in its cell: the paper's experiment's plan (its
 * steps' games and arms run long) at 1280×800 and 1920×1080 wraps inside its "what" column with no
 * cell over the next and no scrolling; at 900 px the table scrolls sideways in its own box and the
 * page stays as wide as the window; the registration card fits too. Screenshots at each size.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectTableInside } from './table-bounds.ts';

async function openPaperPlan(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.goto('./?view=experiments');
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  await page.locator('[data-testid="experiment-builtin"][value="paper-jericho"]').check();
  await expect(page.getByTestId('experiment-plan-step')).toHaveCount(3);
  await page.getByTestId('experiment-plan').scrollIntoViewIfNeeded();
}

/** The "what" cell of the first step: its height in lines of its own line height. */
async function whatLines(page: Page): Promise<number> {
  return page.getByTestId('experiment-plan-step').first().locator('td').nth(2).evaluate((td) => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return range.getClientRects().length;
  });
}

for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
  test(`the plan's long "what" wraps inside its cell at ${width}×${height}`, async ({ page }) => {
    await openPaperPlan(page, width, height);
    const plan = page.getByTestId('experiment-plan');
    await expectTableInside(plan);
    // It wraps (more than one line box) rather than running on; the table needs no sideways scroll.
    expect(await whatLines(page)).toBeGreaterThan(1);
    expect(await plan.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath(`experiments-plan-${width}.png`) });
  });
}

test('at 900 px the plan scrolls in its own box, the page does not widen, and the registration card fits', async ({ page }) => {
  await openPaperPlan(page, 900, 800);
  const plan = page.getByTestId('experiment-plan');
  await expectTableInside(plan);
  expect(await plan.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBeGreaterThan(0);
  await page.screenshot({ path: test.info().outputPath('experiments-plan-900.png') });
  await page.getByTestId('experiment-register-button').click();
  const card = page.getByTestId('experiment-registration');
  await expect(card).toContainText('spec sha-256');
  const box = await card.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(900);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(900);
});
