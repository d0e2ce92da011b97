/**
 * Shared steps of the Replay e2e tests: the shipped replay read from public/replays (what the page
 * must show), a scripted recording kept as a fixture, opening the view and a file, stepping to the end, and reading the steps shown.
 * Test ids used here are the Replay view's contract.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';

export const SHIPPED_TEXT = readFileSync(new URL('../public/replays/lever-room-naive.json', import.meta.url), 'utf8');
export const SHIPPED: SessionRecord = importSession(SHIPPED_TEXT);
/** A naive Lever Room session of the scripted mock kept as a fixed input (test/fixtures/recordings): K = 5, S = 10. */
export const SCRIPTED_TEXT = readFileSync(new URL('../test/fixtures/recordings/lever-room-scripted.json', import.meta.url), 'utf8');
export const SCRIPTED: SessionRecord = importSession(SCRIPTED_TEXT);

/** Load the Replay view (a full page load). */
export async function openReplay(page: Page, query = ''): Promise<void> {
  await page.goto(`./?view=replay${query}`);
  await expect(page.getByTestId('replay')).toBeVisible();
}

/** Open a file with the view's file picker, from memory. */
export async function openReplayFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('replay-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

/** Play the loaded replay from the start at the highest speed until its last frame. */
export async function playToEnd(page: Page): Promise<void> {
  await page.getByTestId('replay-speed').selectOption('32');
  if (await page.getByTestId('replay-start').isEnabled()) await page.getByTestId('replay-start').click();
  await page.getByTestId('replay-play').click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-at-end', 'true', { timeout: 30_000 });
  await expect(page.getByTestId('replay')).toHaveAttribute('data-playing', 'false');
}

/** The actions of the steps shown (data-action of each step). */
export function shownActions(page: Page): Promise<string[]> {
  return page.getByTestId('replay-step').evaluateAll((steps) => steps.map((s) => s.getAttribute('data-action') ?? ''));
}

/** Jump to each episode and step through all of it: its actions, score and ending must be the record's. */
export async function expectEpisodesAsRecorded(page: Page, record: SessionRecord): Promise<void> {
  for (const episode of record.episodes) {
    await page.locator(`[data-testid="replay-episode-jump"][data-episode="${episode.index}"]`).click();
    await expect(page.getByTestId('replay-stage')).toHaveAttribute('data-episode', String(episode.index));
    await expect(page.getByTestId('replay-guide')).toContainText(episode.guidingPrompt.split('\n')[0]!);
    for (let i = 0; i < episode.steps.length; i++) await page.getByTestId('replay-forward').click();
    await expect(page.getByTestId('replay-step')).toHaveCount(episode.steps.length);
    expect(await shownActions(page)).toEqual(episode.steps.map((s) => s.action ?? ''));
    await page.getByTestId('replay-forward').click();
    await expect(page.getByTestId('replay-episode-score')).toHaveText(String(episode.finalScore));
  }
}
