/**
 * "You are the meta-agent" against the mock LLM (in the test process): K = 2 on The Lever Room;
 * after episode 1 the page shows the episode log and the current guide; the guide typed there is
 * in the system message of every actor request of episode 2 ("Follow this guide:\n<text>"), and
 * no meta-agent is called. A reload while the page waits resumes and asks again.
 */
import { expect, test } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { startMockLlm, type LoggedRequest, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

const GUIDE = 'PLAN:\n1. PULL YELLOW LEVER\n2. PULL BLUE LEVER\nThe game said the yellow lever comes first.';
const systemOf = (r: LoggedRequest): string => ((r.body as { messages?: { role: string; content: unknown }[] }).messages ?? []).filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
const actorRequests = (): LoggedRequest[] => mock.requests.filter((r) => r.role === 'actor');

test('the guide typed after episode 1 is what the actor follows in episode 2', async ({ page }) => {
  mock = await startMockLlm();
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { story: 'lever-room', seed: 1, policy: 'human', episodes: 2, maxSteps: 3 });

  const panel = page.getByTestId('learn-human');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel).toHaveAttribute('data-episode', '1');
  await expect(page.getByTestId('learn-state')).toHaveText('Your turn: write the guide for episode 2');
  await expect(page.getByTestId('learn-human-log')).toContainText('=== EPISODE 1 ===');
  await expect(page.getByTestId('learn-human-log')).toContainText('[STEP 1]');
  const guideField = page.getByTestId('learn-human-guide');
  await expect(guideField).toBeFocused();
  await expect(guideField).toHaveValue(await page.getByTestId('learn-guide-input').inputValue());
  const episode1 = actorRequests().length;
  expect(episode1).toBeGreaterThan(0);
  for (const r of actorRequests()) expect(systemOf(r)).not.toContain('PULL YELLOW LEVER');

  await guideField.fill(GUIDE);
  await page.getByTestId('learn-human-continue').click();
  await expect(panel).toHaveCount(0);
  await waitComplete(page);

  const episode2 = actorRequests().slice(episode1);
  expect(episode2.length).toBeGreaterThan(0);
  for (const r of episode2) expect(systemOf(r)).toContain(`Follow this guide:\n${GUIDE}`);
  expect(mock.requests.filter((r) => r.role === 'metaAgent')).toEqual([]);
  expect(mock.requests.filter((r) => r.unexpected)).toEqual([]);

  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.config.policy).toEqual({ kind: 'human' });
  expect(record.exchanges).toHaveLength(1);
  expect(record.exchanges[0]).toMatchObject({ afterEpisode: 1, kind: 'human', guidingPromptAfter: GUIDE });
  expect(record.episodes[1]!.guidingPrompt).toBe(GUIDE);
  // Following the typed plan, the actor pulls the first two levers of seed 1's order.
  expect(record.episodes[1]!.steps.slice(0, 2).map((s) => s.action?.toLowerCase())).toEqual(['pull yellow lever', 'pull blue lever']);
  expect(record.episodes[1]!.finalScore).toBe(2);
  await expect(page.getByTestId('learn-feedback-item')).toContainText('Your guide');
});

test('a reload while the page waits for the guide resumes and asks again', async ({ page }) => {
  mock = await startMockLlm();
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { story: 'lever-room', seed: 1, policy: 'human', episodes: 2, maxSteps: 2 });
  await expect(page.getByTestId('learn-human')).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('learn-unfinished-resume').click();
  const panel = page.getByTestId('learn-human');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel).toHaveAttribute('data-episode', '1');
  const before = actorRequests().length;
  await page.getByTestId('learn-human-guide').fill('PLAN:\n1. PULL YELLOW LEVER');
  await page.getByTestId('learn-human-continue').click();
  await waitComplete(page);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('2 / 2');
  const after = actorRequests().slice(before);
  expect(after.length).toBe(2);
  for (const r of after) expect(systemOf(r)).toContain('Follow this guide:\nPLAN:\n1. PULL YELLOW LEVER');
});

test('Stop ends the wait: the session is kept as stopped', async ({ page }) => {
  mock = await startMockLlm();
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { story: 'lever-room', seed: 1, policy: 'human', episodes: 3, maxSteps: 2 });
  await expect(page.getByTestId('learn-human')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('learn-stop').click();
  await expect(page.getByTestId('learn-human')).toHaveCount(0);
  await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle');
  await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'stopped');
  await expect(page.getByTestId('learn-resume')).toBeVisible();
});
