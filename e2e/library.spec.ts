/** Adding stories by URL and by drag and drop; an unknown story's max score asked for and kept. */
import { expect, test } from '@playwright/test';
import { ADVENT_MD5, adventBytes, openPlayer, pickStory, send, statusLine, waitForStory } from './helpers.ts';

test('add a story from a URL (relative to the page); a missing URL shows an error', async ({ page }) => {
  await openPlayer(page);
  await page.getByTestId('story-url-input').fill('no-such-story.z5');
  await page.getByTestId('story-url-add').click();
  await expect(page.getByTestId('error')).toContainText('HTTP 404');
  await page.getByTestId('story-url-input').fill('stories/advent.z5');
  await page.getByTestId('story-url-add').click();
  await waitForStory(page, `user:${ADVENT_MD5}`);
  await expect(page.getByTestId('error')).toHaveCount(0);
  await expect(page.getByTestId('story-picker').locator('option:checked')).toHaveText('Adventure (advent.z5)');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Score: 36');
});

test('drop a story file on the page', async ({ page }) => {
  await openPlayer(page);
  const bytes = [...adventBytes()];
  const dataTransfer = await page.evaluateHandle((data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'dropped.z5', { type: 'application/octet-stream' }));
    return transfer;
  }, bytes);
  await page.dispatchEvent('body', 'dragover', { dataTransfer });
  await page.dispatchEvent('body', 'drop', { dataTransfer });
  await waitForStory(page, `user:${ADVENT_MD5}`);
  await expect(page.getByTestId('story-picker').locator('option:checked')).toHaveText('Adventure (dropped.z5)');
});

test('an unknown max score is asked for, offered from the game\'s words, and kept', async ({ page, request }) => {
  const listing = await request.get('local-stories/index.json');
  const names = listing.ok() ? ((await listing.json()) as string[]) : [];
  expect(names, 'the e2e server must list ../shared/stories (SHARED_DIR)').toContain('minizork.z3');
  await openPlayer(page);
  await pickStory(page, 'local:minizork.z3');
  await expect(page.getByTestId('max-score')).toHaveText('Max score: n/a');
  await expect(page.getByTestId('w-auc')).toHaveText('W-AUC: n/a');
  await send(page, 'score');
  const hint = page.getByTestId('max-score-hint');
  await expect(hint).toContainText('Use 350');
  await hint.click();
  await expect(page.getByTestId('max-score')).toHaveText('Max score: 350');
  await expect(page.getByTestId('w-auc')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  await pickStory(page, 'local:minizork.z3');
  await expect(page.getByTestId('max-score')).toHaveText('Max score: 350');
});
