/**
 * Provider faults in the page: a reasoning model that rejects temperature and
 * max_tokens plays with the default settings and Settings lists what was adapted; a Retry-After
 * wait counts down; a server whose CORS refuses the page gets the advice at once, with no retry.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { configureProvider, goTo, openView, startRun } from './llm-helpers.ts';

const SCRIPT = ['east', 'get all', 'west'];
let mock: MockLlm;

test.beforeEach(async () => {
  mock = await startMockLlm({ script: SCRIPT });
});

test.afterEach(async () => {
  await mock.close();
});

/** Point Settings at the mock, play a 3-step Agent run to its step limit, and check every scripted action was played. */
async function playThreeStepsOnTheMock(page: Page): Promise<void> {
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await goTo(page, 'agent');
  await startRun(page, { maxSteps: 3 });
  await expect(page.getByTestId('agent-termination')).toContainText('step_limit', { timeout: 30_000 });
  await expect(page.getByTestId('agent-step-action')).toHaveText(SCRIPT);
}

test('a reasoning model rejecting temperature and max_tokens plays with the defaults; Settings shows the adaptations', async ({ page }) => {
  mock.setOptions({ faults: [{ kind: 'bad_param', param: 'temperature', style: 'value' }, { kind: 'bad_param', param: 'max_tokens' }] });
  await openView(page, 'settings');
  await expect(page.getByTestId('adaptations-none')).toBeVisible();
  await playThreeStepsOnTheMock(page);
  const chats = mock.requests.filter((r) => r.role === 'actor');
  expect(chats.map((r) => r.outcome.status)).toEqual([400, 400, 200, 200, 200]);

  await goTo(page, 'settings');
  await expect(page.getByTestId('adaptation')).toHaveText([/mock-model at .*: temperature dropped/, /mock-model at .*: max_tokens sent as max_completion_tokens/]);
  await page.reload();
  await expect(page.getByTestId('settings')).toHaveAttribute('data-loaded', 'true');
  await expect(page.getByTestId('adaptation')).toHaveCount(2);
  await page.getByTestId('adaptations-forget').click();
  await expect(page.getByTestId('adaptations-none')).toBeVisible();
});

test('a Retry-After wait counts down in the page', async ({ page }) => {
  mock.setOptions({ faults: [{ kind: 'rate_limit', rate: 1, retryAfterSeconds: 20, role: 'actor' }] });
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await goTo(page, 'agent');
  await startRun(page, { maxSteps: 3 });
  const wait = page.getByTestId('agent-wait');
  await expect(wait).toContainText('waiting 20 s');
  await expect(wait).toContainText(/waiting 1[0-9] s/, { timeout: 5_000 });
  await wait.getByTestId('agent-wait-cancel').click();
  await expect(page.getByTestId('agent-termination')).toContainText('aborted');
});

test('a server whose CORS refuses the page gets the advice at once: one preflight, no retries', async ({ page }) => {
  const seen: string[] = [];
  const refusing: Server = createServer((req, res) => {
    seen.push(req.method ?? '');
    res.writeHead(req.method === 'OPTIONS' ? 204 : 200, { 'content-type': 'application/json' });
    res.end(req.method === 'OPTIONS' ? undefined : '{}');
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = refusing.address() as AddressInfo;
    await openView(page, 'settings');
    await configureProvider(page, { baseUrl: `http://127.0.0.1:${port}/v1` });
    await page.getByTestId('max-retries').fill('2');
    await goTo(page, 'agent');
    await startRun(page, { maxSteps: 3 });
    await expect(page.getByTestId('agent-error')).toContainText('CORS', { timeout: 10_000 });
    await expect(page.getByTestId('agent-wait')).toHaveCount(0);
    expect(seen).toEqual(['OPTIONS']);
  } finally {
    refusing.closeAllConnections();
    await new Promise<void>((resolve) => refusing.close(() => resolve()));
  }
});

test('a reasoning model that spends its whole budget: raised once, every step played, Settings says so', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  mock.setOptions({ faults: [{ kind: 'length_empty', shape: 'gemini', belowBudget: 4096 }] });
  await openView(page, 'settings');
  await playThreeStepsOnTheMock(page);
  const chats = mock.requests.filter((r) => r.role === 'actor');
  expect(chats.map((r) => (r.body as { max_tokens: number }).max_tokens)).toEqual([400, 4096, 4096, 4096]);

  await goTo(page, 'settings');
  await expect(page.getByTestId('adaptation')).toHaveText([/mock-model at .*: max_tokens raised to 4096 — finish_reason "length" with no answer after the whole budget of 400 tokens/]);
  await page.getByTestId('adaptations').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('settings-adapted.png') });
});

/** Chromium says "Failed to fetch" for a body it cannot decode, and CORS hides content-encoding
 * (the mock, like most servers, does not expose it): the page names the possible codings. */
test('a body labelled gzip that is not: the error names the codings, not only "Failed to fetch"', async ({ page }) => {
  mock.setOptions({ faults: [{ kind: 'encoding', coding: 'gzip', valid: false, role: 'actor' }] });
  await openView(page, 'settings');
  await configureProvider(page, { baseUrl: mock.baseUrl });
  await page.getByTestId('max-retries').fill('0');
  await goTo(page, 'agent');
  await startRun(page, { maxSteps: 3 });
  await expect(page.getByTestId('agent-error')).toContainText('labelled with a content-encoding (gzip, deflate or br) it is not really in', { timeout: 15_000 });
});
