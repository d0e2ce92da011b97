/**
 * The booth (`?kiosk=1`): it plays the shipped recordings round after round for a simulated hour
 * on Playwright's clock with no page error and a flat heap; a tap pauses, another resumes, left
 * alone it resumes; Escape only shows how staff leave; nothing on screen takes focus but the one
 * window-sized tap target. Live (`&live=1`) with the simulated model and a cap of one session: the
 * fresh session is played first, then the recordings.
 */
import { expect, test, type Page } from '@playwright/test';
import { openView } from './llm-helpers.ts';
import { expectNoSeriousViolations } from './axe.ts';

/** The page's JS heap in use after a full garbage collection, bytes (CDP `Runtime.getHeapUsage`). */
async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

const kiosk = (page: Page) => page.getByTestId('kiosk');
const numberOf = async (page: Page, name: string): Promise<number> => Number(await kiosk(page).getAttribute(`data-${name}`));

/** Errors the page reports: uncaught exceptions and console errors. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return errors;
}

/** A heap that grows by less than this between the 2nd round and the end of an hour is flat: one
 * round's recordings (8 sessions, ~0.4 MB of JSON, parsed once and kept) and their captions are
 * made before the 2nd round, so any growth after it is a leak of something made per frame or per
 * recording. Garbage collection leaves a few hundred KB of noise (compiled code, inline caches);
 * a leak of one recording's frames and captions per recording played (≥ 30 played) would be
 * several MB. */
const FLAT_HEAP_BYTES = 2 * 1024 * 1024;

test('the booth plays the recordings for a simulated hour: no error, round after round, a flat heap', async ({ page }) => {
  test.setTimeout(600_000);
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.clock.install();
  await page.goto('./?kiosk=1');
  await expect(page.getByTestId('kiosk-headline')).toHaveText(/^Episode 1 of \d+: /);
  await expect(page.getByTestId('kiosk-credits')).toContainText('simulated model — not a language model');
  // Nothing to break: no nav, no form, no link; the one control is the window-sized tap target.
  await expect(page.locator('nav, form, input, select, textarea, a[href]')).toHaveCount(0);
  await expect(page.locator('button')).toHaveCount(1);
  const headlines = new Set<string>();
  let baseline: number | null = null;
  let minutes = 0;
  while (minutes < 60 || (await numberOf(page, 'rounds')) < 4) {
    await page.clock.runFor(60_000);
    minutes++;
    headlines.add((await page.getByTestId('kiosk-headline').textContent()) ?? '');
    if (baseline === null && (await numberOf(page, 'rounds')) >= 2) baseline = await heapAfterGc(page);
    expect(minutes).toBeLessThan(180);
  }
  const end = await heapAfterGc(page);
  const rounds = await numberOf(page, 'rounds');
  const played = await numberOf(page, 'played');
  test.info().annotations.push({ type: 'kiosk', description: `${minutes} simulated minutes, ${rounds} rounds, ${played} recordings; heap after round 2 ${baseline} B, at the end ${end} B` });
  expect(errors).toEqual([]);
  expect(rounds).toBeGreaterThanOrEqual(4);
  expect(headlines.size).toBeGreaterThan(30);
  expect(baseline).not.toBeNull();
  expect(Math.abs(end - baseline!)).toBeLessThan(FLAT_HEAP_BYTES);
});

test('a tap pauses the booth, another resumes it, and left alone it resumes; Escape only says how staff leave', async ({ page }) => {
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.clock.install();
  await page.goto('./?kiosk=1');
  await expect(page.getByTestId('kiosk-headline')).toBeVisible();
  await page.clock.runFor(20_000);
  await page.mouse.click(640, 400);
  await expect(kiosk(page)).toHaveAttribute('data-paused', 'true');
  await expect(page.getByTestId('kiosk-paused')).toContainText('Paused — tap to go on (it goes on by itself in 30 s)');
  const at = await numberOf(page, 'position');
  await page.clock.runFor(29_000);
  expect(await numberOf(page, 'position')).toBe(at);
  await page.clock.runFor(1_500);
  await expect(kiosk(page)).toHaveAttribute('data-paused', 'false');
  await page.clock.runFor(10_000);
  expect(await numberOf(page, 'position')).toBeGreaterThan(at);
  await page.keyboard.press(' ');
  await expect(kiosk(page)).toHaveAttribute('data-paused', 'true');
  await page.keyboard.press('Enter');
  await expect(kiosk(page)).toHaveAttribute('data-paused', 'false');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('kiosk-hint')).toHaveText('This booth plays by itself. Staff: open the page without “?kiosk=1” to leave it.');
  await expect(page).toHaveURL(/kiosk=1/);
  await page.clock.runFor(7_000);
  await expect(page.getByTestId('kiosk-hint')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('live, the simulated model plays a fresh session first (cap: one session), then the recordings', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openView(page, 'settings');
  await page.getByTestId('provider-preset').selectOption('simulated');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
  await page.goto('./?kiosk=1&live=1&sessions=1');
  await expect(page.getByTestId('kiosk-title')).toHaveText('Live · The Lever Room · naive meta-agent', { timeout: 120_000 });
  await expect(page.getByTestId('kiosk-credits')).toHaveText('actor: simulated model · meta-agent: simulated model (simulated model — not a language model; it shows how the loop works, not how real models behave)');
  await expect(page.getByTestId('kiosk-mode')).toHaveText('Live · session 1 of 1 · simulated model — not a language model');
  await expect(page.getByTestId('kiosk-headline')).toHaveText(/^Episode 1 of 5: The Lever Room — the agent starts with the guide “Explore systematically/);
  // A live session has the engine's locations: the map is drawn (The Lever Room's first room).
  await expect(page.getByTestId('kiosk-map')).toHaveAttribute('data-rooms', /Lever Room/);
  await page.clock.install();
  await expect(async () => {
    await page.clock.runFor(30_000);
    await expect(page.getByTestId('kiosk-title')).not.toHaveText(/^Live/, { timeout: 100 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId('kiosk-mode')).toHaveText(/^Recorded sessions · \d+ in the loop · live done: 1 live session played$/);
  expect(errors).toEqual([]);
});

test('the booth has no serious or critical axe violation, playing and paused, at 1280×800 and 1920×1080', async ({ page }) => {
  await page.clock.install();
  for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('./?kiosk=1');
    await expect(page.getByTestId('kiosk-headline')).toHaveText(/^Episode 1 of \d+: /);
    await page.clock.runFor(20_000);
    await expectNoSeriousViolations(page, `the booth playing at ${width}×${height}`);
    await page.mouse.click(width / 2, height / 2);
    await expect(kiosk(page)).toHaveAttribute('data-paused', 'true');
    await expectNoSeriousViolations(page, `the booth paused at ${width}×${height}`);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('kiosk-hint')).toBeVisible();
    await expectNoSeriousViolations(page, `the booth saying how staff leave at ${width}×${height}`);
  }
});
