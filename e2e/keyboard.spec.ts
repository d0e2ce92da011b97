/**
 * The main flows keyboard-only, at 1280×800, with only page.keyboard
 * after the page is open: play a story (choose it, type a command, Enter); start a Learn session
 * and watch it; compare two episodes side by side; export the learning curve as PNG and CSV. Each
 * control is reached in the Tab order and shows a visible focus ring (≥ 3:1). Also: the Play
 * transcript is a polite log holding only the game's output for a screen reader — the command
 * echo is aria-hidden and the command field is outside the log (Parchment issue #194).
 */
import { expect, test, type Download, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn } from './learn-helpers.ts';
import { expectVisibleFocus, tabTo } from './keyboard.ts';

test.use({ viewport: { width: 1280, height: 800 } });

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Open `query` and close the first-visit tour with Escape. */
async function open(page: Page, query = ''): Promise<void> {
  await page.goto(`./${query}`);
  await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
  if ((await page.locator('.app').getAttribute('data-tour-open')) === 'true') {
    await expect(page.getByTestId('tour')).toBeVisible();
    await page.keyboard.press('Escape');
  }
  await expect(page.getByTestId('tour')).toHaveCount(0);
}

/** Tab to `testid`, check its focus ring, and screenshot it as `shot`. */
async function reach(page: Page, testid: string, shot?: string): Promise<void> {
  await tabTo(page, testid);
  await expectVisibleFocus(page, testid);
  if (shot) await page.screenshot({ path: `/tmp/w16/shots/F-focus-${shot}.png` });
}

/** Press Enter on the focused control and return the file it downloads. */
async function enterDownload(page: Page): Promise<Download> {
  const downloading = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  return downloading;
}

test('play keyboard-only: choose a story, type a command, Enter; the log announces only the game output', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  await reach(page, 'story-picker', 'play-picker');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('player')).not.toHaveAttribute('data-story', '');
  await expect(page.getByTestId('command-input')).toBeEnabled();
  await reach(page, 'command-input', 'play-command');
  await page.keyboard.type('look');
  await page.keyboard.press('Enter');
  const log = page.getByRole('log', { name: 'Transcript' });
  await expect(log.locator('.entry.input')).toHaveCount(1);
  await expect(log.locator('.entry.input')).toHaveAttribute('aria-hidden', 'true');
  await expect(page.getByTestId('command-input')).toBeFocused();
  await expect(log).toHaveAttribute('aria-live', 'polite');
  // What a screen reader has in the log: the game's text, not the echo, and no form field.
  const tree = await log.ariaSnapshot();
  const echo = (await log.locator('.entry.input').textContent()) ?? '';
  expect(echo).toContain('look');
  expect(tree).not.toContain(echo.trim());
  expect(await log.locator('input, textarea, select, button').count()).toBe(0);
  expect(await log.locator('.entry:not(.input)').count()).toBeGreaterThanOrEqual(2);
  // The transcript scrolls: it is in the Tab order (Shift+Tab from the field reaches it).
  await tabTo(page, 'transcript', { back: true });
  await expectVisibleFocus(page, 'transcript');
  await page.screenshot({ path: '/tmp/w16/shots/F-focus-play-transcript.png' });
});

test('Learn keyboard-only: start and watch a session, compare episodes side by side, export the curve as PNG and CSV', async ({ page }) => {
  test.setTimeout(150_000);
  mock = await startMockLlm({ script: ['pull yellow lever', 'look', 'pull red lever', 'look'] });
  await configureForLearn(page, mock.baseUrl);
  // From here on, only the keyboard.
  await page.keyboard.press('Shift+Tab');
  await reach(page, 'nav-learn');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await reach(page, 'learn-episodes');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('2');
  await reach(page, 'learn-steps');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('4');
  await reach(page, 'learn-start', 'learn-start');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle');
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('2 / 2');

  await reach(page, 'learn-side-by-side', 'learn-side-by-side');
  await page.keyboard.press('Enter');
  const compare = page.getByTestId('episode-compare');
  await expect(compare).toBeVisible();
  await expect(compare).toHaveAttribute('data-a', '1');
  await expect(compare).toHaveAttribute('data-b', '2');
  await expect(page.getByTestId('compare-row').first()).toBeVisible();

  await reach(page, 'learn-curve-export-png', 'learn-export-png');
  const png = await enterDownload(page);
  expect(png.suggestedFilename()).toMatch(/\.png$/);
  await reach(page, 'learn-curve-export-csv');
  const csv = await enterDownload(page);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
});
