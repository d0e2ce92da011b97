/**
 * "Get the games" on the story shelf: nothing is fetched until the user asks; the
 * paper's six Jericho games come through a CORS proxy prefix (a local server standing in for the
 * archives, serving ../shared's files), each checked against Jericho's md5; a wrong file is
 * refused with both sums, a 404 can be retried, and a server that does not allow the page's
 * origin gets the CORS advice. Fetched games are in the picker and play.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { openPlayer } from './helpers.ts';

const STORIES = resolve(import.meta.dirname, '../../shared/stories');
let server: Server;
let base = '';
let requests: string[] = [];
/** Games answered 404 once (then served), and games answered with another game's bytes. */
let notFoundOnce = new Set<string>();
let wrongFile = new Set<string>();

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const target = url.searchParams.get('url') ?? '';
    requests.push(`${url.pathname} ${target}`);
    const name = (target.split('/').pop() ?? '').toLowerCase();
    const game = name.replace(/\.z\d$/, '');
    if (url.pathname === '/no-cors') {
      res.writeHead(200).end('x');
      return;
    }
    res.setHeader('access-control-allow-origin', '*');
    if (notFoundOnce.delete(game)) {
      res.writeHead(404).end('not found');
      return;
    }
    const file = wrongFile.has(game) ? 'advent.z5' : name;
    if (!existsSync(join(STORIES, file))) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(join(STORIES, file)));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** The e2e server lists ../shared's stories as local stories; a visitor's page has none. */
test.beforeEach(async ({ page }) => {
  await page.route('**/local-stories/index.json', (route) => route.fulfill({ json: [] }));
});

test('the paper\'s games through a proxy prefix: checked, added to the story shelf, a wrong file refused, a 404 retried', async ({ page }) => {
  requests = [];
  notFoundOnce = new Set(['zork3']);
  wrongFile = new Set(['library']);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openPlayer(page);
  const panel = page.getByTestId('get-games');
  await panel.locator('summary').click();
  const rows = panel.getByTestId('get-games-row');
  await expect(rows).toHaveCount(6);
  await expect(rows.first()).toContainText('Detective');
  await expect(rows.first()).toContainText('Freeware, no explicit distribution terms');
  await expect(rows.first()).toHaveAttribute('data-status', 'idle');
  expect(requests).toEqual([]);

  await page.getByTestId('get-games-proxy').fill(`${base}/proxy?url=`);
  await page.getByTestId('get-games-start').click();
  const row = (id: string) => panel.locator(`[data-testid="get-games-row"][data-id="${id}"]`);
  for (const id of ['detective', 'zork1', 'temple', 'balances']) await expect(row(id), id).toHaveAttribute('data-status', 'fetched', { timeout: 20_000 });
  await expect(row('library')).toHaveAttribute('data-status', 'md5 mismatch');
  await expect(row('library').getByTestId('get-games-message')).toContainText("expected Jericho's daf57133d346442b983bd333fb586cc4; not kept.");
  await expect(row('library').getByTestId('get-games-message')).toContainText('library.z5: md5 ee2242e155fd8910921b0f8e04019a3a');
  await expect(row('zork3')).toHaveAttribute('data-status', 'not found');
  // Each address went through the prefix, once.
  expect(requests.filter((r) => r.includes('batmantis.com/zorks/zork1.z5'))).toEqual(['/proxy http://www.batmantis.com/zorks/zork1.z5']);
  await page.screenshot({ path: 'test-results/get-games.png', fullPage: true });

  await row('zork3').getByTestId('get-games-retry').click();
  await expect(row('zork3')).toHaveAttribute('data-status', 'fetched');
  // The fetched games are in the picker, as the catalog names them; a reload keeps them.
  const picker = page.getByTestId('story-picker');
  for (const title of ['Detective', 'The Temple', 'Zork III: The Dungeon Master (r17)']) await expect(picker.locator('option', { hasText: title })).toHaveCount(1);
  await expect(picker.locator('option', { hasText: 'All Quiet on the Library Front' })).toHaveCount(0);
  await page.reload();
  await panel.locator('summary').click();
  await expect(row('temple')).toHaveAttribute('data-status', 'already there');
});

test('a server that does not allow the page\'s origin gets the CORS advice', async ({ page }) => {
  await openPlayer(page);
  const panel = page.getByTestId('get-games');
  await panel.locator('summary').click();
  await page.getByTestId('get-games-proxy').fill(`${base}/no-cors?url=`);
  await page.getByTestId('get-games-start').click();
  const first = panel.locator('[data-testid="get-games-row"][data-id="detective"]');
  await expect(first).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
  await expect(first.getByTestId('get-games-message')).toContainText('set a CORS proxy prefix and retry');
});
