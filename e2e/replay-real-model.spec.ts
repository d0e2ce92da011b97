/**
 * The shipped real-model recording: a Lever Room session played by SmolLM2-135M-Instruct
 * run locally, opened from Replay's list with no key, labelled with the model, played to its end.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openReplay, playToEnd } from './replay-helpers.ts';

const RECORD = JSON.parse(readFileSync(new URL('../public/replays/lever-room-smollm2.json', import.meta.url), 'utf8')) as { scores: number[]; wAuc: number; config: { models: { actor: { model: string } } } };

test('the real-model recording opens from the list, names the model and plays to its end', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openReplay(page);
  const entry = page.locator('[data-testid="replay-shipped"][data-id="lever-room-smollm2"]');
  await expect(entry).toHaveText('The Lever Room — naive meta-agent, 3 episodes (real model: SmolLM2-135M-Instruct, run locally)');
  await entry.click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  expect(RECORD.config.models.actor.model).toBe('SmolLM2-135M-Instruct.Q4_1');
  await expect(page.getByTestId('replay-models')).toContainText('SmolLM2-135M-Instruct.Q4_1');
  await playToEnd(page);
  await expect(page.getByTestId('replay-ended')).toHaveText(String(RECORD.scores.length));
  // The recording is data (scripts/record-replays.sh): its W-AUC is read from it, never from a live model.
  await expect(page.getByTestId('replay-wauc')).toHaveText(RECORD.wAuc.toFixed(3));
  await page.screenshot({ path: 'test-results/replay-real-model.png' });
});
