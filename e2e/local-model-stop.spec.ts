/**
 * Stop and a reload while the in-page local model (the real SmolLM2-135M, see
 * local-model-helpers.ts) generates behave as with remote providers. Stop: the session is
 * stopped at once (the time from the click to "stopped" is printed), no further step is played,
 * the worker's request is cancelled — by wllama, or by ending the worker when llama.cpp is inside
 * a prompt batch a second after Stop (Settings: idle, and its count of generated tokens no longer
 * moves) — the record says stopped, and Resume completes it (loading the model again if needed). A reload mid-generation leaves an
 * interrupted, resumable session; Resume loads the model from browser storage (no new fetch)
 * and completes it. Short sessions: static policy (no meta-agent call), K 2, S 2.
 */
import { expect, test, type Page } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { downloadText, goToLearn, goToSettings, startSession, waitComplete } from './learn-helpers.ts';
import { loadLocalModel, requireModelFile } from './local-model-helpers.ts';
import { openView, settingsSaved } from './llm-helpers.ts';

test.describe.configure({ mode: 'serial', timeout: 1_200_000 });
test.beforeAll(requireModelFile);

const SETUP = { story: 'lever-room', seed: 1, policy: 'static', episodes: 2, maxSteps: 2 };

/**
 * The actor's budget: 100 tokens. Its grammar shrinks to fit (reasoning ≤ 64 characters, a command
 * ≤ 15), so each step ends by itself within 100 tokens whatever the model writes, and the
 * session stays short on a slow CPU.
 */
async function smallActorBudget(page: Page): Promise<void> {
  await openView(page, 'settings');
  await page.getByTestId('max-tokens-actor').fill('100');
  await settingsSaved(page);
}

/** Start the session and wait until the actor's first step is played: its second call is then under way. */
async function startAndWaitForGeneration(page: Page): Promise<void> {
  await goToLearn(page);
  await startSession(page, SETUP);
  await expect(page.getByTestId('learn-transcript').getByTestId('agent-step')).toHaveCount(1, { timeout: 240_000 });
}

/**
 * Each episode played its steps in order up to S = 2, fewer only when the game ended (a wrong lever
 * kills): which commands the model types differs between CPUs (llama.cpp's wasm and native kernels
 * round differently), so the number of steps is not asserted beyond that.
 */
function expectWholeEpisodes(episodes: readonly { steps: readonly { index: number }[]; termination: string | null }[]): void {
  for (const episode of episodes) {
    const n = episode.steps.length;
    expect(episode.steps.map((s) => s.index)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(n === SETUP.maxSteps ? ['step_limit', 'game_over'] : ['game_over']).toContain(episode.termination);
  }
}

test('Stop mid-generation stops the session at once and cancels the worker; Resume completes it', async ({ page }) => {
  await loadLocalModel(page);
  await smallActorBudget(page);
  await startAndWaitForGeneration(page);
  const clicked = Date.now();
  await page.getByTestId('learn-stop').click();
  await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'stopped');
  const stopMs = Date.now() - clicked;
  test.info().annotations.push({ type: 'stop', description: `${stopMs} ms from the click on Stop to "stopped"` });
  console.log(`local model: ${stopMs} ms from the click on Stop to "stopped"`);
  await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle');
  const steps = page.getByTestId('learn-transcript').getByTestId('agent-step');
  await expect(steps).toHaveCount(1);
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.status).toBe('stopped');
  expect(record.episodes.flatMap((e) => e.steps)).toHaveLength(1);

  // The worker's request was cancelled: idle, and no token streams in any more.
  await goToSettings(page);
  const activity = page.getByTestId('local-activity');
  await expect(activity).toHaveAttribute('data-generating', 'false');
  await expect(activity).toContainText(/^Idle/);
  // Ended by the worker's own cancel, or (Stop inside a prompt batch) by ending the worker after 1 s.
  const ended = await activity.getAttribute('data-worker-ended');
  test.info().annotations.push({ type: 'worker', description: ended === 'true' ? 'the worker was ended' : 'the worker cancelled the request' });
  console.log(`local model after Stop: ${ended === 'true' ? 'the worker was ended (Stop came inside a prompt batch)' : 'the worker cancelled the request itself'}`);
  const tokens = Number(await activity.getAttribute('data-tokens'));
  expect(tokens).toBeGreaterThan(0);
  await page.waitForTimeout(3_000);
  await expect(activity).toHaveAttribute('data-tokens', String(tokens));

  await goToLearn(page);
  await expect(steps).toHaveCount(1);
  await page.getByTestId('learn-resume').click();
  await waitComplete(page, 900_000);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('2 / 2');
  const done = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(done.status).toBe('complete');
  expect(done.episodes.map((e) => e.index)).toEqual([1, 2]);
  expectWholeEpisodes(done.episodes);
});

test('a reload mid-generation leaves a resumable session; Resume loads the model from storage and completes it', async ({ page }) => {
  const fetched = await loadLocalModel(page);
  expect(fetched).toHaveLength(1);
  await smallActorBudget(page);
  await startAndWaitForGeneration(page);
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('learn-state')).toHaveText(/^Interrupted \(resumable\)$/);
  await expect(page.getByTestId('learn-unfinished')).toContainText('0 of 2 episodes done');
  await page.getByTestId('learn-unfinished-resume').click();
  await waitComplete(page, 900_000);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('2 / 2');
  // The model came from browser storage: fetched once, before the reload.
  expect(fetched).toHaveLength(1);
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.status).toBe('complete');
  expect(record.config).toMatchObject({ episodes: 2, maxSteps: 2, seed: 1, policy: { kind: 'static' } });
  expectWholeEpisodes(record.episodes);
});
