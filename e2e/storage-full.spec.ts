/**
 * The page on a full disk: Chromium is given a small quota for the page's origin (DevTools
 * protocol `Storage.overrideQuotaForOrigin`), a Learn session is started, and the page stops it
 * before the quota runs out (store/storage-watch.ts): the run's error and the storage alarm say so in
 * plain words, "Export everything now" downloads every run, and once the quota is back the session
 * resumes to its end — nothing was lost. Debian's Chromium applies the override to its quota
 * manager (`Storage.getUsageAndQuota` reports it) but not to `navigator.storage.estimate()`, so
 * the page's estimate is answered from the quota manager through the protocol.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

const MIB = 1024 * 1024;

test('a session stopped before the quota runs out keeps its data, offers an export of everything, and resumes', async ({ page }) => {
  test.setTimeout(120_000);
  const cdp = await page.context().newCDPSession(page);
  let origin = '';
  await page.exposeFunction('quotaManagerEstimate', async () => {
    const { usage, quota } = await cdp.send('Storage.getUsageAndQuota', { origin });
    return { usage, quota };
  });
  await page.addInitScript(() => {
    const storage = navigator.storage;
    storage.estimate = () => (window as unknown as { quotaManagerEstimate: () => Promise<StorageEstimate> }).quotaManagerEstimate();
  });
  mock = await startMockLlm({ script: ['east', 'get all', 'west', 'south'], faults: [{ kind: 'slow', delayMs: 100, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  origin = new URL(page.url()).origin;
  const { usage } = await cdp.send('Storage.getUsageAndQuota', { origin });
  // 1 MiB is kept free (a tenth of a small quota, at least 1 MiB): ~60 kB are left to the session.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + MIB + 60_000 });
  await startSession(page, { episodes: 3, maxSteps: 40, policy: 'meta:naive' });

  const alarm = page.getByTestId('storage-alarm');
  await expect(alarm).toBeVisible({ timeout: 60_000 });
  await expect(alarm).toContainText(/storage is almost full \([\d.]+ MB used of the [\d.]+ MB the browser allows it; the next save would leave less than the 1\.0 MB kept free\), so the run was stopped before a save could fail; everything saved so far is kept/);
  await expect(alarm).toContainText('Do not reload the page before exporting');
  await expect(page.getByTestId('learn-error')).toContainText('almost full');
  await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle', { timeout: 15_000 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'test-results/storage-full-alarm.png' });

  const exported = JSON.parse(await downloadText(page, () => page.getByTestId('export-everything').click())) as { format: string; runs: { header: { kind: string }; events: unknown[] }[] };
  expect(exported.format).toBe('metattl-everything-1');
  const session = exported.runs.find((r) => r.header.kind === 'session')!;
  expect(session.events.length).toBeGreaterThan(0);
  await expect(page.getByTestId('export-everything-done')).toHaveText(`Exported ${exported.runs.length} runs and 0 meta-prompts.`);

  // Room again (the override lifted): the stopped session resumes and completes.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  await alarm.getByRole('button', { name: 'Dismiss the message' }).click();
  await page.getByTestId('learn-resume').click();
  await waitComplete(page, 90_000);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('3 / 3');
});
