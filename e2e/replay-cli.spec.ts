/**
 * A results.json written by the real `metattl eval` (against the mock, with its
 * "metattl-evaluation-results-1" tag) opens in the page's Replay view: its sessions are listed by
 * policy and each replays to the score and W-AUC the file records.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startMockLlm } from '../test/mock-llm/server.ts';
import { runCli } from '../test/support/cli.ts';
import { REPO_ROOT } from '../test/support/shared.ts';
import { openReplay, openReplayFile, playToEnd } from './replay-helpers.ts';

test('a CLI results.json opens in Replay and its sessions replay as recorded', async ({ page }) => {
  test.setTimeout(180_000);
  const mock = await startMockLlm({ exploreCommands: ['take paper', 'west', 'take gun', 'east', 'north', 'look'] });
  const out = mkdtempSync(join(tmpdir(), 'e2e-cli-eval-'));
  try {
    const env = { ...process.env, OPENAI_API_KEY: 'k', STORIES_DIR: resolve(REPO_ROOT, '../shared/stories') };
    const ran = await runCli(['eval', '--policies', 'static,naive', '--tasks', 'detective:0', '--repeats', '1', '--episodes', '2', '--steps', '4',
      '--base-url', mock.baseUrl, '--actor-model', 'mock-model', '--meta-model', 'mock-model', '--out', out], env);
    expect(ran.code, ran.stderr).toBe(0);
  } finally {
    mock.close();
  }
  const text = readFileSync(join(out, 'results.json'), 'utf8');
  const results = JSON.parse(text) as { format: string; sessions: { policyId: string; session: { scores: number[]; wAuc: number } }[] };
  expect(results.format).toBe('metattl-evaluation-results-1');

  await page.setViewportSize({ width: 1280, height: 800 });
  await openReplay(page);
  await openReplayFile(page, 'results.json', text);
  await expect(page.getByTestId('replay-error')).toHaveCount(0);
  await expect(page.getByTestId('replay-sources')).toHaveAttribute('data-kind', 'evaluation');
  await expect(page.getByTestId('replay-item')).toHaveCount(2);
  await expect(page.getByTestId('replay-item').nth(0)).toContainText('static');
  await expect(page.getByTestId('replay-item').nth(1)).toContainText('naive');
  await page.getByTestId('replay-item').nth(1).click();
  await playToEnd(page);
  const naive = results.sessions[1]!.session;
  await expect(page.getByTestId('replay-score')).toHaveText(String(naive.scores.at(-1)));
  await expect(page.getByTestId('replay-ended')).toHaveText(String(naive.scores.length));
  await expect(page.getByTestId('replay-wauc')).toHaveText(naive.wAuc.toFixed(3));
  await page.screenshot({ path: join(tmpdir(), 'replay-cli-results.png') });
});
