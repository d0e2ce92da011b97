/**
 * Chart and table exports in Chromium against the mock LLM: from Settings, Learn (in the dark theme), Evolve and Evaluate, a
 * chart downloads as a PNG (the PNG signature, 1920 × 1080, an opaque white background with dark
 * drawing on it) and as CSV, and tables download as CSV whose header and rows are what the page
 * shows. CSV is parsed with papaparse (the library that writes it).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import Papa from 'papaparse';
import { EVOLUTION_EXPORT_FORMAT } from '../src/evolve/evolution-io.ts';
import { SIMULATION_NOTICE } from '../src/llm/model-label.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { REPO_ROOT } from '../test/support/shared.ts';
import { configureForLearn, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

let mock: MockLlm | undefined;

test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

interface Saved {
  name: string;
  bytes: Buffer;
}

async function save(page: Page, button: Locator): Promise<Saved> {
  const downloading = page.waitForEvent('download');
  await button.click();
  const file = await downloading;
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

/** The CSV's rows (header first), parsed. */
const csvRows = (file: Saved): string[][] => Papa.parse<string[]>(file.bytes.toString('utf8').trimEnd(), { header: false }).data;

/** A PNG's width and height from its IHDR chunk, after checking the 8-byte signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Decode `png` in the page: its corner pixel (RGBA) and the share of near-black pixels (text and
 * axes drawn dark; the coloured lines and the light grid do not count). */
