/**
 * Bad story files uploaded through the file input show the engine's typed StoryFileError message
 * in the alert region, and advent keeps playing; a .zblorb wrapping advent.z5 runs; a story that
 * fails to start is not kept on the story shelf; a header address outside the file is refused with it
 * named (static memory base, dictionary); a header checksum mismatch warns and the story plays.
 */
import { expect, test } from '@playwright/test';
import { identifyStory } from '../src/engine/story-file.ts';
import { ADVENT_MD5, adventBytes, makeZblorb, openPlayer, pickStory, seededBytes, send, statusLine, transcript, upload, waitForStory } from './helpers.ts';

/** The message identifyStory throws for `bytes` (the page must show exactly this). */
function storyFileMessage(bytes: Uint8Array): string {
  try {
    identifyStory(bytes);
  } catch (error) {
    if ((error as Error).name === 'StoryFileError') return (error as Error).message;
    throw error;
  }
  throw new Error('expected a StoryFileError');
}

const advent = new Uint8Array(adventBytes());
const glulx = new Uint8Array(256);
glulx.set([...'Glul'].map((c) => c.charCodeAt(0)));
const version6 = advent.slice();
version6[0] = 6;

/** advent.z5 cut to 16 kB, its length field cleared: the static memory base (0x45c8) lies beyond the end. */
const staticBeyond = advent.slice(0, 0x4000);
staticBeyond[0x1a] = 0;
staticBeyond[0x1b] = 0;
/** advent.z5 with its dictionary address moved past the end of a 16 kB file. */
const dictionaryBeyond = staticBeyond.slice();
dictionaryBeyond.set([0x3f, 0xff], 0x0e);
dictionaryBeyond.set([0x3f, 0xff], 0x04);
dictionaryBeyond.set([0x3f, 0xff], 0x06);
dictionaryBeyond.set([0x40, 0x10], 0x08);

const BAD_FILES: { name: string; bytes: Uint8Array; pattern: RegExp }[] = [
  { name: 'empty.z5', bytes: new Uint8Array(0), pattern: /empty/ },
  { name: 'truncated.z5', bytes: advent.slice(0, 64), pattern: /truncated/ },
  { name: 'random.z5', bytes: seededBytes(20240601, 4096), pattern: /not a Z-machine story file/ },
  { name: 'game.ulx', bytes: glulx, pattern: /Glulx/ },
  { name: 'v6.z6', bytes: version6, pattern: /version 6 is not supported/ },
  { name: 'static-beyond.z5', bytes: staticBeyond, pattern: /its static memory base \(header byte 0x0e\) is 0x45c8, beyond the end of the file/ },
  { name: 'dictionary-beyond.z5', bytes: dictionaryBeyond, pattern: /its dictionary \(header byte 0x08\) is 0x4010/ },
];

test('each bad story file shows its typed error and advent keeps playing', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  const error = page.getByTestId('error');
  for (const bad of BAD_FILES) {
    await upload(page, bad.name, bad.bytes);
    const message = storyFileMessage(bad.bytes);
    expect(message).toMatch(bad.pattern);
    await expect(error).toContainText(message);
    await expect(error).toHaveAttribute('role', 'alert');
    await expect(page.getByTestId('story-picker')).toHaveValue('advent');
  }
  await send(page, 'east');
  await expect(transcript(page)).toContainText('Inside Building');
  await expect(statusLine(page)).toContainText('Score: 36');
  const options = await page.getByTestId('story-picker').locator('option').allTextContents();
  expect(options.some((o) => /empty|truncated|random|ulx|v6|beyond/.test(o))).toBe(false);
});

test('a bad file as the first story shows its error and advent still plays', async ({ page }) => {
  await openPlayer(page);
  await upload(page, 'game.ulx', glulx);
  await expect(page.getByTestId('error')).toContainText(storyFileMessage(glulx));
  await pickStory(page, 'advent');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Score: 36');
});

test('a .zblorb wrapping advent.z5 runs and is matched to the catalog', async ({ page }) => {
  await openPlayer(page);
  await upload(page, 'advent.zblorb', makeZblorb(advent));
  await waitForStory(page, `user:${ADVENT_MD5}`);
  await expect(page.getByTestId('error')).toHaveCount(0);
  await expect(page.getByTestId('story-title')).toHaveText('Adventure');
  await expect(page.getByTestId('max-score')).toHaveText('Max score: 350');
  await expect(statusLine(page)).toContainText('Score: 36');
  await send(page, 'east');
  await expect(transcript(page)).toContainText('Inside Building');
  // Stored: listed again after a reload, and removable.
  await page.reload();
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  await pickStory(page, `user:${ADVENT_MD5}`);
  await page.getByTestId('remove-story').click();
  await expect(page.getByTestId('story-picker').locator(`option[value="user:${ADVENT_MD5}"]`)).toHaveCount(0);
});

test('a story that fails to start is not kept on the story shelf; a checksum mismatch warns and plays', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  const broken = advent.slice();
  broken[76352] = 0; // an instruction run before the first input becomes opcode #0
  await upload(page, 'broken.z5', broken);
  const error = page.getByTestId('error');
  await expect(error).toContainText('The story failed to start: The story ran an instruction the interpreter cannot carry out');
  await expect(error).toContainText('“broken.z5” was not added to the story shelf.');
  await expect(error).not.toContainText('RangeError');
  await expect(page.getByTestId('story-picker')).toHaveValue('advent');
  expect((await page.getByTestId('story-picker').locator('option').allTextContents()).some((o) => o.includes('broken'))).toBe(false);
  await page.reload();
  expect((await page.getByTestId('story-picker').locator('option').allTextContents()).some((o) => o.includes('broken'))).toBe(false);

  const patched = advent.slice();
  patched[0x1d] = patched[0x1d]! ^ 0xff;
  await upload(page, 'patched.z5', patched);
  await expect(page.getByTestId('story-warning')).toContainText("The story file's header checksum");
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Inside Building');
  await page.getByTestId('story-warning').getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('story-warning')).toHaveCount(0);
});
