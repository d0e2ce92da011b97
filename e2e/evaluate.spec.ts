/**
 * The Evaluate view against the mock LLM (started in the test process): a small evaluation
 * (2 policies × 2 tasks × 1 repeat, K = 2, S = 3) runs in the page; the report is exported as
 * Markdown, CSV, JSON and a standalone HTML file, and each export holds the on-page table (the same
 * policy ids and W-AUC values); the HTML opens with no network request.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { KEY } from './llm-helpers.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

let mock: MockLlm;

test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'take paper', 'west', 'take gun', 'north'] });
});

test.afterEach(async () => {
  await mock.close();
});

async function download(page: Page, testid: string): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await page.getByTestId(testid).click();
  const file = await downloading;
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

test('a small evaluation runs in the page; its report exports as Markdown, CSV, JSON and HTML with the on-page table', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evaluate');
  await expect(page.getByTestId('evaluate-policy').and(page.locator(':checked'))).toHaveCount(2);
  await expect(page.getByTestId('evaluate-baseline')).toHaveValue('naive');
  await setStoryRole(page, 'evaluate', 'advent', 'custom', '0');
  await setStoryRole(page, 'evaluate', 'local:detective.z5', 'custom', '0');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 2);
  await setNumber(page, 'evaluate-steps', 3);
  await expect(page.getByTestId('evaluate-estimate-usd')).toBeVisible();
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-done', '4');

  const rows = page.getByTestId('result-row');
  await expect(rows).toHaveCount(2);
  const onPage = await rows.evaluateAll((trs) => trs.map((tr) => ({
    policy: tr.getAttribute('data-policy') ?? '',
    wAuc: tr.querySelector('[data-testid="result-wauc"]')?.textContent ?? '',
    sessions: tr.querySelector('[data-testid="result-sessions"]')?.textContent ?? '',
  })));
  expect(onPage.map((r) => r.policy)).toEqual(['static', 'naive']);
  for (const r of onPage) {
    expect(r.wAuc).toMatch(/^-?\d+\.\d{3}$/);
    expect(r.sessions).toBe('2');
  }
  await expect(page.getByTestId('game-row')).toHaveCount(4);
  await expect(page.getByTestId('evaluate-curves')).toBeVisible();
  // Two games: the few-games warning, the declared contrast static − naive with its game-level test, no flag.
  await expect(page.getByTestId('report-warning').and(page.locator('[data-code="few_games"]'))).toContainText('2 games (task set custom) cannot support a claim about games in general; this is a claim about these games');
  await expect(page.getByTestId('comparison-row')).toHaveCount(1);
  await expect(page.getByTestId('comparison-row')).toHaveAttribute('data-positive', 'false');
  await expect(page.getByTestId('comparison-row')).toContainText('(min 0.50)');
  await expect(page.getByTestId('comparison-flag')).toHaveCount(0);
  await expect(page.getByTestId('result-best')).toHaveCount(0);
  await page.getByTestId('comparison-a').selectOption('naive');
  await page.getByTestId('comparison-b').selectOption('static');
  // Arms by name, as the results table shows them; their ids in the title.
  await expect(page.getByTestId('comparison-picked')).toContainText('Naive − Static');
  await expect(page.getByTestId('comparison-picked').locator('strong')).toHaveAttribute('title', 'naive − static');
  await expect(page.getByTestId('comparison-row').locator('th')).toHaveText('Static − Naive');
  await expect(page.getByTestId('comparison-row').locator('th')).toHaveAttribute('title', 'static − naive');
  await expect(page.getByTestId('comparison-picked')).toContainText('exploratory (not corrected)');
  await expect(page.getByTestId('evaluate-curves-normalised')).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('region', { name: 'Comparisons', exact: true }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evaluate-comparisons.png') });

  const md = await download(page, 'evaluate-export-md');
  expect(md.name).toMatch(/\.md$/);
  for (const r of onPage) expect(md.text).toMatch(new RegExp(`\\| (\\*\\*)?${r.policy}(\\*\\*)?( Δ > 0 \\(Holm\\))? \\| custom \\| 2 \\| 2 \\| ${r.wAuc.replace('.', '\\.')} \\[`));

  const csv = await download(page, 'evaluate-export-csv');
  const [header, ...lines] = csv.text.trim().split('\n').map((l) => l.split(','));
  const col = (name: string) => header!.indexOf(name);
  expect(lines.map((l) => l[col('policy')])).toEqual(onPage.map((r) => r.policy));
  expect(lines.map((l) => Number(l[col('wauc_mean')]).toFixed(3))).toEqual(onPage.map((r) => r.wAuc));

  const comparisons = await download(page, 'evaluate-export-comparisons-csv');
  expect(comparisons.name).toMatch(/-comparisons\.csv$/);
  const [cHeader, ...cLines] = comparisons.text.trim().split('\n').map((l) => l.split(','));
  expect(cHeader).toEqual(expect.arrayContaining(['a', 'b', 'delta_mean', 't_low', 't_high', 'sign_flip_p', 'min_p', 'holm_p', 'repeats_needed', 'per_game']));
  expect(cLines.length).toBeGreaterThan(0);

  const json = await download(page, 'evaluate-export-json');
  expect(json.text).not.toContain(KEY);
  const parsed = JSON.parse(json.text) as { report: { policies: { policyId: string; wAuc: { estimate: number } }[] }; sessions: { session: unknown }[] };
  expect(parsed.report.policies.map((p) => p.policyId)).toEqual(onPage.map((r) => r.policy));
  expect(parsed.report.policies.map((p) => p.wAuc.estimate.toFixed(3))).toEqual(onPage.map((r) => r.wAuc));
  expect(parsed.sessions).toHaveLength(4);
  expect(parsed.sessions.every((s) => s.session !== null)).toBe(true);

  const html = await download(page, 'evaluate-export-html');
  expect(html.name).toMatch(/\.html$/);
  const viewer = await browser.newPage();
  const requests: string[] = [];
  viewer.on('request', (r) => requests.push(r.url()));
  await viewer.setContent(html.text);
  const table = await viewer.locator('#results tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  expect(table.map((cells) => cells[0]!.split(' ')[0])).toEqual(onPage.map((r) => r.policy));
  expect(table.map((cells) => cells[4]!.split(' ')[0])).toEqual(onPage.map((r) => r.wAuc));
  await expect(viewer.locator('svg polyline')).toHaveCount(2);
  expect(requests).toEqual([]);
  await viewer.close();
});
