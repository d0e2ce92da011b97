/**
 * Web tasks in the page against the mock LLM (started in the test process), in Chromium:
 * - Evaluate: static vs naive on WEB-ID-test (1 repeat, the web defaults 3 × 10) runs end to end in
 *   the page on the detached document, and its numbers — every session's scores and W-AUC, and the
 *   report's per-policy W-AUC, average and best score with their intervals — equal those of
 *   `metattl eval` run here on the same tasks and mock; a malformed web id is refused with the
 *   catalog's message. The page's JSON export then opens in Replay, which draws the site at a chosen
 *   step: its URL, the product typed into the search field, the acted element outlined.
 * - Evolve: 2 web training + 2 web validation tasks with a small budget complete and show their
 *   candidates, validation tasks labelled site/template:seed with the intent on hover.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { nodeWebEnvironment } from '../src/cli/web-tasks.ts';
import { runScript } from '../src/web/dom/oracle.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { runCli } from '../test/support/cli.ts';
import { openReplayFile } from './replay-helpers.ts';
import { goToRunView, setNumber, useMock } from './run-helpers.ts';

let mock: MockLlm;

/** The task's goal and the actions of its oracle script (what the mock's actor plays for it). */
async function oracle(taskId: string): Promise<{ goal: string; script: string[] }> {
  const env = nodeWebEnvironment(taskId);
  await env.reset(env.task.seed);
  const goal = env.current.intent;
  const played = await runScript(env, env.current.oracle);
  return { goal, script: played.steps.map((s) => s.action) };
}

test.beforeEach(async () => {
  // Unscripted tasks answer N/A (right only for the unachievable ones); scripted ones play their oracle.
  mock = await startMockLlm({ exploreCommands: ["send_msg_to_user('N/A')"] });
  mock.setOptions({ goalScripts: await Promise.all(['web:shop/t1:4', 'web:map/t44:4', 'web:shop/t1:1'].map(oracle)) });
});

test.afterEach(async () => {
  await mock.close();
});

async function download(page: Page, testid: string): Promise<string> {
  const downloading = page.waitForEvent('download');
  await page.getByTestId(testid).click();
  return readFileSync(await (await downloading).path(), 'utf8');
}

interface Results {
  config: { episodes: number; maxSteps: number; taskSets: { name: string; tasks: { id: string }[] }[] };
  report: { policies: { policyId: string; taskSet: string; wAuc: unknown; averageScore: unknown; bestScore: unknown }[] };
  sessions: { policyId: string; taskId: string; scores: number[]; wAuc: number; session: { episodes: { steps: unknown[] }[] } | null }[];
}

const bySession = (r: Results) => Object.fromEntries(r.sessions.map((s) => [`${s.policyId} ${s.taskId}`, { scores: s.scores, wAuc: s.wAuc }]));
const policies = (r: Results) => r.report.policies.map((p) => ({ policyId: p.policyId, taskSet: p.taskSet, wAuc: p.wAuc, averageScore: p.averageScore, bestScore: p.bestScore }));

