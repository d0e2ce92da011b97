/**
 * On a cold dev server (a fresh Vite cache, as on a fresh clone) the first-visit
 * tour appears and stays, and opening every lazily loaded view never makes Vite re-optimise and
 * reload the page (vite.config.ts pre-bundles their dependencies). Starts its own `vite` with
 * VITE_CACHE_DIR in a temp dir on a free port; at 1280×800 and 1920×1080 in workshop mode.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';

const SIZES = [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }] as const;
const VIEWS = ['learn', 'replay', 'settings', 'agent', 'library', 'evolve', 'evaluate'] as const;

const freePort = (): Promise<number> => new Promise((done, fail) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => done(port));
  }).on('error', fail);
});

for (const size of SIZES) {
  test.describe(`cold dev server, ${size.width}×${size.height}, workshop mode`, () => {
    test.use({ viewport: size });
    test.setTimeout(180_000);
    let vite: ChildProcess | null = null;
    let cacheDir = '';
    let origin = '';
    let log = '';

    test.beforeAll(async () => {
      cacheDir = mkdtempSync(join(tmpdir(), 'metattl-vite-cache-'));
      const port = await freePort();
      origin = `http://127.0.0.1:${port}/`;
      vite = spawn(process.execPath, [resolve('node_modules/vite/bin/vite.js'), '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
        env: { ...process.env, VITE_CACHE_DIR: cacheDir }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      vite.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      vite.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      await expect.poll(() => fetch(origin).then((r) => r.ok, () => false), { timeout: 60_000 }).toBe(true);
    });

    test.afterAll(() => {
      vite?.kill();
      rmSync(cacheDir, { recursive: true, force: true });
    });

    test('the first-visit tour appears and stays; no view makes the page reload', async ({ page }) => {
      let loads = 0;
      page.on('load', () => loads++);
      await page.goto(`${origin}?view=play&workshop=1`);
      await expect(page.getByTestId('tour')).toBeVisible({ timeout: 60_000 });
      await page.screenshot({ path: `test-results/screens/cold-tour-${size.width}.png` });
      await page.evaluate(() => ((window as unknown as { coldMarker: number }).coldMarker = 1));
      for (const view of VIEWS) {
        await page.evaluate((v) => {
          history.pushState(null, '', `?view=${v}&workshop=1`);
          dispatchEvent(new PopStateEvent('popstate'));
        }, view);
        await expect(page.locator('.app')).toHaveAttribute('data-view', view);
        await expect(page.locator('#view > *').first()).toBeVisible({ timeout: 60_000 });
      }
      // Give a late re-optimise its chance to reload the page.
      await page.waitForTimeout(3_000);
      expect(await page.evaluate(() => (window as unknown as { coldMarker?: number }).coldMarker), 'the page was reloaded').toBe(1);
      expect(loads).toBe(1);
      expect(log).not.toMatch(/new dependencies optimized|optimized dependencies changed. reloading/);
      await expect(page.getByTestId('tour')).toBeVisible();
      // Nothing was done beside the tour: after a reload it still shows.
      await page.reload();
      await expect(page.getByTestId('tour')).toBeVisible({ timeout: 60_000 });
      await page.getByTestId('tour-close').click();
      await page.reload();
      await expect(page.locator('.app')).toHaveAttribute('data-tour-ready', 'true', { timeout: 60_000 });
      await expect(page.getByTestId('tour')).toHaveCount(0);
    });
  });
}
