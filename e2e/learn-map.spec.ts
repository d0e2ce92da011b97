/**
 * The session map in Learn on the mock: The Lever Room's one room with the actor in it, and The
 * Vault's rooms growing across episodes with the slider (a room of a later episode appears only
 * from that episode on; earlier rooms keep their places); the PNG export is a 1920 × 1080 image and
 * the SVG export holds the rooms as text. The exported session replayed shows the same map, drawn as
 * far as the replay has got. Agent draws its one episode's map. A recording made before locations says there is no map. Screenshots at 1280×800 and 1920×1080 go to test-results.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { openReplay, openReplayFile, playToEnd, SCRIPTED_TEXT } from './replay-helpers.ts';
import { configureProvider, goTo, openView, startRun } from './llm-helpers.ts';
import { expectNoSeriousViolations } from './axe.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

/** Width and height of a PNG file (its IHDR chunk). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function roomPlaces(page: Page): Promise<Record<string, string>> {
  return page.getByTestId('learn-map-room').evaluateAll((gs) =>
    Object.fromEntries(gs.map((g) => [g.getAttribute('data-name'), g.querySelector('rect.box')!.getAttribute('x') + ',' + g.querySelector('rect.box')!.getAttribute('y')])));
}

test('The Lever Room: the map shows its one room, the actor in it, and exports a 1920 × 1080 PNG', async ({ page }) => {
  mock = await startMockLlm({ script: ['pull red lever', 'look'] });
  await page.setViewportSize({ width: 1280, height: 800 });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { story: 'lever-room', seed: 1, policy: 'static', episodes: 2, maxSteps: 3 });
  await waitComplete(page);
  const map = page.getByTestId('learn-map');
  await expect(map).toHaveAttribute('data-placed', 'true');
  await expect(map).toHaveAttribute('data-rooms', 'Lever Room');
  await expect(map).toHaveAttribute('data-current', 'Lever Room');
  await expect(page.getByTestId('learn-map-room')).toHaveAttribute('data-ended', 'true');
  await expect(page.getByTestId('learn-map-slider')).toHaveValue('2');
  await map.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/learn-map-lever-1280x800.png' });
  const downloading = page.waitForEvent('download');
  await page.getByTestId('learn-map-export-png').click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^learn-map-.*\.png$/);
  expect(pngSize(readFileSync(await file.path()))).toEqual({ width: 1920, height: 1080 });
  const svg = await downloadText(page, () => page.getByTestId('learn-map-export-svg').click());
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1920" height="1080"/);
  expect(svg).toContain('>Lever Room</text>');
  expect(svg).toContain('The Lever Room — map after episode 2');
});

test('The Vault: the map grows across episodes, the slider shows it as it stood, placed rooms never move', async ({ page }) => {
  // Episode 1 walks east and back; the scripted actor repeats its commands, so every episode
  // reaches the same rooms: the growth is shown within an episode's steps and by the slider.
  mock = await startMockLlm({ script: ['take card', 'east', 'west', 'east'] });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { story: 'vault', seed: 1, policy: 'static', episodes: 2, maxSteps: 4 });
  await waitComplete(page);
  const map = page.getByTestId('learn-map');
  await expect(map).toHaveAttribute('data-placed', 'true');
  await expect(map).toHaveAttribute('data-rooms', 'Lobby|Vault Door');
  await expect(map).toHaveAttribute('data-current', 'Vault Door');
  const labels = await map.locator('g.edge text').allTextContents();
  expect(labels.sort()).toEqual(['east', 'west']);
  const places = await roomPlaces(page);
  await page.getByTestId('learn-map-slider').fill('1');
  await expect(page.getByTestId('learn-map-episode')).toHaveText('1');
  expect(await roomPlaces(page)).toEqual(places);
  await map.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/learn-map-vault-1920x1080.png' });
  await expectNoSeriousViolations(page, 'Learn with the map drawn');

  // The same session in Replay: at the start only the first room; at the end both, at the same places.
  const exported = await downloadText(page, () => page.getByTestId('learn-export').click());
  await page.setViewportSize({ width: 1280, height: 800 });
  await openReplay(page);
  await openReplayFile(page, 'vault.json', exported);
  const replayed = page.getByTestId('replay-map');
  await expect(replayed).toHaveAttribute('data-placed', 'true');
  await expect(replayed).toHaveAttribute('data-rooms', 'Lobby');
  await expect(replayed).toHaveAttribute('data-current', 'Lobby');
  await playToEnd(page);
  await expect(replayed).toHaveAttribute('data-rooms', 'Lobby|Vault Door');
  await expect(replayed).toHaveAttribute('data-current', 'Vault Door');
  await expect(page.getByTestId('replay-map-slider')).toHaveValue('2');
  await replayed.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/replay-map-vault-1280x800.png' });
  await expectNoSeriousViolations(page, 'Replay with the map drawn');
});

test('a recording made before locations were reported says it has no map', async ({ page }) => {
  mock = await startMockLlm({});
  await openReplay(page);
  await openReplayFile(page, 'lever-room-scripted.json', SCRIPTED_TEXT);
  await expect(page.getByTestId('replay-map-empty')).toBeVisible();
});

test('Agent: one episode of The Vault draws its map, the actor in the room it reached', async ({ page }) => {
  mock = await startMockLlm({ script: ['take card', 'east', 'west', 'east'] });
  await page.setViewportSize({ width: 1280, height: 800 });
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await goTo(page, 'agent');
  await startRun(page, { story: 'vault', seed: 1, maxSteps: 4 });
  await expect(page.getByTestId('agent-termination')).toContainText('step_limit', { timeout: 30_000 });
  const map = page.getByTestId('agent-map');
  await expect(map).toHaveAttribute('data-placed', 'true');
  await expect(map).toHaveAttribute('data-rooms', 'Lobby|Vault Door');
  await expect(map).toHaveAttribute('data-current', 'Vault Door');
  await expect(page.getByTestId('agent-map-slider')).toHaveCount(0);
  await map.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/agent-map-vault-1280x800.png' });
});
