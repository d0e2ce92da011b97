/**
 * Every student path from a page on plain http from another machine — as a workshop room serves
 * it at `http://<LAN address>` — which is not a secure context: no crypto.randomUUID, clipboard
 * API, Web Locks, file storage for models or cross-origin isolation. The built page is opened as
 * `http://classroom.test:PORT/…` (Chromium maps the name to 127.0.0.1) and walked as a student:
 * the first screen shows the notice of what needs https or localhost; "Try it without a key" runs
 * a Learn session to its end and exports it; its share link is copied (the copy command) and
 * opened by a classmate; a new Library entry (its id made without crypto.randomUUID) and its share
 * link; Settings (the in-page model says plainly it needs https or localhost, and the isolation
 * text does not blame the server's headers, which it does send); a small Evaluate with the
 * simulated model and its report; each run guarded by a localStorage lease, given back at its
 * end — with no uncaught error and no console error on the way. Screenshots at 1280×800.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SIMULATION_NOTICE } from '../src/llm/model-label.ts';
import { expectNoSeriousViolations } from './axe.ts';
import { downloadText, waitComplete } from './learn-helpers.ts';
import { goToRunView, setNumber, setStoryRole } from './run-helpers.ts';

const PORT = Number(process.env.E2E_PORT ?? 4317);
const HOST = 'classroom.test';

test.use({
  baseURL: `http://${HOST}:${PORT}/sub/path/`,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  },
});

const NOTICE = `This page is served over plain http from another machine (${HOST}): the in-page local model (Settings) needs https or localhost; everything else works.`;

/** Chromium's own console line on an untrustworthy origin: the server's COOP header is ignored
 * there (the page's code logs nothing of the kind; it is the fact the notice explains). */
const COOP_IGNORED = /^The Cross-Origin-Opener-Policy header has been ignored, because the URL's origin was untrustworthy\./;

