/**
 * A presenter's pace. In Learn, the delay chosen before Start is recorded with
 * the session; Pause holds between steps, Step ×2 grows the transcript by exactly 2 steps; a
 * reload while paused leaves a resumable session whose delay is shown again; Resume completes it,
 * and the finished run shows its pace read-only while its export carries no pace. In Agent,
 * Pause / Step / Resume work the same and Stop works while paused.
 */
import { expect, test, type Page } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { goTo } from './llm-helpers.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

const SCRIPT = ['east', 'get all', 'west', 'south', 'north', 'look', 'inventory', 'west'];

/** Click Step and wait until the run holds again with `count` steps drawn. */
async function stepOnce(page: Page, prefix: 'learn' | 'agent', transcript: string, count: number): Promise<void> {
  await page.getByTestId(`${prefix}-pace-step`).click();
  await expect(page.getByTestId(transcript).getByTestId('agent-step')).toHaveCount(count, { timeout: 30_000 });
  await expect(page.getByTestId(`${prefix}-pace`)).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
}

test('Learn at a presenter pace — Pause, Step ×2 (exactly 2 more steps), reload while paused, Resume completes; the pace is a setting, not a result', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  mock = await startMockLlm({ script: SCRIPT });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await page.getByTestId('learn-pace-delay').selectOption('500');
  await startSession(page, { seed: 0, policy: 'reflexion', episodes: 2, maxSteps: 8 });
  const transcript = page.getByTestId('learn-transcript');
  await expect(transcript.getByTestId('agent-step')).toHaveCount(1, { timeout: 30_000 });
  await page.getByTestId('learn-pace-pause').click();
  const pace = page.getByTestId('learn-pace');
  await expect(pace).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
  await expect(page.getByTestId('learn-transcript')).toHaveAttribute('data-episode', '1');
  const held = await transcript.getByTestId('agent-step').count();
  expect(held).toBeLessThanOrEqual(3);
  await stepOnce(page, 'learn', 'learn-transcript', held + 1);
  await stepOnce(page, 'learn', 'learn-transcript', held + 2);
  // Still held: nothing more runs while paused.
  await expect(page.getByTestId('learn-pace-state')).toContainText('Paused (2 steps stepped)');
  await expect(transcript.getByTestId('agent-step')).toHaveCount(held + 2);
  await expect(page.getByTestId('learn-pace-recorded')).toHaveText('0.5 s per step');
  if (await page.getByTestId('tour').isVisible()) await page.getByTestId('tour-close').click();
  await page.screenshot({ path: '/tmp/w16/shots/D-learn-paused.png' });

  // A reload while paused: the session is unfinished and resumable; the delay is shown again.
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('learn-unfinished-resume')).toBeVisible();
  await expect(page.getByTestId('learn-pace-delay')).toHaveValue('500');
  await expect(page.getByTestId('learn-pace-recorded')).toHaveText('0.5 s per step');
  await page.getByTestId('learn-unfinished-resume').click();
  await waitComplete(page);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('2 / 2');
  await expect(page.getByTestId('learn-pace-recorded')).toHaveText('0.5 s per step');
  const paced = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(paced.status).toBe('complete');
  expect(JSON.stringify(paced)).not.toContain('"pace"');

  // The same session unpaced plays the same steps and scores.
  await page.getByTestId('learn-pace-delay').selectOption('0');
  await startSession(page, { seed: 0, policy: 'reflexion', episodes: 2, maxSteps: 8 });
  await waitComplete(page);
  await expect(page.getByTestId('learn-pace-recorded')).toHaveText('no delay');
  const plain = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(plain.scores).toEqual(paced.scores);
  expect(plain.wAuc).toBe(paced.wAuc);
  expect(plain.episodes.map((e) => e.steps.map((s) => [s.action, s.observation, s.score]))).toEqual(paced.episodes.map((e) => e.steps.map((s) => [s.action, s.observation, s.score])));
});

