/**
 * The walkthrough-recall probe in the page, without a key: "Try it without a key" (the simulated
 * model), then in Experiments upload a walkthrough — an empty file and a games.json without the
 * chosen story are refused with what to fix — pick The Lever Room, run 4 positions with k = 2, and
 * read recall beside the shuffled control and the best constant guess; the CSV and JSON downloads
 * carry the same counts as the table. An experiment file with a `recallProbe` step runs it through
 * the page's executor and reports it (section and Recall CSV).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SIMULATION_NOTICE } from '../src/llm/model-label.ts';
import { setNumber } from './run-helpers.ts';

/** 8 commands; with k = 2 and 4 positions the asked ones are at 2, 3, 5, 6: north, pull lever, pull lever, inventory. */
const WALKTHROUGH = ['look', 'pull lever', 'north', 'pull lever', 'south', 'pull lever', 'inventory', 'pull lever'];

async function upload(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('recall-file').setInputFiles({ name, mimeType: name.endsWith('.json') ? 'application/json' : 'text/plain', buffer: Buffer.from(text) });
}

async function download(page: Page, testid: string): Promise<string> {
  const downloading = page.waitForEvent('download');
  await page.getByTestId(testid).click();
  return readFileSync(await (await downloading).path(), 'utf8');
}

test('the recall probe: an uploaded walkthrough of The Lever Room against the simulated model, with the control and the best constant guess', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./');
  await expect(page.getByRole('dialog', { name: 'Agents that learn across attempts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-learn').click();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('learn-try-simulated').click();
  await expect(page.getByTestId('learn-models')).toContainText('Actor simulated');

  await page.getByTestId('nav-experiments').click();
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('recall-probe-panel').locator('summary').click();

  // Bad input, each refused with what to fix.
  await upload(page, 'empty.txt', '\n  \n');
  await expect(page.getByTestId('recall-error')).toHaveText('empty.txt is empty: a walkthrough is one command per line, or Jericho\'s games.json');
  await expect(page.getByTestId('recall-run')).toHaveAttribute('title', 'Upload a walkthrough file first.');
  await upload(page, 'games.json', JSON.stringify([{ name: 'zork1', rom_md5: 'b7', walkthrough: ['n'] }, { name: 'temple', walkthrough: ['w'] }]));
  await expect(page.getByTestId('recall-file-summary')).toHaveText('From games.json: 2 games: zork1, temple');
  await page.getByTestId('recall-story').selectOption('lever-room');
  await page.getByTestId('recall-run').click();
  await expect(page.getByTestId('recall-error')).toHaveText('games.json has no walkthrough for lever-room (it has zork1, temple)');

  await upload(page, 'lever-room.txt', `# The Lever Room\n${WALKTHROUGH.join('\n')}\n`);
  await expect(page.getByTestId('recall-file-summary')).toHaveText('From lever-room.txt: 8 commands');
  await expect(page.getByTestId('recall-error')).toHaveCount(0);
  await setNumber(page, 'recall-k', 2);
  await setNumber(page, 'recall-probes', 4);
  await page.getByTestId('recall-run').click();
  const result = page.getByTestId('recall-result');
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect(result).toHaveAttribute('data-model', 'simulated');
  await expect(result).toContainText('The Lever Room — 8 questions to simulated model; k = 2, at most 4 positions, control seed 0; walkthrough from lever-room.txt.');
  await expect(page.getByTestId('recall-model-caveat')).toHaveText(`Played by the ${SIMULATION_NOTICE}. Its recall says nothing about any language model’s memory.`);
  const row = page.locator('[data-testid="recall-table-row"][data-game="lever-room"]');
  const cell = (column: string) => row.locator(`td[data-column="${column}"]`);
  await expect(cell('walkthrough lines')).toHaveText('8');
  await expect(cell('probes')).toHaveText('4');
  await expect(cell('failed')).toHaveText('0');
  // "pull lever" is the most frequent command: 2 of the 4 asked; Wilson 95 % [15.0, 85.0] by hand.
  await expect(cell('frequency baseline')).toHaveText('2/4 50.0 % [15.0, 85.0] ("pull lever")');
  await expect(result).toContainText('does not show the model never saw the game');
  await result.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('recall-probe.png') });

  // The downloads hold the same counts as the table; every question was asked and scored.
  const json = JSON.parse(await download(page, 'recall-download-json')) as { format: string; model: string; items: { kind: string; target: string; normalised: boolean; answer: string | null }[]; games: { normalised: { count: number }; shuffledNormalised: { count: number } }[] };
  expect([json.format, json.model, json.items.length]).toEqual(['metattl-recall-probe-1', 'simulated', 8]);
  expect(json.items.filter((x) => x.kind === 'recall').map((x) => x.target)).toEqual(['north', 'pull lever', 'pull lever', 'inventory']);
  expect(json.items.every((x) => x.answer !== null)).toBe(true);
  const recalled = json.items.filter((x) => x.kind === 'recall' && x.normalised).length;
  const controlled = json.items.filter((x) => x.kind === 'shuffled' && x.normalised).length;
  expect([json.games[0]!.normalised.count, json.games[0]!.shuffledNormalised.count]).toEqual([recalled, controlled]);
  await expect(cell('recall normalised')).toContainText(`${recalled}/4 `);
  await expect(cell('control (shuffled) normalised')).toContainText(`${controlled}/4 `);
  const csv = (await download(page, 'recall-download-csv')).trim().split('\n').map((l) => l.split(','));
  expect(csv[0]!.slice(0, 6)).toEqual(['game', 'walkthrough_lines', 'probes', 'failed', 'exact', 'normalised']);
  expect(csv[0]!.slice(-2)).toEqual(['model', 'model_caveat']);
  expect(csv[1]!.slice(0, 6)).toEqual(['"lever-room"', '8', '4', '0', expect.any(String), String(recalled)]);
});