/** Uncaught errors and console errors of the page (both must stay empty), but the browser's COOP line. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !COOP_IGNORED.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  return errors;
}

test('from a plain-http origin every student path works and the page says what needs https or localhost', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  // Note the run-guard leases written (no Web Locks here: the guard uses localStorage leases).
  await page.addInitScript(() => {
    const leases: string[] = [];
    (window as unknown as { leases: string[] }).leases = leases;
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key: string, value: string) {
      if (key.startsWith('metattl.lease:')) leases.push(key);
      return setItem.call(this, key, value);
    };
  });
  const response = await page.goto('./');
  // The server sends COOP + COEP; the page is still neither secure nor isolated (plain http, not localhost).
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  expect(await page.evaluate(() => ({ host: location.hostname, secure: isSecureContext, isolated: crossOriginIsolated, uuid: typeof crypto.randomUUID, clipboard: typeof navigator.clipboard, locks: typeof navigator.locks })))
    .toEqual({ host: HOST, secure: false, isolated: false, uuid: 'undefined', clipboard: 'undefined', locks: 'undefined' });

  // The first screen, with the notice.
  await expect(page.getByRole('dialog', { name: 'Agents that learn across attempts' })).toBeVisible();
  await page.keyboard.press('Escape');
  const notice = page.getByTestId('insecure-notice');
  await expect(notice.getByTestId('insecure-notice-text')).toHaveText(NOTICE);
  await expect(notice).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('plain-http-notice.png') });
  await expectNoSeriousViolations(page, 'the first screen on plain http, with its notice');

  // "Try it without a key": a keyless Learn session to its end, its export and its share link.
  await page.getByTestId('first-simulated').click();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('learn-models')).toContainText('Actor simulated, meta-agent simulated');
  await page.getByTestId('learn-seed').fill('1');
  await page.getByTestId('learn-policy').selectOption('meta:fact-bank');
  await page.getByTestId('learn-episodes').fill('4');
  await page.getByTestId('learn-steps').fill('15');
  await page.getByTestId('learn-start').click();
  await waitComplete(page, 120_000);
  const session = JSON.parse(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(session.scores).toEqual([0, 3, 3, 4]);
  expect(session.model.simulated).toBe(true);
  await page.getByTestId('learn-share').click();
  const shareLink = page.getByTestId('learn-share-link');
  await expect(shareLink).toHaveValue(new RegExp(`^http://${HOST}:${PORT}/sub/path/.*#share=v1\\.`));
  // The copy command copied it (no clipboard API here); the link stays shown either way.
  await expect(page.locator('label.share').filter({ has: shareLink })).toContainText('Copied.');

  // A classmate opens the link in another browser profile: preview, then the Learn form is filled.
  const classmate = await (await browser.newContext()).newPage();
  const classmateErrors = collectErrors(classmate);
  await classmate.goto(await shareLink.inputValue());
  await expect(classmate.getByTestId('share-setup')).toContainText('K=4, S=15');
  await classmate.getByTestId('share-load').click();
  await expect(classmate.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(classmate.getByTestId('learn-policy')).toHaveValue('meta:fact-bank');
  await expect(classmate.getByTestId('learn-setup-notice')).toContainText('Loaded a shared setup');
  await classmate.context().close();
  expect(classmateErrors).toEqual([]);

  // The Library: a new entry (its id made without crypto.randomUUID), saved, and its share link.
  await page.getByTestId('nav-library').click();
  await expect(page.getByTestId('meta-library')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('meta-new').click();
  await page.getByTestId('meta-edit-name').fill('Route first');
  await page.getByTestId('meta-edit-strategy').fill('Always write a numbered ROUTE of the commands that scored, then one new goal.');
  await page.getByTestId('meta-save').click();
  await expect(page.getByTestId('meta-message')).toContainText('Saved “Route first”');
  await expect(page.getByTestId('meta-name')).toHaveText('Route first');
  await page.getByTestId('meta-share').click();
  await expect(page.getByTestId('meta-share-link')).toHaveValue(/#share=v1\./);

  // Settings: the in-page model says plainly what it needs, and the isolation text is true.
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
  await page.getByTestId('provider-preset').selectOption('browser-local');
  await expect(page.getByTestId('local-needs-secure')).toHaveText(/^The in-page model needs https or localhost: this page is plain http from another machine/);
  await expect(page.getByTestId('local-threads')).toContainText('needs https or localhost, whatever headers its server sends');
  await expect(page.getByTestId('local-threads')).not.toContainText('sends no');
  await expect(page.getByTestId('local-error')).toHaveCount(0);
  await expect(page.getByTestId('local-url')).toHaveCount(0);
  await page.getByTestId('test-connection').click();
  await expect(page.getByTestId('connection-error')).toContainText('The in-page model needs https or localhost');
  await page.getByTestId('local-model').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('plain-http-local-model.png') });
  await page.getByTestId('provider-preset').selectOption('simulated');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');

  // A small Evaluate with the simulated model, and its report.
  await goToRunView(page, 'evaluate');
  await setStoryRole(page, 'evaluate', 'lever-room', 'custom', '1');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 2);
  await setNumber(page, 'evaluate-steps', 10);
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 150_000 });
  await expect(page.getByTestId('evaluate-simulated')).toHaveText(`Played by the ${SIMULATION_NOTICE}.`);
  const downloading = page.waitForEvent('download');
  await page.getByTestId('evaluate-export-md').click();
  const report = readFileSync(await (await downloading).path(), 'utf8');
  expect(report.split('\n')).toContain(`> **Model: simulated (${SIMULATION_NOTICE}).**`);

  // Each run held its lease while it ran, and gave it back at its end.
  const leases = await page.evaluate(() => ({ written: (window as unknown as { leases: string[] }).leases, left: Object.keys(localStorage).filter((k) => k.startsWith('metattl.lease:')) }));
  expect(new Set(leases.written).size).toBe(2);
  for (const key of leases.written) expect(key).toMatch(/^metattl\.lease:metattl-run:/);
  expect(leases.left).toEqual([]);

  // The notice can be dismissed; nothing failed on the way.
  await page.getByRole('button', { name: 'Dismiss the note on plain http' }).click();
  await expect(page.getByTestId('insecure-notice')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('from a plain-http origin the first screen\'s recorded run plays', async ({ page }) => {
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('insecure-notice')).toBeVisible();
  await page.getByTestId('first-watch').click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('replay-models')).toContainText('actor simulated');
  expect(errors).toEqual([]);
});

test('on localhost the page is a secure context and shows no plain-http notice', async ({ page }) => {
  await page.goto(`http://127.0.0.1:${PORT}/sub/path/`);
  await expect(page.getByTestId('player')).toHaveAttribute('data-ready', 'true');
  expect(await page.evaluate(() => isSecureContext)).toBe(true);
  await expect(page.getByTestId('insecure-notice')).toHaveCount(0);
});
