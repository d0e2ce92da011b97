/**
 * Episodes side by side, in Chromium against the mock LLM: a Lever Room session (seed 1, naive
 * meta-agent, K = 3, S = 15) opened side by side while it runs and when it is done (from the Learn
 * view and from the sessions list) shows episode 1 beside episode 3 by default, the actions
 * aligned by step with the score after each and its change, both score curves and the guide diff;
 * any two episodes can be picked. The same session exported and opened in the Replay view shows
 * the same; a recorded session (test/fixtures/recordings) compares a one-step episode with a ten-step one (and fits 375 px).
 * A session with a faulted episode, resumed, shows the episodes played, never the faulted attempt.
 * Hostile model output shows as text (commands) or sanitised markdown (replies), never as HTML.
 */
import { expect, test, type Page } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import type { SessionRecord } from '../src/ttl/session-record.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { openReplay, openReplayFile, SCRIPTED, SCRIPTED_TEXT } from './replay-helpers.ts';

const EXPLORE = ['pull red lever', 'pull green lever', 'pull blue lever', 'pull yellow lever', 'look', 'north'];
const SETUP = { story: 'lever-room', seed: 1, policy: 'meta:naive', episodes: 3, maxSteps: 15 };

let mock: MockLlm;
test.afterEach(async () => {
  await mock?.close();
});

/** One aligned row as shown: step, then for A and B the action and the score after it ('' past an episode's end). */
type Row = [number, string, string, string, string];

/** The rows of the side-by-side table. */
function shownRows(page: Page): Promise<Row[]> {
  return page.getByTestId('compare-row').evaluateAll((rows) => rows.map((row): Row => {
    const text = (id: string): string => row.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? '';
    const score = (id: string): string => row.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-score') ?? '';
    return [Number(row.getAttribute('data-step')), text('compare-a-action'), score('compare-a-score'), text('compare-b-action'), score('compare-b-score')];
  }));
}

/** The rows a record's episodes `a` and `b` must show. */
function expectedRows(record: SessionRecord, a: number, b: number): Row[] {
  const stepsOf = (index: number) => record.episodes.find((e) => e.index === index)!.steps;
  const [sa, sb] = [stepsOf(a), stepsOf(b)];
  return Array.from({ length: Math.max(sa.length, sb.length) }, (_, i): Row => [
    i + 1, sa[i]?.action ?? '', sa[i] ? String(sa[i].score) : '', sb[i]?.action ?? '', sb[i] ? String(sb[i].score) : '',
  ]);
}

/** The guide diff shows episode `a`'s guide lines as removed or kept and `b`'s as added or kept. */
async function expectGuideDiff(page: Page, record: SessionRecord, a: number, b: number): Promise<void> {
  const guide = (index: number) => record.episodes.find((e) => e.index === index)!.guidingPrompt.split('\n');
  const diff = page.getByTestId('episode-compare').getByTestId('compare-guide-diff');
  const lines = await diff.locator('.line').evaluateAll((ls) => ls.map((l) => [l.getAttribute('data-kind'), l.textContent?.slice(1) ?? '']));
  expect(lines.filter(([k]) => k !== 'added').map(([, t]) => t)).toEqual(guide(a));
  expect(lines.filter(([k]) => k !== 'removed').map(([, t]) => t)).toEqual(guide(b));
}

/** Start the Lever Room session against a mock whose actor replies take 500 ms, and wait until
 * episode 2 has played its first step (so a view can be opened while it runs). */
