/**
 * The page on a full disk: Chromium is given a small quota for the page's origin (DevTools
 * protocol `Storage.overrideQuotaForOrigin`), a Learn session, an evolution or an evaluation is
 * started, and the page stops it before the quota runs out (store/storage-watch.ts): the run's
 * error and the storage alarm say so in plain words, no error goes uncaught, "Export everything
 * now" downloads every run, a reload before room is made keeps every record (the run reopens
 * interrupted), and once the quota is back the run resumes to its end — nothing was lost. Debian's Chromium applies the override to its quota
 * manager (`Storage.getUsageAndQuota` reports it) but not to `navigator.storage.estimate()`, so
 * the page's estimate is answered from the quota manager through the protocol.
 */
import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { KEY, settingsSaved } from './llm-helpers.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

const MIB = 1024 * 1024;

test('a session stopped before the quota runs out keeps its data, offers an export of everything, and resumes', async ({ page }) => {
  test.setTimeout(120_000);
  const { cdp, setOrigin, errors } = await watchQuota(page);
  mock = await startMockLlm({ script: ['east', 'get all', 'west', 'south'], faults: [{ kind: 'slow', delayMs: 100, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  setOrigin(new URL(page.url()).origin);
  // 1 MiB is kept free (a tenth of a small quota, at least 1 MiB): ~60 kB are left to the session.
  await leaveRoom(page, cdp, 60_000);
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
  await leaveRoom(page, cdp, null);
  await alarm.getByRole('button', { name: 'Dismiss the message' }).click();
  await page.getByTestId('learn-resume').click();
  await waitComplete(page, 90_000);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('3 / 3');
  expect(errors).toEqual([]);
});

/** The page's `navigator.storage.estimate()` answered by the quota manager (see module doc), and
 * every uncaught error and console error of the page collected. */
async function watchQuota(page: Page): Promise<{ cdp: CDPSession; setOrigin: (o: string) => void; errors: string[] }> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught ${error.name}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
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
  return { cdp, setOrigin: (o) => void (origin = o), errors };
}

/** Leave `bytes` to the runs above the reserve the page keeps free (1 MiB of a small quota); null: lift the override. */
async function leaveRoom(page: Page, cdp: CDPSession, bytes: number | null): Promise<void> {
  const origin = new URL(page.url()).origin;
  if (bytes === null) return void (await cdp.send('Storage.overrideQuotaForOrigin', { origin }));
  const { usage } = await cdp.send('Storage.getUsageAndQuota', { origin });
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + MIB + bytes });
}

type Everything = { format: string; runs: { header: { id: string; kind: string }; events: unknown[] }[] };

/** The alarm in plain words, then "Export everything now": one file holding the run `id` with
 * its events; returns how many events it holds. */
async function alarmAndExport(page: Page, kind: 'evolution' | 'evaluation', id: string): Promise<number> {
  const alarm = page.getByTestId('storage-alarm');
  await expect(alarm).toContainText(/storage is almost full \([\d.]+ MB used of the [\d.]+ MB the browser allows it; the next save would leave less than the 1\.0 MB kept free\), so the run was stopped before a save could fail; everything saved so far is kept/);
  await expect(alarm).toContainText('Do not reload the page before exporting');
  const exported = JSON.parse(await downloadText(page, () => page.getByTestId('export-everything').click())) as Everything;
  expect(exported.format).toBe('metattl-everything-1');
  const run = exported.runs.find((r) => r.header.kind === kind && r.header.id === id);
  expect(run, `${kind} ${id} exported`).toBeDefined();
  expect(run!.events.length).toBeGreaterThan(0);
  // Every run the page holds is in the file (the IndexedDB run headers, read directly).
  const stored = (await readIdb(page, id)).runIds;
  expect(exported.runs.map((r) => r.header.id).sort()).toEqual([...stored].sort());
  await expect(page.getByTestId('export-everything-done')).toHaveText(`Exported ${exported.runs.length} runs and 0 meta-prompts.`);
  return run!.events.length;
}

/** What the page's IndexedDB holds, read directly: every run's id, and how many events run `id` has. */
function readIdb(page: Page, id: string): Promise<{ runIds: string[]; events: number }> {
  return page.evaluate((runId) => new Promise<{ runIds: string[]; events: number }>((resolve, reject) => {
    const open = indexedDB.open('metattl-playground');
    open.onerror = () => reject(open.error ?? new Error('open failed'));
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['runs', 'runEvents']);
      const keys = tx.objectStore('runs').getAllKeys();
      const count = tx.objectStore('runEvents').index('by-run').count(runId);
      tx.oncomplete = () => {
        resolve({ runIds: keys.result.map(String), events: count.result });
        db.close();
      };
      tx.onerror = () => reject(tx.error ?? new Error('read failed'));
    };
  }), id);
}

/** After a reload the key is asked again (it lives in memory only). */
async function reenterKey(page: Page, view: 'evolve' | 'evaluate'): Promise<void> {
  await expect(page.getByTestId(view)).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('api-key').fill(KEY);
  await goToRunView(page, view);
}

