/** The Evolve and Evaluate views fit a 375×667 phone screen: no horizontal scrolling, empty, with
 * a finished run, its candidate inspector and its results tables open. */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { expectNoHorizontalScroll, goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

test.use({ viewport: { width: 375, height: 667 } });

let mock: MockLlm;
test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['take paper', 'west', 'take gun', 'east', 'a-rather-long-command-that-goes-on-and-on-without-any-space-at-all'] });
});
test.afterEach(async () => {
  await mock.close();
});

test('Evolve fits 375 px: setup with a split warning, a finished run, the inspector', async ({ page }) => {
  test.setTimeout(120_000);
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evolve');
  await expectNoHorizontalScroll(page);
  await setStoryRole(page, 'evolve', 'local:detective.z5', 'both');
  await setStoryRole(page, 'evolve', 'local:temple.z5', 'val', '0, 1, 2');
  await expect(page.getByTestId('evolve-split-warning')).toBeVisible();
  await setNumber(page, 'evolve-episodes', 2);
  await setNumber(page, 'evolve-steps', 3);
  await setNumber(page, 'evolve-budget', 12);
  await page.getByTestId('evolve-proposer').selectOption('random');
  await expectNoHorizontalScroll(page);
  await page.getByTestId('evolve-start').click();
  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  await expectNoHorizontalScroll(page);
  await page.getByTestId('candidate-select').last().click();
  await expect(page.getByTestId('candidate-inspector')).toBeVisible();
  await page.getByTestId('candidate-trigger-episode').first().locator('summary').click();
  await expectNoHorizontalScroll(page);
});

test('Evaluate fits 375 px: setup, a finished evaluation with its tables and curves', async ({ page }) => {
  test.setTimeout(120_000);
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evaluate');
  await expectNoHorizontalScroll(page);
  await page.getByTestId('evaluate-set-ood').check();
  await page.getByTestId('evaluate-set-ood').uncheck();
  await setStoryRole(page, 'evaluate', 'local:temple.z5', 'custom', '0');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 2);
  await setNumber(page, 'evaluate-steps', 3);
  await expectNoHorizontalScroll(page);
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  await expect(page.getByTestId('results-table')).toBeVisible();
  await expectNoHorizontalScroll(page);
});