async function startToEpisode2(page: Page): Promise<void> {
  mock = await startMockLlm({ exploreCommands: EXPLORE, metaAgentReply: 'build', faults: [{ kind: 'slow', delayMs: 500, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, SETUP);
  await expect(page.getByTestId('learn-transcript')).toHaveAttribute('data-episode', '2', { timeout: 60_000 });
  await expect(page.getByTestId('learn-transcript').getByTestId('agent-step')).toHaveCount(1, { timeout: 30_000 });
}

test('a Learn session side by side: live, finished, from the sessions list and in Replay', async ({ page }) => {
  test.setTimeout(150_000);
  await startToEpisode2(page);
  // While it runs: episode 1 (ended) beside episode 2 (being played).
  await page.getByTestId('learn-side-by-side').click();
  const view = page.getByTestId('episode-compare');
  await expect(view).toHaveAttribute('data-a', '1');
  await expect(view).toHaveAttribute('data-b', '2');
  await expect(page.getByTestId('compare-outcome-b')).toContainText('not ended yet');
  await expect(view.getByTestId('compare-b-action').first()).toHaveText('pull yellow lever');

  await waitComplete(page, 90_000);
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  // Episode 1 pulls the wrong lever at step 5 (game over); 2 and 3 follow the plan for 15 steps.
  expect(record.episodes.map((e) => e.steps.length)).toEqual([5, 15, 15]);
  expect(record.scores).toEqual([1, 4, 4]);

  // Finished: the default pair follows to 1 and K.
  await expect(view).toHaveAttribute('data-b', '3');
  const rows = await shownRows(page);
  expect(rows).toHaveLength(15);
  expect(rows.slice(0, 6)).toEqual([
    [1, 'pull yellow lever', '1', 'pull yellow lever', '1'],
    [2, 'pull yellow lever', '1', 'pull yellow lever', '1'],
    [3, 'north', '1', 'north', '1'],
    [4, 'pull yellow lever', '1', 'pull yellow lever', '1'],
    [5, 'pull red lever', '1', 'PULL BLUE LEVER', '2'],
    [6, '', '', 'pull blue lever', '2'],
  ]);
  expect(rows).toEqual(expectedRows(record, 1, 3));
  expect(await view.getByTestId('compare-row').evaluateAll((rs) => rs.slice(0, 6).map((r) => r.getAttribute('data-same')))).toEqual(['true', 'true', 'true', 'true', 'false', 'false']);
  await expect(view.getByTestId('compare-a-ended')).toHaveCount(10);
  await expect(view.getByTestId('compare-a-ended').first()).toHaveText('ended: game over');
  await expect(view.getByTestId('compare-a-change')).toHaveText(['+1']);
  await expect(view.getByTestId('compare-b-change')).toHaveText(['+1', '+1', '+1', '+1']);
  await expect(view.getByTestId('compare-gap')).toHaveText(['level', 'level', 'level', 'level', 'B +1', 'B +1', 'B +2', 'B +2', ...Array<string>(7).fill('B +3')]);
  await expect(page.getByTestId('compare-outcome-a')).toHaveText('A: episode 1 — 5 steps, game over, final score 1');
  await expect(page.getByTestId('compare-outcome-b')).toHaveText('B: episode 3 — 15 steps, step limit reached, final score 4');
  await expectGuideDiff(page, record, 1, 3);
  await expect(view.getByTestId('compare-guide-diff').locator('[data-kind="added"]').first()).toHaveText(/PLAN:/);
  await expect(view.getByTestId('compare-chart')).toHaveAttribute('data-y-range', /^0,/);

  // Any two: episode 3 as A, episode 2 as B; a step's detail shows what each actor replied (sanitised markdown).
  await view.getByTestId('compare-pick-a').selectOption('3');
  await view.getByTestId('compare-pick-b').selectOption('2');
  expect(await shownRows(page)).toEqual(expectedRows(record, 3, 2));
  await expectGuideDiff(page, record, 3, 2);
  await view.getByTestId('compare-a-action').nth(9).getByRole('button').click();
  await expect(view.getByTestId('compare-detail')).toHaveAttribute('data-step', '10');
  await expect(view.getByTestId('compare-detail-a-reply')).toContainText('pull blue lever');
  await expect(view.getByTestId('compare-detail-b-reply')).toContainText('pull yellow lever');
  await page.getByTestId('compare-close').click();
  await expect(view).toHaveCount(0);

  // From the sessions list, after a reload: one click opens the session with the view open.
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await page.locator(`[data-testid="learn-run"][data-id="${record.id}"]`).getByTestId('learn-run-side-by-side').click();
  await expect(view).toHaveAttribute('data-b', '3');
  expect(await shownRows(page)).toEqual(expectedRows(record, 1, 3));

  // The export in the Replay view: one click, the same rows and guide diff.
  const exported = await downloadText(page, () => page.getByTestId('learn-export').click());
  await openReplay(page);
  await openReplayFile(page, 'session.json', exported);
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await page.getByTestId('replay-side-by-side').click();
  await expect(view).toHaveAttribute('data-a', '1');
  await expect(view).toHaveAttribute('data-b', '3');
  expect(await shownRows(page)).toEqual(expectedRows(record, 1, 3));
  await expectGuideDiff(page, record, 1, 3);
});

test('a recorded session side by side in Replay: a one-step episode beside a ten-step one', async ({ page }) => {
  await openReplay(page);
  await openReplayFile(page, 'lever-room-scripted.json', SCRIPTED_TEXT);
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await page.getByTestId('replay-side-by-side').click();
  const view = page.getByTestId('episode-compare');
  await expect(view).toHaveAttribute('data-a', '1');
  await expect(view).toHaveAttribute('data-b', '5');
  const rows = await shownRows(page);
  expect(rows).toEqual(expectedRows(SCRIPTED, 1, 5));
  expect(rows).toHaveLength(10);
  expect(rows[0]).toEqual([1, 'pull blue lever', '0', 'PULL YELLOW LEVER', '1']);
  expect(rows[9]).toEqual([10, '', '', 'look', '4']);
  await expect(view.getByTestId('compare-a-ended')).toHaveCount(9);
  await expect(view.getByTestId('compare-a-ended').first()).toHaveText('ended: game over');
  await expect(view.getByTestId('compare-b-change')).toHaveText(['+1', '+1', '+1', '+1']);
  await expectGuideDiff(page, SCRIPTED, 1, 5);
  await expect(view.getByTestId('compare-guide-diff').locator('[data-kind="removed"]')).toHaveText(['−Explore.']);

  // On a phone the page does not scroll sideways (a wide table scrolls in its box).
  await page.setViewportSize({ width: 375, height: 800 });
  await view.getByTestId('compare-b-action').nth(2).getByRole('button').click();
  await expect(view.getByTestId('compare-detail')).toHaveAttribute('data-step', '3');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test('a session with a faulted episode, resumed: the episodes played side by side, never the faulted attempt', async ({ page }) => {
  test.setTimeout(150_000);
  await startToEpisode2(page);
  // The provider starts refusing the key mid-episode 2: that attempt is set aside.
  mock.setOptions({ faults: [{ kind: 'auth', role: 'actor' }] });
  await expect(page.getByTestId('learn-faulted')).toHaveText('1 (not scored)', { timeout: 60_000 });
  await expect(page.getByTestId('learn')).toHaveAttribute('data-phase', 'idle');

  // Stopped after the fault: only episode 1 has steps, so there is nothing to pair yet.
  await page.getByTestId('learn-side-by-side').click();
  await expect(page.getByTestId('compare-faulted')).toContainText('1 faulted attempt');
  await expect(page.getByTestId('compare-too-few')).toHaveText('Two episodes with steps are needed; this session has 1 of 3 so far.');

  mock.setOptions({ faults: [] });
  await page.getByTestId('learn-resume').click();
  await waitComplete(page, 90_000);
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.faultedEpisodes).toBe(1);
  const attempt = record.faults![0]!;
  expect(attempt.episodeIndex).toBe(2);
  // The set-aside attempt: the steps played before the refusal, then the refused call.
  expect(attempt.steps.length).toBeGreaterThan(1);
  expect(attempt.steps.at(-1)!.parseStatus).toBe('llm_error');
  const view = page.getByTestId('episode-compare');
  await expect(view.getByTestId('compare-pick-a').locator('option')).toHaveText(['Episode 1', 'Episode 2', 'Episode 3']);
  await expect(view.getByTestId('compare-faulted')).toHaveText('1 faulted attempt (cut short by a provider fault, not scored) set aside: not shown here.');
  await view.getByTestId('compare-pick-a').selectOption('2');
  const rows = await shownRows(page);
  expect(rows).toHaveLength(15);
  expect(rows).toEqual(expectedRows(record, 2, 3));
  // The faulted attempt's failed call (no action) is nowhere.
  await expect(view.getByText('(no action)')).toHaveCount(0);
  // Played again from its start, episode 2 ends as in the clean run.
  expect(record.scores).toEqual([1, 4, 4]);
});

test('model output side by side is text or sanitised markdown, never raw HTML', async ({ page }) => {
  const hostile: SessionRecord = structuredClone(SCRIPTED);
  const step = hostile.episodes[0]!.steps[0]!;
  step.action = '<img src=x onerror="window.__pwned=1">';
  step.reply = 'I will **pull** it. <img src=x onerror="window.__pwned=2"><script>window.__pwned=3</script>\nACTION: pull blue lever';
  hostile.episodes[0]!.guidingPrompt = 'Explore. <b onmouseover="window.__pwned=4">bold</b>';
  await openReplay(page);
  await openReplayFile(page, 'hostile.json', JSON.stringify(hostile));
  await expect(page.getByTestId('replay')).toHaveAttribute('data-loaded', 'true');
  await page.getByTestId('replay-side-by-side').click();
  const view = page.getByTestId('episode-compare');
  await expect(view.getByTestId('compare-a-action').first()).toHaveText(step.action);
  await expect(view.getByTestId('compare-guide-diff')).toContainText('<b onmouseover="window.__pwned=4">bold</b>');
  await view.getByTestId('compare-a-action').first().getByRole('button').click();
  const reply = view.getByTestId('compare-detail-a-reply');
  await expect(reply.locator('strong')).toHaveText('pull');
  await expect(view.locator('img, script, b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
