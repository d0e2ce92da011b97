/**
 * The simulated model in the page: Settings offers "Simulated model (no key)", says it is not a
 * language model, names every role's model `simulated`; a Learn session runs in the page with no
 * server and no key, and a fact bank's guide keeps the levers the game named.
 */
import { expect, test } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { openView } from './llm-helpers.ts';
import { goToRunView, setNumber, setStoryRole } from './run-helpers.ts';

test('Settings offers the simulated model: no key, the notice, model "simulated"; Learn runs with it in the page', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openView(page, 'settings');
  const preset = page.getByTestId('provider-preset');
  await expect(preset.locator('option[value="simulated"]')).toHaveText('Simulated model (no key)');
  await preset.selectOption('simulated');
  await expect(page.getByTestId('simulated-notice')).toContainText('simulated model — not a language model; it shows how the loop works, not how real models behave');
  await expect(page.getByTestId('api-key')).toHaveCount(0);
  await expect(page.getByTestId('model-actor')).toHaveValue('simulated');
  await expect(page.getByTestId('model-meta-agent')).toHaveValue('simulated');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
  const skipTour = page.getByRole('button', { name: 'Skip the tour' });
  if (await skipTour.isVisible()) await skipTour.click();
  await page.screenshot({ path: test.info().outputPath('settings-simulated.png') });
  await goToLearn(page);
  await startSession(page, { story: 'lever-room', seed: 1, policy: 'meta:fact-bank', episodes: 4, maxSteps: 15 });
  await waitComplete(page, 90_000);
  await expect(page.getByTestId('learn-curve-model')).toHaveText('Played by the simulated model — not a language model; it shows how the loop works, not how real models behave.');
  await expect(page.getByTestId('learn-curve')).toHaveAttribute('data-export-caption', /^Learning curve — The Lever Room \(simulated model\) \| Story: The Lever Room · /);
  await page.screenshot({ path: test.info().outputPath('learn-simulated.png') });
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.config.models.actor.model).toBe('simulated');
  expect(record.config.provider.presetId).toBe('simulated');
  // The scores of `metattl session lever-room --seed 1 --policy fact-bank --episodes 4 --steps 15 --provider simulated`.
  expect(record.scores).toEqual([0, 3, 3, 4]);
});

test('Evaluate with the simulated model: the run and its curves say so, and a fact bank beats naive on The Lever Room', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openView(page, 'settings');
  await page.getByTestId('provider-preset').selectOption('simulated');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
  await goToRunView(page, 'evaluate');
  await page.locator('[data-testid="evaluate-policy"][value="static"]').uncheck();
  await page.locator('[data-testid="evaluate-policy"][value="fact-bank"]').check();
  await setStoryRole(page, 'evaluate', 'lever-room', 'custom', '1');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 4);
  await setNumber(page, 'evaluate-steps', 15);
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  await expect(page.getByTestId('evaluate-simulated')).toContainText('simulated model — not a language model');
  await expect(page.getByTestId('evaluate-curves-model')).toHaveText('Played by the simulated model — not a language model; it shows how the loop works, not how real models behave.');
  // The same sessions as the CLI's (seed 1, K 4, S 15): naive 0, 2, 0, 1 and the fact bank 0, 3, 3, 4.
  await expect(page.getByTestId('evaluate-curves')).toHaveAttribute('aria-label', /Naive: 0\.000, 0\.400, 0\.000, 0\.200; Fact bank: 0\.000, 0\.600, 0\.600, 0\.800/);
  await page.getByTestId('evaluate-curves').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evaluate-simulated.png') });
});
