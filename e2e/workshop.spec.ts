/** Workshop mode at 1280×720: body text ≥ 20 px, fewer nav entries, and the Learn presets (a
 * teaching game, K = 3, S = 15) with a cost estimate visible before starting; the nav toggle is
 * remembered across a reload; `?workshop=1` turns it on. At 1280×800: one
 * Start button; once a run starts and after it ends the progress and the learning curve are in
 * sight without scrolling; checkboxes and radio buttons are at least as big as their text; the
 * header is one row in every view, also with a "running" badge in the nav. */
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { expectInSight } from './in-sight.ts';
import { configureForLearn, waitComplete } from './learn-helpers.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const bodyFontPx = (page: Page): Promise<number> => page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));

async function expectLearnPresets(page: Page): Promise<void> {
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('story-picker')).toHaveValue('lever-room');
  await expect(page.getByTestId('learn-episodes')).toHaveValue('3');
  await expect(page.getByTestId('learn-steps')).toHaveValue('15');
  await expect(page.getByTestId('learn-seed')).toHaveValue('1');
  const estimate = page.getByTestId('learn-estimate');
  await expect(estimate).toBeVisible();
  await expect(estimate).toBeInViewport();
  await expect(page.getByTestId('learn-estimate-usd')).toHaveText(/^\$\d+\.\d+ – \$\d+\.\d+$/);
  await expect(estimate).toContainText('45 actor calls');
}

test('?workshop=1: big text, fewer panels, and cheap Learn presets with a cost estimate', async ({ page }) => {
  await page.goto('./?view=learn&workshop=1');
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'true');
  expect(await bodyFontPx(page)).toBeGreaterThanOrEqual(20);
  await expectLearnPresets(page);
  await expect(page.getByTestId('nav-evolve')).toHaveCount(0);
  await expect(page.getByTestId('nav-replay')).toBeVisible();
  await expect(page.getByTestId('learn-window')).toHaveCount(0);
  await expect(page.getByTestId('learn-past')).toBeVisible();
});

test('the nav toggle is remembered across a reload and can be turned off', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  expect(await bodyFontPx(page)).toBeLessThan(20);
  await page.getByTestId('workshop-toggle').click();
  await expect(page.getByTestId('workshop-toggle')).toHaveAttribute('aria-pressed', 'true');
  expect(await bodyFontPx(page)).toBeGreaterThanOrEqual(20);
  await page.reload();
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'true');
  expect(await bodyFontPx(page)).toBeGreaterThanOrEqual(20);
  await page.getByTestId('nav-learn').click();
  await expectLearnPresets(page);
  await page.getByTestId('workshop-toggle').click();
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'false');
  expect(await bodyFontPx(page)).toBeLessThan(20);
  await page.reload();
  await expect(page.locator('.app')).toHaveAttribute('data-workshop', 'false');
});

