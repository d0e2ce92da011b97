/**
 * The meta level without a key, in the page: with the simulated model, an Evaluate of naive and a
 * fact bank on The Lever Room and The Vault shows the fact bank's Δ interval above 0 and its
 * report's header names the simulation; an Evolve from naive accepts a child, seen in the lineage.
 * The same runs as the keyless CLI tour (test/cli-keyless-tour.test.ts).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import Papa from 'papaparse';
import { SIMULATION_NOTICE } from '../src/llm/model-label.ts';
import { openView } from './llm-helpers.ts';
import { goToRunView, setNumber, setStoryRole } from './run-helpers.ts';

async function useSimulated(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openView(page, 'settings');
  await page.getByTestId('provider-preset').selectOption('simulated');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
  const skipTour = page.getByRole('button', { name: 'Skip the tour' });
  if (await skipTour.isVisible()) await skipTour.click();
}

/** The rows of the CSV a button downloads (header first). */
async function csvOf(page: Page, button: Locator): Promise<string[][]> {
  const downloading = page.waitForEvent('download');
  await button.click();
  return Papa.parse<string[]>(readFileSync(await (await downloading).path(), 'utf8').trimEnd(), { header: false }).data;
}

/** Every row of a CSV export ends with the simulated model's name and caveat. */
function expectNamesTheSimulation(rows: string[][]): void {
  expect(rows[0]!.slice(-2)).toEqual(['model', 'model_caveat']);
  expect(rows.length).toBeGreaterThan(1);
  for (const row of rows.slice(1)) expect(row.slice(-2)).toEqual(['simulated model', SIMULATION_NOTICE]);
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
  expect(md.split('\n')).toContain(`> **Model: simulated (${SIMULATION_NOTICE}).**`);
  // Every CSV of its results names the simulation: the summary, the comparisons, the curves, the per-game table.
  for (const id of ['evaluate-export-csv', 'evaluate-export-comparisons-csv', 'evaluate-curves-export-csv', 'games-table-export-csv']) expectNamesTheSimulation(await csvOf(page, page.getByTestId(id).first()));
  // A session opened from the run: its curve says who played, and so does its CSV.
  await page.getByTestId('evaluate-session').first().click();
  await expect(page.getByTestId('evaluate-session-curve-model')).toHaveText(`Played by the ${SIMULATION_NOTICE}.`);
  await page.getByTestId('evaluate-session-curve').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evaluate-keyless-session.png') });
  expectNamesTheSimulation(await csvOf(page, page.getByTestId('evaluate-session-curve-export-csv')));
});

test('Evolve from naive accepts a child: the lineage shows c1, accepted, under the seed', async ({ page }) => {
  test.setTimeout(180_000);
  await useSimulated(page);
  await goToRunView(page, 'evolve');
  await expect(page.getByTestId('evolve-seed-strategy')).toHaveValue('');
  await setStoryRole(page, 'evolve', 'lever-room', 'both', '1');
  await setStoryRole(page, 'evolve', 'vault', 'val', '1');
  await setNumber(page, 'evolve-episodes', 4);
  await setNumber(page, 'evolve-steps', 15);
  await setNumber(page, 'evolve-budget', 8);
  await page.getByTestId('evolve-start').click();
  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 150_000 });
  await expect(page.getByTestId('evolve-simulated')).toHaveText(`Played by the ${SIMULATION_NOTICE}.`);
  const child = page.locator('[data-testid="lineage-node"][data-id="c1"]');
  await expect(child).toHaveAttribute('data-parent', 'c0');
  await expect(child).toContainText('accepted');
  // The CLI tour's evolution prints the same: candidate c1: accepted (minibatch sum 0.6200 > parent's 0.1600).
  await expect(page.locator('[data-testid="candidate-row"][data-id="c1"]')).toContainText("minibatch sum 0.6200 > parent's 0.1600");
  for (const id of ['evolve-progress-export-csv', 'candidate-table-export-csv', 'lineage-export-csv', 'evolve-runs-export-csv']) expectNamesTheSimulation(await csvOf(page, page.getByTestId(id)));
  await child.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evolve-keyless.png') });
});

test('Learn with no provider offers the simulated model in one line; choosing it sets every role and the offer goes', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./');
  await expect(page.getByRole('dialog', { name: 'Agents that learn across attempts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-learn').click();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  const offer = page.getByTestId('learn-offer-simulated');
  await expect(offer).toHaveText('No provider yet? Try it without a key (simulated model) — not a language model; it shows how the loop works.');
  await offer.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('learn-offer.png') });
  await page.getByTestId('learn-try-simulated').click();
  await expect(page.getByTestId('learn-models')).toContainText('Actor simulated, meta-agent simulated');
  await expect(offer).toHaveCount(0);
  // The default naive policy gives way to the fact bank, which learns with the simulated model.
  await expect(page.getByTestId('learn-policy')).toHaveValue('meta:fact-bank');
  await expect(page.getByTestId('learn-estimate-usd')).toHaveText('free: simulated model');
});

test('skeptic-holdout on the teaching games: a fold chooses a prompt that is not the seed; the report and its curves name the simulated model', async ({ page }) => {
  test.setTimeout(400_000);
  await useSimulated(page);
  await page.getByTestId('nav-experiments').click();
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
  await page.locator('[data-testid="experiment-builtin"][value="skeptic-holdout"]').check();
  await setNumber(page, 'experiment-episodes', 4);
  await setNumber(page, 'experiment-steps', 15);
  await setNumber(page, 'experiment-repeats', 1);
  await setNumber(page, 'experiment-budget', 8);
  await setNumber(page, 'experiment-valRepeats', 1);
  await page.locator('[data-testid="experiment-taskset"][data-name="ID"]').fill('lever-room:1, vault:1, detective:0');
  await page.getByTestId('experiment-start').click();
  await expect(page.getByTestId('experiment-run')).toHaveAttribute('data-status', 'complete', { timeout: 380_000 });
  const folds = page.getByTestId('experiment-report-fold');
  await expect(folds).toHaveCount(4);
  await expect(folds.last()).not.toContainText('3 of 3 folds chose the seed');
  const chosen = await folds.evaluateAll((rows) => rows.slice(0, 3).map((r) => r.textContent ?? ''));
  expect(chosen.some((text) => !text.includes('seed: no selection happened'))).toBe(true);
  const notes = page.getByTestId('experiment-curves-model');
  expect(await notes.count()).toBeGreaterThan(0);
  for (const note of await notes.all()) await expect(note).toHaveText(`Played by the ${SIMULATION_NOTICE}.`);
  await page.getByTestId('experiment-report-folds').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiments-keyless-folds.png') });
  await notes.first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiments-keyless-curves.png') });
});
