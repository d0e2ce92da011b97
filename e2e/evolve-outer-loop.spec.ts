/**
 * The outer loop in the page: the Evolve form's outer-loop options (selection, acceptance, P × N
 * proposals, a stop condition) start a run that records them as `metattl evolve` does; the
 * dashboard's "Outer loop" line names them; the form keeps them across a reload and "New run like
 * this" fills them back. Against the mock LLM.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

let mock: MockLlm;
test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['take paper', 'west', 'take gun', 'east', 'north', 'look'] });
});
test.afterEach(async () => {
  await mock.close();
});

test('outer-loop options from the form are recorded, shown, kept across a reload and filled back', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evolve');
  await setStoryRole(page, 'evolve', 'advent', 'train');
  await setStoryRole(page, 'evolve', 'local:detective.z5', 'val');
  await setNumber(page, 'evolve-episodes', 2);
  await setNumber(page, 'evolve-steps', 4);
  await setNumber(page, 'evolve-budget', 3); // seed 1 + one iteration of 2 × (2b + V) = 6 does not fit
  const outer = page.getByTestId('evolve-outer-loop');
  await expect(outer.locator('summary')).toHaveText('Outer loop options: GEPA’s defaults');
  await outer.locator('summary').click();
  await page.getByTestId('evolve-selection').selectOption('current_best');
  await page.getByTestId('evolve-accept').selectOption('improvement_or_equal');
  await setNumber(page, 'evolve-proposal-mutations', 2);
  await setNumber(page, 'evolve-stop-no-improvement', 2);
  await expect(outer.locator('summary')).toHaveText('Outer loop options (changed)');
  await expect(page.getByTestId('evolve-start')).toBeDisabled();
  await setNumber(page, 'evolve-budget', 7);
  await expect(page.getByTestId('evolve-start')).toBeEnabled();
  await outer.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/evolve-outer-loop-form.png' });
  await page.getByTestId('evolve-start').click();
  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 150_000 });
  await expect(page.getByTestId('evolve-strategy')).toHaveText('parent: current_best · accept: improvement or equal · stop after 2 iterations without improvement · proposals: 1×2 (parents × mutations)');
  // Both children of the one iteration were proposed from one parent draw.
  const rows = page.locator('[data-testid="candidate-row"]');
  await expect(rows).toHaveCount(3);
  await expect(page.locator('[data-testid="lineage-node"][data-id="c2"]')).toHaveAttribute('data-parent', 'c0');

  await page.waitForTimeout(800); // the form's store write
  await page.reload();
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('evolve-selection')).toHaveValue('current_best');
  await expect(page.getByTestId('evolve-proposal-mutations')).toHaveValue('2');
  // Back to the defaults, then "New run like this" fills the run's options back.
  await page.getByTestId('evolve-outer-loop').locator('summary').click();
  await page.getByTestId('evolve-selection').selectOption('pareto');
  await page.getByTestId('evolve-accept').selectOption('strict_improvement');
  await setNumber(page, 'evolve-proposal-mutations', 1);
  await page.getByTestId('evolve-copy-setup').click();
  await expect(page.getByTestId('evolve-selection')).toHaveValue('current_best');
  await expect(page.getByTestId('evolve-accept')).toHaveValue('improvement_or_equal');
  await expect(page.getByTestId('evolve-proposal-mutations')).toHaveValue('2');
  await expect(page.getByTestId('evolve-stop-no-improvement')).toHaveValue('2');
});
