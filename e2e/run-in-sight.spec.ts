/**
 * What stays in sight, in the normal (not workshop) mode at 1280×800 and
 * 1920×1080. On first open of Learn and Agent, Start is in sight without scrolling; while a
 * session runs the progress and the learning curve are in sight with the newest feedback between
 * episodes beside them, also when Start was pressed from the bottom of the page; a side by side
 * left open from the last session sits below the next session's curve. The exported curve is
 * a 1920×1080 PNG titled with its story, policy, seed and W-AUC. Screenshots in
 * test-results/run-in-sight/.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { boxOf, expectBeside, expectInSight } from './in-sight.ts';
import { configureForLearn } from './learn-helpers.ts';

const SIZES = [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }] as const;
const shot = (page: Page, name: string, size: { width: number }): Promise<Buffer> =>
  page.screenshot({ path: `test-results/run-in-sight/${name}-${size.width}.png` });

/** Width and height of a PNG file, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The run area as a presenter needs it: progress and curve in sight, the newest feedback beside them. */
async function expectRunArea(page: Page): Promise<void> {
  await expectInSight(page, 'learn-progress');
  await expectInSight(page, 'learn-curve');
  await expectInSight(page, 'learn-run-feedback');
  await expectBeside(page, 'learn-curve', 'learn-run-feedback');
  const box = await boxOf(page, 'learn-run-feedback');
  const newest = await boxOf(page, 'learn-feedback-item');
  expect(newest.y, 'the newest feedback starts inside its box').toBeLessThan(box.y + box.height);
  expect(newest.y).toBeGreaterThanOrEqual(box.y);
}

for (const size of SIZES) {
  test.describe(`${size.width}×${size.height}, normal mode`, () => {
    test.use({ viewport: size });

    test('Start in sight on first open of Learn and Agent', async ({ page }) => {
      await page.goto('./?view=learn');
      await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
      await expect(page.getByTestId('learn')).toHaveAttribute('data-layout', 'setup');
      await expectInSight(page, 'learn-start');
      await expectInSight(page, 'learn-progress');
      await shot(page, 'learn-first-open', size);
      await page.getByTestId('nav-agent').click();
      await expect(page.getByTestId('agent')).toHaveAttribute('data-ready', 'true');
      await expectInSight(page, 'agent-start');
    });

    test('a running session keeps progress and curve in sight beside the newest feedback; side by side goes below; the curve PNG is titled', async ({ page }) => {
      test.setTimeout(150_000);
      // Episode 1 dies at its first step (the blue lever); the next follow the plan, slowly, for many steps.
      const mock = await startMockLlm({ exploreCommands: ['pull blue lever'], faults: [{ kind: 'slow', delayMs: 300, role: 'actor' }] });
      try {
        await configureForLearn(page, mock.baseUrl);
        await page.goto('./?view=learn');
        await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
        await page.getByTestId('story-picker').selectOption('lever-room');
        await page.getByTestId('learn-seed').fill('1');
        await page.getByTestId('learn-policy').selectOption('meta:naive');
        await page.getByTestId('learn-episodes').fill('4');
        await page.getByTestId('learn-steps').fill('40');
        await expectInSight(page, 'learn-start');
        await page.getByTestId('learn-start').click();

        await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'running');
        await expect(page.getByTestId('learn')).toHaveAttribute('data-layout', 'run');
        await expect(page.getByTestId('learn-setup-summary')).toContainText('K = 4, S = 40');
        await expect(page.getByTestId('learn-feedback-item')).toHaveCount(1, { timeout: 60_000 });
        await expect(page.getByTestId('learn-transcript')).toHaveAttribute('data-episode', '2');
        await expectRunArea(page);
        await expectInSight(page, 'learn-stop');
        await shot(page, 'learn-running', size);

        // The curve as a slide: 1920×1080, titled with the story and model, policy, seed and W-AUC so far.
        await expect(page.getByTestId('learn-curve')).toHaveAttribute('data-export-caption',
          'Learning curve — The Lever Room (mock-model) | Story: The Lever Room · policy: naive meta-agent · seed 1 · K = 4, S = 40 · W-AUC 0.000 (1 of 4 episodes)');
        const downloading = page.waitForEvent('download');
        await page.getByTestId('learn-curve-export-png').click();
        const png = readFileSync(await (await downloading).path());
        expect(pngSize(png)).toEqual({ width: 1920, height: 1080 });

        // Side by side opened while it runs, left open; the session stopped.
        await page.getByTestId('learn-side-by-side').click();
        await expect(page.getByTestId('episode-compare')).toBeVisible();
        await page.getByTestId('learn-stop').click();
        await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'stopped');
        await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle');
        await expect(page.getByTestId('learn')).toHaveAttribute('data-layout', 'setup');

        // The next session, started from the bottom of the page: the run area comes into sight,
        // the side by side below the curve.
        await page.getByTestId('learn-episodes').fill('3');
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await page.getByTestId('learn-start').click();
        await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'running');
        await expect(page.getByTestId('learn-setup-summary')).toContainText('K = 3, S = 40');
        await expect(page.getByTestId('learn-feedback-item')).toHaveCount(1, { timeout: 60_000 });
        await expect(page.getByTestId('episode-compare')).toBeVisible();
        await expectRunArea(page);
        const curve = await boxOf(page, 'learn-curve');
        expect((await boxOf(page, 'episode-compare')).y, 'side by side below the curve').toBeGreaterThan(curve.y + curve.height);
        await shot(page, 'learn-next-session', size);
        await page.getByTestId('learn-stop').click();
        await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle');
      } finally {
        await mock.close();
      }
    });
  });
}
