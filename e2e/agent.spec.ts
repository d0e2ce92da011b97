/**
 * The Agent view against the mock LLM (started in the test process): a scripted 10-step episode
 * on advent with the real engine's score, the key in every request but nowhere else, trajectory
 * export, Stop during a slow reply, the USD cap, and a provider-requested wait.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { findByMd5, parseCatalog, rulesFor } from '../src/engine/catalog.ts';
import { loadStory } from '../src/engine/zvm-engine.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { adventBytes, ADVENT_MD5 } from './helpers.ts';
import { collectConsole, configureProvider, expectNoKeyLeak, goTo, KEY, openView, startRun } from './llm-helpers.ts';

const SCRIPT = ['east', 'get all', 'west', 'south', 'south', 'south', 'unlock grate with keys', 'open grate', 'down', 'west'];

/** advent, seed 0, played with SCRIPT by the engine in Node: each step's command and reward
 * (score change), and the final score. */
function expectedRun(): { actions: string[]; rewards: string[]; finalScore: number | null } {
  const catalog = parseCatalog(JSON.parse(readFileSync(new URL('../public/stories/catalog.json', import.meta.url), 'utf8')));
  const entry = findByMd5(catalog, ADVENT_MD5);
  const engine = loadStory(new Uint8Array(adventBytes()), { seed: 0, rules: entry ? rulesFor(entry) : undefined });
  const results = SCRIPT.map((command) => engine.step(command));
  const rewards = results.map((r, i) => (r.score ?? 0) - ((i === 0 ? engine.start : results[i - 1]!).score ?? 0));
  return {
    actions: results.map((r) => r.command),
    rewards: rewards.map((r) => `reward ${r > 0 ? '+' : ''}${r}`),
    finalScore: results.at(-1)?.score ?? null,
  };
}

let mock: MockLlm;

test.beforeEach(async () => {
  mock = await startMockLlm({ script: SCRIPT });
});

test.afterEach(async () => {
  await mock.close();
});

test('plays 10 scripted steps on advent with the real score; the key is only in the requests', async ({ page }) => {
  const expected = expectedRun();
  expect(expected.finalScore).toBeGreaterThanOrEqual(36);
  const consoleLines = collectConsole(page);
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await goTo(page, 'agent');
  await startRun(page, { seed: 0, maxSteps: 10 });

  await expect(page.getByTestId('agent-termination')).toContainText('step_limit', { timeout: 30_000 });
  const steps = page.getByTestId('agent-step');
  await expect(steps).toHaveCount(10);
  await expect(page.getByTestId('agent-step-action')).toHaveText(expected.actions);
  await expect(page.getByTestId('agent-score')).toHaveText(String(expected.finalScore));
  await expect(steps.first().getByTestId('agent-step-score')).toHaveText('score 36');
  await expect(page.getByTestId('agent-step-reward')).toHaveText(expected.rewards);
  await expect(page.getByTestId('agent-tokens')).not.toHaveText('0');
  await expect(page.getByTestId('agent-error')).toHaveCount(0);

  const actorRequests = mock.requests.filter((r) => r.role === 'actor');
  expect(actorRequests).toHaveLength(10);
  for (const request of actorRequests) expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(mock.requests.filter((r) => r.unexpected)).toEqual([]);

  // The reply is shown as text in a collapsed <details>.
  const first = steps.first();
  await first.locator('summary').click();
  await expect(first.getByTestId('agent-step-reply')).toHaveText('REASONING: Following the script. (step 1)\nACTION: east');

  // Export: parses, 10 steps, no key.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('agent-export').click();
  const download = await downloading;
  const text = readFileSync(await download.path(), 'utf8');
  expect(text).not.toContain(KEY);
  const exported = JSON.parse(text) as { steps: { action: string }[]; finalScore: number; termination: string };
  expect(exported.steps).toHaveLength(10);
  expect(exported.steps.map((s) => s.action)).toEqual(expected.actions);
  expect(exported.finalScore).toBe(expected.finalScore);
  expect(exported.termination).toBe('step_limit');

  await expectNoKeyLeak(page);
  await goTo(page, 'settings');
  await expect(page.getByTestId('api-key')).toHaveValue(KEY);
  await expectNoKeyLeak(page);
  expect(consoleLines.filter((line) => line.includes(KEY))).toEqual([]);
});

