/**
 * No blank screens while code loads: until the page's code has arrived the page says
 * it is loading; a view whose code is slow says "Loading the … view"; a view whose code cannot be
 * fetched says so in one sentence and the rest of the page keeps working. Chunks are held back
 * (until the test has seen what the page says meanwhile, so a slow machine cannot miss it) or
 * refused with page.route.
 */
import { expect, test } from '@playwright/test';
import { holdRequests } from './helpers.ts';

test('a slow page start, a slow view and a view that cannot load are each said, and the page keeps working', async ({ page }) => {
  const { release: releaseIndex } = await holdRequests(page, /\/assets\/index-[^/]*\.js$/);
  const { release: releaseReplay } = await holdRequests(page, /\/assets\/ReplayView-[^/]*\.js$/);
  await page.route(/\/assets\/MetaLibraryView-[^/]*\.js$/, (route) => route.abort('connectionrefused'));
  await page.goto('./', { waitUntil: 'commit' });
  await expect(page.getByRole('status').filter({ hasText: 'Loading the Meta-TTL Playground…' })).toBeVisible();
  releaseIndex();
  await expect(page.getByTestId('nav-replay')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Loading the Meta-TTL Playground…')).toHaveCount(0);

  await page.getByTestId('nav-replay').click();
  await expect(page.getByTestId('view-loading')).toHaveText('Loading the replay view…');
  releaseReplay();
  await expect(page.getByTestId('view-loading')).toHaveCount(0, { timeout: 30_000 });

  await page.getByTestId('nav-library').click();
  await expect(page.getByTestId('view-failed')).toContainText('The library view could not be loaded');
  await page.getByTestId('nav-play').click();
  await expect(page.getByTestId('view-failed')).toHaveCount(0);
  await expect(page.getByTestId('story-picker')).toBeVisible();
});
