/**
 * The Learn view against the mock LLM (started in the test process): a session survives a reload
 * in the middle of episode 2 and resumes to exactly K episodes with contiguous steps, without
 * asking the actor again for a recorded step; model output is rendered as sanitised markdown
 * (never raw HTML); a session export parses as a session file and holds no key.
 */
import { expect, test } from '@playwright/test';
import { importSession } from '../src/ttl/session-io.ts';
import { inferActorStep, type ChatBody } from '../test/mock-llm/roles.ts';
import { startMockLlm, type LoggedRequest, type MockLlm } from '../test/mock-llm/server.ts';
import { configureForLearn, downloadText, goToLearn, startSession, waitComplete } from './learn-helpers.ts';
import { KEY } from './llm-helpers.ts';

const SCRIPT = ['east', 'get all', 'west', 'south'];

let mock: MockLlm;

test.afterEach(async () => {
  await mock.close();
});

test('a session reloaded in the middle of episode 2 resumes and ends with exactly K contiguous episodes', async ({ page }) => {
  // Each actor reply takes 600 ms, so the reload lands while a step is in flight.
  mock = await startMockLlm({ script: SCRIPT, faults: [{ kind: 'slow', delayMs: 600, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { episodes: 3, maxSteps: 4, policy: 'meta:naive' });

  const transcript = page.getByTestId('learn-transcript');
  await expect(transcript).toHaveAttribute('data-episode', '2', { timeout: 30_000 });
  await expect(transcript.getByTestId('agent-step')).toHaveCount(2, { timeout: 30_000 });
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  // Requests made before Resume belong to the page that was reloaded.
  const beforeResume = mock.requests.length;
  await page.getByTestId('learn-unfinished-resume').click();
  await waitComplete(page);

  await expect(page.getByTestId('learn-episodes-done')).toHaveText('3 / 3');
  const text = await downloadText(page, () => page.getByTestId('learn-export').click());
  expect(text).not.toContain(KEY);
  const record = importSession(text);
  expect(record.status).toBe('complete');
  expect(record.episodes.map((e) => e.index)).toEqual([1, 2, 3]);
  for (const episode of record.episodes) {
    expect(episode.trajectory).not.toBeNull();
    expect(episode.steps.map((s) => s.index)).toEqual(Array.from({ length: episode.steps.length }, (_, i) => i + 1));
    expect(episode.steps.length).toBeGreaterThan(0);
    expect(episode.steps.length).toBeLessThanOrEqual(4);
  }
  expect(record.scores).toHaveLength(3);
  expect(record.exchanges.filter((e) => e.kind === 'meta_agent')).toHaveLength(2);

  // Every (episode, step) was asked for once — except the step in flight at the reload, whose
  // first answer (if it came at all) the reloaded page never recorded; a recorded step was never
  // asked again. The episode of an actor request = 1 + the meta-agent requests before it; its
  // step is told from its content as the mock tells it (inferActorStep).
  const asked = new Map<string, LoggedRequest[]>();
  for (const r of mock.requests.filter((x) => x.role === 'actor')) {
    const episode = 1 + mock.requests.filter((x) => x.role === 'metaAgent' && x.index < r.index).length;
    const step = inferActorStep(r.body as ChatBody).step;
    const key = `${episode}:${step}`;
    asked.set(key, [...(asked.get(key) ?? []), r]);
  }
  const recorded = record.episodes.flatMap((e) => e.steps.map((s) => `${e.index}:${s.index}`));
  expect([...asked.keys()].sort()).toEqual([...recorded].sort());
  const repeated = [...asked.values()].filter((list) => list.length > 1);
  expect(repeated.length).toBeLessThanOrEqual(1);
  const lastBeforeReload = mock.requests.filter((r) => r.role === 'actor' && r.index < beforeResume).at(-1)!;
  for (const list of repeated) {
    expect(list).toHaveLength(2);
    // The first ask is the old page's last actor request (in flight at the reload; its reply may
    // have arrived while the page was unloading), the second comes from the resumed page.
    expect(list[0]!.index).toBe(lastBeforeReload.index);
    expect(list[1]!.index).toBeGreaterThanOrEqual(beforeResume);
  }
  expect(mock.requests.filter((r) => r.unexpected)).toEqual([]);
});

test('model output is shown as sanitised markdown: no HTML from the model runs or renders', async ({ page }) => {
  mock = await startMockLlm({ script: SCRIPT });
  const reply = [
    '<think>Look: <img src=x onerror=window.__xss=1> and **bold** and [docs](https://example.com/docs) and [bad](javascript:window.__xss=3)</think>',
    '<learn>Go east. <script>window.__xss=2</script> Then <img src=x onerror=window.__xss=1> take all.</learn>',
  ].join('\n');
  await page.route(`${mock.baseUrl}/chat/completions`, async (route) => {
    const body = route.request().postData() ?? '';
    if (route.request().method() !== 'POST' || !body.includes('You coach a player')) return route.continue();
    await route.fulfill({
      status: 200,
      headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
      body: JSON.stringify({
        id: 'x', object: 'chat.completion', created: 0, model: 'mock-model',
        choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    });
  });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { episodes: 2, maxSteps: 2, policy: 'meta:naive' });
  await waitComplete(page);

  const feedback = page.getByTestId('learn-feedback');
  await expect(feedback.getByTestId('learn-think')).toContainText('<img src=x onerror=window.__xss=1>');
  await expect(feedback.getByTestId('learn-guide')).toContainText('<script>window.__xss=2</script>');
  await expect(feedback.locator('img')).toHaveCount(0);
  await expect(feedback.locator('script')).toHaveCount(0);
  await expect(feedback.locator('strong')).toHaveText('bold');
  const link = feedback.locator('a[href="https://example.com/docs"]');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(feedback.locator('a[href^="javascript"]')).toHaveCount(0);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  // The guide of episode 2 is the <learn> text, shown as text.
  await page.getByTestId('learn-episode-tab').nth(1).click();
  await expect(page.getByTestId('learn-transcript')).toContainText('<script>window.__xss=2</script>');
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
});

test('a session export parses as a session file without the key; import shows it; a bad file says why', async ({ page }) => {
  mock = await startMockLlm({ script: SCRIPT });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await startSession(page, { episodes: 2, maxSteps: 2, policy: 'reflexion' });
  await waitComplete(page);
  const run = page.getByTestId('learn-run').first();
  const text = await downloadText(page, () => run.getByTestId('learn-run-export').click());
  expect(text).not.toContain(KEY);
  expect(text.toLowerCase()).not.toContain('apikey');
  const record = importSession(text);
  expect(record.config.policy).toEqual({ kind: 'reflexion' });
  expect(record.episodes).toHaveLength(2);

  const input = page.getByTestId('learn-import');
  await input.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"metattl-session-1","id":""}') });
  await expect(page.getByTestId('learn-runs-error')).toContainText('This is not a valid session file');
  await input.setInputFiles({ name: 'session.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('learn-run')).toHaveCount(2);
  await expect(page.getByTestId('learn-runs-error')).toHaveCount(0);
  await expect(page.getByTestId('learn-progress')).toHaveAttribute('data-status', 'complete');
});
