/**
 * Issue 19 (a new-user trial found blank screens): until the page's code has arrived the page says
 * it is loading; a view whose code is slow says "Loading the … view"; a view whose code cannot be
 * fetched says so in one sentence and the rest of the page keeps working. Chunks are delayed or
 * refused with page.route.
 */
import { expect, test } from '@playwright/test';

test('a slow page start, a slow view and a view that cannot load are each said, and the page keeps working', async ({ page }) => {
  await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.route(/\/assets\/ReplayView-[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await route.continue();
  });
  await page.route(/\/assets\/MetaLibraryView-[^/]*\.js$/, (route) => route.abort('connectionrefused'));
  await page.goto('./', { waitUntil: 'commit' });
  await expect(page.getByRole('status').filter({ hasText: 'Loading the Meta-TTL Playground…' })).toBeVisible();
  await expect(page.getByTestId('nav-replay')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Loading the Meta-TTL Playground…')).toHaveCount(0);

  await page.getByTestId('nav-replay').click();
  await expect(page.getByTestId('view-loading')).toHaveText('Loading the replay view…');
  await expect(page.getByTestId('view-loading')).toHaveCount(0, { timeout: 30_000 });

  await page.getByTestId('nav-library').click();
  await expect(page.getByTestId('view-failed')).toContainText('The library view could not be loaded');
  await page.getByTestId('nav-play').click();
  await expect(page.getByTestId('view-failed')).toHaveCount(0);
  await expect(page.getByTestId('story-picker')).toBeVisible();
});
