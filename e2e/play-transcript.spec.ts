/**
 * Play as Parchment and Lectrote users expect, at 1280×800. (a) The transcript
 * saves as text (exactly the entries on screen, with the story's name and date) and as a
 * standalone HTML page (every text escaped); (b) undo and restoring a slot reprint where you are
 * (the status line and the game's text as it was then) and keep what was played; (c) a story's
 * full name is visible when the closed picker would cut it off.
 */
import { expect, test } from '@playwright/test';
import { downloadText } from './learn-helpers.ts';
import { adventBytes, openPlayer, pickStory, send, statusLine, transcript, upload } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('the transcript saves as text (what is on screen) and as an escaped standalone HTML page', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  await send(page, 'x <script>alert(1)</script> & <b>lamp</b>');
  await expect(transcript(page).locator('.input').last()).toContainText('<script>');
  await expect(transcript(page).locator('.output')).toHaveCount(3);
  const shown = await transcript(page).locator('.entry').allTextContents();
  expect(shown[1]).toBe('> east');

  const text = await downloadText(page, () => page.getByTestId('transcript-save-text').click());
  const [heading, ...rest] = text.replace(/\n$/, '').split('\n\n');
  expect(heading).toMatch(/^Adventure — transcript saved \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, seed 5$/);
  expect(rest.join('\n\n')).toBe(shown.join('\n\n'));

  const html = await downloadText(page, () => page.getByTestId('transcript-save-html').click());
  expect(html).toContain('<title>Adventure — transcript</title>');
  expect(html).not.toContain('<script');
  expect(html).not.toContain('<b>');
  expect(html).toContain('&gt; x &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;lamp&lt;/b&gt;');
  // Readable on its own: the same entries, in order, under the story's name and date.
  const reader = await page.context().newPage();
  await reader.setContent(html);
  await expect(reader.locator('h1')).toHaveText('Adventure');
  await expect(reader.locator('.meta')).toContainText(/Transcript saved \d{4}-\d{2}-\d{2}/);
  expect(await reader.locator('main p').allTextContents()).toEqual(shown);
  await reader.close();
});

test('undo reprints where you are and keeps what was played', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  const opening = (await transcript(page).locator('.output').first().textContent())!;
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  await page.getByTestId('undo').click();
  await expect(statusLine(page)).toContainText('At End Of Road');
  const entries = transcript(page).locator('.entry');
  // What was played stays; then the note, the status line and the room's text as it was.
  await expect(transcript(page).locator('.input')).toHaveText(['> east']);
  await expect(transcript(page).locator('.notice').last()).toHaveText('[Undone: “east”]');
  await expect(transcript(page).locator('.status').last()).toContainText('At End Of Road');
  // The room's description, without the game's banner before it.
  const room = opening.slice(opening.lastIndexOf('At End Of Road'));
  expect(room).toMatch(/^At End Of Road\nYou are standing at the end of a road/);
  await expect(entries.last()).toHaveText(room);
  if (await page.getByTestId('tour').isVisible()) await page.getByTestId('tour-close').click();
  await page.screenshot({ path: '/tmp/w16/shots/D-play-undo.png' });
});

test('restoring a slot reprints where you are: the status line and the text shown when it was saved', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  const savedText = (await transcript(page).locator('.output').last().textContent())!;
  expect(savedText).toContain('Inside Building');
  await page.getByTestId('slot-name').fill('inside');
  await page.getByTestId('save-slot').click();
  await expect(page.locator('[data-testid="slot"][data-name="inside"]')).toBeVisible();
  await send(page, 'west');
  await expect(statusLine(page)).toContainText('At End Of Road');
  await page.locator('[data-testid="slot"][data-name="inside"]').getByTestId('restore-slot').click();
  await expect(statusLine(page)).toContainText('Inside Building');
  await expect(transcript(page).locator('.notice').last()).toHaveText('[Restored slot “inside”]');
  await expect(transcript(page).locator('.status').last()).toContainText('Inside Building');
  await expect(transcript(page).locator('.entry').last()).toHaveText(savedText.slice(savedText.lastIndexOf('Inside Building')));
  // Undoing the restore reprints the place before it.
  await page.getByTestId('undo').click();
  await expect(statusLine(page)).toContainText('At End Of Road');
  await expect(transcript(page).locator('.notice').last()).toHaveText('[Undone: the restore of “inside”]');
  await expect(transcript(page).locator('.status').last()).toContainText('At End Of Road');
});

test('a long story name is shown in full (wrapped) beside the picker; a short one only in the picker', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  await expect(page.getByTestId('story-picker-name')).toHaveCount(0);
  const name = 'Colossal Cave Adventure by Crowther and Woods, as compiled by Graham Nelson (release 5).z5';
  const patched = new Uint8Array(adventBytes());
  patched[0x1d] = patched[0x1d]! ^ 0xff; // another md5, so the file's own name is its title
  await upload(page, name, patched);
  await expect(page.getByTestId('player')).toHaveAttribute('data-story', /^user:/);
  const full = page.getByTestId('story-picker-name');
  await expect(full).toHaveText(name);
  await expect(full).toBeInViewport({ ratio: 1 });
  const box = (await full.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  // Wrapped, not cut: its text is as wide as its box allows.
  expect(await full.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect(page.getByTestId('story-picker')).toHaveAttribute('aria-describedby', 'story-picker-name');
  await page.screenshot({ path: '/tmp/w16/shots/D-play-long-name.png' });
});
