/**
 * Resumable model downloads in Chromium (src/llm/model-download.ts with the OPFS chunk
 * store), against e2e/serve-dist.ts cutting the real test model's answer part-way: a dropped
 * connection goes on by itself with a Range request from the kept bytes; a reload mid-download
 * lists the download as unfinished with its kept bytes, and Resume fetches only the rest; a
 * server without Range support starts over cleanly. Each time the model lands whole (its size)
 * and, once, loads and answers (so its bytes are a working GGUF file).
 */
import { statSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { chooseLocalProvider, expectModelInUse, MODEL_FILE, modelUrl, requireModelFile } from './local-model-helpers.ts';

test.describe.configure({ timeout: 180_000 });
test.beforeAll(requireModelFile);

const SIZE = statSync(MODEL_FILE).size;

/** The Range header of every request for the model from now on ('' for none). */
function rangesOf(page: Page): string[] {
  const ranges: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith('.gguf')) ranges.push(r.headers().range ?? '');
  });
  return ranges;
}

const keptOf = (range: string | undefined): number => Number(/^bytes=(\d+)-$/.exec(range ?? '')?.[1] ?? NaN);

test('a connection dropped mid-file goes on with a Range request from the kept bytes; the model loads and answers', async ({ page }) => {
  const ranges = rangesOf(page);
  await chooseLocalProvider(page);
  await page.getByTestId('local-url').fill(modelUrl(page, 'drop-after=30000000'));
  await page.getByTestId('local-download').click();
  await expectModelInUse(page);
  // From byte 0 until a chunk was kept (on a slow disk the first drop can come before one is
  // written: then nothing is kept and the file is fetched from 0 again), then one Range request
  // from the kept bytes, which the download finishes on.
  const resumedAt = ranges.findIndex((range) => range !== '');
  expect(resumedAt, ranges.join(' | ')).toBeGreaterThanOrEqual(1);
  expect(ranges.slice(resumedAt), ranges.join(' | ')).toHaveLength(1);
  expect(keptOf(ranges[resumedAt])).toBeGreaterThan(0);
  expect(keptOf(ranges[resumedAt])).toBeLessThanOrEqual(30_000_000);
  await expect(page.getByTestId('local-unfinished')).toHaveCount(0);
  await page.getByTestId('local-measure').click();
  await expect(page.getByTestId('local-speed')).toContainText(/\d+ prompt tokens\/s/, { timeout: 120_000 });
});

test('a reload mid-download keeps the bytes that arrived; Resume fetches only the rest', async ({ page }) => {
  const ranges = rangesOf(page);
  await chooseLocalProvider(page);
  const url = modelUrl(page, 'stall-after=20000000');
  await page.getByTestId('local-url').fill(url);
  await page.getByTestId('local-download').click();
  await expect(page.getByTestId('local-progress')).toContainText(`20.0 MB of ${(SIZE / 1e6).toFixed(1)} MB`, { timeout: 60_000 });
  await page.reload();
  const row = page.locator(`[data-testid="local-unfinished-row"][data-url="${url}"]`);
  await expect(row).toBeVisible();
  const kept = Number(await row.getAttribute('data-kept'));
  // Whole chunks (4 MiB or more each) were kept; the last, unwritten part of the 20 MB is fetched again.
  expect(kept).toBeGreaterThanOrEqual(4 << 20);
  expect(kept).toBeLessThanOrEqual(20_000_000);
  await expect(row).toContainText(`${(kept / 1e6).toFixed(1)} MB of ${(SIZE / 1e6).toFixed(1)} MB kept`);
  await page.screenshot({ path: '/tmp/w17/shots/E-settings-unfinished.png' });
  await row.getByTestId('local-resume').click();
  await expectModelInUse(page);
  expect(ranges).toEqual(['', `bytes=${kept}-`]);
  await expect(page.getByTestId('local-unfinished')).toHaveCount(0);
});

test('a server without Range support starts over cleanly after a drop', async ({ page }) => {
  const ranges = rangesOf(page);
  await chooseLocalProvider(page);
  await page.getByTestId('local-url').fill(modelUrl(page, 'norange&drop-after=30000000'));
  await page.getByTestId('local-download').click();
  await expectModelInUse(page);
  // It asked for the rest, got the whole file (200) and kept only that.
  expect(ranges).toHaveLength(2);
  expect(keptOf(ranges[1])).toBeGreaterThan(0);
  await expect(page.getByTestId('local-unfinished')).toHaveCount(0);
});
