/**
 * The other optimizers as baselines in the page, against the mock LLM: an OPRO evolution (the
 * Evolve form's optimizer choice; the dashboard's "Outer loop" line names it; its proposer reads
 * the scored pool), its child saved to the library, then one evaluation comparing that meta-prompt
 * with the naive meta-agent and a TextGrad arm (a critique, then an update, after each episode but
 * the last — all with the one meta-agent model); and a TextGrad session in the Learn view.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { messageText, type ChatBody } from '../test/mock-llm/roles.ts';
import { configureForLearn, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

let mock: MockLlm;
const SHOTS = process.env.E2E_SHOTS_DIR;

test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['take paper', 'west', 'take gun', 'east', 'north', 'look'] });
});

test.afterEach(async () => {
  await mock.close();
});

const systemOf = (body: unknown) => messageText((body as ChatBody).messages[0]!);
const modelOf = (body: unknown) => (body as ChatBody).model;

test('an OPRO evolution runs in the page, and its meta-prompt, the naive meta-agent and a TextGrad arm run in one evaluation', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evolve');
  await setStoryRole(page, 'evolve', 'advent', 'train');
  await setStoryRole(page, 'evolve', 'local:detective.z5', 'val');
  await setStoryRole(page, 'evolve', 'local:temple.z5', 'val');
  await setNumber(page, 'evolve-episodes', 3);
  await setNumber(page, 'evolve-steps', 6);
  await setNumber(page, 'evolve-budget', 10);
  await expect(page.getByTestId('evolve-optimizer')).toHaveValue('gepa');
  await page.getByTestId('evolve-optimizer').selectOption('opro');
  // GEPA's instruction choice does not apply to OPRO's meta-prompt.
  await expect(page.getByTestId('evolve-proposer-instruction')).toHaveCount(0);
  await page.getByTestId('evolve-optimizer').scrollIntoViewIfNeeded();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/evolve-form-opro.png` });
  await page.getByTestId('evolve-start').click();
  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 150_000 });
  await expect(page.getByTestId('evolve-strategy')).toHaveText('optimizer: OPRO (scored history) · parent: pareto · accept: strict improvement');
  expect(Number(await page.getByTestId('evolve-calls').getAttribute('data-used'))).toBeLessThanOrEqual(10);
  const proposals = mock.requests.filter((r) => r.role === 'proposer');
  expect(proposals.length).toBeGreaterThanOrEqual(1);
  for (const p of proposals) expect(systemOf(p.body)).toMatch(/^You are an optimiser\./);
  expect(messageText((proposals[0]!.body as ChatBody).messages[1]!)).toContain('<solution score="');
  await expect(page.locator('[data-testid="lineage-node"][data-id="c1"]')).toHaveAttribute('data-parent', 'c0');
  await page.getByTestId('evolve-strategy').scrollIntoViewIfNeeded();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/evolve-dashboard-opro.png` });

  await page.locator('[data-testid="candidate-row"][data-id="c1"]').getByTestId('candidate-select').click();
  await page.getByTestId('candidate-inspector').getByTestId('candidate-save').click();
  await expect(page.getByTestId('evolve-notice')).toContainText('Saved c1 to the meta-prompt library');
  const runId = await page.getByTestId('evolve-run').getAttribute('data-id');
  const evolvedId = `evolved-${runId}-c1`;

  const before = mock.requests.length;
  await goToRunView(page, 'evaluate');
  await page.locator('[data-testid="evaluate-policy"][value="static"]').uncheck();
  await page.locator('[data-testid="evaluate-policy"][value="textgrad"]').check();
  await page.locator(`[data-testid="evaluate-policy"][value="${evolvedId}"]`).check();
  await expect(page.getByTestId('evaluate-policy').and(page.locator(':checked'))).toHaveCount(3);
  await setStoryRole(page, 'evaluate', 'advent', 'custom', '0');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 2);
  await setNumber(page, 'evaluate-steps', 3);
  await page.locator('[data-testid="evaluate-policy"][value="textgrad"]').scrollIntoViewIfNeeded();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/evaluate-form-textgrad.png` });
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-done', '3');
  const policies = await page.getByTestId('result-row').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-policy')));
  expect([...policies].sort()).toEqual([evolvedId, 'naive', 'textgrad'].sort());
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/evaluate-report-textgrad.png` });

  // K = 2: one update after episode 1 per reflecting arm. TextGrad's are the critique (the mock's
  // generic answer) and the update step (a meta-agent-shaped request); all go to the meta-agent model.
  const evaluation = mock.requests.slice(before).filter((r) => r.role !== 'actor' && r.path.endsWith('/chat/completions'));
  const critiques = evaluation.filter((r) => systemOf(r.body).startsWith('You are a critic in an optimisation loop.'));
  const updates = evaluation.filter((r) => systemOf(r.body).startsWith('You improve a variable in an optimisation loop'));
  expect(critiques).toHaveLength(1);
  expect(updates).toHaveLength(1);
  expect(updates[0]!.role).toBe('metaAgent');
  expect(evaluation).toHaveLength(4); // + the naive meta-agent and the evolved meta-prompt, once each
  expect(new Set(evaluation.map((r) => modelOf(r.body))).size).toBe(1);
  expect(mock.requests.filter((r) => r.unexpected)).toEqual([]);

  // The Learn view offers the same baseline.
  await page.goto('./?view=learn');
  await expect(page.getByTestId('learn-policy').locator('option[value="textgrad"]')).toHaveCount(1);
});

test('a TextGrad session in the Learn view shows the critique and the update after each episode', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./');
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { policy: 'textgrad', episodes: 2, maxSteps: 3 });
  await waitComplete(page);
  const item = page.locator('[data-testid="learn-feedback-item"][data-episode="1"]');
  await expect(item.locator('.label')).toHaveText(['Textual gradient (critique)', 'TextGrad update']);
  await expect(item.getByTestId('learn-guide')).toContainText('PLAN:');
  await item.scrollIntoViewIfNeeded();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/learn-textgrad.png` });
  expect(mock.requests.filter((r) => r.unexpected)).toEqual([]);
});
