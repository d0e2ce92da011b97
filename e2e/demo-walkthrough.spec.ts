/**
 * The demo script walked through as a new user would (tour → recorded run → connect the mock → Lever
 * Room session at presenter pace → side by side → export), at 1280×800 and 1920×1080, normal and
 * workshop mode: Pause / Step / Resume keep their place in every state; Step shows the newest step
 * in sight ("Last step"); the nav says "paused"; the cost of the unpriced mock is "—" before,
 * during and after a run and after a reload; the curve labels the max score; a won episode is
 * "won" (not "game over") and the side-by-side chart's type grows with workshop mode; the tour's
 * Next keeps its place; the pace select is labelled "Pace"; one wording for the mock; Settings
 * says "saved" only after a change, and "Custom base URL" empties and focuses the field.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { openView } from './llm-helpers.ts';
import { configureForLearn, waitComplete } from './learn-helpers.ts';

let mock: MockLlm | null = null;
test.afterEach(async () => {
  await mock?.close();
  mock = null;
});

const SHOTS = 'test-results/trial';
/** The Lever Room's winning order (games/README.md, seed 1): 5 of 5 points at step 5. */
const WIN = ['pull yellow lever', 'pull blue lever', 'pull green lever', 'pull red lever', 'north'];
const EXPLORE = ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'];

type Box = { x: number; y: number; width: number; height: number };
const boxes = async (page: Page): Promise<Box[]> =>
  Promise.all(['pause', 'step', 'resume'].map(async (b) => (await page.getByTestId(`learn-pace-${b}`).boundingBox())!));

async function closeTour(page: Page): Promise<void> {
  await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
  if ((await page.locator('.app').getAttribute('data-tour-open')) === 'true') await page.getByTestId('tour-close').click();
}

/** Open Learn (workshop mode or not) with the Lever Room preset, K = 3, the given S. */
async function openLearn(page: Page, workshop: boolean, steps: number): Promise<void> {
  await page.goto(`./?view=learn${workshop ? '&workshop=1' : ''}`);
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await closeTour(page);
  await page.getByTestId('story-picker').selectOption('lever-room');
  await page.getByTestId('learn-seed').fill('1');
  if (!workshop) await page.getByTestId('learn-episodes').fill('3');
  await page.getByTestId('learn-steps').fill(String(steps));
}

async function expectInViewport(locator: Locator): Promise<void> {
  await expect(locator).toBeVisible();
  await expect(locator).toBeInViewport({ ratio: 1 });
}

