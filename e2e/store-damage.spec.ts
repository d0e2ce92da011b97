/**
 * A damaged IndexedDB store in Chromium: a Learn session is reloaded in the
 * middle of episode 2, then one stored step record of episode 2 is garbled in IndexedDB. Resume
 * refuses with an error naming the IndexedDB store and the record, changes nothing, and offers to
 * continue from the last good episode; that ends with exactly K contiguous episodes.
 */
import { expect, test } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';

let mock: MockLlm;
test.afterEach(async () => {
  await mock.close();
});

test('a garbled step record stops the resume with the store and record named; continuing from the last good episode completes', async ({ page }) => {
  mock = await startMockLlm({ script: ['east', 'get all', 'west', 'south'], faults: [{ kind: 'slow', delayMs: 1000, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { episodes: 3, maxSteps: 3, policy: 'meta:naive' });
  const transcript = page.getByTestId('learn-transcript');
  await expect(transcript).toHaveAttribute('data-episode', '2', { timeout: 30_000 });
  // Reload once episode 2 has two steps shown (so its first is stored): at least two, as a slow
  // machine may show the third before a check sees two; a later episode's steps do as well.
  await expect.poll(() => transcript.getByTestId('agent-step').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');

  // Garble step 1 of episode 2 (its score), as a disk or a crash might, keeping the record's shape.
  const runId = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('metattl-playground');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction(['runs', 'runEvents'], 'readwrite');
    const id = await new Promise<string>((resolve) => {
      const request = tx.objectStore('runs').getAll();
      request.onsuccess = () => resolve((request.result as { id: string; kind: string }[]).find((r) => r.kind === 'session')!.id);
    });
    const events = tx.objectStore('runEvents');
    await new Promise<void>((resolve) => {
      const request = events.get([id, 200001]);
      request.onsuccess = () => {
        const record = request.result as { data: { score: number } };
        events.put({ ...record, data: { ...record.data, score: record.data.score + 7 } });
        resolve();
      };
    });
    await new Promise<void>((resolve) => (tx.oncomplete = () => resolve()));
    db.close();
    return id;
  });

  await page.getByTestId('learn-unfinished-resume').click();
  const error = page.getByTestId('learn-error');
  await expect(error).toContainText(`The stored session "${runId}" is damaged, so it was not resumed: IndexedDB “metattl-playground”, object store runEvents (run ${runId}), seq 200001: its checksum does not fit`);
  await expect(error).toContainText('Intact before it: episode 1;');
  const requestsBefore = mock.requests.length;
  await page.getByTestId('learn-continue-last-good').click();
  await waitComplete(page);
  await expect(page.getByTestId('learn-error')).toHaveCount(0);
  await expect(page.getByTestId('learn-episodes-done')).toHaveText('3 / 3');
  expect(mock.requests.length).toBeGreaterThan(requestsBefore);
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.episodes.map((e) => e.steps.map((s) => s.index))).toEqual([[1, 2, 3], [1, 2, 3], [1, 2, 3]]);
});
