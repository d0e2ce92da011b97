/**
 * The Experiments view's selection test against the mock LLM: a tiny skeptic-holdout on three
 * games (K = 1, S = 3, 2 repeats, budget 4) runs to its report; the folds table shows each fold's
 * chosen prompt (the seed on the mock: "no selection happened"), selection optimism and transfer
 * gap with their n, the pooled row and the regime; no cell of the folds, evolutions or results table
 * runs over the next. Screenshots at 1280×800.
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

test('a tiny skeptic-holdout shows selection optimism, transfer gap, the seed flag, the pooled row and the regime', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await useMock(page, mock.baseUrl);
  await page.getByTestId('nav-experiments').click();
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
  await page.locator('[data-testid="experiment-builtin"][value="skeptic-holdout"]').check();
  await setNumber(page, 'experiment-episodes', 1);
  await setNumber(page, 'experiment-steps', 3);
  await setNumber(page, 'experiment-repeats', 2);
  await setNumber(page, 'experiment-budget', 4);
  await setNumber(page, 'experiment-valRepeats', 1);
  await page.locator('[data-testid="experiment-taskset"][data-name="ID"]').fill('advent:0, lever-room:0, detective:0');
  await expect(page.getByTestId('experiment-start')).toBeEnabled();
  await page.getByTestId('experiment-start').click();
  await expect(page.getByTestId('experiment-run')).toHaveAttribute('data-status', 'complete', { timeout: 200_000 });
  const folds = page.getByTestId('experiment-report-fold');
  await expect(folds).toHaveCount(4);
  await expect(folds.last()).toContainText('3 of 3 folds chose the seed');
  // Deterministic mock replies and no selection: the fresh sessions repeat the recorded ones.
  for (const i of [0, 1, 2]) await expect(folds.nth(i)).toContainText(/c0 \(seed: no selection happened\)\s*0\.000 \[0\.000, 0\.000\] \(n 2\)/);
  await expect(page.getByTestId('experiment-report-fold-regime')).toContainText("the paper's protocol trains and validates on the same 3 games (3 = 3)");
  await page.getByTestId('experiment-report-folds').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiments-skeptic-folds.png') });
  // At 1280×800 no cell of the report's tables runs over the next (the folds' games, the chosen prompt's words wrap in their cells).
  for (const id of ['experiment-report-folds', 'experiment-report-evolutions', 'experiment-report-results']) await expectTableInside(page.getByTestId(id));
  await page.getByTestId('experiment-report-evolutions').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiments-skeptic-evolutions.png') });
});
