/**
 * A human in the loop on the Evolve page, against the mock LLM on real stories: Pause
 * holds a running evolution between iterations, a reload shows it paused and resumable; "Edit as
 * new candidate" on the seed, a diff against it, Evaluate — the candidate joins the table and the
 * lineage marked human and the run holds again; feedback for the proposer does the same; Resume
 * finishes it; "Branch from here" on the
 * candidate of iteration 1 starts a new run that names its fork and finishes. Screenshots at
 * 1280×800 in test-results/.
 */
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

test('pause → edit a candidate → evaluate: it joins the pool and lineage as human; branch from iteration 1', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  // Slow actor replies keep the run in its seed validation long enough to pause it there.
  mock.setOptions({ faults: [{ kind: 'slow', delayMs: 150, role: 'actor' }] });
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evolve');
  await setStoryRole(page, 'evolve', 'local:detective.z5', 'train');
  await setStoryRole(page, 'evolve', 'local:temple.z5', 'val');
  await setNumber(page, 'evolve-episodes', 2);
  await setNumber(page, 'evolve-steps', 4);
  await setNumber(page, 'evolve-budget', 13);
  await page.getByTestId('evolve-start').click();
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-mode', 'running');
  await page.getByTestId('evolve-pause').click();
  await expect(page.getByTestId('evolve-pause')).toHaveText('Pausing after this iteration…');
  const run = page.getByTestId('evolve-run');
  await expect(run).toHaveAttribute('data-status', 'paused', { timeout: 60_000 });
  await expect(page.getByTestId('evolve-status')).toContainText('paused');
  const runId = await run.getAttribute('data-id');
  mock.setOptions({ faults: [] });

  // After a reload it is still paused and resumable (the key was in memory only: enter it again).
  await page.reload();
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-ready', 'true');
  await expect(run).toHaveAttribute('data-status', 'paused');
  await expect(page.getByTestId('evolve-resume')).toBeVisible();
  await expect(page.getByTestId('evolve-status')).toContainText('between iterations (after iteration 0): Resume goes on');
  await run.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evolve-paused.png') });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill(KEY);
  await goToRunView(page, 'evolve');
  const calls = page.getByTestId('evolve-calls');
  const usedBefore = Number(await calls.getAttribute('data-used'));

  // Edit the seed as a new candidate: the diff against it, then Evaluate.
  await page.locator('[data-testid="lineage-node"][data-id="c0"] button').click();
  const inspector = page.getByTestId('candidate-inspector');
  await inspector.getByTestId('candidate-edit').click();
  const editor = inspector.getByTestId('human-editor');
  await editor.getByTestId('human-strategy').fill('Read every room description.\nTake what you can carry.');
  await expect(editor.getByTestId('human-diff').locator('ins').first()).toContainText('Read every room description.');
  await expect(editor.getByTestId('human-problem')).toHaveCount(0);
  await editor.getByTestId('human-evaluate').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evolve-human-editor.png') });
  await editor.getByTestId('human-evaluate').click();
  await expect(page.getByTestId('evolve-notice')).toContainText('Your candidate c1 (from c0) was', { timeout: 90_000 });
  await expect(run).toHaveAttribute('data-status', 'paused');
  const human = page.locator('[data-testid="lineage-node"][data-id="c1"]');
  await expect(human).toHaveAttribute('data-origin', 'human');
  await expect(human).toHaveAttribute('data-parent', 'c0');
  await expect(human).toContainText('human');
  await expect(page.locator('[data-testid="candidate-row"][data-id="c1"]')).toHaveCount(1);
  await expect(page.getByTestId('candidate-inspector')).toHaveAttribute('data-id', 'c1');
  await expect(page.getByTestId('candidate-origin')).toHaveText('human');
  // Parent and child on the one-task minibatch, plus the validation task if it was accepted.
  const status = await page.locator('[data-testid="lineage-node"][data-id="c1"] button').getAttribute('class');
  expect(Number(await calls.getAttribute('data-used'))).toBe(usedBefore + (status?.includes('accepted') ? 3 : 2));
  await page.screenshot({ path: test.info().outputPath('evolve-human-lineage.png') });

  // Feedback for the proposer instead: it writes the candidate (the mock quotes the feedback).
  await page.locator('[data-testid="lineage-node"][data-id="c0"] button').click();
  await page.getByTestId('candidate-inspector').getByTestId('candidate-edit').click();
  await page.getByTestId('human-mode-feedback').check();
  await page.getByTestId('human-feedback').fill('Look under things before leaving a room.');
  await page.getByTestId('human-evaluate').click();
  await expect(page.getByTestId('evolve-notice')).toContainText('Your candidate c2 (from c0) was', { timeout: 90_000 });
  await expect(page.locator('[data-testid="lineage-node"][data-id="c2"]')).toHaveAttribute('data-origin', 'human');
  await expect(page.getByTestId('candidate-feedback')).toHaveText('Look under things before leaving a room.');
  await expect(page.getByTestId('candidate-diff')).toContainText("From a person's feedback: Look under things before leaving a room.");

  // Resume to the end of the budget.
  await page.getByTestId('evolve-resume').click();
  await expect(run).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
  await expect(page.locator('[data-testid="lineage-node"][data-id="c1"]')).toHaveAttribute('data-origin', 'human');

  // Branch from iteration 1 (candidate c3 is iteration 1's proposal), with a larger budget.
  await page.locator('[data-testid="lineage-node"][data-id="c3"] button').click();
  await expect(page.getByTestId('candidate-inspector')).toHaveAttribute('data-id', 'c3');
  await expect(page.getByTestId('candidate-inspector')).toContainText('iteration 1');
  await page.getByTestId('candidate-branch-budget').fill('16');
  await page.getByTestId('candidate-branch').click();
  await expect(run).not.toHaveAttribute('data-id', runId!, { timeout: 30_000 });
  await expect(run).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
  const fork = page.getByTestId('lineage-branched-from');
  await expect(fork).toHaveAttribute('data-run', runId!);
  await expect(fork).toHaveAttribute('data-iteration', '1');
  // The state after iteration 1 is the source's: the seed, the two human candidates, iteration 1's proposal.
  await expect(page.locator('[data-testid="lineage-node"][data-id="c1"]')).toHaveAttribute('data-origin', 'human');
  await expect(page.locator('[data-testid="lineage-node"][data-id="c2"]')).toHaveAttribute('data-origin', 'human');
  await expect(page.locator('[data-testid="lineage-node"][data-id="c3"]')).toHaveAttribute('data-origin', 'proposer');
  expect(Number(await calls.getAttribute('data-used'))).toBeLessThanOrEqual(16);
  await page.screenshot({ path: test.info().outputPath('evolve-branch.png'), fullPage: false });
  expect(mock.requests.filter((r) => r.unexpected)).toEqual([]);
});
