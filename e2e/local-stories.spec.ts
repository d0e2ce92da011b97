/** A local Jericho story (detective.z5 from the server's local-stories) with its catalog score. */
import { expect, test } from '@playwright/test';
import { openPlayer, pickStory, send, statusLine } from './helpers.ts';

test('detective.z5 from local-stories shows its score', async ({ page, request }) => {
  const listing = await request.get('local-stories/index.json');
  const names = listing.ok() ? ((await listing.json()) as string[]) : [];
  expect(names, 'the e2e server must list ../shared/stories (SHARED_DIR)').toContain('detective.z5');
  await openPlayer(page);
  await pickStory(page, 'local:detective.z5');
  await expect(page.getByTestId('story-title')).toHaveText('Detective');
  await expect(page.getByTestId('max-score')).toHaveText('Max score: 360');
  await expect(statusLine(page)).toContainText('Score: 10');
  await expect(page.getByTestId('status-bar')).toHaveAttribute('data-score', '10');
  await send(page, 'take paper');
  await expect(statusLine(page)).toContainText('Score: 20');
  await expect(page.getByTestId('status-bar')).toHaveAttribute('data-score', '20');
});
