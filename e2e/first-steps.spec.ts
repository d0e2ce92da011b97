/**
 * A new user's first steps, in Chromium on the production build: the teaching game's answers, a
 * share link and the tour, adding a story, README's mock example in the page, Evaluate's wording
 * and curves, guide diffs.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { openPlayer, pickStory, send, statusLine, transcript, upload } from './helpers.ts';
import { importSession } from '../src/ttl/session-io.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { openView } from './llm-helpers.ts';
import { openReplay, openReplayFile, playToEnd, SCRIPTED_TEXT } from './replay-helpers.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

test('the Lever Room answers "examine levers" with the row of four levers', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'lever-room');
  await send(page, 'examine levers');
  await expect(transcript(page)).toContainText('Four long iron levers stand in a row against the south wall');
  await expect(transcript(page)).not.toContainText("You can't see any such thing.");
  await send(page, 'pull levers');
  await expect(transcript(page)).toContainText('One at a time: say which, as in PULL RED LEVER.');
});

test('a share link of a built-in meta-prompt is recognised, and the first-visit tour waits for the preview', async ({ page, browser }) => {
  await page.goto('./?view=library');
  await expect(page.getByTestId('meta-library')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('meta-entry').filter({ hasText: 'Naive' }).click();
  await page.getByTestId('meta-share').click();
  const link = await page.getByTestId('meta-share-link').inputValue();
  expect(link).toContain('#share=v1.');

  // The same library: no second copy, the button shows the entry it already has.
  await page.goto(link);
  await expect(page.getByTestId('share-existing')).toHaveText('Already in your library as “Naive”.');
  await expect(page.getByTestId('share-add')).toHaveText('Show it in the library');
  await page.getByTestId('share-add').click();
  await expect(page.getByTestId('share-preview')).toHaveCount(0);
  await expect(page.getByTestId('meta-name')).toHaveText(/^Naive\s*built-in$/);
  await expect(page.getByTestId('meta-entry')).toHaveCount(4);
  await expect(page.getByTestId('meta-entry').filter({ hasText: 'imported' })).toHaveCount(0);

  // A first visit through the link: the preview first, the tour once it is dismissed.
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(link);
  await expect(fresh.getByTestId('share-preview')).toBeVisible();
  await expect(fresh.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
  await expect(fresh.getByTestId('tour')).toHaveCount(0);
  await fresh.getByTestId('share-preview').getByRole('button', { name: 'Dismiss' }).click();
  await expect(fresh.getByTestId('tour')).toBeVisible();
  await fresh.context().close();
});

test('Escape closes the tour wherever the focus is; "Skip the tour" and a skip link', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByTestId('tour')).toBeVisible();
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('story-picker').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);

  await page.getByTestId('nav-tour').click();
  await page.getByTestId('tour-next').click();
  await page.getByTestId('tour-skip').click();
  await expect(page.getByTestId('tour')).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-link');
  await expect(skip).toBeFocused();
  await expect(skip).toHaveText('Skip to the play view');
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#view')).toBeFocused();
});

test('no ETA while waiting for the human meta-agent; score and moves once in Play; the subtitle mentions learning', async ({ page }) => {
  await openPlayer(page);
  await expect(page.locator('.tagline')).toContainText('learn across attempts');
  await pickStory(page, 'advent');
  await send(page, 'east');
  await expect(statusLine(page)).toContainText('Score: 36');
  await expect(page.getByTestId('status-bar')).toHaveAttribute('data-score', '36');
  await expect(page.getByTestId('score')).toHaveCount(0);

  const mock = await startMockLlm();
  try {
    await configureForLearn(page, mock.baseUrl);
    await goToLearn(page);
    await startSession(page, { story: 'lever-room', seed: 1, policy: 'human', episodes: 2, maxSteps: 2 });
    await expect(page.getByTestId('learn-human')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('learn-eta')).toHaveText('waiting for you');
  } finally {
    await mock.close();
  }
});

test('adding a story says "not found", "not a URL", or what the file looks like, and names it', async ({ page }) => {
  await openPlayer(page);
  await pickStory(page, 'advent');
  const error = page.getByTestId('error');
  const addUrl = async (address: string): Promise<void> => {
    await page.getByTestId('story-url-input').fill(address);
    await page.getByTestId('story-url-add').click();
  };
  await addUrl('lever room');
  await expect(error).toContainText('“lever room” is not a URL');
  await addUrl('stories/missing.z5');
  await expect(error).toContainText(/Not found: http:\/\/127\.0\.0\.1:\d+\/sub\/path\/stories\/missing\.z5 \(HTTP 404\)/);
  // A dev server answers an unknown path with its page (200, text/html).
  await page.route('**/ghost.z5', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html><body>app</body></html>' }));
  await addUrl('ghost.z5');
  await expect(error).toContainText('Not found:');
  await expect(error).toContainText('ghost.z5 (the server answered with a web page, not a story file)');
  await upload(page, 'photo.jpg', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, ...new Array(100).fill(0)]));
  await expect(error).toContainText('“photo.jpg”: This is not a Z-machine story file: it looks like a JPEG image.');
  await upload(page, 'notes.txt', new TextEncoder().encode('Walkthrough: north, pull red lever, look.\n'));
  await expect(error).toContainText('“notes.txt”: This is not a Z-machine story file: it looks like a text file.');
  await expect(error).not.toContainText('header');
  await expect(page.getByTestId('story-picker')).toHaveValue('advent');
});