test('an experiment file with a recall-probe step: refused without its walkthrough, planned after its evaluation, run with the simulated model, its section in the report', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./?view=settings');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
  await page.getByTestId('provider-preset').selectOption('simulated');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
  const skipTour = page.getByRole('button', { name: 'Skip the tour' });
  if (await skipTour.isVisible()) await skipTour.click();
  await page.getByTestId('nav-experiments').click();
  await expect(page.getByTestId('experiments')).toHaveAttribute('data-ready', 'true');
  const spec = {
    name: 'recall-page', episodes: 1, steps: 3, repeats: 1, taskSets: { T: ['lever-room:1'] }, arms: [{ id: 'naive', policy: 'naive' }], baseline: 'naive', evaluateOn: ['T'],
    recallProbe: { taskSets: ['T'], k: 2, probes: 4, walkthroughs: { 'lever-room': WALKTHROUGH } },
  };
  // Without the walkthrough in the spec the page refuses before Start (it has no games.json).
  const bare = { ...spec, recallProbe: { taskSets: ['T'], k: 2, probes: 4 } };
  await page.getByTestId('experiment-file').setInputFiles({ name: 'recall-page.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bare)) });
  await page.getByTestId('experiment-start').click();
  await expect(page.getByTestId('experiments-error')).toContainText('The recall probe has no walkthrough for lever-room: the page reads walkthroughs only from the experiment\'s recallProbe.walkthroughs (game → commands); the CLI also reads Jericho\'s games.json.');
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await page.getByTestId('experiment-file').setInputFiles({ name: 'recall-page.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(spec)) });
  const plan = page.getByTestId('experiment-plan-panel');
  await expect(plan).toContainText('walkthrough-recall probe of lever-room (k 2, at most 4 positions per game)');
  await page.getByTestId('experiment-start').click();
  await expect(page.getByTestId('experiment-run')).toHaveAttribute('data-status', 'complete', { timeout: 150_000 });
  await expect(page.getByTestId('experiment-report-recall-step')).toHaveText('recall-probe: Model: simulated; k = 2 commands shown, at most 4 positions per game, control seed 0. Walkthroughs: the experiment\'s recallProbe.walkthroughs (lever-room).');
  const row = page.locator('[data-testid="experiment-report-recall-row"][data-game="lever-room"]');
  await expect(row.locator('td[data-column="probes"]')).toHaveText('4');
  // The same walkthrough, k and positions as the upload above: "pull lever" is 2 of the 4 asked.
  await expect(row.locator('td[data-column="frequency baseline"]')).toHaveText('2/4 50.0 % [15.0, 85.0] ("pull lever")');
  const downloading = page.waitForEvent('download');
  await page.getByTestId('experiment-export-recall-csv').click();
  const csv = readFileSync(await (await downloading).path(), 'utf8').trim().split('\n').map((l) => l.split(','));
  expect(csv[1]!.slice(0, 6)).toEqual(['recall-probe', '0', 'simulated', 'lever-room', '8', '4']);
  await page.getByTestId('experiment-report-recall').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('experiment-recall.png') });
});
