/**
 * The meta level without a key, in the page: with the simulated model, an Evaluate of naive and a
 * fact bank on The Lever Room and The Vault shows the fact bank's Δ interval above 0 and its
 * report's header names the simulation; an Evolve from naive accepts a child, seen in the lineage.
 * The same runs as the keyless CLI tour (test/cli-keyless-tour.test.ts).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SIMULATION_NOTICE } from '../src/llm/model-label.ts';
import { openView } from './llm-helpers.ts';
import { goToRunView, setNumber, setStoryRole } from './run-helpers.ts';

async function useSimulated(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openView(page, 'settings');
  await page.getByTestId('provider-preset').selectOption('simulated');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
}

test('Evaluate: a fact bank beats naive on The Lever Room and The Vault with a Δ interval above 0; the report names the simulated model', async ({ page }) => {
  test.setTimeout(240_000);
  await useSimulated(page);
  await goToRunView(page, 'evaluate');
  await page.locator('[data-testid="evaluate-policy"][value="static"]').uncheck();
  await page.locator('[data-testid="evaluate-policy"][value="fact-bank"]').check();
  await setStoryRole(page, 'evaluate', 'lever-room', 'custom', '1');
  await setStoryRole(page, 'evaluate', 'vault', 'custom', '1');
  await setNumber(page, 'evaluate-repeats', 3);
  await setNumber(page, 'evaluate-episodes', 4);
  await setNumber(page, 'evaluate-steps', 15);
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 200_000 });
  await expect(page.getByTestId('evaluate-simulated')).toHaveText(`Played by the ${SIMULATION_NOTICE}.`);
  const diff = page.locator('[data-testid="result-row"][data-policy="fact-bank"]').getByTestId('result-diff');
  // The CLI tour's evaluation prints the same: fact-bank Δ W-AUC vs naive 0.483 [0.340, 0.633].
  await expect(diff).toHaveText('0.483 [0.340, 0.633]');
  const low = Number(/\[(-?[\d.]+),/.exec((await diff.textContent()) ?? '')![1]);
  expect(low).toBeGreaterThan(0);
  await page.getByRole('region', { name: 'Results', exact: true }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evaluate-keyless.png') });
  const downloading = page.waitForEvent('download');
  await page.getByTestId('evaluate-export-md').click();
  const md = readFileSync(await (await downloading).path(), 'utf8');
  expect(md.split('\n')[2]).toBe(`> **Model: simulated (${SIMULATION_NOTICE}).**`);
});

test('Evolve from naive accepts a child: the lineage shows c1, accepted, under the seed', async ({ page }) => {
  test.setTimeout(180_000);
  await useSimulated(page);
  await goToRunView(page, 'evolve');
  await expect(page.getByTestId('evolve-seed-strategy')).toHaveValue('');
  await setStoryRole(page, 'evolve', 'lever-room', 'both');
  await setStoryRole(page, 'evolve', 'vault', 'val');
  await setNumber(page, 'evolve-episodes', 4);
  await setNumber(page, 'evolve-steps', 15);
  await setNumber(page, 'evolve-budget', 8);
  await page.getByTestId('evolve-start').click();
  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 150_000 });
  await expect(page.getByTestId('evolve-simulated')).toHaveText(`Played by the ${SIMULATION_NOTICE}.`);
  const child = page.locator('[data-testid="lineage-node"][data-id="c1"]');
  await expect(child).toHaveAttribute('data-parent', 'c0');
  await expect(child).toContainText('accepted');
  await child.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evolve-keyless.png') });
});
