/**
 * The shipped Learn recordings in Replay draw their maps with no provider or key: The Vault's map
 * grows from the Lobby to three rooms (the Vault found in episode 2, where points were scored), and
 * The Lever Room's one room holds the actor to the end of the winning episodes. Both are labelled as
 * played by the simulated model. Screenshots of Replay with the map at 1280×800 and 1920×1080 go to
 * test-results.
 */
import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './axe.ts';
import { openReplay, playToEnd } from './replay-helpers.ts';

for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
  test(`at ${size.width}×${size.height} the shipped Vault recording's map grows to three rooms`, async ({ page }) => {
    await page.setViewportSize(size);
    await openReplay(page);
    const entry = page.locator('[data-testid="replay-shipped"][data-id="vault-credit-assignment"]');
    await expect(entry).toContainText('simulated model — not a language model');
    await entry.click();
    await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
    const map = page.getByTestId('replay-map');
    await expect(map).toHaveAttribute('data-placed', 'true');
    await expect(map).toHaveAttribute('data-rooms', 'Lobby');
    await playToEnd(page);
    await expect(map).toHaveAttribute('data-rooms', 'Lobby|Vault Door|Vault');
    await expect(page.getByTestId('replay-map-room')).toHaveCount(3);
    await expect(map).toHaveAttribute('data-current', 'Vault');
    await expect(page.getByTestId('replay-map-room').and(page.locator('[data-name="Vault"]'))).toHaveAttribute('data-first-episode', '2');
    await expect(page.getByTestId('replay-map-room').and(page.locator('[data-name="Vault"]'))).toHaveAttribute('data-scored', 'true');
    // The slider at episode 1: the two rooms it found, at the places they keep.
    await page.getByTestId('replay-map-slider').fill('1');
    await expect(map).toHaveAttribute('data-rooms', 'Lobby|Vault Door');
    await page.getByTestId('replay-map-slider').fill('4');
    await map.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/replay-shipped-map-${size.width}x${size.height}.png` });
    await expectNoSeriousViolations(page, 'Replay of the shipped Vault recording with its map');
  });
}

test('the shipped Lever Room recording is won in its one room, the actor there to the end', async ({ page }) => {
  await openReplay(page, '&replay=lever-room-naive');
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await playToEnd(page);
  const map = page.getByTestId('replay-map');
  await expect(map).toHaveAttribute('data-rooms', 'Lever Room');
  await expect(map).toHaveAttribute('data-current', 'Lever Room');
  await expect(page.getByTestId('replay-map-room')).toHaveAttribute('data-scored', 'true');
  await expect(page.getByTestId('replay-score')).toHaveText('5');
});
