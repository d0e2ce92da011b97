/**
 * The first-run path without a key and the simulated model's label on every picture of a Learn
 * session: the first screen's "Try it without a key (simulated model)" chooses the simulated model
 * for every role and opens Learn on The Lever Room, where a session runs at once; its progress
 * card, its list row, the curve (on screen, the exported PNG's text chunks, its caption) and the
 * session's JSON export name the simulated model and its caveat. The tour's last step offers the
 * same beside "Connect your provider". Either way the fact bank meta-prompt is preselected (it learns
 * with the simulated model), the estimate says "free: simulated model", and the tour opened again
 * says the simulated model plays. Screenshots at 1280×800 and 1920×1080.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { pngTexts } from '../src/ui/shared/charts/png-text.ts';
import { downloadText, waitComplete } from './learn-helpers.ts';

const NOTICE = 'simulated model — not a language model; it shows how the loop works, not how real models behave';

/** A first visit: the tour opens by itself; close it. */
async function firstVisit(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByRole('dialog', { name: 'Agents that learn across attempts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);
}

for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
  test(`at ${size.width}×${size.height}: try it without a key, then every picture of the session names the simulated model`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await firstVisit(page);
    const offer = page.getByTestId('first-simulated');
    await expect(offer).toHaveText('Try it without a key (simulated model)');
    await expect(page.getByTestId('first-settings')).toHaveText('Connect your provider');
    await expect(offer).toBeInViewport();
    await offer.click();
    await expect(page).toHaveURL(/view=learn/);
    await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('story-picker')).toHaveValue('lever-room');
    await expect(page.getByTestId('learn-models')).toContainText('Actor simulated, meta-agent simulated');
    // The fact bank is preselected (it learns with the simulated model), and the estimate says it is free.
    await expect(page.getByTestId('learn-policy')).toHaveValue('meta:fact-bank');
    await expect(page.getByTestId('learn-estimate-usd')).toHaveText('free: simulated model');
    await expect(page.getByTestId('learn-estimate-unpriced')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath(`learn-after-keyless-${size.width}.png`) });

    await page.getByTestId('learn-seed').fill('1');
    await page.getByTestId('learn-policy').selectOption('meta:fact-bank');
    await page.getByTestId('learn-episodes').fill('4');
    await page.getByTestId('learn-steps').fill('15');
    await page.getByTestId('learn-start').click();
    await waitComplete(page, 90_000);

    // The session card and its row in the list.
    await expect(page.getByTestId('learn-model')).toHaveText('simulated model');
    await expect(page.getByTestId('learn-model')).toHaveAttribute('title', NOTICE);
    await expect(page.getByTestId('learn-run-model').first()).toHaveText('simulated model');
    // The curve: its line on screen, its caption, and the exported PNG's own text.
    await expect(page.getByTestId('learn-curve-model')).toHaveText(`Played by the ${NOTICE}.`);
    await expect(page.getByTestId('learn-curve')).toHaveAttribute('data-export-caption', `Learning curve — The Lever Room (simulated model) | Story: The Lever Room · policy: meta: Fact bank · seed 1 · K = 4, S = 15 · W-AUC 0.620 | ${NOTICE}`);
    const downloading = page.waitForEvent('download');
    await page.getByTestId('learn-curve-export-png').click();
    const png = new Uint8Array(readFileSync(await (await downloading).path()));
    writeFileSync(test.info().outputPath(`learn-curve-${size.width}.png`), png);
    const texts = pngTexts(png);
    expect(texts.Title).toBe('Learning curve — The Lever Room (simulated model)');
    expect(texts.Description).toMatch(new RegExp(`^Story: The Lever Room · .*\\n${NOTICE}$`));
    // The session's JSON export: the model block, read back by import.
    const text = await downloadText(page, () => page.getByTestId('learn-export').click());
    expect(JSON.parse(text).model).toEqual({ name: 'simulated model', simulated: true, kind: 'simulated', caveat: NOTICE });
    const record = importSession(text);
    expect(record.config.models.actor.model).toBe('simulated');
    expect(record.scores).toEqual([0, 3, 3, 4]);

    await page.getByTestId('learn-progress').scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`learn-simulated-labels-${size.width}.png`) });
    // Episodes side by side: its chart names the model too.
    await page.getByTestId('learn-side-by-side').click();
    await expect(page.getByTestId('compare-chart-model')).toHaveText(`Played by the ${NOTICE}.`);
    await page.getByTestId('compare-chart').scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`learn-side-by-side-${size.width}.png`) });
  });
}

test("the tour's last step offers the simulated model beside connecting a provider", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./');
  await expect(page.getByTestId('tour')).toBeVisible();
  while (await page.getByTestId('tour-next').textContent() !== 'Done') await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-settings')).toHaveText('Connect your provider');
  await page.getByTestId('tour-simulated').click();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect(page).toHaveURL(/view=learn/);
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('learn-models')).toContainText('Actor simulated, meta-agent simulated');
  await expect(page.getByTestId('learn-policy')).toHaveValue('meta:fact-bank');
  await expect(page.getByTestId('learn-estimate-usd')).toHaveText('free: simulated model');
  await expect(page.getByTestId('learn-estimate-simulated')).toContainText('answered in the page by the simulated model: nothing is billed');
  await page.screenshot({ path: test.info().outputPath('learn-after-tour-keyless-1280.png') });
  await page.getByTestId('learn-estimate').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('learn-after-tour-keyless-estimate-1280.png') });
  // The tour, opened again, says the simulated model plays.
  await page.getByTestId('nav-tour').click();
  await expect(page.getByTestId('tour')).toContainText('the simulated model you chose plays a text adventure');
  await expect(page.getByTestId('tour')).not.toContainText('a language model plays');
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('provider-preset')).toHaveValue('simulated');
});
