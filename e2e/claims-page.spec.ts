/**
 * The claims a run can be trusted with, in the page, against the mock LLM:
 * - the Evolve form offers the matched random control (neutral edits of given word sizes) and the
 *   LLM proposer without the trace; a run started with "no trace" records it and its proposer
 *   prompts carry no session log (the no-trace note instead);
 * - the Experiments view registers a run card before Start (spec sha-256, code version, primary
 *   contrast, α), and the report of a tiny random-control says the run matches it, labels the
 *   primary contrast, shows each arm's proposals, accepted, validated and proposer tokens / USD
 *   side by side, and the dictionary overlap of the evaluated games with the training games;
 * - the Evaluate report shows an evolved meta-prompt's dictionary overlap with its selection games
 *   and its Markdown export carries it.
 * Screenshots of the Evolve form and the reports at 1280×800.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { seriousViolations } from './axe.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

let mock: MockLlm;

test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'north'] });
});

test.afterEach(async () => {
  await mock.close();
});

const NO_TRACE_NOTE = 'In this run you are shown no logs of any session';

test('the Evolve form offers the matched random control and the proposer without the trace; a no-trace run records it', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evolve');
  await setStoryRole(page, 'evolve', 'advent', 'train');
  await setStoryRole(page, 'evolve', 'local:temple.z5', 'val');
  const proposer = page.getByTestId('evolve-proposer');
  expect(await proposer.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['llm', 'random', 'random-neutral']);
  await proposer.selectOption('random-neutral');
  await expect(page.getByTestId('evolve-proposer-input')).toHaveCount(0);
  const sizes = page.getByTestId('evolve-edit-sizes');
  await expect(sizes).toHaveAttribute('placeholder', '10, 20, 35, 50, 70, 90, 120, 150, 200, 260, 340');
  await sizes.fill('12, 0');
  await expect(page.getByTestId('evolve-problem')).toContainText('Edit sizes: "0" is not a whole number from 1 to 100000');
  await expect(page.getByTestId('evolve-start')).toBeDisabled();
  await sizes.fill('12, 40, 88');
  await expect(page.getByTestId('evolve-start')).toBeEnabled();
  await page.getByTestId('evolve-setup').screenshot({ path: test.info().outputPath('evolve-form-random-neutral.png') });
  expect(await seriousViolations(page)).toEqual([]);

  await proposer.selectOption('llm');
  await expect(sizes).toHaveCount(0);
  const input = page.getByTestId('evolve-proposer-input');
  await input.selectOption('no-trace');
  // OPRO shows a scored history, never a trace: the choice is GEPA's only.
  await page.getByTestId('evolve-optimizer').selectOption('opro');
  await expect(input).toHaveCount(0);
  await page.getByTestId('evolve-optimizer').selectOption('gepa');
  await expect(page.getByTestId('evolve-proposer-input')).toHaveValue('no-trace');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('evolve-proposer').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evolve-form.png') });

  await setNumber(page, 'evolve-episodes', 2);
  await setNumber(page, 'evolve-steps', 3);
  await setNumber(page, 'evolve-budget', 4);
  await page.getByTestId('evolve-start').click();
  await expect(page.getByTestId('evolve-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  await expect(page.getByTestId('evolve-setup-text')).toContainText('(no trace)');
  const proposerPrompts = mock.requests.filter((r) => r.role === 'proposer').map((r) => JSON.stringify(r.body));
  expect(proposerPrompts.length).toBeGreaterThan(0);
  for (const text of proposerPrompts) {
    expect(text).toContain(NO_TRACE_NOTE);
    expect(text).not.toContain('=== EPISODE');
  }
});

test('a registered tiny random-control: the report matches its run card, shows each arm\'s proposal counts and the dictionary overlap', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await useMock(page, mock.baseUrl);
  await page.getByTestId('nav-experiments').click();
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
  await page.locator('[data-testid="experiment-builtin"][value="random-control"]').check();
  await setNumber(page, 'experiment-episodes', 1);
  await setNumber(page, 'experiment-steps', 3);
  await setNumber(page, 'experiment-repeats', 1);
  await setNumber(page, 'experiment-budget', 4);
  await setNumber(page, 'experiment-valRepeats', 1);
  await page.locator('[data-testid="experiment-taskset"][data-name="ID"]').fill('advent:0');
  await page.locator('[data-testid="experiment-taskset"][data-name="OOD"]').fill('lever-room:0');
  await expect(page.getByTestId('experiment-plan-step')).toHaveCount(4);

  // Register: the declared contrasts first (evolved − random-evolved), α 0.1.
  const register = page.getByTestId('experiment-register');
  expect(await seriousViolations(page)).toEqual([]);
  expect(await register.getByTestId('experiment-register-pair').locator('option').allTextContents()).toEqual(['evolved − random-evolved', 'evolved − no-trace-evolved', 'evolved − naive', 'random-evolved − naive', 'no-trace-evolved − naive']);
  // A budget Start would refuse is refused at Register too, in the same words, and nothing is registered.
  await setNumber(page, 'experiment-budget', 2);
  await register.getByTestId('experiment-register-button').click();
  await expect(page.getByTestId('experiments-error')).toContainText(/evolve-meta-ttl: The budget of 2 metric calls .* at least \d+ are needed/);
  await expect(page.getByTestId('experiment-registration')).toHaveCount(0);
  await page.getByTestId('experiments-error').getByRole('button', { name: 'Dismiss' }).click();
  await setNumber(page, 'experiment-budget', 4);
  await register.getByTestId('experiment-register-alpha').fill('0.1');
  await register.getByTestId('experiment-register-button').click();
  const card = page.getByTestId('experiment-registration');
  await expect(card).toContainText(/Registered .*: random-control, spec sha-256 [0-9a-f]{12}…, code \S+;\s+primary contrast evolved − random-evolved on every evaluated task set, α = 0\.1\./);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiment-registered.png') });
  // A changed setting is refused until set back.
  await setNumber(page, 'experiment-repeats', 2);
  await expect(page.getByTestId('experiment-start')).toHaveAttribute('title', /differs from its registration .* in repeats/);
  await page.getByTestId('experiment-start').click();
  await expect(page.getByTestId('experiments-error')).toContainText('differs from its registration');
  await page.getByTestId('experiments-error').getByRole('button', { name: 'Dismiss' }).click();
  await setNumber(page, 'experiment-repeats', 1);
  await page.getByTestId('experiment-start').click();
  await expect(page.getByTestId('experiment-run')).toHaveAttribute('data-status', 'complete', { timeout: 200_000 });
  // Start used the card: it is in the experiment, no longer pending.
  await expect(card).toHaveCount(0);

  const report = page.getByTestId('experiment-report');
  const lines = report.getByTestId('experiment-report-registration');
  await expect(lines.first()).toHaveAttribute('data-matches', 'true');
  await expect(lines.nth(1)).toContainText('This run matches its registration');
  await expect(lines.nth(2)).toContainText(/^Primary evolved − random-evolved on OOD \(eval-OOD\): Δ /);
  await expect(report.locator('[data-testid="comparison-row"][data-a="evolved"][data-b="random-evolved"] td').first()).toHaveText('eval-OOD · primary');

  // Each arm's proposals, accepted, validated and proposer tokens / USD side by side.
  const evolutions = report.getByTestId('experiment-report-evolution');
  await expect(evolutions).toHaveCount(3);
  const counts = await evolutions.evaluateAll((trs) => trs.map((tr) => Object.fromEntries(['proposals', 'accepted', 'validated', 'proposer tokens', 'proposer USD'].map((col) => [col, tr.querySelector(`td[data-col="${col}"]`)?.textContent ?? null]))));
  expect(counts).toHaveLength(3);
  for (const c of counts) for (const v of Object.values(c)) expect(v).not.toBeNull();
  // The random arm calls no proposer model.
  expect(counts[1]!['proposer tokens']).toBe('0');
  expect(Number(counts[0]!['proposer tokens']!.replace(/\D/g, ''))).toBeGreaterThan(0);

  expect(await seriousViolations(page)).toEqual([]);
  // The dictionary overlap of OOD (lever-room) with the training games (advent).
  const overlap = report.locator('[data-testid="experiment-report-row"][data-step="eval-OOD"] [data-testid="experiment-report-overlap"]');
  await expect(overlap).toHaveCount(4);
  await expect(overlap.first()).toHaveText(/^\d+\.\d %$/);
  const vocabulary = report.getByTestId('experiment-report-vocabulary');
  await expect(vocabulary).toContainText('eval-OOD');
  await expect(vocabulary).toContainText('advent');
  // The report at 1280×800; the wide tables scrolled to their last columns (the counts, the overlap).
  await report.getByTestId('experiment-report-evolutions').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiment-report-claims.png') });
  for (const id of ['experiment-report-evolutions', 'experiment-report-results']) {
    await report.getByTestId(id).evaluate((table) => table.parentElement!.scrollTo({ left: table.parentElement!.scrollWidth }));
  }
  await page.screenshot({ path: test.info().outputPath('experiment-report-counts.png') });
  await report.getByTestId('experiment-report-results').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiment-report-overlap.png') });
});

test('the Evaluate report shows an evolved meta-prompt\'s vocabulary overlap with the games it was selected on, and exports it', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  // A meta-prompt selected on advent, imported into the library (then Settings: the key lives in memory only).
  await page.goto('./?view=library');
  await expect(page.getByTestId('meta-library')).toHaveAttribute('data-ready', 'true');
  const entry = { id: 'x', name: 'Evolved on advent', strategy: 'Write a numbered ROUTE of the commands that scored.', selectedOn: ['advent'] };
  await page.getByTestId('meta-import').setInputFiles({ name: 'evolved.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ format: 'metattl-meta-prompt-1', entry })) });
  await expect(page.getByTestId('meta-message')).toContainText('Imported “Evolved on advent”');
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evaluate');
  await page.locator('label').filter({ hasText: 'Evolved on advent' }).getByTestId('evaluate-policy').check();
  await setStoryRole(page, 'evaluate', 'lever-room', 'custom', '0');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 1);
  await setNumber(page, 'evaluate-steps', 3);
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  const rows = page.getByTestId('evaluate-vocabulary-row');
  await expect(rows).toHaveCount(1);
  const cells = await rows.first().locator('td').allTextContents();
  // policy id, task set, training games, dictionary overlap, walkthrough (none in the page), per game, missing.
  expect(cells.slice(1, 3)).toEqual(['custom', 'advent']);
  expect(cells[3]).toMatch(/^\d+\.\d % \(\d+\/\d+\)$/);
  expect(cells.slice(4)).toEqual(['—', expect.stringMatching(/^lever-room \d+\.\d %$/), '—']);
  const downloading = page.waitForEvent('download');
  await page.getByTestId('evaluate-export-md').click();
  const md = readFileSync(await (await downloading).path(), 'utf8');
  expect(md).toContain('## Vocabulary overlap with the training games');
  expect(md).toContain(`| custom | advent | ${cells[3]} |`);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByTestId('evaluate-vocabulary').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evaluate-vocabulary.png') });
});
