/**
 * The Evaluate setup's contrast picker against the mock LLM: with static, reflexion and naive
 * (baseline) chosen, the pair reflexion − static is declared in the form, refused when asked again
 * either way round, kept across a reload, and the finished report lists it as a declared, Holm-
 * corrected comparison beside each policy against the baseline. axe finds no serious violation in
 * the form; screenshot of it at 1280×800.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { expectNoSeriousViolations } from './axe.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

let mock: MockLlm;

test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'north'] });
});

test.afterEach(async () => {
  await mock.close();
});

test('a contrast picked in the setup form is declared in the run and shown in its report', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evaluate');
  await page.locator('[data-testid="evaluate-policy"][value="reflexion"]').check();
  await expect(page.getByTestId('evaluate-baseline')).toHaveValue('naive');
  await page.getByTestId('evaluate-contrast-a').selectOption('reflexion');
  await page.getByTestId('evaluate-contrast-b').selectOption('static');
  await page.getByTestId('evaluate-contrast-add').click();
  await expect(page.getByTestId('evaluate-contrast')).toHaveText(/Reflexion − Static/);
  await page.getByTestId('evaluate-contrast-a').selectOption('static');
  await page.getByTestId('evaluate-contrast-b').selectOption('reflexion');
  await page.getByTestId('evaluate-contrast-add').click();
  await expect(page.getByTestId('evaluate-contrast-refusal')).toHaveText('static − reflexion is already declared.');
  await page.getByTestId('evaluate-contrast-b').selectOption('naive');
  await page.getByTestId('evaluate-contrast-add').click();
  await expect(page.getByTestId('evaluate-contrast-refusal')).toHaveText('static against the baseline is always compared.');
  await page.getByTestId('evaluate-contrasts').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evaluate-contrast-form.png') });
  await expectNoSeriousViolations(page, 'Evaluate setup with a declared contrast and a refusal');

  // Kept across a reload (the form's memory).
  await page.reload();
  await expect(page.getByTestId('evaluate')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('evaluate-contrast')).toHaveCount(1);

  await setStoryRole(page, 'evaluate', 'advent', 'custom', '0');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 1);
  await setNumber(page, 'evaluate-steps', 3);
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  const rows = page.getByTestId('comparison-row');
  expect(await rows.evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-a')} − ${tr.getAttribute('data-b')}`))).toEqual(['static − naive', 'reflexion − naive', 'reflexion − static']);
  await expect(page.getByTestId('comparisons-note')).toContainText('declared contrasts');
  await expect(page.getByTestId('comparisons-note')).toContainText('3');
});
