/**
 * What a new user tripped on (issue 14's numbered findings), each checked in Chromium on the
 * production build: one test per finding, named by its number.
 */
import { expect, test } from '@playwright/test';
import { openPlayer, pickStory, send, transcript } from './helpers.ts';

test('5: the Lever Room answers "examine levers" with the row of four levers', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'lever-room');
  await send(page, 'examine levers');
  await expect(transcript(page)).toContainText('Four long iron levers stand in a row against the south wall');
  await expect(transcript(page)).not.toContainText("You can't see any such thing.");
  await send(page, 'pull levers');
  await expect(transcript(page)).toContainText('One at a time: say which, as in PULL RED LEVER.');
});
