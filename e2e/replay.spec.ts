/**
 * The Replay view with no provider configured: the shipped Lever Room replay steps through to the
 * file's final score, actions and W-AUC and names its model (the simulated model); a session
 * exported from a Learn run replays the same; an evaluation's sessions are listed and replayed;
 * bad files (picked or dropped) say why.
 */
import { expect, test, type Page } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { expectEpisodesAsRecorded, openReplay, openReplayFile, playToEnd, SHIPPED, SHIPPED_TEXT, shownActions } from './replay-helpers.ts';

/** The end of a replay shows the record's final score, ended episodes, curve and W-AUC. */
async function expectEndAsRecorded(page: Page, record: SessionRecord): Promise<void> {
  const last = record.episodes.at(-1)!;
  await expect(page.getByTestId('replay-score')).toHaveText(String(last.finalScore));
  await expect(page.getByTestId('replay-episode-score')).toHaveText(String(last.finalScore));
  await expect(page.getByTestId('replay-ended')).toHaveText(String(record.scores.length));
  await expect(page.getByTestId('replay-wauc')).toHaveText(record.wAuc!.toFixed(3));
  const cells = await page.getByTestId('replay-curve-table').locator('tbody td').allTextContents();
  expect(cells.slice(0, record.scores.length)).toEqual(record.scores.map(String));
  expect(await shownActions(page)).toEqual(last.steps.map((s) => s.action ?? ''));
}

test('the shipped replay steps through with no provider: score, actions and W-AUC as in the file', async ({ page }) => {
  const llmCalls: string[] = [];
  page.on('request', (r) => {
    if (/chat\/completions|\/models$|api\.openai\.com/.test(r.url())) llmCalls.push(r.url());
  });
  await openReplay(page);
  const shipped = page.locator('[data-testid="replay-shipped"][data-id="lever-room-naive"]');
  await expect(shipped).toContainText('simulated model — not a language model');
  await shipped.click();
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('replay-models')).toContainText('actor simulated');
  await expect(page.getByTestId('replay-models')).toContainText('meta-agent: simulated');
  await expect(page.getByTestId('replay-title')).toContainText('The Lever Room');

  // Frame by frame: the first step, then the end of episode 1, then the meta-agent's feedback.
  await expect(page.getByTestId('replay-step')).toHaveCount(0);
  await page.getByTestId('replay-forward').click();
  await expect(page.getByTestId('replay-step')).toHaveCount(1);
  await expect(page.getByTestId('replay-step-action')).toHaveText(`> ${SHIPPED.episodes[0]!.steps[0]!.action}`);
  await page.getByTestId('replay-step').locator('summary').click();
  await expect(page.getByTestId('replay-step-reply')).toHaveText(SHIPPED.episodes[0]!.steps[0]!.reply);
  await page.getByTestId('replay-forward').click();
  await expect(page.getByTestId('replay-ended')).toHaveText('1');
  await page.getByTestId('replay-forward').click();
  await expect(page.getByTestId('replay-feedback').getByTestId('learn-feedback-item')).toHaveCount(1);
  await expect(page.getByTestId('replay-feedback').getByTestId('learn-guide')).toContainText('pull yellow lever');
  await page.getByTestId('replay-back').click();
  await expect(page.getByTestId('replay-feedback').getByTestId('learn-feedback-item')).toHaveCount(0);

  await expectEpisodesAsRecorded(page, SHIPPED);
  await playToEnd(page);
  await expectEndAsRecorded(page, SHIPPED);
  await expect(page.getByTestId('replay-feedback').getByTestId('learn-feedback-item')).toHaveCount(SHIPPED.exchanges.length);

  // Keys: ← steps back, Space plays.
  await page.getByTestId('replay-title').click();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('replay')).toHaveAttribute('data-at-end', 'false');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('replay')).toHaveAttribute('data-at-end', 'true');
  expect(llmCalls).toEqual([]);
});

test('a session exported from a Learn run replays the same', async ({ page }) => {
  const mock = await startMockLlm({ script: ['pull yellow lever', 'pull red lever', 'look'] });
  try {
    await configureForLearn(page, mock.baseUrl);
    await goToLearn(page);
    await startSession(page, { story: 'lever-room', seed: 1, policy: 'meta:naive', episodes: 2, maxSteps: 3 });
    await waitComplete(page);
    const text = await downloadText(page, () => page.getByTestId('learn-export').click());
    const record = importSession(text);
    expect(record.scores).toHaveLength(2);

    await page.getByTestId('nav-replay').click();
    await openReplayFile(page, 'session.json', text);
    await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
    await expect(page.getByTestId('replay-models')).toContainText('actor mock-model');
    await expectEpisodesAsRecorded(page, record);
    await playToEnd(page);
    await expectEndAsRecorded(page, record);
  } finally {
    await mock.close();
  }
});

test('an evaluation’s sessions are listed and each replays', async ({ page }) => {
  const session = JSON.parse(SHIPPED_TEXT) as Record<string, unknown>;
  const results = {
    id: 'eval-demo', status: 'complete', config: {}, report: {},
    sessions: [
      { policyId: 'naive', taskId: 'lever-room:1', repeat: 0, wAuc: SHIPPED.wAuc, session },
      { policyId: 'naive', taskId: 'lever-room:1', repeat: 1, wAuc: SHIPPED.wAuc, session: { ...session, id: 'second-repeat' } },
      { policyId: 'static', taskId: 'lever-room:1', repeat: 0, wAuc: 0, session: null },
    ],
  };
  await openReplay(page);
  await openReplayFile(page, 'results.json', JSON.stringify(results));
  await expect(page.getByTestId('replay-sources')).toHaveAttribute('data-kind', 'evaluation');
  await expect(page.getByTestId('replay-item')).toHaveCount(2);
  await expect(page.getByTestId('replay-sources')).toContainText('1 more without a record');
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'false');
  await page.getByTestId('replay-item').nth(1).click();
  await expect(page.getByTestId('replay-item').nth(1)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('replay-models')).toContainText('actor simulated');
  await playToEnd(page);
  await expectEndAsRecorded(page, SHIPPED);
});

test('a bad file, picked or dropped, says why; a good dropped file opens', async ({ page }) => {
  await openReplay(page);
  await openReplayFile(page, 'notes.json', 'this is not json');
  await expect(page.getByTestId('replay-error')).toContainText('notes.json: This file is not JSON');
  await openReplayFile(page, 'broken.json', '{"format":"metattl-session-1","id":""}');
  await expect(page.getByTestId('replay-error')).toContainText('This is not a valid session file');
  await openReplayFile(page, 'other.json', '{"hello":"world"}');
  await expect(page.getByTestId('replay-error')).toContainText('not a Meta-TTL session, evolution or evaluation file');
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'false');

  const drop = async (name: string, text: string): Promise<void> => {
    const data = await page.evaluateHandle(([n, t]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([t], n, { type: 'application/json' }));
      return transfer;
    }, [name, text] as const);
    await page.dispatchEvent('[data-testid="replay"]', 'dragover', { dataTransfer: data });
    await page.dispatchEvent('[data-testid="replay"]', 'drop', { dataTransfer: data });
  };
  await drop('dropped.json', '{"format":"metattl-session-1"');
  await expect(page.getByTestId('replay-error')).toContainText('dropped.json: This file is not JSON');
  await page.getByTestId('replay-error').getByRole('button').click();
  await expect(page.getByTestId('replay-error')).toHaveCount(0);
  await drop('good.json', SHIPPED_TEXT);
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('replay-models')).toContainText('actor simulated');
});