async function pngPixels(page: Page, png: Buffer): Promise<{ corner: number[]; darkShare: number }> {
  return page.evaluate(async (b64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${b64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(image, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 80 && data[i + 1]! < 80 && data[i + 2]! < 80 && data[i + 3]! > 200) dark++;
    return { corner: [...data.subarray(0, 4)], darkShare: dark / (data.length / 4) };
  }, png.toString('base64'));
}

/** A chart's PNG: signature, 1920 × 1080, opaque white, dark text on it, a real file size. */
async function expectChartPng(page: Page, file: Saved, namePattern: RegExp): Promise<void> {
  expect(file.name).toMatch(namePattern);
  expect(pngSize(file.bytes)).toEqual({ width: 1920, height: 1080 });
  expect(file.bytes.length).toBeGreaterThan(10_000);
  const { corner, darkShare } = await pngPixels(page, file.bytes);
  expect(corner).toEqual([255, 255, 255, 255]);
  expect(darkShare).toBeGreaterThan(0.001);
}

const cellTexts = (rows: Locator, selector: string): Promise<string[][]> =>
  rows.evaluateAll((trs, sel) => trs.map((tr) => [...tr.querySelectorAll(sel)].map((c) => (c.textContent ?? '').trim())), selector);

test('Settings and Learn, in the dark theme: the price table as CSV, the learning curve as a PNG and CSV, the sessions list as CSV', async ({ page }) => {
  test.setTimeout(90_000);
  mock = await startMockLlm({ script: ['east', 'get all', 'west', 'south'] });
  await page.emulateMedia({ colorScheme: 'dark' });
  await configureForLearn(page, mock.baseUrl);
  // Settings' price table: the models and prices in its fields.
  const prices = csvRows(await save(page, page.getByTestId('price-table-export-csv')));
  expect(prices[0]).toEqual(['model', 'input USD per million tokens', 'output USD per million tokens', 'cached input USD per million tokens']);
  const fields = await page.getByTestId('price-row').evaluateAll((rows) => rows.map((r) => {
    const value = (testid: string) => (r.querySelector(`[data-testid="${testid}"]`) as HTMLInputElement).value;
    const cached = value('price-cached');
    return [value('price-model'), String(Number(value('price-input'))), String(Number(value('price-output'))), cached === '' ? '' : String(Number(cached))];
  }));
  expect(fields.length).toBeGreaterThan(0);
  expect(prices.slice(1)).toEqual(fields);
  await goToLearn(page);
  await startSession(page, { episodes: 2, maxSteps: 4, policy: 'meta:naive' });
  await waitComplete(page);
  const sessionId = await page.getByTestId('learn-run').first().getAttribute('data-id');

  const png = await save(page, page.getByTestId('learn-curve-export-png'));
  await expectChartPng(page, png, new RegExp(`^learn-curve-${sessionId}-\\d{4}-\\d{2}-\\d{2}-\\d{4}Z\\.png$`));

  const csv = await save(page, page.getByTestId('learn-curve-export-csv'));
  expect(csv.name).toMatch(new RegExp(`^learn-curve-${sessionId}-.*\\.csv$`));
  const table = page.getByTestId('learn-curve-table');
  const header = await cellTexts(table.locator('thead tr'), 'th');
  const body = await cellTexts(table.locator('tbody tr'), 'th, td');
  expect(body).toHaveLength(1);
  expect(body[0]!.slice(1).every((cell) => /^\d+$/.test(cell))).toBe(true);
  // The table's cells, then who played: model and model_caveat (empty for a model that needs none).
  expect(csvRows(csv).map((r) => r.slice(0, -2))).toEqual([...header, ...body]);
  expect(csvRows(csv).map((r) => r.slice(-2))).toEqual([['model', 'model_caveat'], ['mock-model', '']]);

  const sessions = await save(page, page.getByTestId('learn-runs-export-csv'));
  const [sessionHeader, ...sessionRows] = csvRows(sessions);
  expect(sessionHeader).toEqual(['id', 'story', 'seed', 'policy', 'model', 'simulated', 'K', 'S', 'status', 'scores', 'W-AUC', 'faulted episodes', 'started', 'human edits', 'model caveat']);
  expect(sessionRows.map((r) => r[0])).toEqual(await page.getByTestId('learn-run').evaluateAll((li) => li.map((l) => l.getAttribute('data-id'))));
  const scoresShown = (await page.getByTestId('learn-run').first().locator('.scores').textContent()) ?? '';
  const [row] = sessionRows;
  expect(scoresShown).toContain(`Scores: ${row![9]!.split(' ').join(', ')} · W-AUC ${Number(row![10]).toFixed(3)}`);
  expect(row!.slice(4, 9)).toEqual(['mock-model', 'false', '2', '4', 'complete']);
});

test('Evolve: the best-so-far curve as a PNG and CSV, the candidate table, lineage and runs list as CSV', async ({ page }) => {
  await page.goto('./?view=evolve');
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-ready', 'true');
  await setStoryRole(page, 'evolve', 'advent', 'train');
  await setStoryRole(page, 'evolve', 'local:detective.z5', 'val');
  await setNumber(page, 'evolve-episodes', 2);
  await setNumber(page, 'evolve-steps', 3);
  await setNumber(page, 'evolve-budget', 4);

  const tasks = await save(page, page.getByTestId('evolve-tasks-export-csv'));
  const taskRows = csvRows(tasks);
  expect(taskRows[0]).toEqual(['story', 'game', 'max score', 'role', 'seeds']);
  expect(taskRows.length - 1).toBe(await page.getByTestId('evolve-story').count());

  // A finished evolution seeded from the shipped recording (evolve.spec.ts plays one through the form).
  const state: unknown = JSON.parse(readFileSync(resolve(REPO_ROOT, 'public/replays/evolution-scripted.json'), 'utf8'));
  const text = JSON.stringify({ format: EVOLUTION_EXPORT_FORMAT, state, events: [] });
  await page.getByTestId('evolve-import').setInputFiles({ name: 'evolution-scripted.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  const run = page.getByTestId('evolve-run');
  await expect(run).toHaveAttribute('data-status', 'complete');
  const runId = await run.getAttribute('data-id');

  await expectChartPng(page, await save(page, page.getByTestId('evolve-progress-export-png')), new RegExp(`^evolve-progress-${runId}-.*\\.png$`));
  const progress = csvRows(await save(page, page.getByTestId('evolve-progress-export-csv')));
  expect(progress[0]).toEqual(['series', 'budget spent (metric calls)', 'W-AUC', 'model', 'model_caveat']);
  expect(progress.length).toBeGreaterThan(1);
  // The shipped evolution was played by the simulated model: every row of every export says so.
  const SIMULATED = ['simulated model', SIMULATION_NOTICE];
  expect(progress.slice(1).every((r) => r.slice(-2).join('|') === SIMULATED.join('|'))).toBe(true);

  const candidates = await save(page, page.getByTestId('candidate-table-export-csv'));
  expect(candidates.name).toMatch(new RegExp(`^evolve-candidates-${runId}-.*\\.csv$`));
  const [cHeader, ...cRows] = csvRows(candidates);
  expect(cHeader).toEqual(['id', 'best', 'parent', 'status', 'lever-room:1', 'vault:1', 'mean', 'Pareto fronts', 'Pareto tasks', 'reason', 'model', 'model_caveat']);
  expect(cRows).toHaveLength(4);
  expect(cRows.every((r) => r.slice(-2).join('|') === SIMULATED.join('|'))).toBe(true);
  const shown = await page.getByTestId('candidate-row').evaluateAll((trs) => trs.map((tr) => ({
    id: tr.getAttribute('data-id'), status: tr.getAttribute('data-status'), mean: (tr.querySelector('[data-testid="candidate-mean"]')?.textContent ?? '').trim(),
    parent: (tr.querySelectorAll('td')[0]?.textContent ?? '').trim(), reason: (tr.querySelector('.reason')?.textContent ?? '').trim(),
  })));
  expect(cRows.map((r) => ({ id: r[0], status: r[3], mean: r[6] === '' ? '—' : Number(r[6]).toFixed(3), parent: r[2] || '—', reason: r[9] }))).toEqual(shown);

  const lineage = csvRows(await save(page, page.getByTestId('lineage-export-csv')));
  expect(lineage[0]).toEqual(['id', 'parent', 'depth', 'tree', 'status', 'mean', 'model', 'model_caveat']);
  expect(lineage.slice(1).every((r) => r.slice(-2).join('|') === SIMULATED.join('|'))).toBe(true);
  expect(lineage.slice(1).map((r) => [r[0], r[1]])).toEqual(
    await page.getByTestId('lineage-node').evaluateAll((li) => li.map((l) => [l.getAttribute('data-id'), l.getAttribute('data-parent')])));

  const runs = csvRows(await save(page, page.getByTestId('evolve-runs-export-csv')));
  expect(runs[0]).toEqual(['id', 'status', 'progress', 'detail', 'updated', 'model', 'model_caveat']);
  expect(runs.slice(1).map((r) => r[0])).toEqual([runId]);
  expect(runs[1]!.slice(-2)).toEqual(SIMULATED);
});

test('Evaluate: the learning curves as a PNG and CSV, the per-game table as CSV with the figures shown', async ({ page }) => {
  test.setTimeout(120_000);
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'take paper', 'west', 'take gun', 'north'] });
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evaluate');
  await setStoryRole(page, 'evaluate', 'advent', 'custom', '0');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 2);
  await setNumber(page, 'evaluate-steps', 3);
  await page.getByTestId('evaluate-start').click();
  const run = page.getByTestId('evaluate-run');
  await expect(run).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  const runId = await run.getAttribute('data-id');

  await expectChartPng(page, await save(page, page.getByTestId('evaluate-curves-export-png')), new RegExp(`^evaluate-curves-${runId}-custom-.*\\.png$`));
  const curves = csvRows(await save(page, page.getByTestId('evaluate-curves-export-csv')));
  expect(curves[0]).toEqual(['series', 'episode', 'score ÷ max score (normalised per game)', 'score ÷ max score (normalised per game) 95% CI low', 'score ÷ max score (normalised per game) 95% CI high', 'model', 'model_caveat']);
  expect(curves.slice(1).map((r) => r.slice(-2))).toEqual(Array.from({ length: 4 }, () => ['mock-model', '']));
  expect(curves.slice(1).map((r) => r[1])).toEqual(['1', '2', '1', '2']);

  const games = await save(page, page.getByTestId('games-table-export-csv'));
  expect(games.name).toMatch(new RegExp(`^evaluate-games-${runId}-.*\\.csv$`));
  const [gHeader, ...gRows] = csvRows(games);
  const pageHeader = (await cellTexts(page.getByTestId('games-table').locator('thead tr'), 'th'))[0]!;
  // The page's interval columns are split into estimate, low and high; then who played.
  expect(gHeader!.filter((h) => !h.includes('95% CI')).slice(0, -2)).toEqual(pageHeader);
  expect(gHeader!.slice(-2)).toEqual(['model', 'model_caveat']);
  expect(gRows.map((r) => r.slice(-2))).toEqual([['mock-model', ''], ['mock-model', '']]);
  const f = (x: string) => (x === '' || x === 'NaN' ? 'n/a' : Number(x).toFixed(3));
  const f1 = (x: string) => (x === '' || x === 'NaN' ? 'n/a' : Number(x).toFixed(1));
  const asShown = gRows.map((r) => [r[0], r[1], r[2], r[3], `${f(r[4]!)} [${f(r[5]!)}, ${f(r[6]!)}]`, `${f1(r[7]!)} [${f1(r[8]!)}, ${f1(r[9]!)}]`, `${f1(r[10]!)} [${f1(r[11]!)}, ${f1(r[12]!)}]`]);
  expect(asShown).toEqual(await cellTexts(page.getByTestId('game-row'), 'th, td'));
  expect(gRows).toHaveLength(2);
});
