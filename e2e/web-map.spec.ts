/**
 * For a web task the map panel shows the pages visited: the Agent playing web:shop/t1:1 with the
 * oracle's actions against the mock LLM draws Home and the product page it ends on, where the point
 * was scored; Replay of a recorded shop trajectory (test/fixtures/web-pages) draws its four pages
 * as the replay goes, the search results last. Screenshot at 1280×800.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { webScript } from '../test/support/web-scripts.ts';
import { configureForLearn } from './learn-helpers.ts';
import { goTo } from './llm-helpers.ts';
import { openReplay, openReplayFile, playToEnd } from './replay-helpers.ts';

const RECORDED = readFileSync(new URL('../test/fixtures/web-pages/shop-t1-pages.json', import.meta.url), 'utf8');
const SEARCH = "Search results for 'Aurora Camping Tent' – Shop";

let mock: MockLlm | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

test('Agent: a web task’s map shows the pages visited, the point scored on the page it ends on', async ({ page }) => {
  const { goal, actions } = await webScript('web:shop/t1:1');
  mock = await startMockLlm({ exploreCommands: ['noop()'], goalScripts: [{ goal, script: actions }] });
  await page.setViewportSize({ width: 1280, height: 800 });
  await configureForLearn(page, mock.baseUrl);
  await goTo(page, 'agent');
  await page.getByTestId('agent-kind-web').check();
  await page.getByTestId('web-task-id').fill('web:shop/t1:1');
  await expect(page.getByTestId('web-task-intent')).toHaveText(goal);
  await page.getByTestId('agent-start').click();
  await expect(page.getByTestId('agent-termination')).toHaveAttribute('data-termination', 'game_over', { timeout: 30_000 });
  const map = page.getByTestId('agent-map');
  await expect(map).toHaveAttribute('data-places', 'pages');
  await expect(map).toHaveAttribute('data-placed', 'true');
  const rooms = (await map.getAttribute('data-rooms'))!.split('|');
  expect(rooms[0]).toBe('Home – Shop');
  expect(rooms.length).toBeGreaterThanOrEqual(2);
  await expect(map).toHaveAttribute('data-current', rooms.at(-1)!);
  await expect(page.getByTestId('agent-map-room').and(page.locator(`[data-name="${rooms.at(-1)!}"]`))).toHaveAttribute('data-scored', 'true');
  await expect(page.getByRole('heading', { name: 'Map of the pages visited' })).toBeVisible();
});

test('Replay: a recorded web-task trajectory’s map grows page by page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openReplay(page);
  await openReplayFile(page, 'shop-t1-pages.json', RECORDED);
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  const map = page.getByTestId('replay-map');
  await expect(map).toHaveAttribute('data-places', 'pages');
  await expect(map).toHaveAttribute('data-rooms', 'Home – Shop');
  await page.getByTestId('replay-forward').click();
  await expect(map).toHaveAttribute('data-rooms', 'Home – Shop|Outdoor – Shop');
  await expect(map).toHaveAttribute('data-current', 'Outdoor – Shop');
  await playToEnd(page);
  await expect(map).toHaveAttribute('data-rooms', `Home – Shop|Outdoor – Shop|Cart – Shop|${SEARCH}`);
  await expect(map).toHaveAttribute('data-current', SEARCH);
  const moves = await map.locator('g.edge title').allTextContents();
  expect(moves.map((m) => m.replace(/ \(found in episode 1\)$/, ''))).toEqual(["click('24')", "goto('http://shop.test/')", "click('5')", 'go_back()', "click('13')"]);
  await map.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/replay-web-map-1280x800.png' });
});
