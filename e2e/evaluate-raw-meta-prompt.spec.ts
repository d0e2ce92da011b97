/**
 * The Evaluate setup's "use the text as the whole system prompt (raw)" against the mock LLM: a
 * meta-prompt pasted into the user's library (as a user pastes a published prompt) and ticked raw
 * runs beside naive; the raw policy's meta-agent call has that text, byte for byte, as its system
 * message (no header, no footer) while the naive policy's keeps our header; the report names the
 * policy "(raw)", and its CSV and JSON exports record it as raw.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { META_PROMPT_HEADER } from '../src/agents/meta-prompt.ts';
import { startMockLlm, type MockLlm } from '../test/mock-llm/server.ts';
import { goToRunView, setNumber, setStoryRole, useMock } from './run-helpers.ts';

let mock: MockLlm;
test.beforeEach(async () => {
  mock = await startMockLlm({ exploreCommands: ['east', 'get all', 'west', 'north'] });
});
test.afterEach(async () => {
  await mock.close();
});

const PASTED = 'You are an AI Optimization Assistant. Read the log and write advice for the next attempt between <learn> and </learn>.';

async function download(page: Page, testid: string): Promise<string> {
  const downloading = page.waitForEvent('download');
  await page.getByTestId(testid).click();
  return readFileSync(await (await downloading).path(), 'utf8');
}

test('a library meta-prompt ticked raw is the whole system message of its meta-agent, recorded and shown as raw', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  // The user's own copy of a published prompt, with its own answer format.
  await page.goto('./?view=library');
  await expect(page.getByTestId('meta-library')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('meta-new').click();
  await page.getByTestId('meta-edit-name').fill('Pasted prompt');
  await page.getByTestId('meta-edit-description').fill('A published meta-prompt, word for word.');
  await page.getByTestId('meta-edit-strategy').fill(PASTED);
  await page.getByTestId('meta-save').click();
  await expect(page.getByTestId('meta-message')).toContainText('Saved “Pasted prompt”');
  await useMock(page, mock.baseUrl);
  await goToRunView(page, 'evaluate');
  const item = page.getByTestId('evaluate-policies').locator('li', { hasText: 'Pasted prompt' });
  const factId = (await item.getByTestId('evaluate-policy').getAttribute('value'))!;
  const ids = await page.getByTestId('evaluate-policy').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  // Only naive and the raw meta-prompt.
  for (const id of ids) {
    const box = page.locator(`[data-testid="evaluate-policy"][value="${id}"]`);
    if (id === 'naive' || id === factId) await box.check();
    else await box.uncheck();
  }
  await page.locator(`[data-testid="evaluate-policy-raw"][value="${factId}"]`).check();
  await setStoryRole(page, 'evaluate', 'advent', 'custom', '0');
  await setNumber(page, 'evaluate-repeats', 1);
  await setNumber(page, 'evaluate-episodes', 2);
  await setNumber(page, 'evaluate-steps', 3);
  await page.getByTestId('evaluate-start').click();
  await expect(page.getByTestId('evaluate-run')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });

  const systems = mock.requests
    .filter((r) => r.role !== 'actor' && r.body !== null && typeof r.body === 'object')
    .map((r) => (r.body as { messages: { role: string; content: string }[] }).messages[0]!)
    .filter((m) => m.role === 'system')
    .map((m) => m.content);
  // One meta-agent call per policy (K = 2: one reflection between the two episodes).
  expect(systems.filter((s) => s === PASTED)).toHaveLength(1);
  expect(systems.filter((s) => s.includes(META_PROMPT_HEADER.slice(0, 40)))).toHaveLength(1);

  await expect(page.locator(`[data-testid="result-row"][data-policy="${factId}"] [data-testid="result-policy"]`)).toHaveText(/\(raw\)$/);
  const csv = (await download(page, 'evaluate-export-csv')).trim().split('\n').map((l) => l.split(','));
  const col = csv[0]!.indexOf('raw_meta_prompt');
  expect(Object.fromEntries(csv.slice(1).map((l) => [l[0], l[col]]))).toEqual({ naive: 'false', [factId]: 'true' });
  const json = JSON.parse(await download(page, 'evaluate-export-json')) as { config: { policies: { id: string; spec: { raw?: boolean } }[] }; report: { policies: { policyId: string; rawMetaPrompt?: boolean }[] } };
  expect(json.config.policies.find((p) => p.id === factId)!.spec.raw).toBe(true);
  expect(json.report.policies.find((p) => p.policyId === factId)!.rawMetaPrompt).toBe(true);
  await page.getByTestId('result-row').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('evaluate-raw-results.png') });
});
