/**
 * The Experiments view against the mock LLM: a tiny random-control (ID = advent:0, OOD = advent:1,
 * K = 1, S = 3, 1 repeat, budget 4 metric calls, 1 session per validation task) shows its plan
 * (4 steps, the paper's per-session tokens beside ours), is reloaded mid-run, resumed and runs to
 * its report (2 evolutions, 3 arms × 2 task sets, one learning-curve chart per task set with a PNG
 * export), whose exports hold the on-page numbers; a bad
 * experiment file is refused with its fields named and its text kept. Screenshots at 1280×800.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { KEY } from './llm-helpers.ts';
import { setNumber, useMock } from './run-helpers.ts';

let mock: MockLlm;

test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'take paper', 'west', 'take gun', 'north'] });
});

test.afterEach(async () => {
  await mock.close();
});

async function goToExperiments(page: Page): Promise<void> {
  await page.getByTestId('nav-experiments').click();
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
}

async function download(page: Page, testid: string): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await page.getByTestId(testid).click();
  const file = await downloading;
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

test('a tiny random-control: plan before Start, reload mid-run, resume, report and exports', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await useMock(page, mock.baseUrl);
  await goToExperiments(page);
  // The paper's own experiment is offered first.
  await expect(page.locator('[data-testid="experiment-builtin"][value="paper-jericho"]')).toBeChecked();
  await page.locator('[data-testid="experiment-builtin"][value="random-control"]').check();
  // A game the story shelf lacks is named, and Start waits for it.
  await page.locator('[data-testid="experiment-taskset"][data-name="OOD"]').fill('ztuu');
  await expect(page.getByTestId('experiment-missing')).toContainText('ztuu');
  await expect(page.getByTestId('experiment-start')).toBeDisabled();
  await setNumber(page, 'experiment-episodes', 1);
  await setNumber(page, 'experiment-steps', 3);
  await setNumber(page, 'experiment-repeats', 1);
  await setNumber(page, 'experiment-budget', 4);
  await setNumber(page, 'experiment-valRepeats', 1);
  await page.locator('[data-testid="experiment-taskset"][data-name="ID"]').fill('advent:0');
  await page.locator('[data-testid="experiment-taskset"][data-name="OOD"]').fill('advent:1');

  const steps = page.getByTestId('experiment-plan-step');
  await expect(steps).toHaveCount(4);
  expect(await steps.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-step')))).toEqual(['evolve-meta-ttl', 'evolve-random', 'evolve-no-trace', 'eval-OOD']);
  // Three evolutions (LLM, neutral random, no trace): their budget, 4 each; one evaluation off the training games: 4 arms × 1 task × 1 repeat.
  expect(await steps.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[3]?.textContent))).toEqual(['4', '4', '4', '4']);
  await expect(page.getByTestId('experiment-plan-total').locator('td').first()).toHaveText('16');
  // The mock's model has no price: no invented dollars.
  await expect(page.getByTestId('experiment-plan-total').locator('td').last()).toHaveText('—');
  await expect(page.getByTestId('experiment-unpriced')).toContainText('No price at this provider for mock-model');
  await expect(page.getByTestId('experiment-prices')).toHaveCount(0);
  await expect(page.getByTestId('experiment-session-tokens')).toContainText('the paper (K = 6, Jericho): 364K and 196K');
  // Power before Start (Δ 0.05 by default): one game per evaluation here, so no game-level test and no flag at any repeats.
  await expect(page.getByTestId('experiment-power-delta')).toHaveValue('0.05');
  await expect(page.getByTestId('experiment-power-step')).toHaveCount(1);
  await expect(page.getByTestId('experiment-power-step').first()).toContainText('eval-OOD (1 game): — repeats per task (1 game: a game-level test needs at least 2)');
  await expect(page.getByTestId('experiment-power-step').first()).toContainText('no “Δ > 0 (Holm)” flag is possible');
  await page.getByTestId('experiment-power').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiments-plan-power.png') });
  await expect(page.getByTestId('experiment-missing')).toHaveCount(0);
  await page.getByTestId('experiment-plan-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/experiments-plan.png', fullPage: false });

  await page.getByTestId('experiment-start').click();
  const run = page.getByTestId('experiment-run');
  await expect(run).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('experiment-progress')).toContainText(/Step \d of 4/);
  await expect(page.getByTestId('experiment-spent')).toContainText('tokens');
  await run.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/experiments-running.png', fullPage: false });
  // Reload once the first evolution is done: the second step is then under way or about to be.
  // Actor replies are slowed from here on so that the second step cannot finish between two polls.
  mock.setOptions({ faults: [{ kind: 'slow', delayMs: 400, role: 'actor' }] });
  await expect.poll(() => run.getAttribute('data-done'), { timeout: 120_000, intervals: [50] }).toBe('1');
  const id = await run.getAttribute('data-id');
  await page.reload();
  mock.setOptions({ faults: [] });
  // The key was in memory only: enter it again, then resume the experiment (shown by itself).
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('experiment-run')).toHaveAttribute('data-id', id!);
  await expect(page.getByTestId('experiment-progress')).toContainText('Not finished');
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill(KEY);
  await goToExperiments(page);
  await page.getByTestId('experiment-resume').click();
  await expect(page.getByTestId('experiment-run')).toHaveAttribute('data-status', 'complete', { timeout: 240_000 });
  await expect(page.getByTestId('experiment-run')).toHaveAttribute('data-done', '4');
  await expect(page.getByTestId('experiment-report-status')).toContainText('Status: complete.');

  const rows = page.getByTestId('experiment-report-row');
  await expect(rows).toHaveCount(4);
  const onPage = await rows.evaluateAll((trs) => trs.map((tr) => ({
    step: tr.getAttribute('data-step'), arm: tr.getAttribute('data-arm'),
    n: tr.querySelector('[data-testid="experiment-report-n"]')?.textContent, wAuc: tr.querySelector('[data-testid="experiment-report-wauc"]')?.textContent ?? '',
  })));
  expect(onPage.map((r) => `${r.step} ${r.arm} ${r.n}`)).toEqual(['eval-OOD naive 1', 'eval-OOD evolved 1', 'eval-OOD random-evolved 1', 'eval-OOD no-trace-evolved 1']);
  // The arms' accounting side by side, and the sentence saying whether they are matched.
  const evolutionRows = page.getByTestId('experiment-report-evolution');
  await expect(evolutionRows).toHaveCount(3);
  await expect(evolutionRows.nth(1).locator('[data-col="proposer"]')).toContainText('random-neutral (edit sizes');
  await expect(evolutionRows.nth(2).locator('[data-col="proposer"]')).toHaveText('llm (no trace)');
  for (let i = 0; i < 3; i++) await expect(evolutionRows.nth(i).locator('[data-col="proposals"]')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('experiment-arm-matching')).toHaveCount(1);
  await expect(page.getByTestId('experiment-arm-matching')).toContainText(/^(Matched|Not matched): evolve-meta-ttl \(llm\)/);
  await page.getByTestId('experiment-report-evolutions').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/experiments-evolutions.png', fullPage: false });
  await expect(page.getByTestId('experiment-report-leaks')).toContainText('evolved');
  // The contrast random-control exists for is declared beside each arm vs naive, per evaluation step.
  const contrasts = page.getByTestId('comparison-row');
  expect(await contrasts.evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-a')}-${tr.getAttribute('data-b')}`))).toEqual([
    'evolved-naive', 'random-evolved-naive', 'no-trace-evolved-naive', 'evolved-random-evolved', 'evolved-no-trace-evolved',
  ]);
  await expect(page.getByTestId('report-warning').and(page.locator('[data-code="few_games"]')).first()).toContainText('cannot support a claim about games in general');
  await page.getByTestId('comparisons-table').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiments-comparisons.png') });
  await page.getByTestId('experiment-report').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/experiments-report.png', fullPage: false });

  // Learning curves: one chart per task set, its legend naming the arms and the per-game max (curves are score ÷ each game's max score),
  // its numbers in a data list, its PNG a 1920×1080 image named after the experiment and step.
  const curves = page.getByTestId('experiment-curves-step');
  await expect(curves).toHaveCount(1);
  expect(await curves.evaluateAll((els) => els.map((el) => el.getAttribute('data-step')))).toEqual(['eval-OOD']);
  for (const step of ['eval-OOD']) {
    const chart = page.locator(`[data-testid="experiment-curves-step"][data-step="${step}"]`);
    await expect(chart.getByTestId('experiment-curves')).toHaveAttribute('data-legend', 'naive | evolved | random-evolved | no-trace-evolved | Max score (each game)');
    await expect(chart.getByTestId('experiment-curves')).toHaveAttribute('data-y-range', '0,1');
    await expect(chart.getByRole('img')).toHaveAccessibleName(new RegExp(`^Learning curves of ${step.slice(5)} \\(${step}\\), mean final score per episode`));
    await expect(chart.getByTestId('experiment-curves-data').locator('li')).toHaveCount(4);
  }
  const idChart = page.locator('[data-testid="experiment-curves-step"][data-step="eval-OOD"]');
  await idChart.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/experiments-curves.png', fullPage: false });
  const downloadingPng = page.waitForEvent('download');
  await idChart.getByTestId('experiment-curves-export-png').click();
  const pngFile = await downloadingPng;
  expect(pngFile.suggestedFilename()).toMatch(/^experiment-curves-random-control-eval-OOD-.*\.png$/);
  const png = readFileSync(await pngFile.path());
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1920, 1080]);

  const json = await download(page, 'experiment-export-json');
  expect(json.text).not.toContain(KEY);
  const parsed = JSON.parse(json.text) as { experiment: { name: string; episodes: number }; report: { rows: { arm: string; wAuc: { estimate: number } }[] } };
  expect(parsed.experiment).toMatchObject({ name: 'random-control', episodes: 1 });
  expect(parsed.report.rows.map((r) => `${r.arm} ${r.wAuc.estimate.toFixed(3)}`)).toEqual(onPage.map((r) => `${r.arm} ${r.wAuc.split(' ')[0]}`));
  const csv = await download(page, 'experiment-export-csv');
  const [header, ...lines] = csv.text.trim().split('\n').map((l) => l.split(','));
  expect(lines.map((l) => l[header!.indexOf('arm')])).toEqual(onPage.map((r) => r.arm));
  // The CLI's other CSV files: the contrasts (random-control's own: evolved − random-evolved) and the evolutions' counts.
  const comparisons = await download(page, 'experiment-export-comparisons-csv');
  expect(comparisons.name).toMatch(/^experiment-random-control-.*-comparisons\.csv$/);
  const [cHeader, ...cLines] = comparisons.text.trim().split('\n').map((l) => l.split(','));
  expect(cHeader!.slice(0, 4)).toEqual(['step', 'a', 'b', 'task_set']);
  expect(cHeader).toEqual(expect.arrayContaining(['sign_flip_p', 'min_p', 'holm_p', 'per_game', 'few_games', 'registered']));
  expect(cLines.map((l) => `${l[0]} ${l[1]}-${l[2]}`)).toContain('eval-OOD evolved-random-evolved');
  // One game (advent:1): fewer than 6, so the few_games column says so.
  expect(cLines.every((l) => l[cHeader!.indexOf('few_games')] === 'true')).toBe(true);
  const evolutions = await download(page, 'experiment-export-evolutions-csv');
  const [eHeader, ...eLines] = evolutions.text.trim().split('\n').map((l) => l.split(','));
  expect(eHeader).toEqual(expect.arrayContaining(['proposals', 'accepted', 'validated', 'proposer_tokens', 'replicate']));
  expect(eLines.map((l) => l[0])).toEqual(['evolve-meta-ttl', 'evolve-random', 'evolve-no-trace']);
  await expect(page.getByTestId('experiment-export-folds-csv')).toHaveCount(0);
  const md = await download(page, 'experiment-export-md');
  expect(md.text).toContain('# Experiment random-control');
  const html = await download(page, 'experiment-export-html');
  expect(html.name).toMatch(/\.html$/);
  expect(html.text).not.toContain('<script');
});

test('the plan names the models and prices its USD is at, as `experiment plan` does', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./?view=experiments');
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('[data-testid="experiment-builtin"][value="paper-jericho"]')).toBeChecked();
  await expect(page.getByTestId('experiment-plan-total').locator('td').last()).toHaveText(/^\$[\d.,]+ – \$[\d.,]+$/);
  await expect(page.getByTestId('experiment-prices')).toHaveText('USD at gpt-4o-mini $0.15/$0.60 per M tokens in/out (cached in $0.075) (actor, meta-agent, proposer).');
  await page.getByTestId('experiment-prices').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiments-plan-prices.png') });
});

test('a bad experiment file is refused with every bad field named, its text kept to fix', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./?view=experiments');
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
  const bad = JSON.stringify({ name: 'mine', episodes: 0, steps: 3, repeats: 1, taskSets: { T: ['advent:0'] }, arms: [{ id: 'naive', policy: 'naive' }], baseline: 'static', evaluateOn: ['T'] });
  await page.getByTestId('experiment-file').setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
  const problems = page.getByTestId('experiment-file-problem');
  await expect(problems).toHaveCount(2);
  await expect(problems.nth(0)).toHaveText(/^baseline must be the id of one of the arms \(naive\)/);
  await expect(problems.nth(1)).toHaveText(/^episodes must be a whole number from 1 to 100, got 0/);
  await expect(page.getByTestId('experiment-file-text')).toHaveValue(bad);
  await expect(page.getByTestId('experiment-plan-panel')).toHaveCount(0);
  await page.getByTestId('experiment-file-problems').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/experiments-bad-file.png', fullPage: false });
  // Fixed in place: the plan appears.
  await page.getByTestId('experiment-file-text').fill(bad.replace('"episodes":0', '"episodes":1').replace('"baseline":"static"', '"baseline":"naive"'));
  await page.getByTestId('experiment-file-check').click();
  await expect(problems).toHaveCount(0);
  await expect(page.getByTestId('experiment-plan-step')).toHaveCount(1);
});
