/**
 * Two tabs never run the same session (a Web Lock per session): a second tab that tries to resume
 * a session running in the first shows it read-only, refreshed, and may resume it once the first
 * tab stops it.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, goToLearn, startSession } from './learn-helpers.ts';

let mock: MockLlm;

test.afterEach(async () => {
  await mock.close();
});

test('a session running in one tab is read-only in another until it stops there', async ({ page, context }) => {
  mock = await startMockLlm({ script: ['east', 'get all', 'west', 'south'], faults: [{ kind: 'slow', delayMs: 400, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { episodes: 3, maxSteps: 6, policy: 'static' });
  await expect(page.getByTestId('learn-transcript').getByTestId('agent-step')).toHaveCount(1, { timeout: 20_000 });

  const other = await context.newPage();
  await other.goto('./?view=learn');
  await expect(other.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await other.getByTestId('learn-unfinished-resume').click();
  await expect(other.getByTestId('learn-read-only')).toContainText('running in another tab');
  await expect(other.getByTestId('learn-resume')).toHaveCount(0);
  // It follows the other tab's progress.
  await expect(other.getByTestId('learn-transcript').getByTestId('agent-step')).not.toHaveCount(0, { timeout: 10_000 });

  await page.getByTestId('learn-stop').click();
  await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'stopped');
  await expect(other.getByTestId('learn-read-only')).toHaveCount(0, { timeout: 10_000 });
  await expect(other.getByTestId('learn-progress')).toHaveAttribute('data-status', 'stopped');
  await expect(other.getByTestId('learn-resume')).toBeVisible();
});
