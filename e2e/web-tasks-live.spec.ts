/**
 * Web tasks live in the Agent and Learn views against the mock LLM (started in the test process, playing by script):
 * the Agent plays web:shop/t1:1 with the oracle's actions and scores 1 while the site is drawn
 * beside the transcript (the acted element highlighted); a Learn session on the teaching task
 * web:shop/t47 learns 0, 1, 1, survives a reload mid-session and resumes; a setup link with a web
 * task fills the Learn form, and one naming an unknown task is refused with a clear message.
 */
import { expect, test } from '@playwright/test';
import { shareUrl } from '../src/share/share-link.ts';
import { importSession } from '../src/ttl/session-io.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { planOf, T47_HINT, webScript } from '../test/support/web-scripts.ts';
import { configureForLearn, downloadText, goToLearn, waitComplete } from './learn-helpers.ts';
import { goTo, KEY } from './llm-helpers.ts';

let mock: MockLlm | undefined;

test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

test('the Agent plays web:shop/t1:1 with the oracle’s actions: score 1 of 1, the site drawn with the acted element highlighted', async ({ page }) => {
  const { goal, actions } = await webScript('web:shop/t1:1');
  // Slow replies, so the frame can be seen between steps.
  mock = await startMockLlm({ exploreCommands: ['noop()'], goalScripts: [{ goal, script: actions }], faults: [{ kind: 'slow', delayMs: 1200, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goTo(page, 'agent');
  await page.getByTestId('agent-kind-web').check();
  await expect(page.getByTestId('agent-max-steps')).toHaveValue('10');
  await page.getByTestId('web-task-id').fill('web:shop/t1:1');
  await expect(page.getByTestId('web-task-intent')).toHaveText(goal);
  await expect(page.getByTestId('web-task-template')).toHaveValue('t1');
  await expect(page.getByTestId('web-task-seed')).toHaveValue('1');
  // A presenter's pace of 2 s per step too, so a busy machine cannot move on before step 1 is checked.
  await page.getByTestId('agent-pace-delay').selectOption('2000');
  await page.getByTestId('agent-start').click();

  // After step 1 (the search box's fill): the home page, the box outlined with the typed text.
  const site = page.getByTestId('agent-site');
  await expect(site).toBeVisible({ timeout: 30_000 });
  const scrolledBefore = await page.evaluate(() => window.scrollY);
  await expect(site).toHaveAttribute('data-step', '1', { timeout: 30_000 });
  await expect(site).toHaveAttribute('data-acted-on', 'true');
  // Bringing the outlined element into view scrolls the frame only, never the page around it.
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolledBefore);
  await expect(site.getByTestId('web-frame-url')).toHaveText('http://shop.test/');
  const box = site.frameLocator('[data-testid="web-frame"]').locator(`[bid="${/^fill\('(\d+)'/.exec(actions[0]!)![1]}"]`);
  await expect(box).toHaveValue('Aurora Camping Tent');
  await expect(box).toHaveCSS('outline-style', 'solid');
  await page.getByTestId('agent-pace-delay').selectOption('0');

  await expect(page.getByTestId('agent-termination')).toHaveAttribute('data-termination', 'game_over', { timeout: 30_000 });
  await expect(page.getByTestId('agent-score')).toHaveText('1');
  await expect(page.getByTestId('agent-step-action')).toHaveText(actions);
  await expect(page.getByTestId('agent-step-answer').first()).toContainText('# Current page: accessibility tree');
  // After the answer: the product page, nothing outlined.
  await expect(site).toHaveAttribute('data-step', '4');
  await expect(site).toHaveAttribute('data-acted-on', 'false');
  await expect(site.getByTestId('web-frame-url')).toHaveText(/^http:\/\/shop\.test\/product\/SKU-\d+$/);
  await expect(site.frameLocator('[data-testid="web-frame"]').locator('h1')).toHaveText('Aurora Camping Tent');
  await expect(site.frameLocator('[data-testid="web-frame"]').locator('body')).toContainText('Price: $177.00');

  const text = await downloadText(page, () => page.getByTestId('agent-export').click());
  expect(text).not.toContain(KEY);
  const exported = JSON.parse(text) as { steps: { page?: { url: string } }[]; startPage?: { url: string } };
  expect(exported.startPage?.url).toBe('http://shop.test/');
  expect(exported.steps.map((s) => s.page?.url.replace(/SKU-\d+/, 'SKU')))
    .toEqual(['http://shop.test/', 'http://shop.test/search?q=Aurora+Camping+Tent', 'http://shop.test/product/SKU', 'http://shop.test/product/SKU']);
});

test('a Learn session on web:shop/t47:1 learns 0, 1, 1, survives a reload in episode 2 and resumes', async ({ page }) => {
  const wrong = await webScript('web:shop/t47:1', true);
  const right = await webScript('web:shop/t47:1');
  mock = await startMockLlm({ exploreCommands: ["send_msg_to_user('N/A')"], metaAgentRules: [{ whenLogIncludes: T47_HINT, guide: planOf(right.actions) }], faults: [{ kind: 'slow', delayMs: 500, role: 'actor' }] });
  await configureForLearn(page, mock.baseUrl);
  await goToLearn(page);
  await page.getByTestId('learn-kind-web').check();
  await expect(page.getByTestId('learn-episodes')).toHaveValue('3');
  await expect(page.getByTestId('learn-steps')).toHaveValue('10');
  await expect(page.getByTestId('learn-seed')).toHaveCount(0);
  await page.getByTestId('web-task-site').selectOption('shop');
  await page.getByTestId('web-task-template').selectOption('t47');
  await page.getByTestId('web-task-seed').selectOption('1');
  await expect(page.getByTestId('web-task-id')).toHaveValue('web:shop/t47:1');
  await page.getByTestId('learn-policy').selectOption('meta:naive');
  await page.getByTestId('learn-guide-input').fill(planOf(wrong.actions));
  await page.getByTestId('learn-start').click();

  const transcript = page.getByTestId('learn-transcript');
  await expect(transcript).toHaveAttribute('data-episode', '2', { timeout: 30_000 });
  await expect(transcript.getByTestId('agent-step')).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId('learn-site').getByTestId('web-frame-url')).toHaveText(/^http:\/\/shop\.test\//);
  await page.reload();
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('learn-unfinished-resume').click();
  await waitComplete(page);

  await expect(page.getByTestId('learn-episodes-done')).toHaveText('3 / 3');
  await expect(page.getByTestId('learn-wauc')).toHaveText('0.833');
  await expect(page.getByTestId('learn-site').getByTestId('web-frame-url')).toHaveText(/^http:\/\/shop\.test\/orders\/\d+$/);
  const record = importSession(await downloadText(page, () => page.getByTestId('learn-export').click()));
  expect(record.scores).toEqual([0, 1, 1]);
  expect(record.config).toMatchObject({ task: { kind: 'web', id: 'web:shop/t47:1' }, episodes: 3, maxSteps: 10, story: { maxScore: 1 } });
  expect(record.episodes[1]!.steps.map((s) => s.action)).toEqual(right.actions);
  expect(record.episodes.every((e) => e.steps.every((s) => s.page !== undefined))).toBe(true);
});

test('a setup link with a web task opens into the Learn form; one naming an unknown task is refused', async ({ page }) => {
  await page.goto('./?view=learn');
  await expect(page.getByTestId('learn')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('learn-kind-web').check();
  await page.getByTestId('web-task-id').fill('web:forge/t33:2');
  await expect(page.getByTestId('web-task-site')).toHaveValue('forge');
  // A typed id naming no task stays in the field with its message after leaving it; the choice is unchanged.
  await page.getByTestId('web-task-id').fill('web:forge/t33:9');
  await page.getByTestId('web-task-id').press('Tab');
  await expect(page.getByTestId('web-task-id')).toHaveValue('web:forge/t33:9');
  await expect(page.getByTestId('web-task-problem')).toHaveText('Template t33 has no seed 9 (seeds 1, 2, 3, 4, 5).');
  await expect(page.getByTestId('web-task-picker')).toHaveAttribute('data-task', 'web:forge/t33:2');
  await page.getByTestId('web-task-id').fill('web:forge/t33:2');
  await expect(page.getByTestId('web-task-problem')).toHaveCount(0);
  await page.getByTestId('learn-policy').selectOption('reflexion');
  await page.getByTestId('learn-episodes').fill('4');
  await page.getByTestId('learn-share').click();
  const link = await page.getByTestId('learn-share-link').inputValue();
  expect(link).toContain('#share=v1.');

  await page.goto('./?view=library');
  await page.goto(link);
  await expect(page.getByTestId('share-setup')).toContainText('web task web:forge/t33:2, ');
  await page.getByTestId('share-load').click();
  await expect(page.getByTestId('learn-setup')).toHaveAttribute('data-kind', 'web');
  await expect(page.getByTestId('web-task-id')).toHaveValue('web:forge/t33:2');
  await expect(page.getByTestId('learn-policy')).toHaveValue('reflexion');
  await expect(page.getByTestId('learn-episodes')).toHaveValue('4');
  await expect(page.getByTestId('learn-steps')).toHaveValue('10');
  await expect(page.getByTestId('learn-setup-notice')).toContainText('Loaded a shared setup (web task web:forge/t33:2)');

  // A link edited by hand: the preview names what Load loads (the task), not the story fields.
  const edited = shareUrl(new URL('./?view=library', page.url()).href, {
    kind: 'setup',
    setup: { storyId: 'lever-room', storyMd5: 'a'.repeat(32), storyTitle: 'lever-room', seed: 5, policy: { kind: 'static' }, episodes: 3, maxSteps: 10, models: { actor: '', metaAgent: '' }, task: { kind: 'web', id: 'web:shop/t47:2' } },
  });
  await page.goto('./?view=library');
  await page.goto(edited);
  await expect(page.getByTestId('share-setup')).toContainText('web task web:shop/t47:2, ');
  await expect(page.getByTestId('share-setup')).not.toContainText('lever-room');

  const bad = shareUrl(new URL('./?view=library', page.url()).href, {
    kind: 'setup',
    setup: { storyId: 'web:shop/t999', storyMd5: 'a'.repeat(32), storyTitle: 'web:shop/t999:1', seed: 1, policy: { kind: 'static' }, episodes: 3, maxSteps: 10, models: { actor: '', metaAgent: '' }, task: { kind: 'web', id: 'web:shop/t999:1' } },
  });
  await page.goto('./?view=library');
  await page.goto(bad);
  await page.getByTestId('share-load').click();
  await expect(page.getByTestId('share-preview').getByRole('alert')).toHaveText('This setup link names the web task “web:shop/t999:1”, which this version of the playground does not have (unknown template "t999" in web:shop/t999:1). Nothing was loaded.');
  // Nothing was loaded: the form keeps what it remembered from the last setup (run forms are kept per view).
  await expect(page.getByTestId('learn-setup')).toHaveAttribute('data-kind', 'web');
  await expect(page.getByTestId('web-task-id')).toHaveValue('web:forge/t33:2');
});