test('Step at an episode’s last step runs that step only; the next Step runs the meta-agent’s update, then holds before episode 2', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  mock = await startMockLlm({ script: SCRIPT });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await page.getByTestId('learn-pace-delay').selectOption('1000');
  await startSession(page, { seed: 0, policy: 'meta:naive', episodes: 2, maxSteps: 3 });
  const transcript = page.getByTestId('learn-transcript');
  await expect(transcript.getByTestId('agent-step')).toHaveCount(1, { timeout: 30_000 });
  await page.getByTestId('learn-pace-pause').click();
  await expect(page.getByTestId('learn-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
  const held = await transcript.getByTestId('agent-step').count();
  for (let n = held + 1; n <= 3; n++) await stepOnce(page, 'learn', 'learn-transcript', n);
  // Episode 1 ended with its third step; the meta-agent has not been asked yet.
  await expect(page.getByTestId('learn-pace-state')).toContainText('Step runs the meta-agent’s update');
  // Said where the presenter looks (the card's heading), and the episode's last step stays shown.
  await expect(page.getByTestId('learn-state')).toHaveText('Paused after episode 1 of 2: Step runs the meta-agent’s update');
  await expect(page.getByTestId('learn-last-step')).toContainText('#3');
  await expect(page.getByTestId('learn-feedback-item')).toHaveCount(0);
  const metaCalls = (): number => mock.requests.filter((r) => r.role === 'metaAgent').length;
  expect(metaCalls()).toBe(0);
  await page.getByTestId('learn-pace-step').click();
  await expect(page.getByTestId('learn-feedback-item')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('learn-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
  await expect(page.getByTestId('learn-pace-state')).not.toContainText('meta-agent');
  expect(metaCalls()).toBe(1);
  // Held before episode 2's first step: no step of episode 2 has run.
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('1 / 2');
  if (await page.getByTestId('tour').isVisible()) await page.getByTestId('tour-close').click();
  await page.screenshot({ path: 'test-results/pace-held-before-update.png' });
  await page.getByTestId('learn-pace-resume').click();
  await waitComplete(page);
  expect(metaCalls()).toBe(1);
});

test('Agent at a presenter pace — Pause, Step ×2, Resume completes; Stop works while paused; the delay is kept after a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  mock = await startMockLlm({ script: SCRIPT });
  await configureForLearn(page, mock.baseUrl);
  await goTo(page, 'agent');
  await page.getByTestId('story-picker').selectOption('advent');
  await page.getByTestId('agent-max-steps').fill('8');
  await page.getByTestId('agent-pace-delay').selectOption('1000');
  await page.getByTestId('agent-start').click();
  const transcript = page.getByTestId('agent-transcript');
  await expect(transcript.getByTestId('agent-step')).toHaveCount(1, { timeout: 30_000 });
  await page.getByTestId('agent-pace-pause').click();
  await expect(page.getByTestId('agent-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
  const held = await transcript.getByTestId('agent-step').count();
  await stepOnce(page, 'agent', 'agent-transcript', held + 1);
  await stepOnce(page, 'agent', 'agent-transcript', held + 2);
  await page.getByTestId('agent-pace-delay').selectOption('0');
  await page.getByTestId('agent-pace-resume').click();
  await expect(transcript.getByTestId('agent-step')).toHaveCount(8, { timeout: 30_000 });
  await expect(page.getByTestId('agent-start')).toBeEnabled({ timeout: 30_000 });

  // Stop while paused ends the episode at once with the steps played.
  await page.getByTestId('agent-max-steps').fill('30');
  await page.getByTestId('agent-pace-delay').selectOption('1000');
  await page.getByTestId('agent-start').click();
  await expect(transcript.getByTestId('agent-step')).toHaveCount(1, { timeout: 30_000 });
  await page.getByTestId('agent-pace-pause').click();
  await expect(page.getByTestId('agent-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
  const stoppedAt = await transcript.getByTestId('agent-step').count();
  await page.getByTestId('agent-stop').click();
  await expect(page.getByTestId('agent-start')).toBeEnabled({ timeout: 30_000 });
  await expect(transcript.getByTestId('agent-step')).toHaveCount(stoppedAt);

  await page.getByTestId('agent-pace-delay').selectOption('2000');
  await page.reload();
  await goTo(page, 'agent');
  await expect(page.getByTestId('agent-pace-delay')).toHaveValue('2000');
});

test('workshop mode at 1920×1080 — the pace is in the progress card, in sight; Pause, Step, and Stop while paused', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  mock = await startMockLlm({ script: SCRIPT });
  await configureForLearn(page, mock.baseUrl);
  await page.goto('./?view=learn&workshop=1');
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('learn-steps').fill('12');
  await page.getByTestId('learn-pace-delay').selectOption('1000');
  await page.getByTestId('learn-start').click();
  const transcript = page.getByTestId('learn-transcript');
  await expect(transcript.getByTestId('agent-step')).toHaveCount(1, { timeout: 30_000 });
  await page.getByTestId('learn-pace-pause').click();
  await expect(page.getByTestId('learn-pace')).toHaveAttribute('data-pace', 'held', { timeout: 30_000 });
  const held = await transcript.getByTestId('agent-step').count();
  await stepOnce(page, 'learn', 'learn-transcript', held + 1);
  await expect(page.getByTestId('learn-pace-pause')).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('learn-pace-resume')).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('learn-state')).toHaveText(/^Paused in episode 1 of 3$/);
  await page.screenshot({ path: '/tmp/w16/shots/D-learn-paused-workshop.png' });
  await page.getByTestId('learn-stop').click();
  await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'stopped', { timeout: 30_000 });
  await expect(transcript.getByTestId('agent-step')).toHaveCount(held + 1);
});