test('README\'s mock example learns in the page too: "Custom base URL", no key, The Lever Room 3×15', async ({ page }) => {
  test.setTimeout(120_000);
  // The mock as README starts it (the same --explore list).
  const mock = await startMockLlm({ exploreCommands: ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'] });
  try {
    await openView(page, 'settings');
    const preset = page.getByTestId('provider-preset');
    await expect(preset.locator('option[value="custom"]')).toHaveText('Custom base URL');
    await preset.selectOption('custom');
    await page.getByTestId('base-url').fill(mock.baseUrl);
    await expect(page.getByTestId('api-key')).toHaveValue('');
    await page.getByTestId('model-actor').fill('scripted-test-model');
    await page.getByTestId('model-meta-agent').fill('scripted-test-model');
    await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
    await goToLearn(page);
    await startSession(page, { story: 'lever-room', seed: 1, policy: 'meta:naive', episodes: 3, maxSteps: 15 });
    await waitComplete(page, 90_000);
    const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
    expect(record.scores).toEqual([1, 4, 4]);
    expect(mock.requests.length).toBeGreaterThan(0);
  } finally {
    await mock.close();
  }
});

test('Evaluate says "1 task", an all-zero curve has a 0…1 axis, and identical curves both show', async ({ page }) => {
  test.setTimeout(120_000);
  // The mock's default explorer never pulls a lever: every score is 0, both policies' curves are identical.
  const mock = await startMockLlm();
  try {
    await useMock(page, mock.baseUrl);
    await goToRunView(page, 'evaluate');
    await expect(page.getByTestId('evaluate-policy').and(page.locator(':checked'))).toHaveCount(2);
    await setStoryRole(page, 'evaluate', 'lever-room', 'custom', '1');
    await setNumber(page, 'evaluate-repeats', 1);
    await setNumber(page, 'evaluate-episodes', 2);
    await setNumber(page, 'evaluate-steps', 2);
    await expect(page.getByTestId('evaluate')).toContainText('2 policies × 1 task × 1 repeat');
    await page.getByTestId('evaluate-start').click();
    await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
    await expect(page.getByTestId('evaluate-run')).toContainText('(1 task)');
    await expect(page.getByTestId('evaluate-run')).not.toContainText('(1 tasks)');
    const curves = page.getByTestId('evaluate-curves');
    await expect(curves).toBeVisible();
    await expect(curves).toHaveAttribute('aria-label', /Static: 0\.000, 0\.000; Naive: 0\.000, 0\.000/ /* policies by name (ids in a title); score ÷ max score per game */);
    await expect(curves).toHaveAttribute('data-y-range', '0,1');
    // The line drawn first (under the other) has larger markers of another shape.
    await expect(curves).toHaveAttribute('data-markers', 'circle 6, rectRot 4');
  } finally {
    await mock.close();
  }
});

test('guide diffs are line diffs with the changed words marked, in dark colours in the dark theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openReplay(page);
  await openReplayFile(page, 'lever-room-scripted.json', SCRIPTED_TEXT);
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await playToEnd(page);
  const items = page.getByTestId('replay-feedback').getByTestId('learn-feedback-item');
  await expect(items).toHaveCount(4);
  // After episode 1: "Explore." became a plan — whole lines, no word pairs across unrelated text.
  const first = items.and(page.locator('[data-episode="1"]')).getByTestId('learn-prompt-diff');
  await expect(first.locator('.line[data-kind="removed"]')).toHaveText(['−Explore.']);
  await expect(first.locator('.line[data-kind="added"]').first()).toHaveText('+PLAN:');
  await expect(first.locator('mark')).toHaveCount(0);
  // After episode 4: two plan lines added, and in the similar last line only the numbers marked.
  const last = items.and(page.locator('[data-episode="4"]')).getByTestId('learn-prompt-diff');
  await expect(last.locator('.line[data-kind="added"]')).toHaveCount(3);
  await expect(last.locator('.line[data-kind="removed"] mark')).toHaveText(['3', '7', '4']);
  await expect(last.locator('.line[data-kind="added"]').last().locator('mark')).toHaveText(['4', '9', '5']);
  // Dark theme: dark line backgrounds with light text (no light pastel).
  const luminance = (rgb: string): number => {
    const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number) as [number, number, number];
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  };
  for (const kind of ['added', 'removed']) {
    const line = last.locator(`.line[data-kind="${kind}"]`).first();
    const { bg, fg } = await line.evaluate((el) => ({ bg: getComputedStyle(el).backgroundColor, fg: getComputedStyle(el).color }));
    expect(luminance(bg), `${kind} background ${bg}`).toBeLessThan(0.3);
    expect(luminance(fg), `${kind} text ${fg}`).toBeGreaterThan(0.7);
  }
});