test('static vs naive on WEB-ID-test from the page equals `metattl eval`; the replay draws the site at a chosen step', async ({ page }) => {
  test.setTimeout(600_000);
  const out = mkdtempSync(join(tmpdir(), 'metattl-e2e-web-eval-'));
  const cli = await runCli(['eval', '--policies', 'static,naive', '--tasks', 'WEB-ID-test', '--repeats', '1', '--out', join(out, 'res'),
    '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--json']);
  expect(cli.code, cli.stderr).toBe(0);
  const expected = JSON.parse(readFileSync(join(out, 'res', 'results.json'), 'utf8')) as Results;

  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evaluate');
  const field = page.getByTestId('evaluate-web-tasks');
  await field.fill('WEB-ID-test, web:shop/t1');
  await expect(page.getByTestId('evaluate-web-error')).toHaveText('“web:shop/t1”: "web:shop/t1" is not a web task id (expected web:<site>/<template>:<seed>, e.g. web:shop/t1:3).');
  await expect(page.getByTestId('evaluate-start')).toBeDisabled();
  await field.fill('WEB-ID-test');
  await expect(page.getByTestId('evaluate-web-error')).toHaveCount(0);
  await expect(page.getByTestId('evaluate-episodes')).toHaveValue('3');
  await expect(page.getByTestId('evaluate-steps')).toHaveValue('10');
  await setNumber(page, 'evaluate-repeats', 1);
  await page.getByTestId('evaluate-start').click();
  const run = page.getByTestId('evaluate-run');
  await expect(run).toHaveAttribute('data-status', 'complete', { timeout: 480_000 });
  await expect(run).toHaveAttribute('data-done', '120');
  // The sites ran in hidden frames, removed with their engines when the run ended.
  await expect(page.locator('iframe[data-web-task-document]')).toHaveCount(0);
  const game = page.locator('[data-testid="game-row"][data-game="web:shop/t1"]').first().locator('th');
  await expect(game).toHaveText('shop/t1');
  await expect(game).toHaveAttribute('title', /^e\.g\. What is the price of the /);

  const text = await download(page, 'evaluate-export-json');
  const actual = JSON.parse(text) as Results;
  expect(actual.config).toMatchObject({ episodes: 3, maxSteps: 10 });
  expect(actual.config.taskSets.map((s) => [s.name, s.tasks.map((t) => t.id)])).toEqual(expected.config.taskSets.map((s) => [s.name, s.tasks.map((t) => t.id)]));
  expect(Object.keys(bySession(actual))).toHaveLength(120);
  expect(bySession(actual)).toEqual(bySession(expected));
  expect(bySession(actual)['static web:shop/t1:4']!.scores).toEqual([1, 1, 1]);
  expect(bySession(actual)['naive web:shop/t7:4']!.scores).toEqual([0, 0, 0]);
  expect(policies(actual)).toEqual(policies(expected));

  // Replay the page's session of static on web:shop/t1:4 (its oracle: fill the search field, search, open the product, answer).
  await page.getByTestId('nav-replay').click();
  await openReplayFile(page, 'web-evaluation.json', text);
  await page.getByTestId('replay-item').filter({ hasText: 'static · web:shop/t1:4' }).click();
  await expect(page.getByTestId('web-frame-url')).toHaveText('http://shop.test/');
  const frame = page.frameLocator('[data-testid="web-frame"]');
  await expect(frame.locator('[bid="12"]')).toBeAttached();
  await page.getByTestId('replay-forward').click();
  await expect(page.getByTestId('replay-web')).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('web-frame-url')).toHaveText('http://shop.test/');
  const searchField = frame.locator('[bid="12"]');
  await expect(searchField).toHaveValue('Harbor Coffee Grinder');
  expect(await searchField.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
  expect(await frame.locator('[bid="13"]').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('none');
  await expect(page.getByTestId('web-frame')).toHaveAttribute('sandbox', 'allow-same-origin');
  await page.getByTestId('replay-forward').click();
  await page.getByTestId('replay-forward').click();
  await expect(page.getByTestId('replay-web')).toHaveAttribute('data-step', '3');
  await expect(page.getByTestId('web-frame-url')).toHaveText(/^http:\/\/shop\.test\/product\/SKU-\d+$/);
  await expect(frame.locator('h1')).toHaveText('Harbor Coffee Grinder');
  await page.getByTestId('replay-back').click();
  await expect(page.getByTestId('web-frame-url')).toHaveText('http://shop.test/search?q=Harbor+Coffee+Grinder');
});

test('an Evolve run on 2 web training and 2 web validation tasks completes and shows its candidates', async ({ page }) => {
  test.setTimeout(300_000);
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evolve');
  await page.getByTestId('evolve-web-train').fill('web:shop/t1:1, web:nowhere/t1:1');
  await expect(page.getByTestId('evolve-web-train-error')).toHaveText('“web:nowhere/t1:1”: unknown site "nowhere" in web:nowhere/t1:1 (sites: shop, shop-admin, forum, forge, map).');
  await expect(page.getByTestId('evolve-start')).toBeDisabled();
  await page.getByTestId('evolve-web-train').fill('web:shop/t1:1, web:forge/t30:1');
  await page.getByTestId('evolve-web-val').fill('web:shop/t1:3');
  // One instance picked from the catalog list (its intent shown) joins the field.
  const adder = page.getByTestId('evolve-web-val-add');
  await adder.focus();
  await expect(adder.locator('option[value="web:map/t40:3"]')).toContainText('map/t40:3 (val) — ');
  await adder.selectOption('web:map/t40:3');
  await expect(page.getByTestId('evolve-web-val')).toHaveValue('web:shop/t1:3, web:map/t40:3');
  await expect(page.getByTestId('evolve-split')).toHaveText('2 training tasks, 2 validation tasks');
  await expect(page.getByTestId('evolve-split-warning')).toHaveCount(0);
  await expect(page.getByTestId('evolve-episodes')).toHaveValue('3');
  await expect(page.getByTestId('evolve-steps')).toHaveValue('10');
  await setNumber(page, 'evolve-budget', 8);
  await page.getByTestId('evolve-start').click();
  const run = page.getByTestId('evolve-run');
  await expect(run).toHaveAttribute('data-status', 'complete', { timeout: 240_000 });
  const rows = page.getByTestId('candidate-row');
  expect(await rows.count()).toBeGreaterThan(1);
  await expect(page.getByTestId('evolve-candidate-count')).toContainText(`${await rows.count()} (`);
  const heads = page.getByTestId('candidate-table').locator('thead th');
  await expect(heads.filter({ hasText: 'shop/t1:3' })).toHaveAttribute('title', /^What is the price of the /);
  await expect(heads.filter({ hasText: 'map/t40:3' })).toHaveCount(1);
});
