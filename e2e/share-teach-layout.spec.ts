/** The Replay view, the tour and workshop mode fit a 375×667 phone screen without horizontal
 * scrolling: a replay at its end with a reply open, an evaluation's session list, the tour. */
import { expect, test, type Page } from '@playwright/test';
import { openReplay, openReplayFile, playToEnd, SHIPPED_TEXT } from './replay-helpers.ts';

test.use({ viewport: { width: 375, height: 667 } });

const scrollWidth = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth);

test('the Replay view and the tour fit 375 px', async ({ page }) => {
  await openReplay(page);
  await expect(page.getByTestId('tour')).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  for (let i = 0; i < 6; i++) await page.getByTestId('tour-next').click();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  await page.getByTestId('tour-close').click();
  await page.locator('[data-testid="replay-shipped"]').first().click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  await playToEnd(page);
  await page.getByTestId('replay-step').last().locator('summary').click();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  const session = JSON.parse(SHIPPED_TEXT) as Record<string, unknown>;
  const longId = 'an-evaluation-with-a-very-long-identifier-that-goes-on-and-on-without-any-space';
  await openReplayFile(page, 'results.json', JSON.stringify({ id: longId, sessions: [{ policyId: longId, session }, { policyId: 'b', session: { ...session, id: 'b' } }] }));
  await expect(page.getByTestId('replay-item')).toHaveCount(2);
  await openReplayFile(page, 'bad-file-with-a-long-name-that-goes-on-and-on-and-on-and-on-and-on.json', '{oops');
  await expect(page.getByTestId('replay-error')).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
});

test('workshop mode fits 375 px on the Learn and Replay views', async ({ page }) => {
  await page.goto('./?view=learn&workshop=1');
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('learn-estimate')).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  await page.getByTestId('nav-replay').click();
  await page.locator('[data-testid="replay-shipped"]').first().click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await playToEnd(page);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
});