test.describe('at 1280×800', () => {
  const HEIGHT = 800;
  test.use({ viewport: { width: 1280, height: HEIGHT } });

  /** The header's title, nav links and tool buttons share one row, and the header is that row. */
  async function expectHeaderOneRow(page: Page, where: string): Promise<void> {
    const { header, items } = await page.evaluate(() => ({
      header: document.querySelector('header.top')!.getBoundingClientRect().height,
      items: [...document.querySelectorAll('header.top h1, header.top nav a, header.top .tools button')].map((e) => {
        const r = e.getBoundingClientRect();
        return { top: r.top, height: r.height };
      }),
    }));
    expect(items.length).toBeGreaterThan(3);
    const centers = items.map((i) => i.top + i.height / 2);
    const tallest = Math.max(...items.map((i) => i.height));
    expect(Math.max(...centers) - Math.min(...centers), `${where}: header items on more than one row`).toBeLessThan(Math.min(...items.map((i) => i.height)) / 2);
    expect(header, `${where}: the header is taller than one row`).toBeLessThanOrEqual(tallest + 1);
  }

  test('one Start; once a run starts and after it ends, the progress and the learning curve are in sight without scrolling', async ({ page }) => {
    const mock = await startMockLlm({ exploreCommands: ['pull red lever', 'look', 'pull green lever'], faults: [{ kind: 'slow', delayMs: 200, role: 'actor' }] });
    try {
      await configureForLearn(page, mock.baseUrl);
      await page.goto('./?view=learn&workshop=1');
      await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
      await expect(page.locator('.app')).toHaveAttribute('data-tour-open', 'false');
      await expect(page.getByTestId('learn-episodes')).toHaveValue('3');
      // On first open: the estimate and the one Start in sight.
      await expectInSight(page, 'learn-estimate');
      await expectInSight(page, 'learn-start');
      await page.getByTestId('learn-steps').fill('4');
      const starts = page.getByRole('button', { name: /^Start/ });
      await expect(starts).toHaveCount(1);
      await expectInSight(page, 'learn-start');

      await page.getByTestId('learn-start').click();
      await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'running');
      await expect(page.getByTestId('learn-curve')).toBeVisible();
      await expect(page.getByTestId('learn-setup-summary')).toContainText('K = 3, S = 4');
      await expectInSight(page, 'learn-progress');
      await expectInSight(page, 'learn-curve');
      await expectHeaderOneRow(page, 'learn, running');
      await waitComplete(page);
      await expect(page.getByTestId('learn-episodes-done')).toHaveText('3 / 3');
      await expectInSight(page, 'learn-progress');
      await expectInSight(page, 'learn-curve');
      await expect(starts).toHaveCount(1);
      // The estimate of the next session is not above the progress: the setup stays folded to its
      // line (one column, so the curve and the map share a row), the estimate under "Show the setup".
      await expect(page.getByTestId('learn')).toHaveAttribute('data-layout', 'run');
      await expect(page.getByTestId('learn-estimate')).toHaveCount(0);

      // A second run started from the bottom of the opened setup: the progress and curve come into sight.
      await page.getByTestId('learn-setup-expand').click();
      await page.getByTestId('learn-steps').fill('3');
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.getByTestId('learn-start').click();
      await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'running');
      await expect(page.getByTestId('learn-setup-summary')).toContainText('K = 3, S = 3');
      await expectInSight(page, 'learn-progress');
      await expectInSight(page, 'learn-curve');
      await waitComplete(page);
      await expectInSight(page, 'learn-progress');
      await expectInSight(page, 'learn-curve');

      // The past sessions' Compare checkboxes grow with their text too.
      await page.getByTestId('learn-past').locator('summary').click();
      const compare = page.getByTestId('learn-run-compare');
      await expect(compare).toHaveCount(2);
      const fontPx = await compare.first().evaluate((input) => parseFloat(getComputedStyle(input.closest('label')!).fontSize));
      const box = (await compare.first().boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(fontPx);
      expect(box.height).toBeGreaterThanOrEqual(fontPx);

      // A stopped session resumed from the bottom of the past sessions' list: back in sight too.
      // Long enough (K = 3, S = 40, 200 ms a step) that Stop is still enabled on a loaded machine.
      await page.getByTestId('learn-setup-expand').click();
      await page.getByTestId('learn-steps').fill('40');
      await page.getByTestId('learn-start').click();
      await expect(page.getByTestId('learn-transcript').getByTestId('agent-step')).not.toHaveCount(0, { timeout: 20_000 });
      await page.getByTestId('learn-stop').click();
      await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'stopped');
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const resume = page.getByTestId('learn-run').and(page.locator('[data-status="stopped"]')).getByTestId('learn-run-resume');
      await expect(resume).toBeInViewport();
      await resume.click();
      await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'running');
      await expectInSight(page, 'learn-progress');
      await expectInSight(page, 'learn-curve');
      await waitComplete(page);
    } finally {
      await mock.close();
    }
  });

  test('checkboxes and radio buttons are at least as large as their text in every view', async ({ page }) => {
    let seen = 0;
    for (const view of ['play', 'agent', 'learn', 'replay', 'library', 'evolve', 'evaluate', 'settings']) {
      await page.goto(`./?view=${view}&workshop=1`);
      await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
      await page.waitForLoadState('networkidle');
      const boxes = await page.evaluate(() => [...document.querySelectorAll<HTMLInputElement>('input[type="checkbox"], input[type="radio"]')]
        .filter((input) => input.getClientRects().length > 0)
        .map((input) => {
          const r = input.getBoundingClientRect();
          const text = input.closest('label') ?? input.parentElement!;
          return { id: input.dataset.testid ?? input.id, width: r.width, height: r.height, fontPx: parseFloat(getComputedStyle(text).fontSize) };
        }));
      for (const box of boxes) {
        expect(box.width, `${view}: ${box.id} width vs ${box.fontPx} px text`).toBeGreaterThanOrEqual(box.fontPx);
        expect(box.height, `${view}: ${box.id} height vs ${box.fontPx} px text`).toBeGreaterThanOrEqual(box.fontPx);
      }
      seen += boxes.length;
    }
    expect(seen).toBeGreaterThanOrEqual(3);
    // In Settings (the last view) the first checkbox is at least 20 px wide.
    expect((await page.locator('input[type="checkbox"]').first().boundingBox())!.width).toBeGreaterThanOrEqual(20);
  });

  test('the header is one row in every view, also with a session running', async ({ page }) => {
    const mock = await startMockLlm({ exploreCommands: ['look'], faults: [{ kind: 'slow', delayMs: 1_000, role: 'actor' }] });
    try {
      await configureForLearn(page, mock.baseUrl);
      for (const view of ['play', 'agent', 'learn', 'replay', 'library', 'evolve', 'evaluate', 'settings']) {
        await page.goto(`./?view=${view}&workshop=1`);
        await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true');
        await expectHeaderOneRow(page, view);
      }
      await page.goto('./?view=learn&workshop=1');
      await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
      await page.getByTestId('learn-start').click();
      await expect(page.getByTestId('nav-learn')).toContainText('running');
      for (const view of ['play', 'replay', 'settings', 'learn']) {
        await page.getByTestId(`nav-${view}`).click();
        await expectHeaderOneRow(page, `${view} while a session runs`);
      }
      await page.getByTestId('learn-stop').click();
      await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle');
    } finally {
      await mock.close();
    }
  });
});
