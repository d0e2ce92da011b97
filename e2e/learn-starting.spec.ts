/**
 * Between Start and the session's first record the page fetches the
 * story and starts its engine (a worker that compiles the story), which on a first start or a busy
 * machine takes seconds. The progress card says it is starting, never "No session yet", for as long
 * as that takes. The story file and the engine worker's script are held back until the test has
 * seen "Starting" twice, 2 s apart (held, not delayed a fixed time, so a slow machine cannot run
 * past the window before the test looks).
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { holdRequests } from './helpers.ts';
import { configureForLearn, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

test('a slow first start says "Starting" until the session exists, then runs', async ({ page }) => {
  mock = await startMockLlm({ script: ['east', 'west'] });
  await configureForLearn(page, mock.baseUrl);
  const { release, served } = await holdRequests(page, /\/stories\/advent\.z5$|\/assets\/engine-worker-[^/]*\.js$/);
  await goToLearn(page);
  await startSession(page, { seed: 0, policy: 'static', episodes: 1, maxSteps: 2 });
  const state = page.getByTestId('learn-state');
  await expect(state).toHaveText(/^Starting/);
  await page.waitForTimeout(2000);
  await expect(state).toHaveText(/^Starting/);
  release();
  await waitComplete(page);
  await expect(state).toHaveText('Complete');
  expect(served()).toBe(2);
});