test('an evolution stopped before the quota runs out keeps its data through a reload, offers an export of everything, and resumes', async ({ page }) => {
  test.setTimeout(150_000);
  const { cdp, setOrigin, errors } = await watchQuota(page);
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'north', 'look'], faults: [{ kind: 'slow', delayMs: 100, role: 'actor' }] });
  await useMock(page, mock.baseUrl);
  setOrigin(new URL(page.url()).origin);
  await goToRunView(page, 'evolve');
  await setStoryRole(page, 'evolve', 'advent', 'train');
  await setStoryRole(page, 'evolve', 'local:detective.z5', 'val');
  await setNumber(page, 'evolve-episodes', 2);
  await setNumber(page, 'evolve-steps', 3);
  await setNumber(page, 'evolve-budget', 6);
  await page.getByTestId('evolve-start').click();
  // The quota runs low once the run has stored a metric call (its sessions' steps are slowed so
  // that it is still running): the page stops it at its next save.
  await expect.poll(async () => Number(await page.getByTestId('evolve-calls').getAttribute('data-used')), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  await leaveRoom(page, cdp, 5_000);

  const runPanel = page.getByTestId('evolve-run');
  await expect(page.getByTestId('storage-alarm')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('evolve-error')).toContainText('almost full');
  await expect(page.getByTestId('evolve')).toHaveAttribute('data-mode', 'idle', { timeout: 15_000 });
  await expect(page.getByTestId('evolve-resume')).toBeVisible();
  const id = (await runPanel.getAttribute('data-id'))!;
  const calls = Number(await page.getByTestId('evolve-calls').getAttribute('data-used'));
  expect(calls).toBeLessThan(6);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'test-results/storage-full-evolve-alarm.png' });
  const events = await alarmAndExport(page, 'evolution', id);

  // A reload before room is made: everything stored is still there, the run reopens interrupted.
  await page.reload();
  await reenterKey(page, 'evolve');
  await expect(runPanel).toHaveAttribute('data-id', id);
  await expect(page.getByTestId('evolve-status')).toContainText('interrupted');
  expect(Number(await page.getByTestId('evolve-calls').getAttribute('data-used'))).toBe(calls);
  expect(await (await readIdb(page, id)).events).toBe(events);

  await leaveRoom(page, cdp, null);
  await page.getByTestId('evolve-resume').click();
  await expect(runPanel).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
  expect(Number(await page.getByTestId('evolve-calls').getAttribute('data-used'))).toBeLessThanOrEqual(6);
  expect(Number(await page.getByTestId('evolve-calls').getAttribute('data-used'))).toBeGreaterThan(calls);
  expect(errors).toEqual([]);
});

test('an evaluation stopped before the quota runs out keeps its data through a reload, offers an export of everything, and resumes', async ({ page }) => {
  test.setTimeout(150_000);
  const { cdp, setOrigin, errors } = await watchQuota(page);
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'take paper', 'west', 'north'], faults: [{ kind: 'slow', delayMs: 100, role: 'actor' }] });
  await useMock(page, mock.baseUrl);
  // One session at a time: the first result is stored while the others are still to play.
  await page.getByTestId('max-concurrent').fill('1');
  await settingsSaved(page);
  setOrigin(new URL(page.url()).origin);
  await goToRunView(page, 'evaluate');
  await setStoryRole(page, 'evaluate', 'advent', 'custom', '0');
  await setStoryRole(page, 'evaluate', 'local:detective.z5', 'custom', '0');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 2);
  await setNumber(page, 'evaluate-steps', 3);
  await page.getByTestId('evaluate-start').click();
  // The quota runs low once the run has stored a session's result (steps slowed: it is still running).
  await expect(page.getByTestId('evaluate-run')).not.toHaveAttribute('data-done', '0', { timeout: 60_000 });
  await leaveRoom(page, cdp, 5_000);

  const runPanel = page.getByTestId('evaluate-run');
  await expect(page.getByTestId('storage-alarm')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('evaluate-error')).toContainText('almost full');
  await expect(page.getByTestId('evaluate')).toHaveAttribute('data-mode', 'idle', { timeout: 15_000 });
  await expect(page.getByTestId('evaluate-resume')).toBeVisible();
  const id = (await runPanel.getAttribute('data-id'))!;
  const done = Number(await runPanel.getAttribute('data-done'));
  expect(done).toBeLessThan(4);
  const events = await alarmAndExport(page, 'evaluation', id);

  await page.reload();
  await reenterKey(page, 'evaluate');
  await expect(runPanel).toHaveAttribute('data-id', id);
  await expect(runPanel).toHaveAttribute('data-done', String(done));
  expect(await (await readIdb(page, id)).events).toBe(events);

  await leaveRoom(page, cdp, null);
  await page.getByTestId('evaluate-resume').click();
  await expect(runPanel).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
  await expect(runPanel).toHaveAttribute('data-done', '4');
  expect(errors).toEqual([]);
});