for (const { workshop, width, height } of [
  { workshop: true, width: 1280, height: 800 },
  { workshop: true, width: 1920, height: 1080 },
  { workshop: false, width: 1280, height: 800 },
  { workshop: false, width: 1920, height: 1080 },
]) {
  const where = `${workshop ? 'workshop' : 'normal'} ${width}×${height}`;
  test(`${where}: Pause / Step / Resume keep their place; Step shows the newest step in sight; the nav says paused; cost "—" throughout; the max score is a tick`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    mock = await startMockLlm({ exploreCommands: EXPLORE });
    await configureForLearn(page, mock.baseUrl);
    // the pace select is labelled "Pace", visibly.
    await openLearn(page, workshop, 12);
    const paceSelect = page.getByLabel('Pace', { exact: true });
    await expect(paceSelect).toHaveAttribute('data-testid', 'learn-pace-delay');
    await expect(page.locator('label[for="learn-pace-delay"]')).toBeVisible();
    // an unpriced model's cost is "—" before a run, not "$0.0000".
    await expect(page.getByTestId('learn-cost')).toHaveText('—');
    await paceSelect.selectOption('1000');
    await page.getByTestId('learn-start').click();
    await expect(page.getByTestId('learn-pace')).toHaveAttribute('data-pace', /running|delaying/, { timeout: 30_000 });
    await expect(page.getByTestId('learn-last-step')).toContainText(/#\d+ /, { timeout: 30_000 });
    const running = await boxes(page);
    await expect(page.getByTestId('nav-learn-badge')).toHaveText('running');
    await expect(page.getByTestId('learn-cost')).toHaveText('—');

    await page.getByTestId('learn-pace-pause').click();
    await expect(page.getByTestId('learn-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
    await expect(page.getByTestId('learn-state')).toHaveText(/^Paused in episode 1 of 3$/);
    // the nav says where the session is.
    await expect(page.getByTestId('nav-learn-badge')).toHaveText('paused');
    // the buttons did not move.
    expect(await boxes(page), `${where}: the pace buttons moved when paused`).toEqual(running);
    if (workshop && width === 1280) await page.screenshot({ path: `${SHOTS}/ws-1280-paused.png` });

    // each Step changes the "Last step" line, which is in sight.
    const lastStep = page.getByTestId('learn-last-step');
    let before = (await lastStep.textContent()) ?? '';
    for (let i = 0; i < 2; i++) {
      await page.getByTestId('learn-pace-step').click();
      await expect(lastStep).not.toHaveText(before, { timeout: 30_000 });
      await expect(page.getByTestId('learn-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
      const text = (await lastStep.textContent()) ?? '';
      expect(text).toMatch(/^Last step: #\d+ \S.* → (\+\d+|−\d+|±0), score \d+$/);
      expect(Number(/#(\d+)/.exec(text)![1])).toBe(Number(/#(\d+)/.exec(before)![1]) + 1);
      await expectInViewport(lastStep);
      expect(await boxes(page), `${where}: the pace buttons moved after Step`).toEqual(running);
      before = text;
    }
    if (workshop && width === 1280) await page.screenshot({ path: `${SHOTS}/ws-1280-stepped.png` });
    // the curve's y ticks are every whole number from 0 up to the max score, which is one.
    const ticks = (await page.getByTestId('learn-curve').locator('[data-y-ticks]').getAttribute('data-y-ticks'))!.split(',').map(Number);
    expect(ticks).toEqual([0, 1, 2, 3, 4, 5]);

    await page.getByTestId('learn-pace-resume').click();
    await expect(page.getByTestId('nav-learn-badge')).toHaveText('running');
    await expect(page.getByTestId('learn-pace')).toHaveAttribute('data-pace', /running|delaying/);
    expect(await boxes(page), `${where}: the pace buttons moved on Resume`).toEqual(running);
    await page.getByTestId('learn-stop').click();
    await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'stopped', { timeout: 30_000 });
    await expect(page.getByTestId('learn-cost')).toHaveText('—');
    // After a reload the same rule.
    await page.reload();
    await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('learn-progress')).not.toHaveAttribute('data-status', 'none');
    await expect(page.getByTestId('learn-cost')).toHaveText('—');
  });
}

test('workshop 1920×1080: a won episode is "won" in side by side and the transcript; the side-by-side chart’s type grows with workshop mode', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  mock = await startMockLlm({ script: WIN });
  await configureForLearn(page, mock.baseUrl);
  await openLearn(page, true, 6);
  await page.getByTestId('learn-start').click();
  await waitComplete(page);
  await expect(page.getByTestId('learn-transcript').getByTestId('agent-transcript-ending')).toHaveText('Episode ended: won, final score 5 of 5.');
  await page.getByTestId('learn-side-by-side').click();
  await expect(page.getByTestId('compare-outcome-a')).toHaveText(/— 5 steps, won, final score 5$/);
  await expect(page.getByTestId('compare-outcome-b')).toHaveText(/— 5 steps, won, final score 5$/);
  await expect(page.getByTestId('episode-compare')).not.toContainText('game over');
  // Workshop mode's root type is 22 px (137.5 %): the chart's ticks and legend are drawn at it.
  await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-font-px', '22');
  await page.getByTestId('compare-chart').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/ws-1920-side-by-side.png` });
  // Normal mode on a wide screen: 18 px (112.5 %; the chart is drawn again when side by side opens again).
  await page.getByTestId('workshop-toggle').click();
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'false');
  await page.getByTestId('learn-side-by-side').click();
  await page.getByTestId('learn-side-by-side').click();
  await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-font-px', '18');
});

test('the tour’s Next keeps its place on every step (1280×800 and workshop 1920×1080)', async ({ page }) => {
  for (const [query, width, height] of [['./', 1280, 800], ['./?workshop=1', 1920, 1080]] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(query);
    await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
    if ((await page.locator('.app').getAttribute('data-tour-open')) !== 'true') await page.getByTestId('nav-tour').click();
    const next = page.getByTestId('tour-next');
    const first = await next.boundingBox();
    for (let step = 2; step <= 7; step++) {
      await next.click();
      await expect(page.getByTestId('tour-count')).toHaveText(`Tour · step ${step} of 7`);
      expect(await next.boundingBox(), `${query}: Next moved on step ${step}`).toEqual(first);
    }
    await expect(next).toHaveText('Done');
    await page.screenshot({ path: `${SHOTS}/tour-last-${width}.png` });
    await next.click();
  }
});

test('Settings: nothing said before a change, "All changes saved" after one; "Custom base URL" empties and focuses the field', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openView(page, 'settings');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('base-url')).toHaveValue('https://api.openai.com/v1');
  await expect(page.getByTestId('settings-status')).toHaveText('');
  await page.getByTestId('provider-preset').selectOption('custom');
  await expect(page.getByTestId('base-url')).toHaveValue('');
  await expect(page.getByTestId('base-url')).toBeFocused();
  await expect(page.getByTestId('base-url')).toHaveAttribute('placeholder', /^e\.g\. http:\/\/127\.0\.0\.1:\d+\/v1$/);
  await expect(page.getByTestId('settings-status')).toHaveText('All changes saved');
  await page.screenshot({ path: `${SHOTS}/settings-custom.png` });
});

test('the shipped recordings name their model in one wording, in the list and in the header; counted points are singular at 1', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./?view=replay');
  await closeTour(page);
  const list = page.getByTestId('replay-shipped');
  await expect(list.first()).toBeVisible();
  await expect(page.locator('[data-testid="replay-shipped"]', { hasText: 'scripted mock' })).toHaveCount(0);
  await expect(page.getByText(/scripted mock model/)).toHaveCount(0);
  await page.locator('[data-testid="replay-shipped"][data-id="lever-room-naive"]').click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('replay-models')).toContainText('actor simulated');
  await expect(page.locator('body')).not.toContainText(/\b1 points\b/);
});
