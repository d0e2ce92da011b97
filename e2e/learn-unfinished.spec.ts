/**
 * After a reload in the middle of a session — or of a session a provider
 * fault stopped — the Learn view shows that session as it is (episodes done, progress, learning
 * curve, the transcript of what was played) and its settings in a read-only form, under a banner
 * whose Resume finishes it (one Resume button, not two). The values are checked against the
 * session stored in IndexedDB.
 */
import { expect, test, type Page } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

/** The one stored session, as IndexedDB holds it: its config, scores and steps stored per episode. */
async function storedSession(page: Page): Promise<{ id: string; episodes: number; maxSteps: number; seed: number; policy: string; scores: number[]; steps: number }> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('metattl-playground');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction(['runs', 'runEvents'], 'readonly');
    const all = <T,>(request: IDBRequest): Promise<T[]> => new Promise((resolve) => (request.onsuccess = () => resolve(request.result as T[])));
    type Header = { id: string; kind: string; data: { config: { episodes: number; maxSteps: number; seed: number; policy: { kind: string } }; scores: number[] } };
    const run = (await all<Header>(tx.objectStore('runs').getAll())).find((r) => r.kind === 'session')!;
    const steps = (await all<{ runId: string }>(tx.objectStore('runEvents').getAll())).filter((e) => e.runId === run.id).length;
    db.close();
    const { config, scores } = run.data;
    return { id: run.id, episodes: config.episodes, maxSteps: config.maxSteps, seed: config.seed, policy: config.policy.kind, scores, steps };
  });
}

/** The view shows the stored session as it is, its settings in a read-only form, one Resume. */
async function expectShownAsStored(page: Page, state: RegExp): Promise<void> {
  const stored = await storedSession(page);
  expect(stored.scores.length).toBeGreaterThan(0);
  expect(stored.scores.length).toBeLessThan(stored.episodes);
  expect(stored.steps).toBeGreaterThan(0);
  const banner = page.getByTestId('learn-unfinished');
  await expect(banner).toContainText(`${stored.scores.length} of ${stored.episodes} episodes done`);
  await expect(banner).toHaveAttribute('data-shown', 'true');
  // The panel: the session, not "No session yet".
  await expect(page.getByTestId('learn-state')).toHaveText(state);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText(`${stored.scores.length} / ${stored.episodes}`);
  const percent = Number((await page.getByTestId('learn-progress').locator('.percent').textContent())!.replace('%', ''));
  expect(percent).toBeGreaterThanOrEqual(Math.floor((100 * stored.scores.length) / stored.episodes));
  await expect(page.getByTestId('learn-curve')).toBeVisible();
  const curveRow = page.getByTestId('learn-curve-table').locator('tbody tr').first().locator('td');
  await expect(curveRow).toHaveText([...stored.scores.map(String), ...Array.from({ length: stored.episodes - stored.scores.length }, () => '–')]);
  // The transcript: every stored step is in some episode's tab.
  const tabs = page.getByTestId('learn-episode-tab');
  let shownSteps = 0;
  for (const tab of await tabs.all()) {
    await tab.click();
    await expect(page.getByTestId('learn-transcript')).toHaveAttribute('data-episode', (await tab.textContent())!.trim());
    shownSteps += await page.getByTestId('learn-transcript').getByTestId('agent-step').count();
  }
  expect(shownSteps).toBe(stored.steps);
  // The form: the session's settings, read-only; Start waits for Resume or "New session".
  await expect(page.getByTestId('learn-episodes')).toHaveValue(String(stored.episodes));
  await expect(page.getByTestId('learn-steps')).toHaveValue(String(stored.maxSteps));
  await expect(page.getByTestId('learn-seed')).toHaveValue(String(stored.seed));
  await expect(page.getByTestId('learn-policy')).toHaveValue(stored.policy);
  await expect(page.getByTestId('story-picker')).toHaveValue('advent');
  for (const id of ['learn-episodes', 'learn-steps', 'learn-seed', 'learn-policy', 'story-picker', 'learn-start']) await expect(page.getByTestId(id)).toBeDisabled();
  await expect(page.getByTestId('learn-setup-held')).toBeVisible();
  // One Resume above the list (the banner's), not a second one in the progress panel.
  await expect(page.getByTestId('learn-unfinished-resume')).toHaveCount(1);
  await expect(page.getByTestId('learn-resume')).toHaveCount(0);
}

test('after a reload mid-session the view shows the session as stored, its settings in the form; Resume finishes it', async ({ page }) => {
  // Each actor reply takes 500 ms: the reload lands well before episode 2 (6 steps) ends.
  mock = await startMockLlm({ script: ['east', 'get all', 'west', 'south'], faults: [{ kind: 'slow', delayMs: 500, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { seed: 2, policy: 'reflexion', episodes: 3, maxSteps: 6 });
  const transcript = page.getByTestId('learn-transcript');
  await expect(transcript).toHaveAttribute('data-episode', '2', { timeout: 30_000 });
  await expect(transcript.getByTestId('agent-step')).toHaveCount(1, { timeout: 30_000 });
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expectShownAsStored(page, /^Interrupted \(resumable\)$/);

  const id = (await storedSession(page)).id;
  await page.getByTestId('learn-unfinished-resume').click();
  await waitComplete(page);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('3 / 3');
  await expect(page.getByTestId('learn-unfinished')).toHaveCount(0);
  await expect(page.getByTestId('learn-episodes')).toBeEnabled();
  await expect(page.getByTestId('learn-episodes')).toHaveValue('3');
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.id).toBe(id);
  expect(record.config).toMatchObject({ episodes: 3, maxSteps: 6, seed: 2, policy: { kind: 'reflexion' } });
});

test('a session stopped by a provider fault shows as stopped after a reload; "New session" frees the form, Resume still finishes it', async ({ page }) => {
  mock = await startMockLlm({ script: ['east', 'get all', 'west', 'south'], faults: [{ kind: 'slow', delayMs: 300, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { seed: 3, policy: 'static', episodes: 3, maxSteps: 3 });
  const transcript = page.getByTestId('learn-transcript');
  await expect(transcript).toHaveAttribute('data-episode', '2', { timeout: 30_000 });
  // The account runs out of credit in episode 2.
  mock.setOptions({ faults: [{ kind: 'quota' }] });
  await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'stopped', { timeout: 30_000 });
  await expect(page.getByTestId('learn-state')).toContainText('Stopped:');
  const stoppedText = (await page.getByTestId('learn-state').textContent())!;
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await expectShownAsStored(page, new RegExp(`^${stoppedText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  await expect(page.getByTestId('learn-faulted')).toHaveText('1 (not scored)');

  // "New session": the stopped one stays listed and resumable; the form (still its settings) is free.
  await page.getByTestId('learn-unfinished-new').click();
  await expect(page.getByTestId('learn-state')).toHaveText('No session yet');
  await expect(page.getByTestId('learn-episodes')).toBeEnabled();
  await expect(page.getByTestId('learn-episodes')).toHaveValue('3');
  await expect(page.getByTestId('learn-start')).toBeEnabled();
  await expect(page.getByTestId('learn-unfinished')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  mock.setOptions({ faults: [] });
  await page.getByTestId('learn-unfinished-resume').click();
  await waitComplete(page);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('3 / 3');
});
