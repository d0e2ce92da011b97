/**
 * The Experiments view's replicated evolutions against the mock LLM: a tiny vocab-ood (K = 1,
 * S = 3, 1 repeat, budget 4, 2 replicates) plans two evolution steps with their own rng seeds,
 * runs to its report, and the report shows the arm across replicates, one row per replicate with
 * its seed, each chosen prompt as text and their pairwise dissimilarity; no cell of the replicates',
 * the results' or the vocabulary tables runs over the next. Screenshots at 1280×800.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { setNumber, useMock } from './run-helpers.ts';
import { expectTableInside } from './table-bounds.ts';

let mock: MockLlm;

test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'north'] });
});

test.afterEach(async () => {
  await mock.close();
});

test('a tiny vocab-ood with 2 replicates shows each replicate, its chosen prompt and how much they differ', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await useMock(page, mock.baseUrl);
  await page.getByTestId('nav-experiments').click();
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
  await page.locator('[data-testid="experiment-builtin"][value="vocab-ood"]').check();
  await setNumber(page, 'experiment-episodes', 1);
  await setNumber(page, 'experiment-steps', 3);
  await setNumber(page, 'experiment-repeats', 1);
  await setNumber(page, 'experiment-budget', 4);
  await setNumber(page, 'experiment-valRepeats', 1);
  await setNumber(page, 'experiment-replicates', 2);
  await page.locator('[data-testid="experiment-taskset"][data-name="ID"]').fill('advent:0');
  await page.locator('[data-testid="experiment-taskset"][data-name="OOD"]').fill('advent:1');
  await page.locator('[data-testid="experiment-taskset"][data-name="VOCAB-OOD"]').fill('lever-room:0');
  const steps = page.getByTestId('experiment-plan-step');
  await expect(steps).toHaveCount(5);
  expect(await steps.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-step')))).toEqual(['evolve-meta-ttl.r1', 'evolve-meta-ttl.r2', 'eval-ID', 'eval-OOD', 'eval-VOCAB-OOD']);
  await expect(page.getByTestId('experiment-start')).toBeEnabled();
  await page.getByTestId('experiment-start').click();
  await expect(page.getByTestId('experiment-run')).toHaveAttribute('data-status', 'complete', { timeout: 200_000 });
  const replicated = page.getByTestId('experiment-report-replicated');
  await expect(replicated).toHaveCount(3);
  const first = replicated.first();
  await expect(first).toHaveAttribute('data-arm', 'evolved');
  const rows = first.getByTestId('experiment-report-replicate');
  await expect(rows).toHaveCount(2);
  // replicate, policy, rng seed (vocab-ood's seed 0, then 1).
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)));
  expect(cells).toEqual([['1', 'evolved#r1', '0'], ['2', 'evolved#r2', '1']]);
  await expect(first.getByTestId('experiment-report-replicated-summary')).toContainText(/Δ vs naive .* \(across replicates\); W-AUC spread over replicates: .*mean pairwise word edit distance \d\.\d{3}, Jaccard distance \d\.\d{3}/);
  await expect(first).toContainText(/r1–r2: word edit distance \d\.\d{3}, Jaccard distance \d\.\d{3}/);
  await expect(page.locator('[data-testid="experiment-report-row"][data-arm="evolved#r2"]')).toHaveCount(3);
  await first.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiments-replicates.png') });
  // At 1280×800 no cell of the replicates' and the results' tables runs over the next.
  await expectTableInside(first.locator('table'));
  await expectTableInside(page.getByTestId('experiment-report-results'));
  await expectTableInside(page.getByTestId('experiment-report-vocabulary'));
  await page.getByTestId('experiment-report-results').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiments-replicates-results.png') });
});
