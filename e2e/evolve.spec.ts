/**
 * The Evolve view against the mock LLM (started in the test process) on real stories in the
 * page's worker engines: a tiny evolution (1 training task, 2 validation tasks, K = 3, S = 6,
 * budget 10) is reloaded mid-run, resumed and finishes; the dashboard shows the candidates, the
 * lineage, a candidate's diff, reasoning and triggering trajectory, and saves it to the library.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { KEY } from './llm-helpers.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

let mock: MockLlm;

test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['take paper', 'west', 'take gun', 'east', 'north', 'look'] });
});

test.afterEach(async () => {
  await mock.close();
});

test('an evolution reloaded mid-run resumes and finishes; the dashboard shows candidates and lineage', async ({ page }) => {
  test.setTimeout(180_000);
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evolve');
  await setStoryRole(page, 'evolve', 'advent', 'train');
  await setStoryRole(page, 'evolve', 'local:detective.z5', 'val');
  await setStoryRole(page, 'evolve', 'local:temple.z5', 'val');
  await expect(page.getByTestId('evolve-split')).toHaveText('1 training task, 2 validation tasks');
  await expect(page.getByTestId('evolve-split-warning')).toHaveCount(0);
  await setNumber(page, 'evolve-episodes', 3);
  await setNumber(page, 'evolve-steps', 6);
  await setNumber(page, 'evolve-budget', 10);
  await expect(page.getByTestId('evolve-estimate-usd')).toBeVisible();
  await expect(page.getByTestId('evolve-warning')).toContainText('guarantees only 2 proposals');
  await page.getByTestId('evolve-start').click();

  const calls = page.getByTestId('evolve-calls');
  await expect.poll(async () => Number(await calls.getAttribute('data-used')), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await page.reload();
  // The key was in memory only: enter it again, then resume the interrupted run (reopened by itself).
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('evolve-status')).toContainText('interrupted');
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill(KEY);
  await goToRunView(page, 'evolve');
  const before = Number(await calls.getAttribute('data-used'));
  expect(before).toBeGreaterThanOrEqual(2);
  await page.getByTestId('evolve-resume').click();
  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 150_000 });
  expect(Number(await calls.getAttribute('data-used'))).toBeLessThanOrEqual(10);

  const rows = page.getByTestId('candidate-row');
  await expect(rows.first()).toHaveAttribute('data-id', 'c0');
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  await expect(rows.nth(1)).toHaveAttribute('data-id', 'c1');
  await expect(page.locator('[data-testid="lineage-node"][data-id="c0"]')).toHaveAttribute('data-parent', '');
  await expect(page.locator('[data-testid="lineage-node"][data-id="c1"]')).toHaveAttribute('data-parent', 'c0');
  expect(mock.requests.filter((r) => r.unexpected)).toEqual([]);

  // A child: its diff, the proposer's reasoning (sanitised markdown) and the worst trajectory.
  await page.locator('[data-testid="candidate-row"][data-id="c1"]').getByTestId('candidate-select').click();
  const inspector = page.getByTestId('candidate-inspector');
  await expect(inspector).toHaveAttribute('data-id', 'c1');
  await expect(inspector.getByTestId('candidate-diff').locator('ins').first()).toBeVisible();
  await expect(inspector.getByTestId('candidate-reply')).not.toBeEmpty();
  await expect(inspector.getByTestId('candidate-trigger-episode')).toHaveCount(3);
  await inspector.getByTestId('candidate-save').click();
  await expect(page.getByTestId('evolve-notice')).toContainText('Saved c1 to the meta-prompt library');

  // Export: the whole run, no key (before leaving for the Learn view).
  const downloading = page.waitForEvent('download');
  await page.getByTestId('evolve-run-export').first().click();
  const text = readFileSync(await (await downloading).path(), 'utf8');
  expect(text).not.toContain(KEY);
  const exported = JSON.parse(text) as { format: string; state: { candidates: { id: string }[] } };
  expect(exported.format).toBe('metattl-evolution-export-1');
  expect(exported.state.candidates[0]?.id).toBe('c0');

  // "Try this meta-prompt": saved to the library, then the Learn view with it chosen.
  const runId = await page.getByTestId('evolve-run').getAttribute('data-id');
  await inspector.getByTestId('candidate-try').click();
  await expect(page).toHaveURL(new RegExp(`[?&]view=learn&metaPrompt=evolved-${runId}-c1`));
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('learn-policy')).toHaveValue(`meta:evolved-${runId}-c1`);
});

test('a second tab shows a run the first tab drives read-only, until it ends', async ({ page, context }) => {
  test.setTimeout(120_000);
  mock.setOptions({ faults: [{ kind: 'slow', delayMs: 150, role: 'actor' }] });
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evolve');
  await setStoryRole(page, 'evolve', 'local:detective.z5', 'train');
  await setStoryRole(page, 'evolve', 'local:temple.z5', 'val');
  await setNumber(page, 'evolve-episodes', 2);
  await setNumber(page, 'evolve-steps', 4);
  await setNumber(page, 'evolve-budget', 7);
  await page.getByTestId('evolve-proposer').selectOption('random');
  await page.getByTestId('evolve-start').click();
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-mode', 'running');

  const other = await context.newPage();
  await other.goto('./?view=evolve');
  await expect(other.getByTestId('evolve')).toHaveAttribute('data-ready', 'true');
  await expect(other.getByTestId('evolve')).toHaveAttribute('data-mode', 'watching');
  await expect(other.getByTestId('evolve-status')).toContainText('Read-only: another tab is running this run.');
  await expect(other.getByTestId('evolve-resume')).toHaveCount(0);
  await expect(other.getByTestId('evolve-stop')).toHaveCount(0);

  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  await expect(other.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 10_000 });
  await expect(other.getByTestId('evolve')).toHaveAttribute('data-mode', 'idle');
  await expect(other.getByTestId('candidate-row')).toHaveCount(await page.getByTestId('candidate-row').count());
});