test('Stop during a slow reply aborts the request; nothing of it is executed', async ({ page }) => {
  mock.setOptions({ faults: [{ kind: 'slow', delayMs: 30_000, role: 'actor' }] });
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await goTo(page, 'agent');
  await startRun(page, { maxSteps: 10 });
  await mock.waitForRequest((r) => r.role === 'actor', 15_000);
  await expect(page.getByTestId('agent-phase')).toHaveText('Running');
  await page.getByTestId('agent-stop').click();

  const termination = page.getByTestId('agent-termination');
  await expect(termination).toContainText('aborted');
  await expect(termination).toContainText('stopped by you');
  await expect.poll(() => mock.requests.find((r) => r.role === 'actor')?.closedBeforeAnswer).toBe(true);
  await expect(page.getByTestId('agent-step')).toHaveCount(0);
  expect(mock.requests.filter((r) => r.role === 'actor')).toHaveLength(1);
  await expect(page.getByTestId('agent-start')).toBeEnabled();
});

test('a USD cap below the need stops the run with "budget reached"; the steps so far stay listed', async ({ page }) => {
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await page.getByTestId('price-add').click();
  const row = page.getByTestId('price-row').last();
  await row.getByTestId('price-model').fill('mock-model');
  await row.getByTestId('price-input').fill('1000');
  await row.getByTestId('price-output').fill('1000');
  await page.getByTestId('cap-usd').fill('0.5');
  await expect(page.getByTestId('settings')).toHaveAttribute('data-pending', '0');
  await goTo(page, 'agent');
  await startRun(page, { maxSteps: 10 });

  const termination = page.getByTestId('agent-termination');
  await expect(termination).toContainText('aborted', { timeout: 30_000 });
  await expect(termination).toContainText('budget reached');
  await expect(termination).toBeVisible();
  const acted = page.locator('[data-testid="agent-step"]:not([data-action=""])');
  const done = await acted.count();
  expect(done).toBeGreaterThanOrEqual(1);
  expect(done).toBeLessThan(10);
  await expect(acted.getByTestId('agent-step-action')).toHaveText(SCRIPT.slice(0, done));
  expect(mock.requests.filter((r) => r.role === 'actor')).toHaveLength(done);
  const cost = Number((await page.getByTestId('agent-cost').textContent())?.replace('$', ''));
  expect(cost).toBeGreaterThanOrEqual(0.5);
  await expect(page.getByTestId('agent-error')).toHaveCount(0);
});

test('a provider-requested wait shows "waiting N s", and cancelling it stops the run', async ({ page }) => {
  mock.setOptions({ faults: [{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 20, role: 'actor' }] });
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await goTo(page, 'agent');
  await startRun(page, { maxSteps: 10 });
  const wait = page.getByTestId('agent-wait');
  await expect(wait).toContainText('waiting 20 s');
  await wait.getByTestId('agent-wait-cancel').click();
  await expect(page.getByTestId('agent-termination')).toContainText('aborted');
  await expect(wait).toHaveCount(0);
  await expect(page.getByTestId('agent-step')).toHaveCount(0);
});

test('an imported trajectory is shown read-only; a bad file gives a clear error', async ({ page }) => {
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await goTo(page, 'agent');
  await startRun(page, { maxSteps: 3 });
  await expect(page.getByTestId('agent-termination')).toContainText('step_limit', { timeout: 30_000 });
  const downloading = page.waitForEvent('download');
  await page.getByTestId('agent-export').click();
  const text = readFileSync(await (await downloading).path(), 'utf8');

  await page.reload();
  await expect(page.getByTestId('agent')).toHaveAttribute('data-ready', 'true');
  const input = page.getByTestId('agent-import');
  await input.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"something else"}') });
  await expect(page.getByTestId('agent-error')).toContainText('This is not a valid trajectory file: format');
  await input.setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('agent-error')).toHaveCount(0);
  await expect(page.getByTestId('agent-termination')).toContainText('Imported episode (read-only)');
  await expect(page.getByTestId('agent-step-action')).toHaveText(SCRIPT.slice(0, 3));
});

test('a refused key ends the episode with "error" and says why, without the key', async ({ page }) => {
  mock.setOptions({ apiKey: 'the-right-key-000000' });
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await goTo(page, 'agent');
  await startRun(page, { maxSteps: 5 });
  await expect(page.getByTestId('agent-termination')).toContainText('error');
  await expect(page.getByTestId('agent-error')).toContainText('The provider refused the key (HTTP 401)');
  await expect(page.getByTestId('agent-step')).toHaveCount(1);
  await expect(page.getByTestId('agent-step-action')).toHaveText('(no action)');
  await expectNoKeyLeak(page);
});
