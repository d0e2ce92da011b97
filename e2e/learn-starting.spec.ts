/**
 * Issue 19 (a new-user trial): between Start and the session's first record the page fetches the
 * story and starts its engine (a worker that compiles the story), which on a first start or a busy
 * machine takes seconds. The progress card says it is starting, never "No session yet", for as long
 * as that takes. The story file and the engine worker's script are each served 3 s late.
 */
import { expect, test } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

test('a slow first start says "Starting" until the session exists, then runs', async ({ page }) => {
  mock = await startMockLlm({ script: ['east', 'west'] });
  await configureForLearn(page, mock.baseUrl);
  let served = 0;
  await page.route(/\/stories\/advent\.z5$|\/assets\/engine-worker-[^/]*\.js$/, async (route) => {
    served++;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue();
  });
  await goToLearn(page);
  await startSession(page, { seed: 0, policy: 'static', episodes: 1, maxSteps: 2 });
  const state = page.getByTestId('learn-state');
  await expect(state).toHaveText(/^Starting/);
  await page.waitForTimeout(4000); // past the story's delay: the worker's is still running
  await expect(state).toHaveText(/^Starting/);
  await waitComplete(page);
  await expect(state).toHaveText('Complete');
  expect(served).toBe(2);
});
